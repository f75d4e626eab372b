// Interrupt.swift — Ctrl-C in the interactive shell: a SIGINT handler that only sets a flag, read by the line reader and the load spinner.
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT, taken (read and cleared) by whoever is waiting: the prompt drops its line, a
/// load is cancelled, a watch stops. Global state of the program, with the watch's flags
/// (WatchSignals.swift).
let interruptFlag = Atomic<Bool>(false)

enum Interrupt {
    /// Installs the handler without `SA_RESTART`, so a blocked read returns `EINTR` (libedit
    /// then hands back control); glibc's `signal()` would restart it and ^C would do nothing.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptFlag.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Whether Ctrl-C was pressed since the last call; clears the flag.
    static func take() -> Bool {
        interruptFlag.exchange(false, ordering: .relaxed)
    }
}
