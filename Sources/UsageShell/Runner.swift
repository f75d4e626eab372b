// Runner.swift — drives the shell over lines: decides how a run reads its commands (batch, interactive, piped), loads the SOURCE, runs -c/-f/stdin or the prompt through injected sinks and a LineReader, answers a command's question, and gives the exit status.
import UsageCore
import UsageData
import UsageRender

/// Where text goes: stdout or stderr in the program, a buffer in tests. A write is complete
/// when it returns (nothing is buffered), so stdout and stderr interleave in order.
public protocol TextSink: AnyObject {
    func write(_ text: String)
}

/// Reads one line of input at a time (libedit at a terminal, a fake in tests).
public protocol LineReader: AnyObject {
    /// The next line without its newline, or `nil` at end of input.
    func readLine(prompt: String) -> String?
    /// Keeps an entered command in history (interactive runs only; batch lines never arrive here).
    func addHistory(_ line: String)
    /// The answer to a command's question (`[y/N]`), or `nil` when it was cancelled: Ctrl-C or
    /// Ctrl-D at a terminal, the end of input elsewhere. A Ctrl-C must not be taken as "ask
    /// again", or the next line typed (a command) would be read as the answer.
    func readAnswer(prompt: String) -> String?
}

extension LineReader {
    public func addHistory(_ line: String) {}
    public func readAnswer(prompt: String) -> String? { readLine(prompt: prompt) }
}

/// A sink that keeps everything written (tests).
public final class BufferSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
}

/// How a run reads its commands, decided once from the command line and the terminal.
public struct RunPlan: Equatable, Sendable {
    /// The ways a run can go.
    public enum Mode: Equatable, Sendable {
        /// `-c` commands (in order), then the `-f` script's lines; then exit.
        case batch(commands: [String], script: String?)
        /// The prompt, at a terminal.
        case interactive
        /// Commands piped to standard input, one per line.
        case piped
    }

    public let mode: Mode
    /// Whether standard input is a terminal.
    public let stdinIsTerminal: Bool

    /// `-c`/`-f` make a batch run; else a terminal on stdin gets the prompt; else stdin carries commands.
    public init(commands: [String], script: String?, stdinIsTerminal: Bool) {
        self.stdinIsTerminal = stdinIsTerminal
        if !commands.isEmpty || script != nil {
            mode = .batch(commands: commands, script: script)
        } else {
            mode = stdinIsTerminal ? .interactive : .piped
        }
    }

    /// What `-` may do: read data only in a batch run whose standard input is not the terminal.
    public var stdinUse: StdinUse {
        if stdinIsTerminal { return .terminal }
        if case .batch = mode { return .available }
        return .commands
    }

    public var isInteractive: Bool { mode == .interactive }

    /// Whether the run goes on after its SOURCE failed to load: only the prompt does (its error
    /// state offers `retry` and `load`); a batch or piped run would only fail the same way at
    /// every command.
    var continuesAfterFailedLoad: Bool { isInteractive }
}

/// Runs command lines and reports their outcomes (docs/DATA.md §7's batch rules).
public final class Runner {
    public let shell: Shell
    let out: TextSink
    let err: TextSink
    /// Stop at the first failing command.
    public var bail: Bool
    /// Whether an error names the line it came from (`error: line 2: …`): not in a run of one
    /// command of the program's own (`usage-shell import …`), which has no lines.
    public var numbersLines = true
    /// Whether any command (or the initial load) failed: the exit status is 1 then.
    public private(set) var anyFailed = false
    /// Whether `limits check` found a crossed limit: the exit status is 3 then (unless a command failed).
    public private(set) var anyAlert = false
    /// The prompt's reader while the interactive loop runs: a command's question is asked
    /// through it; without it (a batch run) the question is refused.
    var reader: LineReader?
    /// How `watch` is shown: outputs one after another by default; the program gives a screen
    /// at a terminal, and timers that see signals.
    public var watchDriver: any WatchDriver = PlainWatchDriver()
    /// The command line's SOURCE words as typed: a missing file named like a command is
    /// probably a command without its `-c` (`usage-shell show`), and the error says so.
    public var sourceWords: [String] = []
    /// Whether a signal that ends the program came during the last command (SIGTERM, or SIGINT
    /// in a batch run, cancelling an import): the run stops after it, as sqlite3 and psql stop a
    /// script on interrupt, and the program ends with the signal's status.
    public var endedBySignal: () -> Bool = { false }

    public init(shell: Shell, out: TextSink, err: TextSink, bail: Bool = false) {
        self.shell = shell
        self.out = out
        self.err = err
        self.bail = bail
    }

    /// The exit status of a batch run so far: 1 when anything failed, else 3 when a limit was
    /// crossed (`limits check`), else 0.
    public var exitStatus: Int32 { anyFailed ? 1 : anyAlert ? 3 : 0 }

    /// A whole run: the SOURCE loaded, `--day` selected, then the commands as the plan says.
    /// `readScript` reads the `-f` file; `stdinLines` are piped commands; `makeReader` builds the
    /// prompt's reader (libedit) once the data has loaded. Returns the exit status.
    public func run(
        _ plan: RunPlan, source: SourceRef, day: String?, readScript: (String) throws(LoadError) -> [UInt8],
        stdinLines: () -> any Sequence<String>, makeReader: () -> LineReader
    ) -> Int32 {
        // The shown view's closures hold the shell (a cycle): let go of it when the run ends.
        defer { shell.finish() }
        var proceed = loadInitial(source) || plan.continuesAfterFailedLoad
        if proceed, let day { proceed = selectInitialDay(day) }
        switch plan.mode {
        case .batch(let commands, let script):
            guard proceed, run(lines: commands), let script else { break }
            let bytes: [UInt8]
            do {
                bytes = try readScript(script)
            } catch {
                err.write("error: cannot read script '\(Self.safe(script))': \(error.reason)\n")
                return 1
            }
            guard !Self.isBinary(bytes) else {
                err.write("error: cannot run script '\(Self.safe(script))': it is a binary file, not text (a script is one command a line)\n")
                return 1
            }
            run(lines: Self.scriptLines(bytes))
        case .interactive:
            interactive(reader: makeReader(), banner: banner)
            return 0
        case .piped:
            if proceed { run(lines: stdinLines()) }
        }
        return exitStatus
    }

    /// Whether a `-f` file is binary: a NUL byte in its first block (512 bytes), as bash tells
    /// one (`cannot execute binary file`) before running a line of it. Text never holds NUL.
    static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(512).contains(0)
    }

    /// The lines of a script file: LF or CRLF, a last empty line (after the final newline) dropped.
    static func scriptLines(_ bytes: [UInt8]) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The prompt's first line: version, what is loaded (and, when a source had times without
    /// an offset, the zone they were read in: the first load's only message), "type 'help'".
    var banner: String {
        let model = shell.model
        let n = model.history.sessionCount
        var loaded = model.hasData ? "\(TextFormat.count(n, "session")) from \(model.history.source)" : "no data loaded"
        if let awaited = shell.awaitedStore { loaded = "no store at \(awaited) yet (import FILE, start TASK or task add NAME makes it)" }
        if model.hasData, model.loadedSource == .store, let path = shell.environment.store {
            loaded = "\(TextFormat.count(n, "session")) from the store \(path)"
        }
        let zones = Set(model.history.parts.compactMap { $0.localTimes?.zone }).sorted()
        if model.hasData, !zones.isEmpty { loaded += " (local times read as \(zones.joined(separator: ", ")) time)" }
        return "usage-shell \(UsageShellVersion.string) — \(loaded) — type 'help'"
    }

    /// Loads the command line's SOURCE, reporting a failure in one line. Returns whether the
    /// data loaded (a batch run stops when it did not).
    @discardableResult
    public func loadInitial(_ source: SourceRef) -> Bool {
        // A store named explicitly and not there yet: nothing to load, and no failure: a
        // command that writes makes it; every one that reads says it is not there.
        if shell.awaitsNamedStore(source) { return true }
        let result = shell.loadSource(source)
        writeWarnings()
        guard case .failure(let failure) = result else { return true }
        anyFailed = true
        // The load's own error alone: there is nothing to retry from the command line.
        var message = if case .loadFailed(let error, _) = failure { error.description } else { failure.description }
        if case .loadFailed(.notFound(let missing), _) = failure, let hint = Self.commandHint(sourceWords, missing: missing) { message += hint }
        err.write("error: \(Self.safe(message))\n")
        return false
    }

    /// ` — did you mean -c show?` when the missing file is the first SOURCE word and that word
    /// names a command (or alias) whole: the words were a command, typed without `-c`.
    static func commandHint(_ words: [String], missing: String) -> String? {
        guard let first = words.first, first == missing,
            CommandTable.all.contains(where: { ([$0.name] + $0.aliases).contains(first.lowercased()) })
        else { return nil }
        let line = words.joined(separator: " ")
        let plain = line.allSatisfy { $0.isLetter || $0.isNumber || "-_.:@+/".contains($0) }
        let quoted = plain ? line : "'" + line.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return " — did you mean -c \(quoted)?"
    }

    /// Selects the command line's `--day` as `day DAY` would, reporting a failure without a
    /// line number. Returns `false` when the run should stop (`--bail`).
    @discardableResult
    public func selectInitialDay(_ text: String) -> Bool {
        do {
            try shell.selectDay(text)
            return true
        } catch {
            anyFailed = true
            err.write("error: --day: \(Self.safe(error.description))\n")
            return !bail
        }
    }

    /// Runs lines in order, numbering them from `firstLine`; stops at `quit`, or at an error under `--bail`.
    /// Returns `false` when the run stopped early.
    @discardableResult
    public func run(lines: some Sequence<String>, firstLine: Int = 1) -> Bool {
        var number = firstLine
        for var line in lines {
            defer { number += 1 }
            if number == firstLine, line.hasPrefix("\u{FEFF}") { line.removeFirst() }  // a byte order mark
            guard run(line, number: number, execute: { shell.run(line) }) else { return false }
        }
        return true
    }

    /// Runs `import` as a typed request asks (`usage-shell import`: no line is made of it), as
    /// `run(lines:)` runs a line. Returns `false` when the run stopped early.
    @discardableResult
    public func run(_ request: ImportRequest) -> Bool {
        run("import", number: 1) { shell.run(request) }
    }

    /// Runs `export` as a typed request asks (`usage-shell export`), as `run(lines:)` runs a line.
    @discardableResult
    public func run(_ request: ExportRequest) -> Bool {
        run("export", number: 1) { shell.run(request) }
    }

    /// Runs one command (`line` as typed, or a typed request's name), `execute` running it: its
    /// output, warnings, errors and time written. Returns `false` when the run stops there.
    private func run(_ line: String, number: Int, execute: () -> CommandOutcome) -> Bool {
        // A command line: one look at the store, for the notice, the command and what follows it.
        if !Self.isBlank(line) { shell.beginLine() }
        if !Self.isBlank(line), let notice = shell.stopwatchNotice() {
            // A batch run cannot ask: it says so, and leaves the stopwatch as it is.
            err.write("warning: \(Self.safe(shell.noticeText(notice)))\n")
            shell.noticeSaid(notice)
        }
        if !Self.isBlank(line) { shell.model.followClock() }
        var outcome = settle(timed(execute))
        var signalled = false
        if case .watch(let request) = outcome { (outcome, signalled) = watch(request) }
        if !Self.isBlank(line) { shell.sawStopwatch() }
        defer { writeTime() }
        writeWarnings()
        switch outcome {
        case .output(let lines):
            emit(lines)
        case .alert(let lines):
            anyAlert = true
            emit(lines)
        case .failed(let error):
            anyFailed = true
            err.write("error: \(numbersLines ? "line \(number): " : "")\(Self.safe(error.description))\n")
            if bail { return false }
        case .quit:
            return false
        case .clearScreen:
            break  // A batch run's output is no screen.
        case .confirm, .watch:
            preconditionFailure("settled")
        }
        // SIGINT or SIGTERM ended a watch: the run ends there, with its status so far; one
        // that cancelled an import ends it too.
        return !signalled && !endedBySignal()
    }

    /// Runs a `watch` through the driver; its outcome is what is left to say (nothing, or the
    /// first run's failure), and whether a signal ended it (the run ends too).
    private func watch(_ request: WatchRequest) -> (CommandOutcome, signalled: Bool) {
        let session = WatchSession(shell: shell, request: request)
        if let error = session.start(refreshing: watchDriver.refreshRunner) { return (.failed(error), false) }
        let end = watchDriver.run(session, out: out, err: err)
        if session.alerted { anyAlert = true }
        return (.output([]), end == .signalled)
    }

    /// The interactive loop: a banner (wrapped to the width, a store's path broken after a `/`
    /// rather than by the terminal), then prompt, run and print until `quit` or end of input.
    public func interactive(reader: LineReader, banner: String) {
        self.reader = reader
        defer { self.reader = nil }
        err.write(TextReport.wrap([Self.safe(banner)], width: shell.width).joined(separator: "\n") + "\n")
        while let typed = reader.readLine(prompt: prompt) {
            let line = Self.trimmed(typed)
            reader.addHistory(line)
            // A command line: one look at the store, for the notice, the command and the prompt after it.
            if !Self.isBlank(line) { shell.beginLine() }
            if !Self.isBlank(line), let notice = shell.stopwatchNotice() { ask(notice, reader: reader) }
            if !Self.isBlank(line) { sayIfTheDayMoved() }
            var outcome = settle(timed { shell.run(line) })
            if case .watch(let request) = outcome { outcome = watch(request).0 }
            if !Self.isBlank(line) { shell.sawStopwatch() }
            defer { writeTime() }
            writeWarnings()
            switch outcome {
            case .output(let lines), .alert(let lines): show(lines)
            case .failed(let error):
                err.write("error: \(Self.safe(error.description))\n")
            case .quit: return
            case .clearScreen: shell.environment.screen?.clear()
            case .confirm, .watch: preconditionFailure("settled")
            }
            // SIGTERM cancelled an import: the shell ends once it has said so.
            if endedBySignal() { return }
        }
    }

    /// At the prompt: when midnight passed since the prompt was drawn and the day followed
    /// the clock, says so before the command runs (the prompt showed the day before).
    private func sayIfTheDayMoved() {
        guard shell.model.followClock() else { return }
        let day = shell.model.selectedDay
        err.write("note: midnight passed: the day is now \(TextFormat.shortWeekday(day)) \(day)\n")
    }

    /// The stopwatch's long gap asked about once (keep, stop where last seen, split); a night's
    /// note said once.
    private func ask(_ notice: StopwatchNotice, reader: LineReader) {
        err.write("note: \(Self.safe(shell.noticeText(notice)))\n")
        shell.noticeSaid(notice)
        guard case .longGap = notice else { return }
        let answer = reader.readAnswer(prompt: "keep it running (k), stop it then (s), or split it: stop then, start again now (p)? [k/s/p] ") ?? "k"
        if let said = shell.mendGap(notice, answer: answer) { err.write(Self.safe(said) + "\n") }
    }

    /// An empty line or a comment: no command, so nothing is said of the stopwatch.
    static func isBlank(_ line: String) -> Bool {
        let t = trimmed(line)
        return t.isEmpty || t.hasPrefix("#")
    }

    /// A command's question answered: at the prompt the user is asked (`[y/N]`; only `y` or
    /// `yes` goes on; Ctrl-C or Ctrl-D cancels: no, said so, back to the prompt); a batch run
    /// never guesses and refuses, naming the `--yes` form (or saying what the question was).
    func settle(_ outcome: CommandOutcome) -> CommandOutcome {
        guard case .confirm(let confirmation) = outcome else { return outcome }
        guard let reader else { return .failed(confirmation.refusal ?? .needsYes(confirmation.withYes)) }
        writeWarnings()
        // Wrapped at words to the terminal's width (the line editor would cut it mid-word): the
        // lines before the last printed, the last one the prompt.
        let lines = TextReport.wrap(Self.safe(confirmation.question) + " [y/N]", width: max(shell.width, 20), first: "", rest: "")
        for line in lines.dropLast() { out.write(line + "\n") }
        guard let answer = reader.readAnswer(prompt: (lines.last ?? "") + " ") else {
            return .output(["cancelled; nothing changed"])
        }
        guard ["y", "yes"].contains(Self.trimmed(answer).lowercased()) else { return .output(["nothing changed"]) }
        return settle(confirmation.proceed())
    }

    /// Runs a line; with `set timer on`, then writes its run time to stderr (after its output,
    /// which `emit` writes once the outcome is back, so the time follows the result).
    private func timed(_ execute: () -> CommandOutcome) -> CommandOutcome {
        guard shell.output.timer else { return execute() }
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = execute()
        let elapsed = start.duration(to: clock.now)
        let (seconds, attoseconds) = elapsed.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        pendingTime = "time: \(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count) + fraction) ms\n"
        return outcome
    }

    /// The `time:` line of the last command, written after its output or error.
    private var pendingTime: String?

    /// The warnings the last command left, one `warning: …` line each on stderr, then its notes (`note: …`).
    private func writeWarnings() {
        for warning in shell.takeWarnings() { err.write("warning: \(Self.safe(warning))\n") }
        for note in shell.takeNotes() { err.write("note: \(Self.safe(note))\n") }
    }

    private func writeTime() {
        if let pendingTime { err.write(pendingTime) }
        pendingTime = nil
    }

    /// `usage Mon 2026-02-23> `, or `usage> ` before any data. The clock is read first: a day
    /// that follows it shows the new day after midnight. The stopwatch is read through the last
    /// line's look at the store (the start's, before the first line): drawing the prompt takes none.
    public var prompt: String {
        shell.model.followClock()
        guard shell.model.hasData else { return shell.promptStopwatch().map { "usage \(Self.safe($0))> " } ?? "usage> " }
        let day = shell.model.selectedDay
        if let running = shell.promptStopwatch() { return "usage \(TextFormat.shortWeekday(day)) \(day) \(Self.safe(running))> " }
        return "usage \(TextFormat.shortWeekday(day)) \(day)> "
    }

    /// The prompt's output: through the pager when `set pager` and the terminal's rows say so
    /// (`Pager.pages`), else written as a batch run writes it.
    private func show(_ lines: [String]) {
        let environment = shell.environment
        if let screen = environment.screen, let pager = environment.pager,
            Pager.pages(lines.count, mode: shell.output.pager, rows: screen.rows, format: shell.output.format),
            screen.page(lines.joined(separator: "\n") + "\n", through: pager)
        {
            return
        }
        emit(lines)
    }

    private func emit(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        out.write(lines.joined(separator: "\n") + "\n")
    }

    /// Without leading and trailing blanks (completion leaves a trailing space).
    static func trimmed(_ line: String) -> String {
        var s = Substring(line)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }

    /// Error text may echo file or app names: never let it reach the terminal raw (docs/DATA.md §6).
    static func safe(_ text: String) -> String { TerminalText.sanitize(text) }
}
