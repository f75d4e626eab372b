// LockWatchTests.swift — the screen lock's source against real buses of the test's own: a dbus-daemon as the system bus with the login1 stub (Tests/Recorder/login1_stub.py), another as the session bus with screen saver stubs; how the session is found (XDG_SESSION_ID, this process, the user's graphical session), LockedHint read at the start and followed (its value, or only invalidated), ActiveChanged, a screen saver that ends, and what record --once says when nothing can be seen. The recorder's own run is in Tests/Recorder/lock_cases.py; logind restarted, followed again.
import Foundation
import Testing
import UsageCore
import UsageRecorder

private let sessionPath = "/org/freedesktop/login1/session/c1"

/// A system bus with the login1 stub (in `modes`), and a session bus.
private final class LockDesktop {
    let system: PrivateBus
    let session: PrivateBus
    /// A connection of the test's own to each, to drive the stubs.
    let systemControl: DBusConnection
    let sessionControl: DBusConnection

    init(login1 modes: [String]?) throws {
        system = try PrivateBus()
        session = try PrivateBus()
        systemControl = try DBusConnection.open(.address(system.address))
        sessionControl = try DBusConnection.open(.address(session.address))
        if let modes { try system.stub("login1_stub.py", modes, owning: "org.freedesktop.login1", connection: systemControl) }
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": system.address, "DBUS_SESSION_BUS_ADDRESS": session.address].merging(extra) { $1 }
    }

    func setLockedHint(_ locked: Bool, invalidated: Bool = false) throws {
        _ = try systemControl.call(
            destination: "org.freedesktop.login1", path: sessionPath, interface: "org.freedesktop.login1.Session",
            member: invalidated ? "Invalidate" : "SetLockedHint", values: [.bool(locked)])
    }

    func screenSaver(_ name: String, active: Bool) throws {
        _ = try sessionControl.call(destination: name, path: "/" + name.replacingOccurrences(of: ".", with: "/"), interface: name, member: "SetActive", values: [.bool(active)])
    }
}

/// Waits on the watch's descriptors until it gives events (or `timeout` s): those events.
private func events(_ watch: LockWatch, timeout: Double = 10) -> [RecorderEvent] {
    let end = Date().addingTimeInterval(timeout)
    var out = watch.beforeWait(now: 2)
    while out.isEmpty, Date() < end {
        var fds = watch.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 50)
        for entry in fds where entry.revents != 0 { out += watch.readable(entry.fd, now: 2) }
    }
    return out
}

struct LockWatchTests {
    @Test func logindsLockedHintOfXdgSessionIdIsFollowed() throws {
        let desktop = try LockDesktop(login1: [])
        let watch = LockWatch(environment: desktop.environment(["XDG_SESSION_ID": "c1"]), now: 0)
        #expect(watch.lines == [
            "lock: logind's LockedHint of session c1 (XDG_SESSION_ID), not locked now",
            "lock: the screen savers' ActiveChanged on the session bus (none runs now)",
        ])
        #expect(watch.source == "lock from logind and the screen savers" && watch.startWarnings == [])
        #expect(watch.beforeWait(now: 0) == [])
        try desktop.setLockedHint(true)
        #expect(events(watch) == [.locked(at: 2)])
        #expect(watch.locked)
        try desktop.setLockedHint(false)
        #expect(events(watch) == [.unlocked(at: 2)])
        // A PropertiesChanged that only invalidates LockedHint: read again.
        try desktop.setLockedHint(true, invalidated: true)
        #expect(events(watch) == [.locked(at: 2)])
        // The same value again is no change.
        try desktop.setLockedHint(true)
        #expect(events(watch, timeout: 0.5) == [])
    }

    /// Bug: the PropertiesChanged match named logind's connection at the start, so once logind
    /// restarted (a package upgrade restarts it) a lock went unseen until the recorder did. A
    /// restarted logind has forgotten the hint (its session files do not hold it): locked
    /// before the restart reads as unlocked after it, until the desktop sets it again.
    @Test func bugLogindRestartedWasNoLongerFollowed() throws {
        let desktop = try LockDesktop(login1: nil)
        let first = try desktop.system.stub("login1_stub.py", [], owning: "org.freedesktop.login1", connection: desktop.systemControl)
        let watch = LockWatch(environment: desktop.environment(["XDG_SESSION_ID": "c1"]), now: 0)
        #expect(watch.lines.first == "lock: logind's LockedHint of session c1 (XDG_SESSION_ID), not locked now")
        try desktop.setLockedHint(true)
        #expect(events(watch) == [.locked(at: 2)])
        first.stop()
        let second = try desktop.system.stub("login1_stub.py", [], owning: "org.freedesktop.login1", connection: desktop.systemControl)
        defer { second.stop() }
        #expect(events(watch) == [.unlocked(at: 2)], "what the new logind says")
        try desktop.setLockedHint(true)
        #expect(events(watch) == [.locked(at: 2)])
        try desktop.setLockedHint(false)
        #expect(events(watch) == [.unlocked(at: 2)])
    }

    @Test func withoutXdgSessionIdThisProcessesSessionThenTheUsersGraphicalOne() throws {
        let byPID = try LockDesktop(login1: ["pid", "locked"])
        let watch = LockWatch(environment: byPID.environment(), now: 7)
        #expect(watch.lines.first == "lock: logind's LockedHint of session c1 (this process's session), locked now")
        // Locked at the start: said at the first wait, at the start's instant.
        #expect(watch.beforeWait(now: 9) == [.locked(at: 7)])
        let byDisplay = try LockDesktop(login1: ["display"])
        #expect(LockWatch(environment: byDisplay.environment(), now: 0).lines.first == "lock: logind's LockedHint of session c1 (the user's graphical session), not locked now")
        // An unknown XDG_SESSION_ID falls back the same way.
        #expect(LockWatch(environment: byDisplay.environment(["XDG_SESSION_ID": "c9"]), now: 0).lines.first
            == "lock: logind's LockedHint of session c1 (the user's graphical session), not locked now")
    }

    @Test func noSessionAtAllIsSaidAndTheScreenSaversStillCount() throws {
        let desktop = try LockDesktop(login1: [])
        let watch = LockWatch(environment: desktop.environment(), now: 0)
        #expect(watch.lines == [
            "lock: logind not seen (D-Bus, logind: this process is in no login session and user \(getuid()) has no graphical one)",
            "lock: the screen savers' ActiveChanged on the session bus (none runs now)",
        ])
        let refused = LockWatch(environment: desktop.environment(["XDG_SESSION_ID": "c9"]), now: 0)
        #expect(refused.lines.first
            == "lock: logind not seen (D-Bus call org.freedesktop.login1.Manager.GetSession on org.freedesktop.login1: org.freedesktop.login1.NoSuchSession: No session 'c9' known)")
        #expect(watch.source == "lock from the screen savers")
    }

    @Test func screenSaversActiveChangedLocksAndOneThatEndsUnlocks() throws {
        let desktop = try LockDesktop(login1: nil)
        let gnome = try desktop.session.stub("screensaver_stub.py", ["org.gnome.ScreenSaver"], owning: "org.gnome.ScreenSaver", connection: desktop.sessionControl)
        try desktop.session.stub("screensaver_stub.py", ["org.freedesktop.ScreenSaver", "active"], owning: "org.freedesktop.ScreenSaver", connection: desktop.sessionControl)
        let watch = LockWatch(environment: desktop.environment(), now: 3)
        #expect(watch.lines == [
            "lock: logind not seen (no org.freedesktop.login1 on the bus at \(desktop.system.address))",
            "lock: the screen savers' ActiveChanged on the session bus (org.freedesktop.ScreenSaver active, org.gnome.ScreenSaver not active now)",
        ])
        #expect(watch.beforeWait(now: 4) == [.locked(at: 3)])
        try desktop.screenSaver("org.freedesktop.ScreenSaver", active: false)
        #expect(events(watch) == [.unlocked(at: 2)])
        try desktop.screenSaver("org.gnome.ScreenSaver", active: true)
        #expect(events(watch) == [.locked(at: 2)])
        // GNOME's screen saver ends while active: no longer locked.
        gnome.stop()
        #expect(events(watch) == [.unlocked(at: 2)])
    }

    @Test func bothSaidLockedIsOneLockUntilBothSayUnlocked() throws {
        let desktop = try LockDesktop(login1: ["pid"])
        try desktop.session.stub("screensaver_stub.py", ["org.freedesktop.ScreenSaver"], owning: "org.freedesktop.ScreenSaver", connection: desktop.sessionControl)
        let watch = LockWatch(environment: desktop.environment(), now: 0)
        try desktop.setLockedHint(true)
        #expect(events(watch) == [.locked(at: 2)])
        try desktop.screenSaver("org.freedesktop.ScreenSaver", active: true)
        #expect(events(watch, timeout: 0.5) == [])
        try desktop.setLockedHint(false)
        #expect(events(watch, timeout: 0.5) == [])
        try desktop.screenSaver("org.freedesktop.ScreenSaver", active: false)
        #expect(events(watch) == [.unlocked(at: 2)])
    }

    @Test func noBusAtAllIsSaidInOneLineAndRecordingGoesOn() {
        let watch = LockWatch(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"], now: 0)
        let why = "logind: cannot connect to the bus at unix:path=/nonexistent/system_bus_socket: No such file or directory; screen savers: "
            + "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)"
        #expect(watch.lines == ["lock: not seen, a locked screen counts as use until idle (\(why))"])
        #expect(watch.startWarnings == ["the screen lock is not seen (\(why)): a locked screen counts as use until idle"])
        #expect(watch.source == "lock not seen" && watch.descriptors == [] && watch.beforeWait(now: 0) == [])
    }
}
