// WaylandConnection.swift — a connection to a Wayland compositor through CWayland (libwayland-client loaded at run time): its globals, the foreign-toplevel manager and an idle notification bound (or the idle notification alone), and what they said as Swift values; never a window's title.
import CWayland

/// What the compositor said (cwayland.h's events).
enum WaylandEvent: Equatable, Sendable {
    /// A new toplevel, numbered from 1 in the order they came.
    case toplevel(UInt32)
    /// Its app id's bytes (not checked as UTF-8: AppName repairs them).
    case appID(UInt32, [UInt8])
    /// Its states: whether `activated` is among them.
    case state(UInt32, activated: Bool)
    /// The toplevel's events since its last `done` apply together.
    case done(UInt32)
    case closed(UInt32)
    case idled
    case resumed
    /// The compositor stopped sending toplevels.
    case finished
}

/// An open connection.
final class WaylandConnection {
    private let handle: OpaquePointer
    /// The foreign-toplevel manager's interface, the reason this connection exists.
    static let toplevelManager = "zwlr_foreign_toplevel_manager_v1"

    /// Why libwayland-client cannot be used, or nil once it is loaded.
    static func libraryProblem() -> String? {
        cwayland_load() != 0 ? nil : "libwayland-client is missing (Debian: apt-get install libwayland-client0): " + String(cString: cwayland_load_error())
    }

    /// Connects to `display` (a WAYLAND_DISPLAY value) and reads its globals; nil when it cannot.
    init?(display: String) {
        guard let handle = cwayland_connect(display) else { return nil }
        self.handle = handle
    }

    deinit { cwayland_disconnect(handle) }

    /// The version of `interface` the compositor offers, nil when it offers none.
    func version(of interface: String) -> UInt32? {
        let version = cwayland_global_version(handle, interface)
        return version == 0 ? nil : version
    }

    /// The idle protocols, in the order they are preferred, as `record --once` names them.
    enum Idle: String {
        case ext = "ext-idle-notify-v1"
        case kde = "org_kde_kwin_idle"
    }

    /// Binds the toplevel manager and an idle notification after `idleMilliseconds`; reads every
    /// toplevel's first state. False when the manager could not be bound.
    func start(idleMilliseconds: UInt32) -> Bool { cwayland_start(handle, idleMilliseconds) != 0 }

    /// Binds only an idle notification after `idleMilliseconds` (a backend that reads focus
    /// another way: KDE's); false when the connection failed.
    func startIdle(idleMilliseconds: UInt32) -> Bool { cwayland_start_idle(handle, idleMilliseconds) >= 0 }

    /// The idle protocol `start` (or `startIdle`) bound, nil when none.
    var idle: Idle? {
        switch cwayland_idle_kind(handle) {
        case CWAYLAND_IDLE_EXT: return .ext
        case CWAYLAND_IDLE_KDE: return .kde
        default: return nil
        }
    }

    var descriptor: Int32 { cwayland_fd(handle) }
    func flush() { cwayland_flush(handle) }

    /// Reads what is ready on the descriptor; false when the connection is lost.
    func read() -> Bool { cwayland_read(handle) == 0 }
    /// Dispatches what libwayland holds already; false when the connection is lost.
    func dispatchPending() -> Bool { cwayland_dispatch_pending(handle) == 0 }
    /// Waits until the compositor answered everything sent; false when the connection is lost.
    func roundtrip() -> Bool { cwayland_roundtrip(handle) == 0 }

    /// The events queued since the last call, in order.
    func events() -> [WaylandEvent] {
        var out: [WaylandEvent] = []
        var event = cwayland_event()
        while cwayland_next(handle, &event) != 0 {
            let number = event.toplevel
            switch event.kind {
            case CWAYLAND_TOPLEVEL: out.append(.toplevel(number))
            case CWAYLAND_APP_ID:
                let bytes = event.text.map { text in
                    text.withMemoryRebound(to: UInt8.self, capacity: event.length) { Array(UnsafeBufferPointer(start: $0, count: event.length)) }
                }
                out.append(.appID(number, bytes ?? []))
            case CWAYLAND_STATE: out.append(.state(number, activated: event.activated != 0))
            case CWAYLAND_DONE: out.append(.done(number))
            case CWAYLAND_CLOSED: out.append(.closed(number))
            case CWAYLAND_IDLED: out.append(.idled)
            case CWAYLAND_RESUMED: out.append(.resumed)
            case CWAYLAND_FINISHED: out.append(.finished)
            default: break
            }
        }
        return out
    }
}
