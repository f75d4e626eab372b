// LockWatch.swift — the screen lock, for every backend: logind's LockedHint on this login session (the system bus: the session found by XDG_SESSION_ID, else this process's, else the user's graphical one; read at the start, then followed by PropertiesChanged, from logind's new connection too once it restarts), and the screen savers' ActiveChanged on the session bus (freedesktop's, GNOME's and its forks'); locked while either says so. Never stops the recorder: what it cannot see it says in one line.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// Where the lock comes from, and its changes as recorder events.
public final class LockWatch {
    /// The screen savers whose ActiveChanged(b) is followed: their bus name (also their
    /// interface) and the object their GetActive answers on.
    public static let screenSavers: [(name: String, path: String)] = [
        ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),  // KDE, Xfce, LXQt…
        ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"),  // GNOME Shell's screen shield
        ("org.cinnamon.ScreenSaver", "/org/cinnamon/ScreenSaver"),
        ("org.mate.ScreenSaver", "/org/mate/ScreenSaver"),
        ("org.xfce.ScreenSaver", "/org/xfce/ScreenSaver"),
    ]
    static let login1 = "org.freedesktop.login1"
    static let sessionInterface = "org.freedesktop.login1.Session"
    /// How long a call at the start may wait (logind and screen savers answer at once).
    static let timeout: Micros = 2_000_000

    private var system: DBusConnection?
    private var session: DBusConnection?
    /// logind's session object, its id and how it was found; or why logind is not followed.
    private var logind: (path: String, id: String, how: String)?
    private var logindProblem: String?
    private var sessionProblem: String?
    private var logindLocked = false
    /// The match of the session's PropertiesChanged from logind's current connection.
    private var logindSignals: DBusSubscription?
    /// Each screen saver's last ActiveChanged (by name), and those running at the start.
    private var saverActive: [String: Bool] = [:]
    private var saversRunning: [String] = []
    /// The instant events are stamped with (the wakeup's).
    private var now: Micros
    private var events: [RecorderEvent] = []
    private var reported = false

    /// Connects to the system and the session bus named by `environment` and reads the state now.
    public init(environment: [String: String], now: Micros) {
        self.now = now
        let systemBus = environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : DBusBus.address($0) } ?? .system
        do throws(RecorderError) {
            let bus = try DBusConnection.open(systemBus)
            system = bus
            try followLogind(bus, environment: environment)
        } catch {
            // No logind on the bus (a container, a system without systemd-logind): said so plainly.
            if case .dbusCall(_, let name, _) = error,
                ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"].contains(name)
            {
                logindProblem = "no \(Self.login1) on \(systemBus.name)"
            } else {
                logindProblem = error.description
            }
            system = nil
        }
        if let address = Notifier.sessionBus(environment) {
            do throws(RecorderError) {
                let bus = try DBusConnection.open(.address(address))
                session = bus
                try followScreenSavers(bus)
            } catch {
                sessionProblem = error.description
                session = nil
            }
        } else {
            sessionProblem = Notifier.noSessionBus
        }
        report()
    }

    /// Whether the screen is locked now, as far as it can tell.
    public var locked: Bool { logindLocked || saverActive.values.contains(true) }

    /// Whether anything is followed.
    public var sees: Bool { logind != nil || session != nil }

    public var descriptors: [Int32] { [system, session].compactMap { $0?.fd } }

    /// What the buses hold already (a call's wait reads ahead), and the state at the start.
    public func beforeWait(now: Micros) -> [RecorderEvent] {
        self.now = now
        return drain(nil)
    }

    /// What arrived on `fd`.
    public func readable(_ fd: Int32, now: Micros) -> [RecorderEvent] {
        self.now = now
        return drain(fd)
    }

    public func stop() {
        system?.close()
        session?.close()
        system = nil
        session = nil
    }

    /// What `record --once` says: where the lock comes from, or why it is not seen.
    public var lines: [String] {
        guard sees else { return ["lock: not seen, a locked screen counts as use until idle (\(whyNotSeen))"] }
        var out: [String] = []
        if let logind {
            out.append("lock: logind's LockedHint of session \(logind.id) (\(logind.how)), \(logindLocked ? "locked" : "not locked") now")
        } else {
            out.append("lock: logind not seen (\(logindProblem ?? "?"))")
        }
        if session != nil {
            let running = saversRunning.isEmpty
                ? "none runs now"
                : saversRunning.map { $0 + (saverActive[$0] == true ? " active" : " not active") }.joined(separator: ", ") + " now"
            out.append("lock: the screen savers' ActiveChanged on the session bus (\(running))")
        } else {
            out.append("lock: screen savers not seen (\(sessionProblem ?? "?"))")
        }
        return out
    }

    /// In a few words, for the recorder's first line.
    public var source: String {
        switch (logind != nil, session != nil) {
        case (true, true): "lock from logind and the screen savers"
        case (true, false): "lock from logind"
        case (false, true): "lock from the screen savers"
        case (false, false): "lock not seen"
        }
    }

    /// What the recorder says once at its start: nothing, unless the lock cannot be seen at all.
    public var startWarnings: [String] {
        sees ? [] : ["the screen lock is not seen (\(whyNotSeen)): a locked screen counts as use until idle"]
    }

    /// Why neither source is followed (once, when it is the same reason: libsystemd missing).
    private var whyNotSeen: String {
        let logind = logindProblem ?? "?", savers = sessionProblem ?? "?"
        return logind == savers ? logind : "logind: \(logind); screen savers: \(savers)"
    }

    /// Processes the buses (`fd`'s, or both), the events their messages made.
    private func drain(_ fd: Int32?) -> [RecorderEvent] {
        for (bus, isSystem) in [(system, true), (session, false)] {
            guard let bus, fd == nil || bus.fd == fd else { continue }
            do throws(RecorderError) {
                try bus.process()
            } catch {
                // The bus went away: what it said no longer holds.
                let warning = "the screen lock is no longer seen on \(isSystem ? "the system bus" : "the session bus"): \(error)"
                bus.close()
                if isSystem {
                    system = nil
                    logind = nil
                    logindProblem = error.description
                    logindLocked = false
                } else {
                    session = nil
                    sessionProblem = error.description
                    saverActive = [:]
                }
                report()
                events.append(.warning(warning))
            }
        }
        defer { events = [] }
        return events
    }

    /// A change of the combined state becomes an event, stamped with the wakeup's instant.
    private func report() {
        guard locked != reported else { return }
        reported = locked
        events.append(locked ? .locked(at: now) : .unlocked(at: now))
    }

    // MARK: logind

    private func followLogind(_ bus: DBusConnection, environment: [String: String]) throws(RecorderError) {
        let (path, how) = try Self.findSession(bus, environment: environment)
        let owner = try bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner",
            values: [.string(Self.login1)], timeout: Self.timeout
        ).first?.stringValue ?? Self.login1
        logindSignals = try followSession(bus, path: path, owner: owner)
        // logind restarted (a package upgrade restarts it): its new connection is believed from
        // then on, and LockedHint read again. logind does not keep the hint across a restart (its
        // session files hold no LockedHint): a screen locked then reads as unlocked until the
        // desktop sets the hint again, and idle still ends the session meanwhile. Keeping
        // "locked" instead could last for ever: an unlock's SetLockedHint(false) then changes
        // nothing in logind, which sends no signal.
        try bus.subscribe(
            rule: "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.login1)'"
        ) { [unowned self] message in
            guard message.values.count == 3, let owner = message.values[2].stringValue, !owner.isEmpty else { return }
            logindRestarted(as: owner)
        }
        let id = (try? bus.getProperty(destination: Self.login1, path: path, interface: Self.sessionInterface, name: "Id", timeout: Self.timeout))?
            .stringValue ?? String(path.split(separator: "/").last ?? "")
        let hint = try bus.getProperty(destination: Self.login1, path: path, interface: Self.sessionInterface, name: "LockedHint", timeout: Self.timeout)
        guard let locked = hint.boolValue else {
            throw .dbusCall(method: "\(Self.sessionInterface).LockedHint on \(Self.login1)", name: "", message: "not a boolean: \(hint.signature)")
        }
        logindLocked = locked
        logind = (path, id, how)
    }

    /// The session's PropertiesChanged from logind's connection `owner` (only logind's own
    /// connection is believed).
    private func followSession(_ bus: DBusConnection, path: String, owner: String) throws(RecorderError) -> DBusSubscription {
        try bus.subscribe(
            rule: "type='signal',sender='\(owner)',path='\(path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(Self.sessionInterface)'"
        ) { [unowned self] message in
            propertiesChanged(message)
        }
    }

    /// logind's name has a new owner: the session followed from it, its LockedHint read now
    /// (what the new logind says, false after a restart until the desktop sets it).
    private func logindRestarted(as owner: String) {
        guard let logind, let bus = system else { return }
        if let old = logindSignals { bus.cancel(old) }
        logindSignals = try? followSession(bus, path: logind.path, owner: owner)
        if let value = try? bus.getProperty(destination: owner, path: logind.path, interface: Self.sessionInterface, name: "LockedHint", timeout: Self.timeout)
            .boolValue
        {
            logindLocked = value
            report()
        }
    }

    /// This login session's object: XDG_SESSION_ID's, else this process's, else (the recorder
    /// runs under the user's systemd, outside any session) the user's graphical session.
    static func findSession(_ bus: DBusConnection, environment: [String: String]) throws(RecorderError) -> (path: String, how: String) {
        func manager(_ member: String, _ values: [DBusValue]) throws(RecorderError) -> String? {
            try bus.call(
                destination: login1, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager", member: member, values: values,
                timeout: timeout
            ).first?.stringValue
        }
        var refused: RecorderError?
        if let id = environment["XDG_SESSION_ID"], !id.isEmpty {
            do throws(RecorderError) {
                if let path = try manager("GetSession", [.string(id)]) { return (path, "XDG_SESSION_ID") }
            } catch {
                refused = error
            }
        }
        do throws(RecorderError) {
            if let path = try manager("GetSessionByPID", [.uint32(UInt32(getpid()))]) { return (path, "this process's session") }
        } catch {
            // Another failure than "not in a session" (logind absent, refused): said as it is.
            guard case .dbusCall(_, "org.freedesktop.login1.NoSessionForPID", _) = error else { throw refused ?? error }
        }
        guard let user = try manager("GetUser", [.uint32(getuid())]) else { throw refused ?? .dbusCall(method: "GetUser", name: "", message: "no answer") }
        let display = try bus.getProperty(destination: login1, path: user, interface: "org.freedesktop.login1.User", name: "Display", timeout: timeout)
        guard let fields = display.elements, fields.count == 2, let id = fields[0].stringValue, !id.isEmpty, let path = fields[1].stringValue else {
            throw refused ?? .dbus(what: "logind", reason: "this process is in no login session and user \(getuid()) has no graphical one")
        }
        return (path, "the user's graphical session")
    }

    /// PropertiesChanged(interface, changed, invalidated) of the session: LockedHint's new value,
    /// or read again when only invalidated.
    private func propertiesChanged(_ message: DBusMessage) {
        guard message.values.count == 3, let logind, let bus = system else { return }
        if let value = message.values[1]["LockedHint"]?.boolValue {
            logindLocked = value
        } else if message.values[2].elements?.contains(.string("LockedHint")) == true,
            let value = try? bus.getProperty(destination: Self.login1, path: logind.path, interface: Self.sessionInterface, name: "LockedHint", timeout: Self.timeout)
                .boolValue
        {
            logindLocked = value
        } else {
            return
        }
        report()
    }

    // MARK: Screen savers

    private func followScreenSavers(_ bus: DBusConnection) throws(RecorderError) {
        for (name, path) in Self.screenSavers {
            try bus.subscribe(rule: "type='signal',interface='\(name)',member='ActiveChanged'") { [unowned self] message in
                guard let active = message.values.first?.boolValue, message.values.count == 1 else { return }
                saverActive[name] = active
                report()
            }
            // A screen saver that ends is no longer active (else a crash while active would be a lock for ever).
            try bus.subscribe(
                rule: "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
            ) { [unowned self] message in
                guard message.values.count == 3, message.values[2].stringValue == "" else { return }
                saverActive[name] = nil
                report()
            }
            let running = try bus.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameHasOwner",
                values: [.string(name)], timeout: Self.timeout)
            guard running == [.bool(true)] else { continue }
            saversRunning.append(name)
            // Its state now; a service that owns the name but has no GetActive (GNOME's inhibit proxy) says nothing.
            if let active = (try? bus.call(destination: name, path: path, interface: name, member: "GetActive", timeout: Self.timeout))?.first?.boolValue {
                saverActive[name] = active
            }
        }
    }
}
