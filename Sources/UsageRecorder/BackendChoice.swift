// BackendChoice.swift — which backend reads this desktop: an ordered list of backends (a window manager's IPC, GNOME's extension, KWin's script, the wlroots protocol, X11 last), each opening or giving its reason in one line; the first that opens records, `--backend` forces one, `record --once` prints every verdict.
import UsageCore

/// One backend's answer for this desktop: it opened, or why not.
public struct BackendVerdict: Equatable, Sendable {
    public let kind: BackendKind
    /// Why it cannot read this desktop; nil when it opened.
    public let reason: String?

    public init(kind: BackendKind, reason: String?) {
        self.kind = kind
        self.reason = reason
    }
}

/// Picks and opens the backend.
public enum BackendChoice {
    /// The order backends are tried in: a window manager's own IPC first (it names the focused
    /// window exactly), then the desktops that need their own way (GNOME's extension, KWin's
    /// script), then any wlroots compositor's protocol, and X11 last — under a Wayland desktop,
    /// XWayland would show only its X clients.
    public static let order: [BackendKind] = BackendKind.allCases

    /// The backend that records, with the verdict of each backend tried before it.
    public struct Opened {
        public let backend: any RecorderBackend
        public let verdicts: [BackendVerdict]
    }

    /// The first backend of `order` that opens for `environment`, or `forced`; the error says
    /// in one line why none can run.
    public static func open(
        _ environment: [String: String], forced: BackendKind?, idleThreshold: Micros, monotonic: Micros
    ) throws(RecorderError) -> Opened {
        let desktop = Desktop(environment)
        if let forced {
            return Opened(backend: try attempt(forced, desktop, forced: true, idleThreshold: idleThreshold, monotonic: monotonic), verdicts: [])
        }
        if desktop.nothing { throw .noDisplay }
        var verdicts: [BackendVerdict] = []
        for kind in order {
            do throws(RecorderError) {
                let backend = try attempt(kind, desktop, forced: false, idleThreshold: idleThreshold, monotonic: monotonic)
                verdicts.append(BackendVerdict(kind: kind, reason: nil))
                return Opened(backend: backend, verdicts: verdicts)
            } catch {
                verdicts.append(BackendVerdict(kind: kind, reason: reason(error)))
            }
        }
        throw .noBackend(verdicts, likely: desktop.likely)
    }

    /// Every backend's verdict (for `record --once`), and the one that records: the first of
    /// `order` that opens, or `forced`; the others are stopped as soon as they opened.
    public static func survey(
        _ environment: [String: String], forced: BackendKind?, idleThreshold: Micros, monotonic: Micros
    ) -> (verdicts: [BackendVerdict], chosen: (any RecorderBackend)?) {
        let desktop = Desktop(environment)
        var chosen: (any RecorderBackend)?
        let verdicts = order.map { kind in
            do throws(RecorderError) {
                let backend = try attempt(kind, desktop, forced: kind == forced, idleThreshold: idleThreshold, monotonic: monotonic)
                if chosen == nil, forced == nil || kind == forced { chosen = backend } else { backend.stop() }
                return BackendVerdict(kind: kind, reason: nil)
            } catch {
                return BackendVerdict(kind: kind, reason: reason(error))
            }
        }
        return (verdicts, chosen)
    }

    /// A refusal as a verdict says it: the reason alone, without the `--backend NAME:` a forced one starts with.
    static func reason(_ error: RecorderError) -> String {
        if case .notThatBackend(_, let reason) = error { return reason }
        return error.description
    }

    /// Opens `kind`, or says why it cannot. Tried in the list (`forced` false), a backend also
    /// declines a desktop that is not its own (X11 under Wayland, GNOME's away from GNOME).
    static func attempt(
        _ kind: BackendKind, _ desktop: Desktop, forced: Bool, idleThreshold: Micros, monotonic: Micros
    ) throws(RecorderError) -> any RecorderBackend {
        switch kind {
        case .sway:
            // sway's socket is SWAYSOCK, or an I3SOCK whose GET_VERSION says sway.
            var socket = desktop.value("SWAYSOCK")
            if socket == nil, let i3 = desktop.value("I3SOCK") {
                let isSway = try WindowManagerBackend.isSway(socket: i3)
                if forced || isSway { socket = i3 }
            }
            guard let socket else { throw .noSocket(.sway) }
            return try WindowManagerBackend(kind: .sway, socket: socket, display: nil, idleThreshold: idleThreshold, monotonic: monotonic)
        case .i3:
            if let socket = desktop.value("I3SOCK") {
                if try WindowManagerBackend.isSway(socket: socket) {
                    throw .notThatBackend(.i3, reason: "I3SOCK names sway's socket (the sway backend reads it)")
                }
                let x = try desktop.value("DISPLAY").map { (name: String) throws(RecorderError) in try XDisplay(name) }
                return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idleThreshold, monotonic: monotonic)
            }
            guard let display = desktop.value("DISPLAY") else { throw .notThatBackend(.i3, reason: "i3 runs on X11, and DISPLAY and I3SOCK are unset") }
            if !forced, let wayland = desktop.waylandReason { throw .notThatBackend(.i3, reason: wayland) }
            let x = try XDisplay(display)
            guard let socket = x.rootText("I3_SOCKET_PATH") else { throw .noSocket(.i3) }
            return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idleThreshold, monotonic: monotonic)
        case .gnome:
            if !forced, !desktop.isGNOME { throw .notThatBackend(.gnome, reason: "not a GNOME session (\(desktop.named))") }
            guard Notifier.sessionBus(desktop.environment) != nil else { throw .notThatBackend(.gnome, reason: Notifier.noSessionBus) }
            return try GnomeBackend(idleThreshold: idleThreshold, monotonic: monotonic)
        case .kde:
            return try KDEBackend(environment: desktop.environment, idleThreshold: idleThreshold, monotonic: monotonic)
        case .wlroots:
            return try WlrootsBackend(environment: desktop.environment, idleThreshold: idleThreshold)
        case .x11:
            guard let display = desktop.value("DISPLAY") else { throw .notThatBackend(.x11, reason: "DISPLAY is unset") }
            if !forced, let wayland = desktop.waylandReason { throw .notThatBackend(.x11, reason: wayland) }
            return try X11Backend(displayName: display, idleThreshold: idleThreshold, monotonic: monotonic)
        }
    }
}

/// The desktop the environment tells of.
struct Desktop {
    let environment: [String: String]

    init(_ environment: [String: String]) { self.environment = environment }

    func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }

    /// No display, no Wayland socket and no window manager's socket: not in a desktop session.
    var nothing: Bool { ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK"].allSatisfy { value($0) == nil } }

    var currentDesktop: String { value("XDG_CURRENT_DESKTOP") ?? "" }
    var named: String { currentDesktop.isEmpty ? "XDG_CURRENT_DESKTOP is unset" : "XDG_CURRENT_DESKTOP=" + currentDesktop }
    var isGNOME: Bool { currentDesktop.split(separator: ":").contains { $0.lowercased() == "gnome" } }
    var isKDE: Bool { currentDesktop.split(separator: ":").contains { $0.lowercased() == "kde" } }
    var isWayland: Bool { value("WAYLAND_DISPLAY") != nil || (value("XDG_SESSION_TYPE") ?? "").lowercased() == "wayland" }

    /// Why an X11 backend declines this session: under Wayland, XWayland shows only X clients.
    var waylandReason: String? {
        isWayland ? "this is a Wayland session: X11 would see only XWayland's windows (--backend x11 reads it anyway)" : nil
    }

    /// The backend this desktop most likely wants: its verdict is the one said when none opens.
    var likely: BackendKind {
        if isGNOME { return .gnome }
        if isKDE { return .kde }
        if value("SWAYSOCK") != nil { return .sway }
        if isWayland { return .wlroots }
        return value("I3SOCK") != nil ? .i3 : .x11
    }
}
