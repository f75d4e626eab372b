// ExportCommand.swift — `usage-shell export TARGET`: the shell's `export` as a command of its own, `import`'s way back: the store into another store (store:LOCATION), every session in it to a file, or a day's app list (report FILE); no prompt, the exit status says whether it worked.
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
        abstract: "Write the store out: into another store, or its sessions or a day's app list to a file.",
        discussion:
            "The same as the shell's 'export' with the store loaded. store:LOCATION (a SQLite file or a postgresql:// URL) copies the store into that one, made when new, with its devices and tracked time; a file ending .json, .ndjson (.jsonl) or .csv gets every session; report FILE (.csv or .json) the app list of the day --day selects (default: the last day a session starts on, the day the shell opens on). Exit status: 0 when it was written, 1 when not.")

    @Argument(
        help: ArgumentHelp("store:LOCATION; a file ending .json, .ndjson (.jsonl) or .csv; or report FILE.", valueName: "target"),
        completion: .file())
    var target: [String] = []

    @Flag(help: "Replace a file that is already there.")
    var force = false

    @Option(help: ArgumentHelp("The store's database; default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite.", valueName: "path"), completion: .file())
    var db: String?

    @Option(help: "The day whose app list report FILE writes: YYYY-MM-DD, today, yesterday, first, last, monday…sunday.")
    var day: String?

    @Option(help: "The time zone days are cut in (IANA name or UTC); default: $TZ, else the system's.")
    var tz: String?

    @Option(help: "Output: table, json or csv (RFC 4180, the JSON's fields).")
    var format: OutputFormat = .table

    @Flag(help: "Write CSV cells as they are, without the ' that keeps a spreadsheet from running a cell as a formula.")
    var rawCsv = false

    func validate() throws {
        if let tz, let problem = Settings.problem("tz", tz) { throw ValidationError(problem.hasPrefix("tz") ? "--" + problem : problem) }
        switch target.count {
        case 0: throw ValidationError("what to write? (store:LOCATION, a file ending .json, .ndjson or .csv, or report FILE)")
        case 1: if target[0] == "report" { throw ValidationError("report: which file? (report FILE, ending .csv or .json)") }
        case 2: if target[0] != "report" { throw ValidationError("one target (quote paths with spaces), or report FILE") }
        default: throw ValidationError("one target (quote paths with spaces), or report FILE")
        }
        if day != nil, target[0] != "report" { throw ValidationError("--day selects the day of report FILE") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let shell = Wiring.shell(
            environment: environment, tz: tz, timeout: nil, db: db, stdin: .available,
            output: OutputSettings(format: format, rawCSV: rawCsv), interactive: false)
        // `bail`: a --day that selects nothing stops the run before anything is written.
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error, bail: true)
        runner.numbersLines = false
        // A file takes the store's sessions (or a day of them), loaded as the shell loads them;
        // another store is copied from this one's tables.
        let intoStore = if case .storeAt = SourceRef(target[0], home: environment["HOME"]) { true } else { false }
        if intoStore || (runner.loadInitial(.store) && day.map(runner.selectInitialDay) ?? true) {
            runner.run(lines: ["export " + target.map(Tokenizer.quoted).joined(separator: " ") + (force ? " --force" : "")])
        }
        OpenStores.shared.closeAll()
        throw ExitCode(runner.exitStatus)
    }
}
