// UsageShellCommand.swift — the executable's entry: argv parsed (Options.swift), the terminal probed, the real dependencies wired, the run handed to Runner, its status the exit code. Thin by design.
import ArgumentParser
import Foundation
import UsageCore
import UsageFormats
import UsageData
import UsageRecorder
import UsageRender
import UsageShell
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

extension UsageShellCommand {
    /// Parses, runs and exits; argument errors are printed as `error: …` like the program's own.
    /// `usage-shell [--db PATH] import …`, `… export …` and `… record …` are commands of their own:
    /// `import`, `export` or `record` as the first word that is no option (a file of that name is
    /// `./import`).
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let k = commandPosition(arguments) {
            let word = arguments.remove(at: k)
            if word == "export" { run(ExportCommand.self, arguments) }
            if word == "record" {
                // The recorder runs for hours: the program's start (relocations, runtime set-up)
                // is given back before it parses its options (docs/PERFORMANCE.md, the recorder).
                ResidentMemory.settle()
                run(RecordCommand.self, arguments)
            }
            run(ImportCommand.self, arguments)
        }
        run(Self.self, arguments)
    }

    /// Where `import`, `export` or `record` stands as the first word that is neither an option nor an option's value.
    static func commandPosition(_ arguments: [String]) -> Int? {
        let withValues: Set<String> = ["--day", "--tz", "--format", "--color", "--glyphs", "--width", "-c", "-f", "--timeout", "--db"]
        var k = 0
        while k < arguments.count {
            let word = arguments[k]
            if word == "--" { return nil }
            guard word.hasPrefix("-"), word != "-" else { return Self.commandWords.contains(word) ? k : nil }
            k += withValues.contains(word) ? 2 : 1
        }
        return nil
    }

    /// The first words that are commands of their own rather than a source to load.
    static let commandWords: Set<String> = ["import", "export", "record"]

    /// Parses `arguments` as `Command`, runs it and exits with its status.
    private static func run<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) -> Never {
        do {
            var command = try Command.parseAsRoot(arguments)
            try command.run()
            Glibc.exit(0)
        } catch {
            let code = Command.exitCode(for: error)
            let message = Command.fullMessage(for: error)
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

    func run() throws {
        // A closed pipe (`| head -1`) must end the run quietly: writes then fail with EPIPE.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let plan = RunPlan(commands: commands, script: script, stdinIsTerminal: isatty(STDIN_FILENO) == 1)
        if plan.isInteractive { Interrupt.install() }
        let output = OutputSettings.start(
            format: format, color: color, glyphs: glyphs, accessible: accessible, width: width,
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, environment: environment, rawCSV: rawCsv)
        let shell = Wiring.shell(
            environment: environment, tz: tz, timeout: timeout, db: db, stdin: plan.stdinUse, output: output,
            interactive: plan.isInteractive)
        shell.model.dataZone = dataTz.flatMap { Zone(identifier: $0) }
        shell.model.weekStart = weekStart
        if let columns, let mapping = try? ColumnMapping(parsing: columns) { shell.model.columns = mapping }
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error, bail: bail)
        runner.sourceWords = sources
        // A screen where the prompt is on a terminal and results go to it; elsewhere outputs one after another.
        runner.watchDriver = plan.isInteractive && isatty(STDOUT_FILENO) == 1
            ? TerminalWatchDriver() : SignalledPlainWatchDriver(interactive: plan.isInteractive)
        let historyFile = noHistory ? nil : HistoryFile.defaultPath(environment: environment).map { HistoryFile(path: $0) }
        let source = sources.isEmpty
            ? SourceRef.startingSource(store: shell.environment.store, named: shell.environment.storeNamed)
            : SourceRef(sources, home: environment["HOME"])
        let status = runner.run(
            plan, source: source, day: day, readScript: FileRepository.contents(of:), stdinLines: { StandardInputLines() },
            makeReader: {
                EditLineReader(
                    complete: { Completer.complete($0, shell: shell) }, historyFile: historyFile,
                    warn: { StandardStream.error.write(TerminalText.sanitize($0) + "\n") })
            })
        // The store's log written into its file: the file alone then holds everything.
        OpenStores.shared.closeAll()
        throw ExitCode(status)
    }
}

/// The real world a shell runs in, wired once for the shell and for `import`.
enum Wiring {
    /// A shell on the real clock, zone, files and terminal.
    static func shell(
        environment: [String: String], tz: String?, timeout: String?, db: String?, stdin: StdinUse, output: OutputSettings,
        interactive: Bool
    ) -> Shell {
        if tz == nil, let value = environment["TZ"], !value.isEmpty, Zone(identifier: value) == nil {
            StandardStream.error.write("warning: TZ='\(TerminalText.sanitize(value))' is not an IANA zone name; using the system zone\n")
        }
        let zone = tz.flatMap { Zone(identifier: $0) }
            ?? Zone.fromEnvironment(environment, systemIdentifier: Terminal.systemZoneIdentifier())
        let now = { Micros(Date().timeIntervalSince1970 * 1_000_000) }
        let model = UsageViewModel(zone: zone, now: now)
        if let seconds = timeout.flatMap(StreamLimits.seconds) { model.timeout = seconds }
        var presenter: any LoadPresenter = DirectLoadPresenter()
        if interactive, isatty(STDERR_FILENO) == 1 {
            presenter = TerminalLoadPresenter(stream: StandardStream.error) { Terminal.width(environment: environment, fd: STDERR_FILENO) }
        }
        // Only the prompt's results, shown at a terminal, are paged or cleared.
        let screen: (any TerminalScreen)? = interactive && isatty(STDOUT_FILENO) == 1 ? StdoutScreen(environment: environment) : nil
        let shellEnvironment = ShellEnvironment(
            home: environment["HOME"], terminalWidth: { Terminal.width(environment: environment) }, screen: screen,
            pager: Pager.command(environment: environment),
            loadPresenter: presenter,
            limitsFile: LimitsFile.defaultPath(environment: environment).map(LimitsFile.init(path:)),
            rulesFile: CategoryRulesFile.defaultPath(environment: environment).map(CategoryRulesFile.init(path:)),
            stdin: stdin, store: db.map(StoreLocation.init) ?? StoreLocation.standard(environment: environment),
            storeNamed: db != nil || !(environment["USAGE_SHELL_DB"] ?? "").isEmpty, now: now)
        return Shell(model: model, output: output, environment: shellEnvironment)
    }
}
