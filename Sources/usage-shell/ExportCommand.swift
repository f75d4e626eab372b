// ExportCommand.swift — `usage-shell export TARGET`: the shell's `export` as a command of its own, asked as the prompt's command is (one `ExportRequest`), `import`'s way back: the store into another store (store:LOCATION), every session in it to a file, or a day's app list (report FILE); no prompt, the exit status says whether it worked.
import ArgumentParser
import Foundation
import UsageData
import UsageRender
import UsageShell
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the store out: into another store, or its sessions or a day's app list to a file.",
        discussion:
            "The same as the shell's 'export' with the store loaded. store:LOCATION (a SQLite file or a postgresql:// URL) copies the store into that one, made when new, with its devices and tracked time; a file ending .json, .ndjson (.jsonl) or .csv gets every session; report FILE (.csv or .json) the app list of the day --day selects (default: the last day a session starts on, the day the shell opens on); with --device, of that device's sessions alone. A store that is there already is merged into only with --force, as a file is replaced. Exit status: 0 when it was written, 1 when not.")

    @Argument(
        help: ArgumentHelp("store:LOCATION; a file ending .json, .ndjson (.jsonl) or .csv; report FILE; or a VIEW [ARG...] FILE (.csv or .json: what the shell's view prints).", valueName: "target"),
        completion: .file())
    var target: [String] = []

    @Flag(help: "Replace a file that is already there; merge into a store that is there already.")
    var force = false

    @OptionGroup var shared: SharedOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var report: ReportOptions

    func validate() throws {
        if target.isEmpty { throw ValidationError("what to write? (store:LOCATION, a file ending .json, .ndjson or .csv, report FILE, or VIEW [ARG...] FILE)") }
        if target == ["report"] { throw ValidationError("report: which file? (report FILE, ending .csv or .json)") }
        if report.day != nil, target[0] != "report", target.count < 2 { throw ValidationError("--day selects the day of report FILE (or of a view)") }
        if shared.device != nil, target[0].hasPrefix("store:") { throw ValidationError("--device: store: copies every device of the store") }
    }

    func run() throws {
        // Asked here, not in `validate`: argument-parser refuses an unknown option after
        // `validate`, and the value of one (`--timeout 5`) reads as a word of the target.
        if target.count > 2 || (target.count == 2 && target[0] != "report"), !CommandTable.exportViews.contains(target[0].lowercased()) {
            // Not a view with its arguments and the file last (`timesheet last month oct.csv`).
            throw ValidationError("one target (quote paths with spaces), report FILE, or VIEW [ARG...] FILE")
        }
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let shell = Wiring.shell(
            environment: environment, tz: shared.tz, timeout: nil, db: shared.db, stdin: .available,
            output: OutputSettings(format: format.format ?? .table, rawCSV: report.rawCsv), interactive: false)
        shell.model.weekStart = report.weekStart
        // `bail`: a --day that selects nothing stops the run before anything is written.
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error, bail: true)
        runner.numbersLines = false
        // A file takes the store's sessions (or a day of them), loaded as the shell loads them;
        // another store is copied from this one's tables.
        let intoStore = if case .storeAt = SourceRef(target[0], home: environment["HOME"]) { true } else { false }
        if !intoStore, let device = shared.device {
            // One device's sessions (`device NAME`), as the shell shows them.
            do throws(ShellError) {
                shell.model.device = try shell.device(named: device)
            } catch {
                StandardStream.error.write("error: --device: \(TerminalText.sanitize(error.description))\n")
                OpenStores.shared.closeAll()
                throw ExitCode(1)
            }
        }
        if intoStore || (runner.loadInitial(.store) && report.day.map(runner.selectInitialDay) ?? true) {
            // The prompt's `export`, asked the same thing typed (no line is made of it).
            // `validate` refused an empty target: the words make a request.
            runner.run(ExportRequest(words: target, force: force)!)
        }
        OpenStores.shared.closeAll()
        shell.finish()
        throw ExitCode(runner.exitStatus)
    }
}
