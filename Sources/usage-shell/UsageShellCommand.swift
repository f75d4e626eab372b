// UsageShellCommand.swift — the executable: argv → options, terminal probe, wiring, exit status. Thin by design.
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageRender
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

extension OutputFormat: ExpressibleByArgument {}
extension ColorMode: ExpressibleByArgument {}
extension GlyphMode: ExpressibleByArgument {}

@main
struct UsageShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage-shell",
        abstract: "Explore app-usage (screen time) data in a terminal.",
        discussion: """
            With -c or -f, runs those commands and exits; otherwise reads commands from standard \
            input, interactively when it is a terminal. Exit status: 0 when every command succeeded, \
            1 when any failed, 3 when none failed but 'limits check' found a crossed limit, 64 for a bad \
            command line.
            """,
        version: UsageShellVersion.string
    )

    @Argument(
        help: ArgumentHelp(
            "Data to load, merged when several: a file (sessions JSON, NDJSON, CSV, ActivityWatch or Timewarrior export), an http(s) URL, aw://HOST:PORT or activitywatch, - for standard input; absent: the bundled sample (also ':sample:').",
            valueName: "source"),
        completion: .file())
    var sources: [String] = []

    @Option(
        parsing: .unconditional,
        help: "The day to select: YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N, monday…sunday.",
        completion: .list(DayQuery.words))
    var day: String?

    @Option(help: "The time zone days are cut in (IANA name or UTC); default: $TZ, else the system's.")
    var tz: String?

    @Option(help: "Output format of commands: table or json.")
    var format: OutputFormat = .table

    @Option(help: "Colour: auto (when stdout is a terminal, NO_COLOR unset and TERM not dumb), always or never.")
    var color: ColorMode = .auto

    @Option(help: "Chart glyphs: auto (Unicode when the locale is UTF-8), unicode or ascii.")
    var glyphs: GlyphMode = .auto

    @Flag(help: "Accessible output: charts become a title, a sentence and one line per data point (also ACCESSIBLE=1).")
    var accessible = false

    @Option(help: "Width of table output in terminal cells (20–1000); default: the terminal's, else $COLUMNS, else 80.")
    var width: Int?

    @Option(
        name: .customShort("c"), help: ArgumentHelp("Run a command (repeatable), then exit.", valueName: "command"),
        completion: .list(CommandTable.all.map(\.name)))
    var commands: [String] = []

    @Option(
        name: .customShort("f"), help: ArgumentHelp("Run the commands of a script file, one per line, then exit.", valueName: "script"),
        completion: .file())
    var script: String?

    @Option(help: ArgumentHelp(
        "How long a load waits for a pipe, FIFO or HTTP server that sends nothing: seconds, or 2m, 1h (1 s to 24 h; default 30).",
        valueName: "seconds"))
    var timeout: String?

    @Flag(help: "Stop at the first command that fails.")
    var bail = false

    @Flag(help: "Keep no history of this interactive session (read none, write none).")
    var noHistory = false

    func validate() throws {
        if let tz, Zone(identifier: tz) == nil {
            throw ValidationError("unknown time zone '\(tz)': use an IANA name such as Europe/Paris, or UTC")
        }
        if let day, DayQuery(day) == nil {
            throw ValidationError(
                "'\(day)' is not a day: use YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N or a weekday")
        }
        if let timeout, StreamLimits.seconds(timeout) == nil {
            throw ValidationError("--timeout must be a number of seconds from 1 to 86400 (120, 2m), not '\(timeout)'")
        }
        if let width, width < 20 || width > 1000 {
            throw ValidationError("--width must be between 20 and 1000")
        }
    }

    /// Parses, runs and exits; argument errors are printed as `error: …` like the program's own.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { StandardStream.output.write(message + "\n") }
            } else if !message.isEmpty {
                let text = message.hasPrefix("Error: ") ? "error: " + message.dropFirst(7) : Substring(message)
                // An argument is escaped whole: a newline in it must not start a line of its own.
                let arguments = CommandLine.arguments.dropFirst().flatMap { [$0] + $0.split(separator: "=", maxSplits: 1).map(String.init) }
                StandardStream.error.write(TerminalText.sanitize(lines: String(text), echoing: arguments) + "\n")
            }
            Glibc.exit(code.rawValue)
        }
    }

    /// `ACCESSIBLE` set to anything but empty, `0`, `no`, `off` or `false`.
    static func accessibleRequested(_ environment: [String: String]) -> Bool {
        guard let value = environment["ACCESSIBLE"]?.lowercased() else { return false }
        return !["", "0", "no", "off", "false"].contains(value)
    }

    func run() throws {
        // A closed pipe (`| head -1`) must end the run quietly: writes then fail with EPIPE.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        if tz == nil, let value = environment["TZ"], !value.isEmpty, Zone(identifier: value) == nil {
            StandardStream.error.write("warning: TZ='\(TerminalText.sanitize(value))' is not an IANA zone name; using the system zone\n")
        }
        let zone = tz.flatMap { Zone(identifier: $0) }
            ?? Zone.fromEnvironment(environment, systemIdentifier: Terminal.systemZoneIdentifier())
        let model = UsageViewModel(zone: zone, now: { Micros(Date().timeIntervalSince1970 * 1_000_000) })
        if let seconds = timeout.flatMap(StreamLimits.seconds) { model.timeout = seconds }
        let shell = Shell(
            model: model, format: format, colorMode: color,
            autoColor: ColorMode.autoEnabled(stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, environment: environment),
            fixedWidth: width, home: environment["HOME"]
        ) { Terminal.width(environment: environment) }
        shell.limitsFile = LimitsFile.defaultPath(environment: environment).map(LimitsFile.init(path:))
        shell.rulesFile = CategoryRulesFile.defaultPath(environment: environment).map(CategoryRulesFile.init(path:))
        shell.glyphMode = glyphs
        shell.autoUnicode = GlyphMode.localeIsUTF8(environment: environment)
        shell.accessible = accessible || Self.accessibleRequested(environment)
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error, bail: bail)

        let interactive = commands.isEmpty && script == nil && isatty(STDIN_FILENO) == 1
        if interactive {
            Interrupt.install()
            if isatty(STDERR_FILENO) == 1 {
                shell.loadPresenter = TerminalLoadPresenter(stream: StandardStream.error) {
                    Terminal.width(environment: environment, fd: STDERR_FILENO)
                }
            }
        }
        let batch = !commands.isEmpty || script != nil
        shell.stdin = isatty(STDIN_FILENO) == 1 ? .terminal : batch ? .available : .commands
        // A batch run whose data failed to load stops there: one error, status 1, rather than
        // the same failure again from every command. The interactive shell starts anyway, in
        // its error state, where 'retry' and 'load' work.
        var proceed = runner.loadInitial(sources.isEmpty ? .sample : SourceRef(sources, home: environment["HOME"]))
            || isatty(STDIN_FILENO) == 1 && !batch
        if proceed, let day { proceed = runner.selectInitialDay(day) }

        if batch {
            if proceed, runner.run(lines: commands), let script {
                let bytes: [UInt8]
                do {
                    bytes = try FileRepository.contents(of: script)
                } catch {
                    StandardStream.error.write("error: cannot read script '\(TerminalText.sanitize(script))': \(error.reason)\n")
                    throw ExitCode(1)
                }
                var lines = String(decoding: bytes, as: UTF8.self)
                    .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
                if lines.last == "" { lines.removeLast() }
                runner.run(lines: lines)
            }
            throw ExitCode(runner.exitStatus)
        }
        if isatty(STDIN_FILENO) == 1 {
            runInteractive(runner, environment: environment)
            return
        }
        if proceed { runner.run(lines: StandardInputLines()) }
        throw ExitCode(runner.exitStatus)
    }

    /// The prompt: libedit's reader with completion and history, and the one-line banner.
    private func runInteractive(_ runner: Runner, environment: [String: String]) {
        let shell = runner.shell
        let model = shell.model
        let historyFile = noHistory ? nil : HistoryFile.defaultPath(environment: environment).map { HistoryFile(path: $0) }
        let reader = EditLineReader(
            complete: { Completer.complete($0, shell: shell) }, historyFile: historyFile,
            warn: { StandardStream.error.write(TerminalText.sanitize($0) + "\n") })
        let loaded = model.hasData ? "\(model.dataset.sessions.count) sessions from \(model.dataset.source)" : "no data loaded"
        runner.interactive(
            reader: reader, banner: "usage-shell \(UsageShellVersion.string) — \(loaded) — type 'help'")
    }
}
