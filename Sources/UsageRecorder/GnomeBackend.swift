// GnomeBackend.swift — GNOME Shell 43 and later, Wayland and X11: the focused app from the project's own shell extension (org.usageshell.Focus on the session bus: FocusChanged signals, Current on request), idle from Mutter's idle monitor (an idle watch at the threshold, a one-shot user-active watch while idle: told, not polled); a missing or disabled extension said in one line with how to enable it.
import UsageCore

/// The GNOME backend.
public final class GnomeBackend: RecorderBackend {
    /// The extension's UUID (its folder under `share/gnome-shell/extensions`).
    public static let uuid = "usage-shell-record@usage-shell"
    static let focusName = "org.usageshell.Focus"
    static let focusPath = "/org/usageshell/Focus"
    static let idleName = "org.gnome.Mutter.IdleMonitor"
    static let idlePath = "/org/gnome/Mutter/IdleMonitor/Core"

    public let kind = BackendKind.gnome
    private let bus: DBusConnection
    private let thresholdMs: UInt64
    /// What the bus's signals said since the last look, stamped when they are handed over.
    private var heard: [Heard] = []
    private var idleWatch: UInt32?
    private var activeWatch: UInt32?
    private var idleProblem: String?

    private enum Heard {
        case focus(String)
        case watch(UInt32)
        case extensionGone
        case extensionBack
    }

    /// Connects to the session bus; refuses when the extension is not there (the reason says
    /// how to enable it).
    public init(idleThreshold: Micros, monotonic: Micros) throws(RecorderError) {
        do {
            bus = try DBusConnection.open(.session)
        } catch {
            throw .notThatBackend(.gnome, reason: "the session bus cannot be reached (\(error.description))")
        }
        thresholdMs = UInt64(max(1, idleThreshold / 1000))
        if !(try Self.hasOwner(bus, Self.focusName)) {
            let reason = Self.extensionProblem(bus)
            bus.close()
            throw .notThatBackend(.gnome, reason: reason)
        }
        // The extension runs inside GNOME Shell, on its connection: a name owned by another
        // program (one that took it first) is not heard.
        if let problem = Self.impostor(bus) {
            bus.close()
            throw .notThatBackend(.gnome, reason: problem)
        }
        do throws(RecorderError) {
            try bus.subscribe(
                rule: "type='signal',sender='\(Self.focusName)',path='\(Self.focusPath)',interface='org.usageshell.Focus',member='FocusChanged'"
            ) { [unowned self] message in
                if let app = message.values.first?.stringValue { heard.append(.focus(app)) }
            }
            try bus.subscribe(
                rule: "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.focusName)'"
            ) { [unowned self] message in
                let owner = message.values.count == 3 ? message.values[2].stringValue ?? "" : ""
                heard.append(owner.isEmpty ? .extensionGone : .extensionBack)
            }
        } catch {
            bus.close()
            throw .notThatBackend(.gnome, reason: error.description)
        }
        watchIdle()
    }

    /// Mutter's idle watch at the threshold; without it, idle is not seen (said once).
    private func watchIdle() {
        do throws(RecorderError) {
            try bus.subscribe(rule: "type='signal',path='\(Self.idlePath)',interface='\(Self.idleName)',member='WatchFired'") { [unowned self] message in
                if case .uint32(let id)? = message.values.first { heard.append(.watch(id)) }
            }
            let reply = try bus.call(
                destination: Self.idleName, path: Self.idlePath, interface: Self.idleName, member: "AddIdleWatch", values: [.uint64(thresholdMs)])
            guard case .uint32(let id)? = reply.first else { throw .dbusCall(method: "AddIdleWatch", name: "", message: "no watch number in its answer") }
            idleWatch = id
            // Idle already (the watch fires only as idle time crosses the threshold): as if it had fired.
            if let ms = idleMilliseconds(), UInt64(ms) >= thresholdMs { heard.append(.watch(id)) }
        } catch {
            idleProblem = "Mutter's idle monitor cannot be watched (\(error.description)): every minute in front of the screen counts"
        }
    }

    /// Whether `name` has an owner on `bus`.
    static func hasOwner(_ bus: DBusConnection, _ name: String) throws(RecorderError) -> Bool {
        do {
            return try bus.owner(of: name) != nil
        } catch {
            throw .notThatBackend(.gnome, reason: "the session bus does not answer (\(error.description))")
        }
    }

    /// Why the owner of the extension's name is not GNOME Shell (nil: it is).
    static func impostor(_ bus: DBusConnection) -> String? {
        guard let focus = try? bus.owner(of: focusName) else { return "the usage-shell extension left the bus as the recorder started" }
        return focus == (try? bus.owner(of: "org.gnome.Shell")) ? nil : "\(focusName) is owned by another program than GNOME Shell (\(focus)): it is not the usage-shell extension"
    }

    /// The extension's state as GNOME Shell tells it (ExtensionState: 1 enabled, 2 disabled,
    /// 3 error, 4 out of date, 6 initialized); nil when the shell does not know it (not
    /// installed, or installed since the login under Wayland).
    static func extensionState(_ bus: DBusConnection) -> Int? {
        let info = try? bus.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions", member: "GetExtensionInfo",
            values: [.string(uuid)])
        return info?.first?["state"].flatMap { $0.doubleValue ?? $0.integerValue.map(Double.init) }.map(Int.init)
    }

    /// Why the extension's name is not on the bus, as GNOME Shell tells its state, with what to do.
    static func extensionProblem(_ bus: DBusConnection, then enable: String = "gnome-extensions enable \(uuid)") -> String {
        guard (try? hasOwner(bus, "org.gnome.Shell")) == true else {
            return "GNOME Shell is not on this session bus (is this a GNOME session? DBUS_SESSION_BUS_ADDRESS must be the session's)"
        }
        switch extensionState(bus) {
        case nil:
            return "the usage-shell GNOME Shell extension is not installed, or was installed since this login: scripts/install puts it in share/gnome-shell/extensions; "
                + "then log out and in (GNOME on Wayland finds a new extension at login) and run \(enable)"
        case 1?:
            return "the usage-shell extension is enabled but has not taken its bus name \(focusName): see gnome-extensions info \(uuid)"
        case 3?:
            return "the usage-shell extension failed to start in GNOME Shell: gnome-extensions info \(uuid) says why"
        case 4?:
            let version = (try? bus.getProperty(destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell", name: "ShellVersion"))?.stringValue
            return "the usage-shell extension does not list this GNOME Shell\(version.map { " (" + $0 + ")" } ?? "") among the versions it is made for (scripts/install picks the edition by gnome-shell --version)"
        default:
            return "the usage-shell extension is installed but not enabled: run \(enable)"
        }
    }

    public var descriptors: [Int32] { [bus.fd] }

    public func readable(_ fd: Int32, now: Micros) throws(RecorderError) -> [RecorderEvent] {
        do {
            try bus.process()
        } catch {
            throw .desktopEnded("the session bus closed")
        }
        return take(now: now)
    }

    /// A call's wait may have read signals ahead: they are handled before every wait.
    public func beforeWait(now: Micros) -> [RecorderEvent] {
        try? bus.process()
        return take(now: now)
    }

    /// What was heard, as events at `now`.
    private func take(now: Micros) -> [RecorderEvent] {
        var out: [RecorderEvent] = []
        while !heard.isEmpty {
            let next = heard.removeFirst()
            switch next {
            case .focus(let app):
                out.append(.focus(Self.name(app), at: now))
            case .watch(let id) where id == idleWatch:
                // Idle since the last input: now less the idle time Mutter counts (else the threshold).
                let idle = idleMilliseconds().map { Micros($0) * 1000 } ?? Micros(thresholdMs) * 1000
                out.append(.idle(since: now - idle))
                addActiveWatch(now: now, into: &out)
            case .watch(let id) where id == activeWatch:
                activeWatch = nil
                out.append(.resume(at: now))
            case .watch:
                break
            case .extensionGone:
                out.append(.warning("the usage-shell GNOME Shell extension left the bus (disabled, or the shell restarted): nothing is recorded until it is back"))
                out.append(.focus(nil, at: now))
            case .extensionBack:
                out.append(.focus(try? focused(), at: now))
            }
        }
        return out
    }

    /// The one-shot watch of the next input, while idle; input that came before it was made
    /// (the idle time is short again) is a return at once.
    private func addActiveWatch(now: Micros, into out: inout [RecorderEvent]) {
        guard
            case .uint32(let id)? = try? bus.call(
                destination: Self.idleName, path: Self.idlePath, interface: Self.idleName, member: "AddUserActiveWatch"
            ).first
        else { return }
        activeWatch = id
        if let ms = idleMilliseconds(), UInt64(ms) < thresholdMs {
            _ = try? bus.call(destination: Self.idleName, path: Self.idlePath, interface: Self.idleName, member: "RemoveWatch", values: [.uint32(id)])
            activeWatch = nil
            out.append(.resume(at: now - Micros(ms) * 1000))
        }
    }

    /// An app id as the extension sends it, repaired and capped as every backend's; "" is none.
    static func name(_ app: String) -> String? {
        AppName.capped(app)
    }

    public var deadline: Micros? { nil }
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] { [] }

    public func focused() throws(RecorderError) -> String? {
        do {
            let reply = try bus.call(destination: Self.focusName, path: Self.focusPath, interface: "org.usageshell.Focus", member: "Current")
            return reply.first?.stringValue.flatMap(Self.name)
        } catch {
            throw .notThatBackend(.gnome, reason: "the usage-shell extension does not answer (\(error.description))")
        }
    }

    public func idleMilliseconds() -> Int64? {
        guard idleProblem == nil,
            let reply = try? bus.call(destination: Self.idleName, path: Self.idlePath, interface: Self.idleName, member: "GetIdletime"),
            case .uint64(let ms)? = reply.first
        else { return nil }
        return Int64(clamping: ms)
    }

    public var idleSourceName: String { idleProblem == nil ? "Mutter's idle monitor" : "none (Mutter's idle monitor does not answer)" }
    public var startWarnings: [String] { idleProblem.map { [$0] } ?? [] }

    public func stop() {
        for id in [idleWatch, activeWatch].compactMap({ $0 }) {
            _ = try? bus.call(destination: Self.idleName, path: Self.idlePath, interface: Self.idleName, member: "RemoveWatch", values: [.uint32(id)])
        }
        bus.close()
    }
}

extension BackendKind {
    public static let gnome = BackendKind(rawValue: "gnome")
}

extension GnomeBackend {
    /// GNOME Shell with the extension; away from GNOME it declines without touching the bus, unless forced.
    static let entry = BackendEntry(
        kind: .gnome, brief: "GNOME Shell 43 and later with the usage-shell extension",
        claims: { desktop in desktop.isGNOME ? .desktopName : nil },
        declines: { desktop, forced in
            !forced && !desktop.isGNOME ? .notThatBackend(.gnome, reason: "not a GNOME session (\(desktop.named))") : nil
        },
        opens: { desktop, _, idle throws(RecorderError) in
            guard Notifier.sessionBus(desktop.environment) != nil else { throw .notThatBackend(.gnome, reason: Notifier.noSessionBus) }
            return try GnomeBackend(idleThreshold: idle.threshold, monotonic: idle.monotonic)
        })
}
