// PromptSignals.swift — SIGTERM, SIGHUP, SIGQUIT and SIGTSTP at the prompt, answered by the program instead of libedit (whose EL_SIGNAL handlers raced the main thread): the terminal's modes put back, then the signal's own action (SIGTERM, SIGHUP or SIGQUIT during an import: the import cancelled first and a store it made removed, ImportSignals.swift).
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the prompt has the terminal in its editing mode (`promptTerminalModes` then holds the
/// modes it had before).
let promptEditing = Atomic<Bool>(false)

/// The terminal's modes as the prompt found them, for a handler to put back. Written by the main
/// thread only while `promptEditing` is false, read by a handler only while it is true.
nonisolated(unsafe) private let promptTerminalModes = UnsafeMutablePointer<termios>.allocate(capacity: 1)

/// libedit's EL_SIGNAL installs handlers of its own for the length of each `el_gets` that read
/// the `EditLine` through a global pointer, which `el_gets` clears on its way out; a handler run
/// on another thread while the main thread left (SIGCONT, then SIGINT, as a closing terminal or
/// pexpect sends them) read through the null pointer. The program's handlers touch only atomics,
/// the wake pipe and the modes saved here, so they are safe on any thread at any moment: SIGINT
/// (Interrupt.swift), SIGWINCH and SIGCONT (PromptInput.swift), and these four, which end or stop
/// the program. Each does what libedit's did: the terminal as it was before the prompt, then the
/// signal's default action (for SIGTSTP, a stop; back from it, this handler again and SIGCONT's
/// redraw of the prompt).
enum PromptSignals {
    static let ending = [SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    /// Installs the four handlers (with `SA_RESTART`: a command's reads and writes go on).
    static func install() {
        for signal in ending { installHandler(signal) }
    }

    /// Saves the terminal's modes, then marks the prompt as editing; call before libedit's
    /// editing mode is entered.
    static func editing() {
        guard tcgetattr(STDIN_FILENO, promptTerminalModes) == 0 else { return }
        promptEditing.store(true, ordering: .releasing)
    }

    /// Marks the prompt as no longer editing; call once `el_gets` has put the modes back.
    static func doneEditing() {
        promptEditing.store(false, ordering: .releasing)
    }

    private static func installHandler(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            // SIGTERM, SIGHUP (the terminal closed) or SIGQUIT during an import: kept for it
            // (`SignalledImports` cancels it, nothing is written, a store it made is removed, and
            // the shell ends with 128 + the signal once it has said so); a second ends it at once.
            if signal != SIGTSTP, importUnderWay.load(ordering: .acquiring),
                importSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed).exchanged
            {
                return
            }
            let saved = errno
            if promptEditing.load(ordering: .acquiring) { _ = tcsetattr(STDIN_FILENO, TCSANOW, promptTerminalModes) }
            // The default action, now: the handler's own signal is blocked while it runs.
            var fallback = sigaction()
            fallback.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&fallback.sa_mask)
            sigaction(signal, &fallback, nil)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(signal)
            // Only a stop comes back here (after SIGCONT): answer the next one again.
            PromptSignals.installHandler(signal)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
    }
}
