// ImportSignals.swift — SIGINT, SIGTERM, SIGHUP and SIGQUIT during an import: `usage-shell import` and a batch run's (-c, -f, piped) import are cancelled by any of them (reading or writing, nothing written, a store it made removed, the run stopped, 128 + the signal's number), the prompt's by all but SIGINT (Ctrl-C, which offers `retry`) before the shell ends; outside an import, or a second time, the signal's own action.
import Foundation
import Synchronization
import UsageCore
import UsageData
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

/// The signals that cancel an import under way: Ctrl-C, `kill`, the terminal closed (SIGHUP) and
/// Ctrl-\ (SIGQUIT, whose second ends the program at once, core and all, as it always did).
let cancellingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// What `usage-shell import` runs its import with; cancelled by its handler of `cancellingSignals`.
let importCancellation = CancellationToken()
/// The first of `cancellingSignals` that came during an import (0: none).
let importSignal = Atomic<Int32>(0)
/// Whether an import runs now (`SignalledImports.importing`): a batch run's handlers and the
/// prompt's SIGTERM, SIGHUP and SIGQUIT cancel it then, and take their default action otherwise.
let importUnderWay = Atomic<Bool>(false)

enum ImportSignals {
    /// Installs `usage-shell import`'s handlers (without `SA_RESTART`, so a blocked read returns
    /// and looks at the cancellation). The first signal only sets flags; a second of any kind
    /// takes the default action, for an import that does not stop (a server that does not answer).
    /// A signal the program was started with ignored (`nohup`) stays ignored.
    static func install() {
        // Made here, not first in a handler (a global's first use runs its initialiser).
        _ = importCancellation.isCancelled
        for signal in cancellingSignals where !ignored(signal) {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                if importSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed).exchanged {
                    importCancellation.cancel()
                } else {
                    Glibc.signal(signal, SIG_DFL)
                    raise(signal)
                }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
        unblock()
    }

    /// Installs a batch run's handlers (-c, -f, commands piped in): the first of
    /// `cancellingSignals` that comes during an import only sets `importSignal` (`SignalledImports` cancels the
    /// import and the run stops after it); outside an import, or a second, the default action,
    /// as before. A signal the program was started with ignored (`nohup`, `&` in a script)
    /// stays ignored.
    static func installForBatch() {
        _ = importUnderWay.load(ordering: .relaxed)
        for signal in cancellingSignals where !ignored(signal) {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                if importUnderWay.load(ordering: .acquiring),
                    importSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed).exchanged
                {
                    return
                }
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            // Reads go on: the import looks at its cancellation between them.
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        unblock()
    }

    /// Whether the program was started with `signal` ignored (`nohup`, `&` in a script).
    private static func ignored(_ signal: Int32) -> Bool {
        var old = sigaction()
        sigaction(signal, nil, &old)
        // SIG_IGN is the handler whose address is 1.
        return unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == 1
    }

    /// A parent that blocked them (a mask is inherited through exec) would keep them pending.
    private static func unblock() {
        var all = sigset_t()
        sigemptyset(&all)
        for signal in cancellingSignals { sigaddset(&all, signal) }
        pthread_sigmask(SIG_UNBLOCK, &all, nil)
    }

    /// The exit status of a run a signal cancelled (128 + its number), or nil when none came or
    /// the import had ended well before it could be cancelled (`failed` false: it is written).
    static func exitStatus(failed: Bool) -> Int32? {
        let signal = importSignal.load(ordering: .relaxed)
        guard signal != 0, failed else { return nil }
        return 128 + signal
    }

    /// The exit status of a shell run (batch or prompt) that a signal stopped during an import
    /// (128 + its number), or nil.
    static var shellStatus: Int32? {
        let signal = importSignal.load(ordering: .relaxed)
        return signal == 0 ? nil : 128 + signal
    }
}

/// The program's presenter: another's loads and writes as they are, and every import marked as
/// under way while it runs, a signal the handlers kept for it (`importSignal`) turned into its
/// cancellation by a watching thread (handlers touch only atomics).
final class SignalledImports: LoadPresenter {
    private let inner: any LoadPresenter

    init(_ inner: any LoadPresenter) {
        self.inner = inner
    }

    func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError> {
        inner.present(source, cancellation: cancellation, work: work)
    }

    func whileCancellable<T>(_ cancellation: CancellationToken, _ body: () throws(ShellError) -> T) throws(ShellError) -> T {
        try inner.whileCancellable(cancellation, body)
    }

    /// Runs the import with the watcher beside it; cancelled by a signal, it offers no `retry`:
    /// the program ends.
    func importing<T>(_ cancellation: CancellationToken, _ body: () throws(ShellError) -> T) throws(ShellError) -> T {
        let done = Atomic<Bool>(false)
        let ended = DispatchSemaphore(value: 0)
        let watcher = Thread {
            while !done.load(ordering: .relaxed) {
                if importSignal.load(ordering: .relaxed) != 0 { cancellation.cancel() }
                usleep(20_000)
            }
            ended.signal()
        }
        importUnderWay.store(true, ordering: .releasing)
        watcher.start()
        defer {
            importUnderWay.store(false, ordering: .releasing)
            done.store(true, ordering: .relaxed)
            ended.wait()
        }
        do {
            return try body()
        } catch .importCancelled where importSignal.load(ordering: .relaxed) != 0 {
            throw .importCancelled(retry: false)
        }
    }
}
