// ImportCommand.swift — `usage-shell import SOURCE…`: the shell's `import` as a command of its own, for cron and scripts (no data loaded, no prompt; the exit status says whether it worked).
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageShell
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage-shell import",
        abstract: "Put sources into the store, each session once however often they are imported (for cron).",
        discussion: "The same as the shell's 'import' command. Exit status: 0 when every source was imported, 1 when any failed (then nothing was).")

    @Argument(
        help: ArgumentHelp(
            "What to import: a file (sessions JSON, NDJSON, CSV, ActivityWatch or Timewarrior export), an http(s) URL, aw://HOST:PORT or activitywatch, - for standard input, :sample: for the bundled sample.",
            valueName: "source"),
        completion: .file())
    var sources: [String]

    @Option(help: ArgumentHelp("The store's database; default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite.", valueName: "path"), completion: .file())
    var db: String?

    @Option(
        help: ArgumentHelp(
            "The device the sessions came from (a source that names its own, as ActivityWatch's hosts, keeps them); default: $USAGE_SHELL_DEVICE, else this machine's host name.",
            valueName: "name"))
    var device: String?

    @Option(help: "The time zone of the retention cut (IANA name or UTC); default: $TZ, else the system's.")
    var tz: String?

    @Option(help: "Output: table, json or csv (RFC 4180, the JSON's fields).")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("How long a load waits for a stream that sends nothing (seconds, 2m, 1h).", valueName: "seconds"))
    var timeout: String?

    func validate() throws {
        for (name, value) in [("tz", tz), ("timeout", timeout)] {
            guard let value, let problem = Settings.problem(name, value) else { continue }
            throw ValidationError(problem.hasPrefix(name) ? "--" + problem : problem)
        }
        if sources.isEmpty { throw ValidationError("which source? (a file, -, a URL, aw://HOST:PORT or activitywatch)") }
        if let device, device.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--device: a device's name cannot be empty") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let stdinIsTerminal = isatty(STDIN_FILENO) == 1
        let shell = Wiring.shell(
            environment: environment, tz: tz, timeout: timeout, db: db, stdin: stdinIsTerminal ? .terminal : .available,
            output: OutputSettings(format: format), interactive: false)
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error)
        let named = device.map { " --device " + Tokenizer.quoted($0) } ?? ""
        runner.numbersLines = false
        runner.run(lines: ["import " + sources.map(Tokenizer.quoted).joined(separator: " ") + named])
        // The store's log written into its file: the file alone then holds everything.
        OpenStores.shared.closeAll()
        throw ExitCode(runner.exitStatus)
    }
}
