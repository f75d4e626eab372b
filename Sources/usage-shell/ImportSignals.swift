// ImportSignals.swift — SIGINT and SIGTERM during `usage-shell import`: the first cancels the import (reading or writing, nothing written) and the run ends with 128 + the signal's number, as shells expect; a second ends the process at once.
import Synchronization
import UsageCore

#if canImport(Glibc)
    import Glibc
#endif

/// What `usage-shell import` runs its import with; cancelled by its SIGINT or SIGTERM handler.
let importCancellation = CancellationToken()
/// The first SIGINT or SIGTERM that came during `usage-shell import` (0: none).
let importSignal = Atomic<Int32>(0)

enum ImportSignals {
    /// Installs the handlers (without `SA_RESTART`, so a blocked read returns and looks at the
    /// cancellation). The first signal only sets flags; a second of either kind takes the
    /// default action, for an import that does not stop (a server that does not answer).
    static func install() {
        // Made here, not first in a handler (a global's first use runs its initialiser).
        _ = importCancellation.isCancelled
        for signal in [SIGINT, SIGTERM] {
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
        // A parent that blocked them (a mask is inherited through exec) would keep them pending.
        var both = sigset_t()
        sigemptyset(&both)
        sigaddset(&both, SIGINT)
        sigaddset(&both, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &both, nil)
    }

    /// The exit status of a run a signal cancelled (128 + its number), or nil when none came or
    /// the import had ended well before it could be cancelled (`failed` false: it is written).
    static func exitStatus(failed: Bool) -> Int32? {
        let signal = importSignal.load(ordering: .relaxed)
        guard signal != 0, failed else { return nil }
        return 128 + signal
    }
}
