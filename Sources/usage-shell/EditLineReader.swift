// EditLineReader.swift — the interactive LineReader on libedit's native API: editing, Ctrl-R, completion, history, Ctrl-C and Ctrl-D.
import CEditLine
import UsageData
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

/// Reads lines at a terminal with libedit. Completion asks `complete` (the shell's Completer);
/// history lives in libedit's memory and in a plain UTF-8 file written (atomically) by
/// `HistoryFile`; libedit's own history file functions, which write in place, are not used.
final class EditLineReader: LineReader {
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let complete: (String) -> Completion
    /// Prints a warning (sanitised, on stderr).
    private let warn: (String) -> Void
    /// The session's history file; it says when to warn (once per problem).
    private let historyFile: HistorySession?
    private var lastEntry: String?
    /// The prompt handed to libedit; kept alive here while libedit reads it.
    private var promptBuffer: UnsafeMutablePointer<CChar>?

    /// A reader on the terminal. Prompts and completion lists go to stderr when stdout is not a
    /// terminal, so redirected results stay clean.
    init(complete: @escaping (String) -> Completion, historyFile: HistoryFile?, warn: @escaping (String) -> Void) {
        self.historyFile = historyFile.map(HistorySession.init(file:))
        Self.chooseUTF8Locale()
        output = isatty(STDOUT_FILENO) == 1 ? usage_stdout() : usage_stderr()
        editLine = el_init(CommandLine.arguments[0], usage_stdin(), output, usage_stderr())
        history = history_init()
        self.complete = complete
        self.warn = warn

        usage_history_set_size(history, 1000)
        usage_history_set_unique(history, 1)
        usage_el_set_editor(editLine, "emacs")
        // No handlers of libedit's: run on another thread, they read a pointer the main thread
        // clears (PromptSignals.swift). The program's own answer every signal libedit's did.
        usage_el_set_signal(editLine, 0)
        // Keys are read by PromptInput, which does not lose a Ctrl-C pressed as the prompt appears.
        usage_el_set_getcfn(editLine, PromptInput.libeditReader)
        PromptInput.installSignalHandlers()
        PromptSignals.install()
        usage_el_set_history(editLine, history)
        usage_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        usage_el_set_prompt(editLine, { el in
            guard let el, let data = usage_el_get_clientdata(el) else { return nil }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().promptBuffer
        }, 1)
        usage_el_add_complete_function(editLine, { el, _ in
            guard let el, let data = usage_el_get_clientdata(el) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().completeWord()
        })
        usage_el_bind(editLine, "^I", "usage-complete")
        usage_el_bind(editLine, "^R", "em-inc-search-prev")
        // Keys the native emacs map lacks: Ctrl-arrows by word, Home/End, Delete.
        for (keys, function) in [
            ("\\e[1;5C", "em-next-word"), ("\\e[1;5D", "ed-prev-word"), ("\\e[5C", "em-next-word"),
            ("\\e[5D", "ed-prev-word"), ("\\e[H", "ed-move-to-beg"), ("\\e[F", "ed-move-to-end"),
            ("\\eOH", "ed-move-to-beg"), ("\\eOF", "ed-move-to-end"), ("\\e[1~", "ed-move-to-beg"),
            ("\\e[4~", "ed-move-to-end"), ("\\e[3~", "ed-delete-next-char"),
        ] {
            usage_el_bind(editLine, keys, function)
        }

        if let history = self.historyFile {
            let (commands, problem) = history.start()
            for line in commands { remember(line) }
            if let problem { warn("warning: \(problem.description)") }
        }
    }

    deinit {
        el_end(editLine)
        history_end(history)
        free(promptBuffer)
    }

    /// The next line; Ctrl-C drops the line and prompts again; Ctrl-D on an empty line is the end.
    func readLine(prompt: String) -> String? {
        read(prompt: prompt, interruptEnds: false)
    }

    /// The answer to a question; Ctrl-C (or Ctrl-D) cancels it: nil, on a fresh line.
    func readAnswer(prompt: String) -> String? {
        read(prompt: prompt, interruptEnds: true)
    }

    /// A line read at `prompt`; nil at Ctrl-D on an empty line, and at Ctrl-C when `interruptEnds`
    /// (else Ctrl-C drops what was typed and prompts again).
    private func read(prompt: String, interruptEnds: Bool) -> String? {
        free(promptBuffer)
        promptBuffer = strdup(prompt)
        while true {
            _ = Interrupt.take()
            // Editing mode before the prompt shows, not just after: a Ctrl-D typed as soon as the
            // prompt appeared met a terminal still in canonical mode, which turned it into a NUL
            // byte once libedit switched over, and the shell took it for a key and did not exit.
            PromptSignals.editing()
            usage_el_prep_term(editLine)
            var count: Int32 = 0
            errno = 0
            let read = el_gets(editLine, &count)
            PromptSignals.doneEditing()
            guard let line = read else {
                if Interrupt.take() || errno == EINTR {
                    // Ctrl-C: drop what was typed and prompt again on a fresh line (or, at a question, cancel it).
                    write("\n")
                    el_reset(editLine)
                    if interruptEnds { return nil }
                    continue
                }
                write("\n")  // Ctrl-D: libedit leaves the cursor after the prompt
                return nil
            }
            if count <= 0 {
                write("\n")
                return nil
            }
            var text = String(cString: line)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }
    }

    /// Keeps a command in history (memory and file); consecutive duplicates and blank lines are not kept.
    func addHistory(_ line: String) {
        let entry = line
        guard !entry.isEmpty, entry != lastEntry else { return }
        remember(entry)
        if let problem = historyFile?.save(entry) { warn("warning: \(problem.description)") }
    }

    /// The terminal's width as libedit last saw it (it follows resizes), or `nil`.
    var columns: Int? {
        let columns = Int(usage_el_columns(editLine))
        return columns > 0 ? columns : nil
    }

    private func remember(_ entry: String) {
        usage_history_enter(history, entry)
        lastEntry = entry
    }

    /// Tab: one match replaces the word (a space follows a finished word); several insert what
    /// they share and list them; none beeps.
    private func completeWord() -> UInt8 {
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer else { return UInt8(CC_ERROR) }
        let length = info.cursor - buffer
        let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
        let completion = complete(before)
        switch completion.candidates.count {
        case 0:
            return UInt8(CC_ERROR)
        case 1:
            let candidate = completion.candidates[0]
            replace(completion.typed, with: candidate.replacement + (candidate.isFinal ? " " : ""))
            return UInt8(CC_REFRESH)
        default:
            if let common = completion.commonPrefix {
                replace(completion.typed, with: common)
                return UInt8(CC_REFRESH)
            }
            // As readline does past 100 items: ask before filling the screen (600 zones, a year of days).
            if completion.candidates.count > 100 {
                write("\nDisplay all \(completion.candidates.count) possibilities? (y or n) ")
                var answer: CChar = 0
                guard el_getc(editLine, &answer) == 1, answer == CChar(UInt8(ascii: "y")) || answer == CChar(UInt8(ascii: "Y")) || answer == CChar(UInt8(ascii: " ")) else {
                    write("\n")
                    return UInt8(CC_REDISPLAY)
                }
            }
            write("\n" + CompletionList.columns(completion.candidates.map(\.display), width: columns ?? 80) + "\n")
            return UInt8(CC_REDISPLAY)
        }
    }

    private func replace(_ typed: String, with text: String) {
        if !typed.isEmpty { el_deletestr(editLine, Int32(typed.unicodeScalars.count)) }
        el_insertstr(editLine, text)
    }

    private func write(_ text: String) {
        fputs(text, output)
        fflush(output)
    }

    /// libedit needs a UTF-8 LC_CTYPE for non-ASCII input: the user's, else C.UTF-8.
    private static func chooseUTF8Locale() {
        if let name = setlocale(LC_CTYPE, ""), String(cString: name).lowercased().contains("utf") { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }
}
