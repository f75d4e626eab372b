// UsageShellCommand.swift — the executable's entry: argv parsed (Options.swift), the terminal probed, the real dependencies wired, the run handed to Runner, its status the exit code. Thin by design.
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageRender
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

extension UsageShellCommand {
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

        let plan = RunPlan(commands: commands, script: script, stdinIsTerminal: isatty(STDIN_FILENO) == 1)
        if plan.isInteractive { Interrupt.install() }
        let output = OutputSettings.start(
            format: format, color: color, glyphs: glyphs, accessible: accessible, width: width,
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, environment: environment)
        let shell = Shell(model: model, output: output, environment: shellEnvironment(plan, environment))
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error, bail: bail)
        let historyFile = noHistory ? nil : HistoryFile.defaultPath(environment: environment).map { HistoryFile(path: $0) }
        let status = runner.run(
            plan, source: sources.isEmpty ? .sample : SourceRef(sources, home: environment["HOME"]), day: day,
            readScript: FileRepository.contents(of:), stdinLines: { StandardInputLines() },
            makeReader: {
                EditLineReader(
                    complete: { Completer.complete($0, shell: shell) }, historyFile: historyFile,
                    warn: { StandardStream.error.write(TerminalText.sanitize($0) + "\n") })
            })
        throw ExitCode(status)
    }

    /// The real world the shell runs in: the home folder, the terminal's width, the spinner at a
    /// terminal, the limits and rules files, what `-` may read.
    private func shellEnvironment(_ plan: RunPlan, _ environment: [String: String]) -> ShellEnvironment {
        var presenter: any LoadPresenter = DirectLoadPresenter()
        if plan.isInteractive, isatty(STDERR_FILENO) == 1 {
            presenter = TerminalLoadPresenter(stream: StandardStream.error) { Terminal.width(environment: environment, fd: STDERR_FILENO) }
        }
        // Only the prompt's results, shown at a terminal, are paged or cleared.
        let screen: (any TerminalScreen)? = plan.isInteractive && isatty(STDOUT_FILENO) == 1 ? StdoutScreen(environment: environment) : nil
        return ShellEnvironment(
            home: environment["HOME"], terminalWidth: { Terminal.width(environment: environment) }, screen: screen,
            pager: Pager.command(environment: environment),
            loadPresenter: presenter,
            limitsFile: LimitsFile.defaultPath(environment: environment).map(LimitsFile.init(path:)),
            rulesFile: CategoryRulesFile.defaultPath(environment: environment).map(CategoryRulesFile.init(path:)),
            stdin: plan.stdinUse)
    }
}
