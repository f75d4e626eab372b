// PlainWatch.swift — `watch` where there is no screen to redraw (-c, scripts, pipes, redirected output): each output printed after a timestamp line, as psql's \watch does, on a steady schedule, until its --count or a stop.
import Foundation

/// The clock and the waiting of a watch without a screen: real time and signals in the
/// program, a fake in tests.
public protocol WatchTimer: AnyObject {
    /// Seconds on a clock that never goes back.
    func monotonic() -> Double
    /// Waits until `deadline` (on `monotonic`'s clock); false when the watch is to stop
    /// (SIGINT, SIGTERM; Ctrl-C at the prompt).
    func wait(until deadline: Double) -> Bool
    /// Whether a stop came (asked between a tick's steps too).
    var stopRequested: Bool { get }
}

/// Waits with `Thread.sleep` and never stops by itself (the default; the program gives a timer
/// that sees signals).
public final class SleepingWatchTimer: WatchTimer {
    public init() {}
    public func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    public func wait(until deadline: Double) -> Bool {
        let left = deadline - monotonic()
        if left > 0 { Thread.sleep(forTimeInterval: left) }
        return true
    }
    public var stopRequested: Bool { false }
}

/// Outputs one after another: before each, the timestamp line (on stdout in table format; on
/// stderr in JSON and CSV, so that stdout holds only documents, one per tick); a failed refresh
/// or command is a line on stderr, and the data last loaded is shown. Ticks follow a steady
/// schedule (start + k × interval; a tick that ran late is not made up).
public final class PlainWatchDriver: WatchDriver {
    let timer: any WatchTimer
    /// Whether a stop ends the whole run (a batch run: SIGINT, SIGTERM) or only the watch (the
    /// prompt with its output redirected).
    let stopEndsRun: Bool
    public let refreshRunner: any RefreshRunner

    public init(timer: any WatchTimer = SleepingWatchTimer(), stopEndsRun: Bool = true, refreshRunner: (any RefreshRunner)? = nil) {
        self.timer = timer
        self.stopEndsRun = stopEndsRun
        self.refreshRunner = refreshRunner ?? DirectRefreshRunner()
    }

    public func run(_ session: WatchSession, out: TextSink, err: TextSink) -> WatchEnd {
        var next = timer.monotonic()
        while true {
            show(session, out: out, err: err)
            if session.isFinished { return .finished }
            next += session.request.interval
            let now = timer.monotonic()
            if next < now { next = now }
            guard timer.wait(until: next), !timer.stopRequested else { return stopped }
            session.tick(refreshing: refreshRunner)
            if timer.stopRequested { return stopped }
        }
    }

    private var stopped: WatchEnd { stopEndsRun ? .signalled : .stopped }

    /// One tick's lines: the timestamp, what went wrong, the output.
    func show(_ session: WatchSession, out: TextSink, err: TextSink) {
        let table = session.shell.output.format == .table
        let stamp = Runner.safe(session.timestampLine) + "\n"
        if table { out.write(stamp) } else { err.write(stamp) }
        for warning in session.takeWarnings() { err.write("warning: \(Runner.safe(warning))\n") }
        let status = session.status
        if let failure = session.refreshFailure {
            let shown = status.refreshed.map { "; the data of \($0) is shown" } ?? ""
            err.write("warning: refresh failed: \(Runner.safe(failure.message))\(shown)\n")
        }
        if let failure = session.commandFailure {
            // The output kept is from before: not shown again as if it were now's.
            err.write("error: \(Runner.safe(failure))\n")
        } else if !session.output.isEmpty {
            out.write(session.output.joined(separator: "\n") + "\n")
        }
        if table { out.write("\n") }
    }
}
