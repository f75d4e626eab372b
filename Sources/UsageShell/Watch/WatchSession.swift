// WatchSession.swift — one `watch` under way: each tick follows the clock past midnight, refreshes the sources (a failure keeps the last good data), runs the command and keeps its output; and the drivers' contract (how a watch is shown and stopped, how its refreshes run).
import Foundation
import Synchronization
import UsageCore
import UsageData
import UsageRender

/// A `watch` between its ticks: the last output, when the data was last refreshed, and what
/// failed. Drivers (a terminal screen, outputs one after another) call `tick` on their
/// schedule and show `output` and `status`.
public final class WatchSession {
    public let request: WatchRequest
    public let shell: Shell
    /// The command's last output (kept when a later run fails).
    public private(set) var output: [String] = []
    /// How many times the command ran (`--count` counts them).
    public private(set) var runs = 0
    /// When the sources were last refreshed without a failure.
    public private(set) var refreshedAt: Micros?
    /// Why the last refresh failed (nil when it worked), and when.
    public private(set) var refreshFailure: (message: String, at: Micros)?
    /// Why the last run of the command failed (nil when it worked).
    public private(set) var commandFailure: String?
    /// Whether a run found a crossed limit (`watch limits check`): a batch run ends with status 3.
    public private(set) var alerted = false
    /// Warnings the command left, for the driver to say.
    private var warnings: [String] = []

    public init(shell: Shell, request: WatchRequest) {
        self.shell = shell
        self.request = request
    }

    /// The first tick. Returns the command's error when it fails: the watch does not start then.
    public func start(refreshing runner: any RefreshRunner) -> ShellError? {
        shell.model.followClock()
        refresh(runner)
        if case .failed(let error) = run(request.words) { return error }
        return nil
    }

    /// A later tick: the clock followed (the day moves at midnight), the sources refreshed,
    /// the command run again (alone, when its arguments select a day).
    public func tick(refreshing runner: any RefreshRunner) {
        shell.model.followClock()
        refresh(runner)
        run(request.laterWords)
    }

    /// The command run again on the data as it is (the terminal was resized: the width changed).
    public func redraw() {
        let before = runs
        run(request.laterWords)
        runs = before
    }

    /// Whether `--count` outputs have been shown.
    public var isFinished: Bool { request.count.map { runs >= $0 } ?? false }

    /// The warnings the command left since the last call, emptied.
    public func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    /// The status line's facts now.
    public var status: WatchStatus {
        let zone = shell.model.zone
        let history = shell.model.history
        return WatchStatus(
            command: request.laterWords.map(Tokenizer.quoted).joined(separator: " "), interval: request.intervalText,
            source: history.source, sessions: history.sessionCount, refreshed: refreshedAt.map { WatchStatus.clock($0, zone: zone) },
            failure: refreshFailure?.message ?? commandFailure,
            failedAt: refreshFailure.map { WatchStatus.clock($0.at, zone: zone) }, stopwatch: shell.promptStopwatch())
    }

    /// The line before each output where there is no screen.
    public var timestampLine: String {
        WatchStatus.timestamp(shell.environment.now(), zone: shell.model.zone, interval: request.intervalText)
    }

    /// The next moment a screen should be redrawn without waiting for the interval: the
    /// coming midnight, when the day shown follows the clock.
    public func nextMidnight() -> Micros {
        let zone = shell.model.zone
        return zone.startOfDay(zone.localDate(of: shell.environment.now()).adding(days: 1))
    }

    // MARK: The steps

    private func refresh(_ runner: any RefreshRunner) {
        let now = shell.environment.now()
        guard shell.model.hasData, let live = shell.model.live else { return }
        let options = shell.model.readOptions
        let cancellation = CancellationToken()
        let result = runner.run(cancellation: cancellation) {
            Result { () throws(LoadError) in try live.refresh(options: options, cancellation: cancellation) }
        }
        switch result {
        case .success(let history):
            if let history { shell.model.replaceHistory(history) }
            refreshedAt = now
            refreshFailure = nil
        case .failure(.cancelled):
            break  // stopped: the watch ends
        case .failure(let error):
            refreshFailure = (error.description, now)
        }
    }

    @discardableResult
    private func run(_ words: [String]) -> CommandOutcome {
        let outcome = shell.execute(words: words)
        runs += 1
        warnings += shell.takeWarnings()
        switch outcome {
        case .output(let lines):
            output = lines
            commandFailure = nil
        case .alert(let lines):
            output = lines
            commandFailure = nil
            alerted = true
        case .failed(let error):
            commandFailure = error.description
        case .quit, .confirm, .watch, .clearScreen:
            // Refused by WatchRequest: a watched command only shows.
            commandFailure = "'\(request.words[0])' cannot be watched"
        }
        return outcome
    }
}

/// How a watch ended.
public enum WatchEnd: Equatable, Sendable {
    /// Its `--count` was reached.
    case finished
    /// Stopped by the user (Ctrl-C or `q` at a terminal): back to the prompt.
    case stopped
    /// Ended by a signal (SIGINT, SIGTERM) where there is no prompt: the run ends too, with the
    /// status it has so far.
    case signalled
}

/// Shows a watch until it ends: a screen at a terminal, outputs one after another elsewhere.
public protocol WatchDriver: AnyObject {
    /// How the refreshes are run (the first tick's too).
    var refreshRunner: any RefreshRunner { get }
    /// Shows the started `session` (its first output is ready) and ticks it until it ends.
    func run(_ session: WatchSession, out: TextSink, err: TextSink) -> WatchEnd
}

/// Runs a refresh's reading, which may take long (a server that answers slowly): at once, or
/// on another thread while the caller keeps watching for a stop (then it cancels and returns
/// `.cancelled`, and the late result is dropped).
public protocol RefreshRunner: AnyObject {
    func run(
        cancellation: CancellationToken,
        _ work: @escaping @Sendable () -> Result<(any SessionHistory)?, LoadError>
    ) -> Result<(any SessionHistory)?, LoadError>
}

/// Runs the reading on the calling thread (tests).
public final class DirectRefreshRunner: RefreshRunner {
    public init() {}

    public func run(
        cancellation: CancellationToken, _ work: @escaping @Sendable () -> Result<(any SessionHistory)?, LoadError>
    ) -> Result<(any SessionHistory)?, LoadError> {
        work()
    }
}

/// Runs the reading on a worker thread and waits for it, asking `shouldStop` every 50 ms: a
/// stop (Ctrl-C, a signal) cancels the reading and returns `.cancelled` at once.
public final class ThreadedRefreshRunner: RefreshRunner {
    private let shouldStop: () -> Bool

    public init(shouldStop: @escaping () -> Bool) {
        self.shouldStop = shouldStop
    }

    public func run(
        cancellation: CancellationToken, _ work: @escaping @Sendable () -> Result<(any SessionHistory)?, LoadError>
    ) -> Result<(any SessionHistory)?, LoadError> {
        let outcome = Mutex<Result<(any SessionHistory)?, LoadError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = work()
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if shouldStop() {
                cancellation.cancel()
                return .failure(.cancelled(source: "watch"))
            }
        }
        return outcome.withLock { $0 } ?? .failure(.cancelled(source: "watch"))
    }
}
