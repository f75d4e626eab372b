// BackendChoice.swift — which backend reads this desktop, told from the environment (SWAYSOCK, then I3SOCK or the display's I3_SOCKET_PATH, GNOME and other Wayland desktops refused in one line before DISPLAY — XWayland there would show only X clients — then X11), or forced by --backend (wlroots and kde only so, for now).
import UsageCore

/// Picks and opens the backend.
public enum BackendChoice {
    /// The backend for `environment`, or `forced`; the error says in one line why none can run.
    public static func open(
        _ environment: [String: String], forced: BackendKind?, idleThreshold: Micros, monotonic: Micros
    ) throws(RecorderError) -> any RecorderBackend {
        func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        let display = value("DISPLAY")
        switch forced {
        case .sway?:
            guard let socket = value("SWAYSOCK") ?? value("I3SOCK") else { throw .noSocket(.sway) }
            return try WindowManagerBackend(kind: .sway, socket: socket, display: nil, idleThreshold: idleThreshold, monotonic: monotonic)
        case .i3?:
            guard let display else { throw .notThatBackend(.i3, reason: "i3 runs on X11, and DISPLAY is unset") }
            let x = try XDisplay(display)
            guard let socket = value("I3SOCK") ?? x.rootText("I3_SOCKET_PATH") else { throw .noSocket(.i3) }
            return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idleThreshold, monotonic: monotonic)
        case .wlroots?:
            return try WlrootsBackend(environment: environment, idleThreshold: idleThreshold)
        case .x11?:
            guard let display else { throw .notThatBackend(.x11, reason: "DISPLAY is unset") }
            return try X11Backend(displayName: display, idleThreshold: idleThreshold, monotonic: monotonic)
        case .kde?:
            return try KDEBackend(environment: environment, idleThreshold: idleThreshold, monotonic: monotonic)
        case nil:
            break
        }
        if let socket = value("SWAYSOCK") {
            return try WindowManagerBackend(kind: .sway, socket: socket, display: nil, idleThreshold: idleThreshold, monotonic: monotonic)
        }
        if let socket = value("I3SOCK") {
            if try WindowManagerBackend.isSway(socket: socket) {
                return try WindowManagerBackend(kind: .sway, socket: socket, display: nil, idleThreshold: idleThreshold, monotonic: monotonic)
            }
            let x = try display.map { (name: String) throws(RecorderError) in try XDisplay(name) }
            return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idleThreshold, monotonic: monotonic)
        }
        if let problem = waylandProblem(environment) { throw problem }
        guard let display else { throw .noDisplay }
        let x = try XDisplay(display)
        if let socket = x.rootText("I3_SOCKET_PATH") {
            return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idleThreshold, monotonic: monotonic)
        }
        return try X11Backend(displayName: display, idleThreshold: idleThreshold, monotonic: monotonic)
    }

    /// A Wayland session this recorder cannot read (GNOME's, another compositor's), when it is one.
    public static func waylandProblem(_ environment: [String: String]) -> RecorderError? {
        let desktop = environment["XDG_CURRENT_DESKTOP"] ?? ""
        let session = (environment["XDG_SESSION_TYPE"] ?? "").lowercased()
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if desktop.lowercased().contains("gnome"), wayland || session.contains("wayland") { return .gnomeWayland }
        if wayland { return .otherWayland(desktop: desktop) }
        return nil
    }
}
