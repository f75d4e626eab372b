// UsageShellCommand.swift — the executable's entry: the root command, whose subcommands are the shell (the default), import, export, record and web-host, argv parsed by argument-parser and its errors said as the program's; and the real world a shell is wired to. Thin by design.
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

/// `usage-shell`: the shell (the default subcommand), `import`, `export` and `record`, as
/// argument-parser's subcommands. The root reads only the options every command uses (the
/// store, the zone, the device), wherever they stand on the line; the rest are each
/// subcommand's own, so argument-parser refuses one a subcommand cannot use as unknown.
@main
struct UsageShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage-shell",
        abstract: "Explore app-usage (screen time) data in a terminal.",
        usage: """
            usage-shell [SOURCE...] [<options>] [-c COMMAND]... [-f SCRIPT]
              usage-shell import SOURCE... [<options>]
              usage-shell export TARGET [<options>]
              usage-shell record [<options>]
              usage-shell web-host [--manifest chromium|chrome|firefox]
            """,
        discussion: """
            With no subcommand, the shell: with -c or -f, runs those commands and exits; otherwise reads \
            commands from standard input, interactively when it is a terminal. Exit status: 0 when every \
            command succeeded, 1 when any failed, 3 when none failed but 'limits check' found a crossed \
            limit, 64 for a bad command line. The options every command uses (--db, --tz and --device) may stand before or \
            after the subcommand; a subcommand's own (--format, --timeout, --day…) follow it, and one it \
            cannot use is an unknown option. SOURCE and the shell's own options (which stand anywhere \
            when no subcommand is named): 'usage-shell shell --help'. A file named like a subcommand is \
            ./import. 'usage-shell SUBCOMMAND --help' describes one.
            """,
        version: UsageShellVersion.string,
        subcommands: [ShellCommand.self, ImportCommand.self, ExportCommand.self, RecordCommand.self, WebHostCommand.self],
        defaultSubcommand: ShellCommand.self
    )

    /// Each subcommand declares this group too: argument-parser reads it once, here, and hands
    /// the subcommand the same values (its `--help` lists them).
    @OptionGroup var shared: SharedOptions

    /// Parses, runs and exits; argument errors are printed as `error: …` like the program's own.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // A browser starting its native host runs the binary with its own arguments alone.
        if BrowserFamily.isBrowserCall(arguments) { arguments = ["web-host"] + arguments }
        // The recorder runs for hours: the program's start (relocations, runtime set-up) is
        // given back before the options are parsed (docs/PERFORMANCE.md, the recorder).
        if arguments.contains("record") { ResidentMemory.settle() }
        if let shell = CompletionScripts.requested(arguments) {
            print(CompletionScripts.script(for: shell))
            Glibc.exit(0)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Glibc.exit(0)
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
            stdin: stdin, store: OpenStores.shared.location(named: db, environment: environment),
            storeNamed: db != nil || !(environment["USAGE_SHELL_DB"] ?? "").isEmpty, stores: OpenStores.shared, now: now,
            recorderBackends: BackendChoice.names)
        return Shell(model: model, output: output, environment: shellEnvironment)
    }
}
