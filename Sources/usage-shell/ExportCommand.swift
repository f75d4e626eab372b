// ExportCommand.swift — `usage-shell export TARGET`: the shell's `export` as a command of its own, `import`'s way back: the store into another store (store:LOCATION), or every session in it to a file (no prompt; the exit status says whether it worked).
import ArgumentParser
import Foundation
import UsageData
import UsageShell
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage-shell export",
        abstract: "Write the store out: into another store, or every session in it to a file.",
        discussion:
            "The same as the shell's 'export' with the store loaded. store:LOCATION (a SQLite file or a postgresql:// URL) copies the store into that one, made when new, with its devices and tracked time; a file ending .json, .ndjson (.jsonl) or .csv gets every session. Exit status: 0 when it was written, 1 when not (then nothing was).")

    @Argument(help: ArgumentHelp("store:LOCATION, or a file ending .json, .ndjson (.jsonl) or .csv.", valueName: "target"), completion: .file())
    var target: String

    @Flag(help: "Replace a file that is already there.")
    var force = false

    @Option(help: ArgumentHelp("The store's database; default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite.", valueName: "path"), completion: .file())
    var db: String?

    @Option(help: "Output: table, json or csv (RFC 4180, the JSON's fields).")
    var format: OutputFormat = .table

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let shell = Wiring.shell(
            environment: environment, tz: nil, timeout: nil, db: db, stdin: .available, output: OutputSettings(format: format),
            interactive: false)
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error)
        runner.numbersLines = false
        // A file takes the store's sessions, loaded as the shell loads them; another store is
        // copied from this one's tables.
        let intoStore = if case .storeAt = SourceRef(target, home: environment["HOME"]) { true } else { false }
        if intoStore || runner.loadInitial(.store) {
            runner.run(lines: ["export " + Tokenizer.quoted(target) + (force ? " --force" : "")])
        }
        OpenStores.shared.closeAll()
        throw ExitCode(runner.exitStatus)
    }
}
