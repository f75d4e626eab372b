// KDEBackend.swift — KDE Plasma (KWin 5.27 and 6, Wayland and X11): a KWin script (KWinScript) loaded over the session bus calls this recorder back with the active window's resource class; the script is unloaded at the stop (a killed recorder's, by its name, at the next start), loaded again when KWin comes back; idle from KWin's Wayland idle protocol (ext-idle-notify-v1, else org_kde_kwin_idle) or the X server (XSync).
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// The KDE Plasma backend.
public final class KDEBackend: RecorderBackend {
    public let kind = BackendKind.kde
    private let bus: DBusConnection
    private let scriptPath: String
    private let idle: IdleSource?
    /// Kept open for idle on X11 (the X server's).
    private let display: XDisplay?
    private var idleMissing: String?
    /// KWin's unique name: only its calls are heard (another program on the bus cannot feed focus).
    private var kwin: String?
    /// What the bus's callbacks said since the recorder last asked, and the instant they are at.
    private var pending: [RecorderEvent] = []
    private var now: Micros = 0
    private var app: String?
    private var heard = false
    /// KWin came back (a new owner of its name): when to try loading the script into it next
    /// (monotonic), and until when; its scripting object appears a moment after its name.
    private var reloadAt: Micros?
    private var reloadUntil: Micros = 0
    private var stopped = false

    static let kwinName = "org.kde.KWin"
    static let noKWin = "KWin is not on the session bus (no org.kde.KWin): this is not a KDE Plasma session"
    /// How long the start waits for the script's first call.
    static let firstCall: Micros = 5_000_000
    /// How long a KWin that came back is given to offer its scripting, and how often it is asked.
    static let comeBack: Micros = 30_000_000
    static let retry: Micros = 250_000

    /// Why this backend cannot open in `environment` (one line), or nil when it can: the
    /// session bus reachable and KWin on it. Nothing is loaded.
    public static func probe(_ environment: [String: String]) -> String? {
        guard let address = Notifier.sessionBus(environment) else { return Notifier.noSessionBus }
        do {
            let bus = try DBusConnection.open(.address(address))
            defer { bus.close() }
            return try bus.owner(of: kwinName) == nil ? noKWin : nil
        } catch {
            return error.description
        }
    }

    /// Why the environment alone rules this backend out (one line), or nil: the KWin script is
    /// written under XDG_RUNTIME_DIR.
    static func declines(_ environment: [String: String]) -> String? {
        (environment["XDG_RUNTIME_DIR"] ?? "").isEmpty ? "XDG_RUNTIME_DIR is unset: the KWin script is written there, private to you" : nil
    }

    /// Connects to the session bus, loads the script into KWin and waits for its first call
    /// (what is in front now). Idle on Wayland from KWin's ext-idle-notify-v1 (5.27 and 6; else
    /// org_kde_kwin_idle, 5.26 and before), as a Wayland client of its own; on X11 from the X server.
    public init(environment: [String: String], idleThreshold: Micros, monotonic: Micros) throws(RecorderError) {
        if let reason = Self.declines(environment) { throw .notThatBackend(.kde, reason: reason) }
        let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
        scriptPath = KWinScript.path(runtimeDirectory: runtime, pid: getpid())
        guard let address = Notifier.sessionBus(environment) else { throw .notThatBackend(.kde, reason: Notifier.noSessionBus) }
        bus = try DBusConnection.open(.address(address))
        kwin = try bus.owner(of: Self.kwinName)
        guard kwin != nil else { throw .notThatBackend(.kde, reason: Self.noKWin) }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            display = nil
            switch WaylandIdle.open(display: wayland, threshold: idleThreshold) {
            case .success(let source):
                idle = source
            case .failure(let problem):
                idle = nil
                idleMissing = "no idle time (\(problem.reason)): every minute in front of the screen counts"
            }
        } else if let name = environment["DISPLAY"], !name.isEmpty {
            let x = try XDisplay(name)
            display = x
            if let alarms = AlarmIdle(display: x, threshold: idleThreshold, monotonic: monotonic, readsDisplay: true) {
                idle = alarms
            } else if x.hasIdle {
                idle = PolledIdle(threshold: idleThreshold, monotonic: monotonic) { x.idleMilliseconds() }
            } else {
                idle = nil
                idleMissing = "no idle time from the X server (XSync's IDLETIME, MIT-SCREEN-SAVER): every minute in front of the screen counts"
            }
        } else {
            display = nil
            idle = nil
            idleMissing = "neither WAYLAND_DISPLAY nor DISPLAY is set, so no idle time: every minute in front of the screen counts"
        }
        do {
            try listen()
            try loadScript()
            try waitForTheScript()
        } catch {
            stop()
            throw error
        }
    }

    /// The object the script calls, KWin's comings and goings.
    private func listen() throws(RecorderError) {
        try bus.export(path: KWinScript.objectPath) { [unowned self] call in
            guard call.interface == KWinScript.interface, call.member == KWinScript.method else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "usage-shell record answers only \(KWinScript.interface).\(KWinScript.method)")
            }
            guard call.sender != nil, call.sender == kwin else {
                return .error(name: "org.freedesktop.DBus.Error.AccessDenied", message: "only KWin tells usage-shell record what is in front")
            }
            guard call.values.count == 2, let resourceClass = call.values[0].stringValue, let pid = call.values[1].stringValue else {
                return .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "Focus takes (ss): the resource class and the process id")
            }
            heard(KWinScript.app(resourceClass: resourceClass, pid: pid))
            return .values([])
        }
        try bus.subscribe(
            rule: "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.kwinName)'"
        ) { [unowned self] signal in
            guard signal.values.count == 3, let owner = signal.values[2].stringValue else { return }
            kwin = owner.isEmpty ? nil : owner
            if owner.isEmpty {
                // KWin left: nothing is known to be in front until it comes back.
                pending.append(.focus(nil, at: now))
                app = nil
            } else {
                let monotonic = RecorderClock.monotonic()
                reloadAt = monotonic
                reloadUntil = monotonic + Self.comeBack
            }
        }
    }

    private func heard(_ newApp: String?) {
        app = newApp
        pending.append(.focus(newApp, at: now))
        if !heard {
            // KWin has read the file: it is not left in the runtime directory.
            heard = true
            unlink(scriptPath)
        }
    }

    /// Unloads a script of the same name (a killed recorder's), writes this recorder's and runs it.
    private func loadScript() throws(RecorderError) {
        heard = false
        _ = try? scripting("unloadScript", [.string(KWinScript.pluginName)])
        guard let text = KWinScript.text(recorder: bus.uniqueName) else {
            throw .dbus(what: "the session bus", reason: "gave this connection the name \(bus.uniqueName), which is not a unique name")
        }
        if let reason = KWinScript.write(text, to: scriptPath) {
            throw .notThatBackend(.kde, reason: "cannot write the KWin script \(scriptPath): \(reason)")
        }
        let loaded = try scripting("loadScript", [.string(scriptPath), .string(KWinScript.pluginName)])
        guard let number = loaded.first?.integerValue, number >= 0 else {
            throw .notThatBackend(.kde, reason: "KWin refused the script \(scriptPath) (loadScript answered \(loaded.first?.integerValue ?? -1))")
        }
        // KWin 6 puts the script's object at /Scripting/ScriptN, KWin 5 at /N.
        do {
            _ = try bus.call(destination: Self.kwinName, path: "/Scripting/Script\(number)", interface: "org.kde.kwin.Script", member: "run")
        } catch .dbusCall(_, let name, _) where name == "org.freedesktop.DBus.Error.UnknownObject" || name == "org.freedesktop.DBus.Error.UnknownMethod" {
            _ = try bus.call(destination: Self.kwinName, path: "/\(number)", interface: "org.kde.kwin.Script", member: "run")
        }
    }

    private func scripting(_ member: String, _ values: [DBusValue]) throws(RecorderError) -> [DBusValue] {
        try bus.call(destination: Self.kwinName, path: "/Scripting", interface: "org.kde.kwin.Scripting", member: member, values: values)
    }

    /// Runs the bus until the script's first call (what is in front when it starts).
    private func waitForTheScript() throws(RecorderError) {
        let end = RecorderClock.monotonic() + Self.firstCall
        while !heard {
            let left = end - RecorderClock.monotonic()
            guard left > 0 else {
                throw .notThatBackend(
                    .kde, reason: "KWin ran the script \(scriptPath) but it did not call back within \(Self.firstCall / 1_000_000) s (see KWin's log)")
            }
            var fds = [pollfd(fd: bus.fd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(min(left / 1000 + 1, 1000)))
            now = RecorderClock.wall()
            try bus.process()
        }
    }

    public var descriptors: [Int32] { [bus.fd] + (idle?.descriptors ?? []) }
    public var startWarnings: [String] { idleMissing.map { [$0] } ?? [] }
    public var idleSourceName: String { idle?.name ?? "none" }

    public func readable(_ fd: Int32, now: Micros) throws(RecorderError) -> [RecorderEvent] {
        guard fd == bus.fd else { return idle?.readable(fd, now: now) ?? [] }
        return try run(now: now)
    }

    /// What the bus holds (a call's wait may have read messages ahead), and the idle source's.
    public func beforeWait(now: Micros) -> [RecorderEvent] {
        let events = (try? run(now: now)) ?? []
        return events + (idle?.beforeWait(now: now) ?? [])
    }

    /// Processes the bus at `now`; what it said. KWin back after it left: the script again.
    private func run(now: Micros) throws(RecorderError) -> [RecorderEvent] {
        self.now = now
        do {
            try bus.process()
        } catch {
            throw .desktopEnded("the session bus closed: \(error)")
        }
        let monotonic = RecorderClock.monotonic()
        if let due = reloadAt, due <= monotonic {
            do {
                try loadScript()
                reloadAt = nil
            } catch {
                if monotonic + Self.retry < reloadUntil {
                    reloadAt = monotonic + Self.retry
                } else {
                    reloadAt = nil
                    pending.append(.warning("KWin came back but the recorder's script could not be loaded into it: \(error)"))
                }
            }
        }
        defer { pending = [] }
        return pending
    }

    public var deadline: Micros? { [bus.deadline, reloadAt, idle?.deadline].compactMap { $0 }.min() }

    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] {
        var events: [RecorderEvent] = []
        if let due = [bus.deadline, reloadAt].compactMap({ $0 }).min(), due <= monotonic { events += (try? run(now: now)) ?? [] }
        if let due = idle?.deadline, due <= monotonic { events += idle?.timer(now: now, monotonic: monotonic) ?? [] }
        return events
    }

    public func focused() throws(RecorderError) -> String? { app }
    public func idleMilliseconds() -> Int64? { idle?.idleMilliseconds() }

    /// Unloads the script (KWin forgets it: nothing calls a name that is gone) and ends idle.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? bus.call(
            destination: Self.kwinName, path: "/Scripting", interface: "org.kde.kwin.Scripting", member: "unloadScript",
            values: [.string(KWinScript.pluginName)], timeout: 1_000_000)
        unlink(scriptPath)
        idle?.stop()
        bus.close()
    }
}

extension BackendKind {
    public static let kde = BackendKind(rawValue: "kde")
}

extension KDEBackend {
    /// KWin's scripting over the session bus: whether KWin is there only the bus tells.
    static let entry = BackendEntry(
        kind: .kde, brief: "KWin, through a KWin script",
        claims: { desktop in desktop.isKDE ? .desktopName : nil },
        declines: { desktop, _ in declines(desktop.environment).map { .notThatBackend(.kde, reason: $0) } },
        opens: { desktop, _, idle throws(RecorderError) in
            try KDEBackend(environment: desktop.environment, idleThreshold: idle.threshold, monotonic: idle.monotonic)
        })
}
