// SwayIdle.swift — idle on sway: swayidle started as a child (it speaks whichever idle protocol the compositor has: org_kde_kwin_idle on sway 1.7, ext-idle-notify on later ones), its "idle"/"active" lines read from a pipe; idle began the threshold before its line.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// swayidle as the recorder's idle source.
public final class SwayIdle: IdleSource {
    public let name = "swayidle"
    private let child: ChildProcess
    private let thresholdSeconds: Int
    private var pending: [UInt8] = []
    private var stopped = false
    private var active = true

    /// Starts `swayidle -w timeout N 'echo idle' resume 'echo active'`; nil when it cannot run.
    public init?(thresholdSeconds: Int) {
        guard
            let child = ChildProcess(
                ["swayidle", "-w", "timeout", String(thresholdSeconds), "echo idle", "resume", "echo active"], captureOutput: true)
        else { return nil }
        self.child = child
        self.thresholdSeconds = thresholdSeconds
    }

    public var descriptors: [Int32] { stopped ? [] : child.output.map { [$0] } ?? [] }
    public let deadline: Micros? = nil
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] { [] }
    public func idleMilliseconds() -> Int64? { nil }

    public func readable(_ fd: Int32, now: Micros) -> [RecorderEvent] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &chunk, chunk.count)
        guard n > 0 else {
            if n < 0, errno == EINTR || errno == EAGAIN { return [] }
            stopped = true
            let wasIdle = !active
            active = true
            return (wasIdle ? [RecorderEvent.resume(at: now)] : [])
                + [.warning("swayidle ended (does the compositor offer an idle protocol?); recording goes on without idle")]
        }
        pending.append(contentsOf: chunk[0..<n])
        var events: [RecorderEvent] = []
        while let newline = pending.firstIndex(of: 10) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeFirst(newline + 1)
            if line == "idle", active {
                active = false
                events.append(.idle(since: now - Micros(thresholdSeconds) * 1_000_000))
            } else if line == "active", !active {
                active = true
                events.append(.resume(at: now))
            }
        }
        return events
    }

    public func stop() {
        stopped = true
        child.terminate()
    }
}
