// ShellCommand.swift — `usage-shell [SOURCE…]`, the shell: the default subcommand (what runs when no other is named) with its own options (-c, -f, --color, --width…) as argument-parser reads them, checked by the settings table's rules, and a subcommand's name it would take for a SOURCE (after an option not the root's) refused; the terminal probed, the run handed to Runner, its status the exit code.
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageFormats
import UsageRender
import UsageShell
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

extension ColorMode: ExpressibleByArgument {}
extension GlyphMode: ExpressibleByArgument {}
extension WeekStart: ExpressibleByArgument {}

/// The shell's own options (the options it shares with the other commands are `SharedOptions`,
/// and with `import` `ReadingOptions`): declared here alone, so another subcommand refuses them
/// as unknown.
struct ShellOptions: ParsableArguments {
    @Option(help: "Colour: auto (when stdout is a terminal, NO_COLOR unset and TERM not dumb), always, never, or a depth: 16, 256 or truecolor (auto and always take the depth COLORTERM and TERM announce).")
    var color: ColorMode = .auto

    @Option(help: "Chart glyphs: auto (Unicode when the locale is UTF-8), unicode or ascii.")
    var glyphs: GlyphMode = .auto

    @Flag(help: "Accessible output: charts become a title, a sentence and one line per data point (also ACCESSIBLE=1).")
    var accessible = false

    @Option(help: "Width of table output in terminal cells (20–1000); default: the terminal's, else $COLUMNS, else 80.")
    var width: Int?

    @Option(
        name: .customShort("c"), help: ArgumentHelp("Run a command (repeatable), then exit.", valueName: "command"),
        completion: .custom(CompletionScripts.commandArgument))
    var commands: [String] = []

    @Option(
        name: .customShort("f"), help: ArgumentHelp("Run the commands of a script file, one per line, then exit.", valueName: "script"),
        completion: .file())
    var script: String?

    @Flag(help: "Stop at the first command that fails.")
    var bail = false

    @Flag(help: "Keep no history of this interactive session (read none, write none).")
    var noHistory = false

    func validate() throws {
        // The same rules, and the same words, as `set width`.
        if let width, let problem = Settings.problem("width", String(width)) {
            throw ValidationError(problem.hasPrefix("width") ? "--" + problem : problem)
        }
    }
}

/// `usage-shell [SOURCE…]`: the shell, on the sources given, else the store, else the sample.
struct ShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "The shell (the default: usage-shell [SOURCE...] [-c COMMAND]...): loads the sources, then runs -c, -f or standard input's commands, or the prompt.",
        discussion: """
            With -c or -f, runs those commands and exits; otherwise reads commands from standard \
            input, interactively when it is a terminal. Exit status: 0 when every command succeeded, \
            1 when any failed, 3 when none failed but 'limits check' found a crossed limit, 64 for a bad \
            command line.
            """)

    @Argument(
        help: ArgumentHelp(
            "Data to load, merged when several: a file (sessions JSON, NDJSON, CSV, ActivityWatch or Timewarrior export), an http(s) URL, aw://HOST:PORT or activitywatch, - for standard input, store for the store; absent: the store named by --db or $USAGE_SHELL_DB (one that does not exist is an error for every command that reads it), else the default store when it holds sessions, else the bundled sample (also ':sample:').",
            valueName: "source"),
        completion: .file())
    var sources: [String] = []

    @OptionGroup var shared: SharedOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var wait: WaitOptions
    @OptionGroup var report: ReportOptions
    @OptionGroup var reading: ReadingOptions
    @OptionGroup var options: ShellOptions

    func validate() throws {
        // argument-parser names a subcommand only by the word after the root's own options: after
        // another (`usage-shell --format json import x`) it runs the shell, which would read the
        // subcommand's name as a file.
        if let name = sources.first, let subcommand = Self.misplaced(name) {
            throw ValidationError(
                "\(subcommand): only --db, --tz and --device may stand before a subcommand, its own options after it (a file named \(subcommand) is ./\(subcommand))")
        }
        // A device is one of the store's: it selects among the store's sessions, nothing else's.
        if shared.device != nil, !sources.isEmpty, SourceRef(sources, home: nil) != .store {
            throw ValidationError("--device shows one device's sessions of the store: name no SOURCE (or store)")
        }
    }

    /// The subcommand `word` names, when it names one (the shell's own name too).
    static func misplaced(_ word: String) -> String? {
        UsageShellCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" }.first { $0 == word }
    }

    func run() throws {
        // A closed pipe (`| head -1`) must end the run quietly: writes then fail with EPIPE.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let plan = RunPlan(commands: options.commands, script: options.script, stdinIsTerminal: isatty(STDIN_FILENO) == 1)
        if plan.isInteractive { Interrupt.install() }
        let settings = OutputSettings.start(
            format: format.format ?? .table, color: options.color, glyphs: options.glyphs, accessible: options.accessible, width: options.width,
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, environment: environment, rawCSV: report.rawCsv)
        let shell = Wiring.shell(
            environment: environment, tz: shared.tz, timeout: wait.timeout, db: shared.db, stdin: plan.stdinUse, output: settings,
            interactive: plan.isInteractive)
        shell.model.dataZone = reading.zone
        shell.model.weekStart = report.weekStart
        if let mapping = reading.mapping { shell.model.columns = mapping }
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error, bail: options.bail)
        runner.sourceWords = sources
        // A screen where the prompt is on a terminal and results go to it; elsewhere outputs one after another.
        runner.watchDriver = plan.isInteractive && isatty(STDOUT_FILENO) == 1
            ? TerminalWatchDriver() : SignalledPlainWatchDriver(interactive: plan.isInteractive)
        let historyFile = options.noHistory ? nil : HistoryFile.defaultPath(environment: environment).map { HistoryFile(path: $0) }
        var source = sources.isEmpty
            ? SourceRef.startingSource(store: shell.environment.store, named: shell.environment.storeNamed, stores: shell.environment.stores)
            : SourceRef(sources, home: environment["HOME"])
        if let device = shared.device {
            // One device's sessions: the store's, whatever the default would have shown.
            source = .store
            do throws(ShellError) {
                shell.model.device = try shell.device(named: device)
            } catch {
                StandardStream.error.write("error: --device: \(TerminalText.sanitize(error.description))\n")
                shell.environment.stores.closeAll()
                throw ExitCode(1)
            }
        }
        let status = runner.run(
            plan, source: source, day: report.day, readScript: FileRepository.contents(of:), stdinLines: { StandardInputLines() },
            makeReader: {
                EditLineReader(
                    complete: { Completer.complete($0, shell: shell) }, historyFile: historyFile,
                    warn: { StandardStream.error.write(TerminalText.sanitize($0) + "\n") })
            })
        // The store's log written into its file: the file alone then holds everything.
        shell.environment.stores.closeAll()
        throw ExitCode(status)
    }
}
