// WatchSignals.swift — the signals a `watch` answers: SIGINT and SIGTERM stop it (in a batch run they end the run, with status 0), SIGWINCH redraws its screen; handlers that only set flags, installed for the watch and restored after it; and the timer that waits between ticks and wakes for them.
import Synchronization
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGTERM while a watch runs.
let terminateFlag = Atomic<Bool>(false)
/// Set by SIGWINCH while a watch's screen is shown.
let resizeFlag = Atomic<Bool>(false)

enum WatchSignals {
    /// Handlers set for a watch, to put back after it.
    struct Saved {
        fileprivate var actions: [(Int32, sigaction)] = []
    }

    /// Installs flag-setting handlers (without `SA_RESTART`, so a wait returns at once) for
    /// SIGINT (the Ctrl-C flag), SIGTERM and, for a screen, SIGWINCH; returns what was there.
    static func install(resize: Bool) -> Saved {
        var saved = Saved()
        func set(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            sigaction(signal, &action, &old)
            saved.actions.append((signal, old))
        }
        terminateFlag.store(false, ordering: .relaxed)
        resizeFlag.store(false, ordering: .relaxed)
        set(SIGINT) { _ in interruptFlag.store(true, ordering: .relaxed) }
        set(SIGTERM) { _ in terminateFlag.store(true, ordering: .relaxed) }
        if resize { set(SIGWINCH) { _ in resizeFlag.store(true, ordering: .relaxed) } }
        return saved
    }

    /// Puts back the handlers `install` replaced.
    static func restore(_ saved: Saved) {
        for (signal, old) in saved.actions {
            var action = old
            sigaction(signal, &action, nil)
        }
    }

    /// Whether SIGINT or SIGTERM came (the flags are left set: their owners clear them).
    static var stopRequested: Bool {
        interruptFlag.load(ordering: .relaxed) || terminateFlag.load(ordering: .relaxed)
    }

    /// Seconds on the monotonic clock.
    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Waits between a watch's outputs where there is no screen, woken by SIGINT and SIGTERM.
final class SignalWatchTimer: WatchTimer {
    func monotonic() -> Double { WatchSignals.monotonic() }

    func wait(until deadline: Double) -> Bool {
        while !stopRequested {
            let left = deadline - monotonic()
            if left <= 0 { return true }
            // A signal ends the sleep early (EINTR); the flags are read again then.
            let slice = min(left, 0.5)
            var request = timespec(tv_sec: Int(slice), tv_nsec: Int((slice - Double(Int(slice))) * 1e9))
            _ = nanosleep(&request, nil)
        }
        return false
    }

    var stopRequested: Bool { WatchSignals.stopRequested }
}

/// `watch` without a screen, with SIGINT and SIGTERM handled while it runs: in a batch run they
/// end it and the run (status 0 unless something failed before); at a prompt whose output is
/// redirected, Ctrl-C goes back to the prompt.
final class SignalledPlainWatchDriver: WatchDriver {
    private let plain: PlainWatchDriver
    private let interactive: Bool
    var refreshRunner: any RefreshRunner { plain.refreshRunner }

    init(interactive: Bool) {
        self.interactive = interactive
        plain = PlainWatchDriver(
            timer: SignalWatchTimer(), stopEndsRun: !interactive,
            refreshRunner: ThreadedRefreshRunner(shouldStop: { WatchSignals.stopRequested }))
    }

    func run(_ session: WatchSession, out: TextSink, err: TextSink) -> WatchEnd {
        let saved = WatchSignals.install(resize: false)
        defer {
            WatchSignals.restore(saved)
            if interactive { _ = Interrupt.take() }
        }
        return plain.run(session, out: out, err: err)
    }
}
