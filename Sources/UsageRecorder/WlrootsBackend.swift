// WlrootsBackend.swift — wlroots compositors (sway, Hyprland, river, labwc, niri, Wayfire) as a Wayland client: zwlr_foreign_toplevel_manager_v1's toplevels followed by their events (no polling), the activated one's app_id as the app (never its title); idle from ext-idle-notify-v1, else org_kde_kwin_idle (sway 1.7), both honouring idle inhibitors; and the probe saying in one line why it cannot open.
import UsageCore

/// The wlroots backend.
public final class WlrootsBackend: RecorderBackend {
    public let kind = BackendKind.wlroots
    private let connection: WaylandConnection
    private var reading: WlrootsReading
    /// Idle events a roundtrip read outside `readable` (in `focused`), handed over before the next wait.
    private var held: [RecorderEvent] = []

    /// Connects to the compositor WAYLAND_DISPLAY names, binds its toplevel manager and an idle
    /// notification after `idleThreshold`, and reads every toplevel's state.
    public init(environment: [String: String], idleThreshold: Micros) throws(RecorderError) {
        let connection: WaylandConnection
        switch Self.connect(environment) {
        case .failure(let problem): throw .notThatBackend(.wlroots, reason: problem.reason)
        case .success(let opened): connection = opened
        }
        let milliseconds = UInt32(clamping: max(1000, idleThreshold / 1000))
        guard connection.start(idleMilliseconds: milliseconds) else {
            throw .notThatBackend(.wlroots, reason: "the compositor ended the connection while its windows were listed")
        }
        self.connection = connection
        reading = WlrootsReading(idleThreshold: idleThreshold)
        held = try reading.take(connection.events(), now: RecorderClock.wall()).filter { if case .focus = $0 { false } else { true } }
    }

    /// Nil when the backend can open in `environment`, else one line why not (no Wayland
    /// display, libwayland-client missing, a compositor without the toplevel protocol).
    public static func probe(_ environment: [String: String]) -> String? {
        switch connect(environment) {
        case .failure(let problem): return problem.reason
        case .success: return nil
        }
    }

    /// Why the environment alone rules this backend out (one line), or nil: no Wayland display,
    /// or a display's name without the folder it is in.
    static func declines(_ environment: [String: String]) -> String? {
        let display = environment["WAYLAND_DISPLAY"] ?? ""
        if display.isEmpty { return "WAYLAND_DISPLAY is unset (not a Wayland session)" }
        if !display.hasPrefix("/"), (environment["XDG_RUNTIME_DIR"] ?? "").isEmpty {
            return "XDG_RUNTIME_DIR is unset, so the Wayland socket \(display) cannot be found"
        }
        return nil
    }

    struct Problem: Error {
        let reason: String
    }

    /// A connection to a compositor that offers zwlr_foreign_toplevel_manager_v1, or why none.
    private static func connect(_ environment: [String: String]) -> Result<WaylandConnection, Problem> {
        if let reason = declines(environment) { return .failure(Problem(reason: reason)) }
        let display = environment["WAYLAND_DISPLAY"] ?? ""
        if let problem = WaylandConnection.libraryProblem() { return .failure(Problem(reason: problem)) }
        guard let connection = WaylandConnection(display: display) else {
            return .failure(Problem(reason: "cannot connect to the Wayland display \(display)"))
        }
        guard connection.version(of: WaylandConnection.toplevelManager) != nil else {
            let desktop = environment["XDG_CURRENT_DESKTOP"].flatMap { $0.isEmpty ? nil : $0 } ?? "this compositor"
            return .failure(
                Problem(reason: "\(desktop) offers no \(WaylandConnection.toplevelManager): it lists its windows to no client (GNOME and KDE have backends of their own)"))
        }
        return .success(connection)
    }

    public var descriptors: [Int32] { [connection.descriptor] }

    public func readable(_ fd: Int32, now: Micros) throws(RecorderError) -> [RecorderEvent] {
        guard connection.read() else { throw .desktopEnded("the Wayland compositor closed the connection") }
        return try reading.take(connection.events(), now: now)
    }

    /// What was asked is sent before every wait (libwayland buffers requests).
    public func beforeWait(now: Micros) -> [RecorderEvent] {
        connection.flush()
        defer { held = [] }
        return held
    }

    public let deadline: Micros? = nil
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] { [] }

    /// The active toplevel's app, after a roundtrip (everything the compositor said until now read).
    public func focused() throws(RecorderError) -> String? {
        guard connection.roundtrip() else { throw .desktopEnded("the Wayland compositor closed the connection") }
        held += try reading.take(connection.events(), now: RecorderClock.wall()).filter { if case .focus = $0 { false } else { true } }
        return reading.told()
    }

    /// The idle protocols tell when idle begins and ends, never how long it has lasted.
    public func idleMilliseconds() -> Int64? { nil }

    public var idleSourceName: String { connection.idle?.rawValue ?? "none (the compositor offers neither ext-idle-notify-v1 nor org_kde_kwin_idle)" }

    public var startWarnings: [String] {
        connection.idle == nil
            ? ["the compositor offers no idle protocol (ext-idle-notify-v1, org_kde_kwin_idle): every minute in front of the screen counts"] : []
    }

    public func stop() { connection.flush() }
}

/// What the compositor's events mean to the recorder, pure: the toplevels' state applied in
/// order, idle and its end where they come, the app in front once the batch is read (a window
/// closing and the next one activated is one change, not two).
struct WlrootsReading {
    private(set) var toplevels = ForeignToplevels()
    /// The app last told to the recorder (nil inside: nothing focused), none before the first.
    private var lastTold: String??
    let idleThreshold: Micros

    init(idleThreshold: Micros) {
        self.idleThreshold = idleThreshold
    }

    /// `events`, read at `now`, as the recorder's events; the toplevel manager's end ends the desktop.
    mutating func take(_ events: [WaylandEvent], now: Micros) throws(RecorderError) -> [RecorderEvent] {
        var out: [RecorderEvent] = []
        for event in events {
            switch event {
            // Idle is told once no input came for the threshold: it began the threshold before.
            case .idled: out.append(.idle(since: now - idleThreshold))
            case .resumed: out.append(.resume(at: now))
            case .finished: throw .desktopEnded("the compositor stopped listing its windows (\(WaylandConnection.toplevelManager) finished)")
            default: toplevels.apply(event)
            }
        }
        let app = toplevels.focusedApp
        if lastTold != .some(app) {
            lastTold = .some(app)
            out.append(.focus(app, at: now))
        }
        return out
    }

    /// The app in front, now counted as told.
    mutating func told() -> String? {
        let app = toplevels.focusedApp
        lastTold = .some(app)
        return app
    }
}

extension BackendKind {
    public static let wlroots = BackendKind(rawValue: "wlroots")
}

extension WlrootsBackend {
    /// Any compositor with the wlroots toplevel protocol; whether it has it, only the connection tells.
    static let entry = BackendEntry(
        kind: .wlroots, brief: "any compositor with the wlroots toplevel protocol",
        claims: { desktop in desktop.isWayland ? .sessionType : nil },
        declines: { desktop, _ in declines(desktop.environment).map { .notThatBackend(.wlroots, reason: $0) } },
        opens: { desktop, _, idle throws(RecorderError) in try WlrootsBackend(environment: desktop.environment, idleThreshold: idle.threshold) })
}
