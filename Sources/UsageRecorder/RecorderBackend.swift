// RecorderBackend.swift — a backend's name and what a desktop backend gives the recorder (descriptors to wait on, what focus and idle did, a timer it wants) and the idle sources the backends share; each backend lives in a file of its own.
import UsageCore

/// A backend's name, as `--backend` takes it and `record --once` says it. Each backend names
/// itself in its own file (`BackendKind.x11`, …); `BackendChoice.order` lists them.
public struct BackendKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// What a backend saw.
public enum RecorderEvent: Equatable, Sendable {
    /// The focused app changed (nil: nothing focused, as an empty workspace).
    case focus(String?, at: Micros)
    /// No input since `since`, for the idle threshold.
    case idle(since: Micros)
    /// Input came back at `at`.
    case resume(at: Micros)
    /// The screen locked at `at` (away until it unlocks, whatever the input).
    case locked(at: Micros)
    /// The screen unlocked at `at`.
    case unlocked(at: Micros)
    /// Something the person should know (said once, as a warning), recording goes on.
    case warning(String)
}

/// A desktop the recorder reads. Everything happens on the recorder's one thread: it waits
/// (poll) on `descriptors` and until `deadline`, then hands over what woke it.
public protocol RecorderBackend: AnyObject {
    var kind: BackendKind { get }
    /// File descriptors to wait on (a display connection, an IPC socket, a child's output).
    var descriptors: [Int32] { get }
    /// Reads what is ready on `fd` without blocking.
    func readable(_ fd: Int32, now: Micros) throws(RecorderError) -> [RecorderEvent]
    /// The monotonic instant (µs) it wants `timer` called at, or nil.
    var deadline: Micros? { get }
    func timer(now: Micros, monotonic: Micros) -> [RecorderEvent]
    /// What is focused now, for the start and for `record --once`.
    func focused() throws(RecorderError) -> String?
    /// Milliseconds since the last input, when the backend can say.
    func idleMilliseconds() -> Int64?
    /// What it reads idle with, in words (`record --once`).
    var idleSourceName: String { get }
    /// What it already holds before the recorder waits (Xlib reads events ahead).
    func beforeWait(now: Micros) -> [RecorderEvent]
    /// What the person should know when it starts (no idle source, say).
    var startWarnings: [String] { get }
    /// Ends what it started (a child process).
    func stop()
    /// `handler` runs when the desktop's connection is lost past recovery and the process must
    /// end at once (Xlib exits from its I/O error handler): the recorder writes its last session there.
    func whenLost(_ handler: @escaping () -> Void)
}

extension RecorderBackend {
    public func beforeWait(now: Micros) -> [RecorderEvent] { [] }
    public func whenLost(_ handler: @escaping () -> Void) {}
}

/// Where idle comes from: told (XSync's alarms, swayidle's lines) or polled (the X server's
/// MIT-SCREEN-SAVER, when it has no XSync).
public protocol IdleSource: AnyObject {
    var name: String { get }
    var descriptors: [Int32] { get }
    func readable(_ fd: Int32, now: Micros) -> [RecorderEvent]
    var deadline: Micros? { get }
    func timer(now: Micros, monotonic: Micros) -> [RecorderEvent]
    func idleMilliseconds() -> Int64?
    /// What it already holds before the recorder waits (Xlib reads events ahead).
    func beforeWait(now: Micros) -> [RecorderEvent]
    func stop()
}

extension IdleSource {
    public func beforeWait(now: Micros) -> [RecorderEvent] { [] }
}

/// Idle read from the X server without XSync (the fallback of `AlarmIdle`): no event says idle began, so it asks when the threshold would
/// be reached if no input came (once per threshold while the person is active), and a few
/// times a second while idle; the last input's instant is exact either way (now − idle time).
public final class PolledIdle: IdleSource {
    public let name = "MIT-SCREEN-SAVER"
    public let descriptors: [Int32] = []
    private let query: () -> Int64?
    private let threshold: Micros
    private var active = true
    public private(set) var deadline: Micros?

    /// `query` gives the milliseconds since the last input.
    public init(threshold: Micros, monotonic: Micros, query: @escaping () -> Int64?) {
        self.query = query
        self.threshold = threshold
        deadline = monotonic
    }

    public func readable(_ fd: Int32, now: Micros) -> [RecorderEvent] { [] }

    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] {
        guard let ms = query() else {
            deadline = nil
            return [.warning("the X server stopped answering idle queries; recording goes on without idle")]
        }
        let idle = ms * 1000
        var events: [RecorderEvent] = []
        if active, idle >= threshold {
            active = false
            events.append(.idle(since: now - idle))
        } else if !active, idle < threshold {
            active = true
            events.append(.resume(at: now - idle))
        }
        // While idle, asked four times a second for the first ten minutes (a return is then
        // seen within a quarter second; the last input's instant is exact), then once a second.
        deadline = monotonic + (active ? max(threshold - idle, 50_000) : idle < 600_000_000 ? 250_000 : 1_000_000)
        return events
    }

    public func idleMilliseconds() -> Int64? { query() }
    public func stop() {}
}
