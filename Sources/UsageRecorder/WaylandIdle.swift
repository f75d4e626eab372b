// WaylandIdle.swift — idle on a Wayland compositor as an idle source of its own (a Wayland client through CWayland, for a backend that reads focus another way: KDE's, over D-Bus): ext-idle-notify-v1, else org_kde_kwin_idle, both honouring idle inhibitors (a video playing, a call); idle began the threshold before the compositor says so.
import UsageCore

/// A Wayland idle notification as the recorder's idle source.
public final class WaylandIdle: IdleSource {
    private let connection: WaylandConnection
    private let threshold: Micros
    public let name: String
    private var lost = false
    private var active = true

    private init(connection: WaylandConnection, threshold: Micros, name: String) {
        self.connection = connection
        self.threshold = threshold
        self.name = name
    }

    /// An idle notification after `threshold` from the compositor `display` (a WAYLAND_DISPLAY
    /// value) names, or the one line why there is none.
    public static func open(display: String, threshold: Micros) -> Result<WaylandIdle, IdleProblem> {
        if let problem = WaylandConnection.libraryProblem() { return .failure(IdleProblem(reason: problem)) }
        guard let connection = WaylandConnection(display: display) else {
            return .failure(IdleProblem(reason: "cannot connect to the Wayland display \(display)"))
        }
        guard connection.startIdle(idleMilliseconds: UInt32(clamping: max(1000, threshold / 1000))) else {
            return .failure(IdleProblem(reason: "the Wayland compositor ended the connection"))
        }
        guard let kind = connection.idle else {
            return .failure(IdleProblem(reason: "the Wayland compositor offers no idle protocol (ext-idle-notify-v1, org_kde_kwin_idle)"))
        }
        return .success(WaylandIdle(connection: connection, threshold: threshold, name: kind.rawValue))
    }

    /// Why there is no Wayland idle source.
    public struct IdleProblem: Error, Equatable {
        public let reason: String
    }

    public var descriptors: [Int32] { lost ? [] : [connection.descriptor] }
    public let deadline: Micros? = nil
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] { [] }
    /// The idle protocols tell when idle begins and ends, never how long it has lasted.
    public func idleMilliseconds() -> Int64? { nil }

    public func readable(_ fd: Int32, now: Micros) -> [RecorderEvent] {
        guard connection.read() else {
            lost = true
            let wasIdle = !active
            active = true
            return (wasIdle ? [RecorderEvent.resume(at: now)] : [])
                + [.warning("the Wayland compositor closed the idle connection; recording goes on without idle")]
        }
        var events: [RecorderEvent] = []
        for event in connection.events() {
            switch event {
            case .idled where active:
                active = false
                events.append(.idle(since: now - threshold))
            case .resumed where !active:
                active = true
                events.append(.resume(at: now))
            default:
                break
            }
        }
        return events
    }

    /// What was asked is sent before every wait (libwayland buffers requests).
    public func beforeWait(now: Micros) -> [RecorderEvent] {
        if !lost { connection.flush() }
        return []
    }

    public func stop() {}
}
