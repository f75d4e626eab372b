// Interrupt.swift — Ctrl-C in the interactive shell: a SIGINT handler that only sets a flag, read by the line reader and the load spinner.
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT, taken (read and cleared) by whoever is waiting: the prompt drops its line, a
/// load is cancelled, a watch stops. Global state of the program, with the watch's flags
/// (WatchSignals.swift).
let interruptFlag = Atomic<Bool>(false)

/// The write end of the wake pipe (PromptInput.swift), or -1: every handler of a signal the
/// prompt answers writes a byte to it, so the prompt's wait wakes whichever thread ran it.
let wakePipeWriter = Atomic<Int32>(-1)

/// Writes the wake byte (a full pipe already wakes the reader); `errno` is left as it was, as a
/// signal handler must.
func wakeThePrompt() {
    let fd = wakePipeWriter.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    let saved = errno
    var byte: UInt8 = 0
    _ = write(fd, &byte, 1)
    errno = saved
}

enum Interrupt {
    /// Installs the handler without `SA_RESTART`, so a blocked read returns `EINTR` (libedit
    /// then hands back control); glibc's `signal()` would restart it and ^C would do nothing.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            interruptFlag.store(true, ordering: .relaxed)
            wakeThePrompt()
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Whether Ctrl-C was pressed since the last call; clears the flag.
    static func take() -> Bool {
        interruptFlag.exchange(false, ordering: .relaxed)
    }
}
