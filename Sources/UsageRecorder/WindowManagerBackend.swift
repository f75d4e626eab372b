// WindowManagerBackend.swift — i3 and sway through their shared IPC protocol: `window` and `workspace` events subscribed, the focused window's app_id (Wayland) or class (X11) as the app, else its process's name; idle from the X server under i3 (XSync's alarms, else MIT-SCREEN-SAVER), from swayidle under sway.
import Foundation
import UsageCore

/// The i3 or sway backend.
public final class WindowManagerBackend: RecorderBackend {
    public let kind: BackendKind
    private let events: IPCConnection
    private let queries: IPCConnection
    private let idle: IdleSource?
    /// Kept open for i3's idle (the X server's).
    private let display: XDisplay?
    private var idleMissing: String?

    /// Connects to `socket` (`kind` .i3 or .sway); idle from `display` (i3) or swayidle (sway).
    public init(kind: BackendKind, socket: String, display: XDisplay?, idleThreshold: Micros, monotonic: Micros) throws(RecorderError) {
        self.kind = kind
        events = try IPCConnection(path: socket)
        queries = try IPCConnection(path: socket)
        self.display = display
        if kind == .sway {
            let seconds = Int(max(1, (idleThreshold + 999_999) / 1_000_000))
            idle = SwayIdle(thresholdSeconds: seconds)
            if idle == nil { idleMissing = "swayidle is not installed (Debian: apt-get install swayidle): every minute in front of the screen counts" }
        } else if let display, let alarms = AlarmIdle(display: display, threshold: idleThreshold, monotonic: monotonic, readsDisplay: true) {
            idle = alarms
        } else if let display, display.hasIdle {
            idle = PolledIdle(threshold: idleThreshold, monotonic: monotonic) { display.idleMilliseconds() }
        } else {
            idle = nil
            idleMissing = "no idle time from the X server (XSync's IDLETIME, MIT-SCREEN-SAVER): every minute in front of the screen counts"
        }
        let reply = try events.ask(IPCConnection.subscribe, #"["window","workspace","shutdown"]"#)
        guard (reply as? [String: Any])?["success"] as? Bool == true else {
            throw .ipc(socket: socket, reason: "the window manager refused the subscription")
        }
    }

    /// Whether the socket belongs to sway (GET_VERSION's `variant`).
    public static func isSway(socket: String) throws(RecorderError) -> Bool {
        let connection = try IPCConnection(path: socket)
        let version = try connection.ask(IPCConnection.getVersion) as? [String: Any]
        return version?["variant"] as? String == "sway"
    }

    public var descriptors: [Int32] { [events.fd] + (idle?.descriptors ?? []) }
    public var startWarnings: [String] { idleMissing.map { [$0] } ?? [] }
    public var idleSourceName: String { idle?.name ?? "none" }

    public func readable(_ fd: Int32, now: Micros) throws(RecorderError) -> [RecorderEvent] {
        guard fd == events.fd else { return idle?.readable(fd, now: now) ?? [] }
        var out: [RecorderEvent] = []
        var refresh = false
        for (type, body) in try events.events() {
            let message = body as? [String: Any] ?? [:]
            let change = message["change"] as? String ?? ""
            switch type {
            case IPCConnection.eventShutdown:
                throw .desktopEnded("\(kind.rawValue) shut down")
            case IPCConnection.eventWindow where change == "focus":
                if let container = message["container"] as? [String: Any] {
                    out.append(.focus(Self.app(of: container), at: now))
                    refresh = false
                }
            case IPCConnection.eventWindow where change == "title" || change == "mark":
                break
            case IPCConnection.eventWindow, IPCConnection.eventWorkspace:
                refresh = true
            default:
                break
            }
        }
        if refresh { out.append(.focus(try focused(), at: now)) }
        return out
    }

    /// The idle source's events read ahead (XSync's alarms come with the display's events).
    public func beforeWait(now: Micros) -> [RecorderEvent] { idle?.beforeWait(now: now) ?? [] }

    public var deadline: Micros? { idle?.deadline }
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] { idle?.timer(now: now, monotonic: monotonic) ?? [] }
    public func idleMilliseconds() -> Int64? { idle?.idleMilliseconds() }
    public func stop() { idle?.stop() }
    public func whenLost(_ handler: @escaping () -> Void) { if display != nil { XDisplay.onLost = handler } }

    /// The focused window's app from the whole tree (nil: a workspace has the focus).
    public func focused() throws(RecorderError) -> String? {
        guard let tree = try queries.ask(IPCConnection.getTree) as? [String: Any] else { return nil }
        return Self.focusedNode(tree).flatMap(Self.app(of:))
    }

    private static func focusedNode(_ node: [String: Any]) -> [String: Any]? {
        if node["focused"] as? Bool == true { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key] as? [[String: Any]] ?? [] {
                if let found = focusedNode(child) { return found }
            }
        }
        return nil
    }

    /// A container's app: its app_id (Wayland), its class (X11), else its process's name; nil
    /// for a workspace or output.
    static func app(of container: [String: Any]) -> String? {
        let type = container["type"] as? String ?? "con"
        guard type == "con" || type == "floating_con" else { return nil }
        if let id = container["app_id"] as? String, let name = AppName.capped(id) { return name }
        if let properties = container["window_properties"] as? [String: Any] {
            for key in ["class", "instance"] {
                if let value = properties[key] as? String, let name = AppName.capped(value) { return name }
            }
        }
        if let pid = container["pid"] as? Int, let name = AppName.ofProcess(Int32(clamping: pid)) { return name }
        let isWindow = container["window"] is Int || container["app_id"] is String || container["shell"] is String
        return isWindow ? Normalise.unknownApp : nil
    }
}

extension BackendKind {
    public static let sway = BackendKind(rawValue: "sway")
    public static let i3 = BackendKind(rawValue: "i3")
}

extension WindowManagerBackend {
    /// sway: its socket is SWAYSOCK, or an I3SOCK whose GET_VERSION says sway.
    static let sway = BackendEntry(
        kind: .sway,
        claims: { desktop in desktop.value("SWAYSOCK") != nil ? .socket : nil },
        declines: { desktop, _ in desktop.value("SWAYSOCK") == nil && desktop.value("I3SOCK") == nil ? .noSocket(.sway) : nil },
        opens: { desktop, forced, idle throws(RecorderError) in
            var socket = desktop.value("SWAYSOCK")
            if socket == nil, let i3 = desktop.value("I3SOCK") {
                let isSway = try isSway(socket: i3)
                if forced || isSway { socket = i3 }
            }
            guard let socket else { throw .noSocket(.sway) }
            return try WindowManagerBackend(kind: .sway, socket: socket, display: nil, idleThreshold: idle.threshold, monotonic: idle.monotonic)
        })

    /// i3: its socket is I3SOCK (unless that is sway's), else the one its X display's root names.
    static let i3 = BackendEntry(
        kind: .i3,
        claims: { desktop in desktop.value("I3SOCK") != nil && !desktop.isWayland ? .socket : nil },
        declines: { desktop, forced in
            if desktop.value("I3SOCK") != nil { return nil }
            if desktop.value("DISPLAY") == nil { return .notThatBackend(.i3, reason: "i3 runs on X11, and DISPLAY and I3SOCK are unset") }
            if !forced, let wayland = desktop.waylandReason { return .notThatBackend(.i3, reason: wayland) }
            return nil
        },
        opens: { desktop, _, idle throws(RecorderError) in
            if let socket = desktop.value("I3SOCK") {
                if try isSway(socket: socket) {
                    throw .notThatBackend(.i3, reason: "I3SOCK names sway's socket (the sway backend reads it)")
                }
                let x = try desktop.value("DISPLAY").map { (name: String) throws(RecorderError) in try XDisplay(name) }
                return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idle.threshold, monotonic: idle.monotonic)
            }
            // DISPLAY is set: `declines` saw to it.
            let x = try XDisplay(desktop.value("DISPLAY") ?? "")
            guard let socket = x.rootText("I3_SOCKET_PATH") else { throw .noSocket(.i3) }
            return try WindowManagerBackend(kind: .i3, socket: socket, display: x, idleThreshold: idle.threshold, monotonic: idle.monotonic)
        })
}
