// PromptInput.swift — how libedit reads a key at the prompt: waits on the terminal and on Ctrl-C together, so a Ctrl-C pressed while the prompt was being printed is not lost.
import CEditLine
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGWINCH; the prompt's next wait gives libedit the new size.
let promptResized = Atomic<Bool>(false)
/// Set by SIGCONT (back from Ctrl-Z); the prompt's next wait puts the terminal back and redraws the line.
let promptContinued = Atomic<Bool>(false)

/// The read end of the wake pipe the signal handlers write to (Interrupt.swift), or -1.
let wakePipeReader = Atomic<Int32>(-1)

/// libedit's own key reader calls `read(2)` after printing the prompt. A SIGINT that lands
/// between the two (the user pressed Ctrl-C the moment a `[y/N]` question appeared) only set the
/// interrupt flag, and the `read` then waited for a key that had already been pressed: the question
/// stayed up until a second Ctrl-C. Nor does a `read` end when another thread of the process runs
/// the handler. This reader looks at the flags, then waits on the terminal and on a pipe that every
/// handler writes a byte to (the self-pipe): a Ctrl-C at any moment, on any thread, ends the wait.
enum PromptInput {
    /// What waiting for a key on `fd` came to.
    enum Wait: Equatable {
        case ready
        case interrupted
        case signalled(Event)
        case failed(Int32)
    }

    /// What happened to the terminal while the prompt waited.
    enum Event: Equatable {
        case resized
        case continued
    }

    /// The key reader handed to libedit (`EL_GETCFN`): 1 and the character, 0 at the end of
    /// input, -1 with `errno` set (EINTR for Ctrl-C, which makes `el_gets` return nil).
    static let libeditReader: @convention(c) (OpaquePointer?, UnsafeMutablePointer<wchar_t>?) -> Int32 = { editLine, character in
        guard let character else { return -1 }
        return nextCharacter(fd: STDIN_FILENO, into: character) { event in
            guard let editLine else { return }
            switch event {
            case .resized:
                el_resize(editLine)
            case .continued:
                // What libedit's own reader does after Ctrl-Z and `fg`: the editing mode again
                // (through cooked, so the terminal's modes are read afresh) and the line redrawn.
                usage_el_set_prep_term(editLine, 0)
                usage_el_set_prep_term(editLine, 1)
                usage_el_refresh(editLine)
            }
        }
    }

    /// Opens the wake pipe (once) and installs the SIGWINCH and SIGCONT handlers whose flags
    /// `wait` reads: they are the only ones (libedit's EL_SIGNAL is off, PromptSignals.swift).
    /// With `SA_RESTART`, so a signal during a command interrupts no read or write of it.
    static func installSignalHandlers() {
        openWakePipe()
        for (signal, handler) in [
            (SIGWINCH, { (_: Int32) in
                promptResized.store(true, ordering: .relaxed)
                wakeThePrompt()
            }),
            (SIGCONT, { (_: Int32) in
                promptContinued.store(true, ordering: .relaxed)
                wakeThePrompt()
            }),
        ] as [(Int32, @convention(c) (Int32) -> Void)] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
    }

    /// The wake pipe, non-blocking both ends (a handler never waits on a full one), not passed
    /// to programs the shell runs.
    static func openWakePipe() {
        guard wakePipeReader.load(ordering: .relaxed) < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakePipeReader.store(ends[0], ordering: .relaxed)
        wakePipeWriter.store(ends[1], ordering: .relaxed)
    }

    /// One character read from `fd` (UTF-8, as the locale decodes it), waiting for it with
    /// `wait`; `signalled` is told what happened to the terminal during the wait.
    static func nextCharacter(fd: Int32, into character: UnsafeMutablePointer<wchar_t>, signalled: (Event) -> Void) -> Int32 {
        var bytes: [CChar] = []
        while true {
            switch wait(fd: fd) {
            case .interrupted:
                character.pointee = 0
                errno = EINTR
                return -1
            case .signalled(let event):
                signalled(event)
                continue
            case .failed(let error):
                character.pointee = 0
                errno = error
                return -1
            case .ready:
                break
            }
            var byte: CChar = 0
            let count = read(fd, &byte, 1)
            if count == 0 {
                character.pointee = 0
                return 0
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                character.pointee = 0
                return -1
            }
            bytes.append(byte)
            switch decode(bytes, into: character) {
            case .character:
                return 1
            case .incomplete:
                // A UTF-8 character is at most 4 bytes: longer is not one.
                if bytes.count >= 4 { bytes.removeAll() }
            case .invalid:
                // Not a character: the byte that broke it may start the next one (as libedit does).
                bytes = bytes.count > 1 ? [byte] : []
                guard !bytes.isEmpty else { continue }
                switch decode(bytes, into: character) {
                case .character: return 1
                case .incomplete: continue
                case .invalid: bytes.removeAll()
                }
            }
        }
    }

    private enum Decoded { case character, incomplete, invalid }

    /// The bytes read so far as one character of the locale's encoding (UTF-8 at the prompt).
    private static func decode(_ bytes: [CChar], into character: UnsafeMutablePointer<wchar_t>) -> Decoded {
        let result = bytes.withUnsafeBufferPointer { usage_decode_character(character, $0.baseAddress, $0.count) }
        switch Int(result) {
        case -2: return .incomplete
        case -1: return .invalid
        default: return .character
        }
    }

    /// Waits until `fd` can be read, Ctrl-C was pressed (now or before the wait), or the terminal
    /// was resized or came back from Ctrl-Z. A signal after the look at the flags has written to
    /// the wake pipe, so the wait that follows ends at once.
    static func wait(fd: Int32) -> Wait {
        while true {
            if interruptFlag.load(ordering: .relaxed) { return .interrupted }
            if promptContinued.exchange(false, ordering: .relaxed) { return .signalled(.continued) }
            if promptResized.exchange(false, ordering: .relaxed) { return .signalled(.resized) }
            let wake = wakePipeReader.load(ordering: .relaxed)
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, wake >= 0 ? 2 : 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }  // a handler ran: the loop looks at the flags
                return .failed(errno)
            }
            if fds[1].revents != 0 {
                // Woken: the byte (and any stale ones) read, then the flags say why.
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wake, &bytes, bytes.count) > 0 {}
                continue
            }
            if fds[0].revents != 0 { return .ready }
        }
    }
}
