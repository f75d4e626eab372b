// ExportCommands.swift — `export` (its words made an ExportRequest), where the loaded data goes: its sessions to a file (.json, .ndjson, .csv), the day's app list (report), any view's CSV or JSON (a timesheet for a client), or the store into another (store:LOCATION; one already there is merged into only after a yes or --force).
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let exportFileSlot = Slot<String>(
        "FILE", completion: [.paths], missing: "which file?", invalid: { _ in "one file (quote paths with spaces)" },
        read: { $0.isEmpty ? nil : $0 })
    static let reportChoice = Choice("report", [Keyword("report", exact: true)])
    /// The commands whose output `export VIEW … FILE` writes: every command that shows data
    /// (those `watch` may show alone; `item8ExportTakesEveryViewThatWatchMayShow` checks the two lists agree).
    public static let exportViews = [
        "show", "day", "chart", "apps", "app", "hour", "week", "days", "insights", "summary", "month", "timesheet", "check", "rules",
        "store", "imports", "devices", "tasks", "task", "categories", "status", "today", "calendar", "sessions", "limits", "sites",
    ]
    static let viewSlot = Slot<Command>(
        "VIEW", completion: [.keywords(exportViews)], missing: "which view?",
        invalid: { word in
            // A path where a view would stand: two files named, or a name with spaces unquoted.
            word.contains(".") || word.contains("/")
                ? "one file (quote paths with spaces)" : "'\(word)' is not a view to export (\(exportViews.joined(separator: ", ")))"
        },
        read: { word in exportViews.contains(word.lowercased()) ? named(word.lowercased()) : nil })
    static let viewArgumentSlot = Slot<String>("ARG", invalid: { _ in "an argument is empty" }, read: { $0 })

    static let exportCommand = Command(
        "export",
        syntax: .alternatives([
            .sequence([.value(exportFileSlot), .flag("--force")]),
            .sequence([.choice(reportChoice), .value(exportFileSlot), .flag("--force")]),
            .sequence([.value(viewSlot), .many(viewArgumentSlot), .value(exportFileSlot), .flag("--force")]),
        ]),
        summary: "write the loaded sessions (.json, .ndjson or .csv, by extension), the day's app list (report), or any view "
            + "with its arguments as its CSV or JSON (.csv or .json); an existing file only with --force; store:LOCATION copies the "
            + "store into another (its devices, tracked time and sites too; into one already there only after a yes, or --force)",
        examples: [
            "export sessions.json", "export sessions.csv", "export report today.csv", "export report today.csv --force",
            "export timesheet last month october.csv", "export summary 2026-10 october.json", "export store:backup.sqlite",
        ],
        tooMany: "one file (quote paths with spaces)"
    ) { shell, args throws(ShellError) in
        let typed = args[exportFileSlot]!
        let target: ExportRequest.Target =
            if let view = args[viewSlot] {
                .view(view.name, arguments: args.all(viewArgumentSlot), file: typed)
            } else if args[reportChoice] != nil {
                .report(typed)
            } else {
                .file(typed)
            }
        return try export(shell, ExportRequest(target: target, force: args.has("--force")))
    }

    /// `export`, as the prompt's words or `usage-shell export`'s arguments ask it.
    static func export(_ shell: Shell, _ request: ExportRequest) throws(ShellError) -> CommandOutcome {
        let force = request.force
        let typed: String
        let report: Bool
        switch request.target {
        case .view(let name, let arguments, let file):
            // The prompt's syntax read these words already; a typed request's are read the same way.
            let command = named("export")
            let view = try viewSlot.value(name, of: command)
            for argument in arguments { _ = try viewArgumentSlot.value(argument, of: command) }
            return try exportView(shell, view, arguments, to: try exportFileSlot.value(file, of: command), force: force)
        case .report(let file): (typed, report) = (try exportFileSlot.value(file, of: named("export")), true)
        case .file(let file): (typed, report) = (try exportFileSlot.value(file, of: named("export")), false)
        }
        // `export store:LOCATION`: the store copied into another (made when new).
        if !report, case .storeAt(let name) = SourceRef(typed, home: shell.home) {
            return try exportStore(shell, into: StoreLocation(name), typed: typed, force: force)
        }
        guard let format = ExportFormat(path: typed), !(report && format == .ndjson) else {
            let names = report ? ".csv or .json" : ".json, .ndjson (.jsonl) or .csv"
            throw named("export").usageError("cannot tell the format of '\(TerminalText.sanitize(typed))': name it \(names)")
        }
        try shell.requireData()
        let path = try exportPath(shell, typed)
        let model = shell.model
        if report {
            let r = model.report
            do throws(ExportError) {
                try ExportFile.write(SessionsExport.report(r, format: format, cells: shell.output.fileCells), to: path, force: force)
            } catch {
                throw .export(error)
            }
            return shell.render(json: { ReportJSON.exported(path: path, format: format, day: r.day, rows: r.apps.count) }) { _, _ in
                ["exported the app list of \(TextFormat.shortWeekday(r.day)) \(r.day) (\(r.apps.count) app\(r.apps.count == 1 ? "" : "s")) to \(TerminalText.sanitize(path))"]
            }
        }
        let history = model.history
        do throws(ExportError) {
            let cells = shell.output.fileCells
            try ExportFile.write(to: path, force: force) { sink in
                SessionsExport.write(history, format: format, cells: cells, to: sink)
            }
        } catch {
            throw .export(error)
        }
        let n = history.sessionCount
        return shell.render(json: { ReportJSON.exported(path: path, format: format, day: nil, rows: n) }) { _, _ in
            ["exported \(n) session\(n == 1 ? "" : "s") to \(TerminalText.sanitize(path)) (\(format.rawValue))"]
        }
    }

    /// The path FILE names (`~/` expanded); a word that names no file is refused.
    private static func exportPath(_ shell: Shell, _ typed: String) throws(ShellError) -> String {
        guard case .file(let path) = SourceRef(typed, home: shell.home) else {
            throw named("export").usageError("'\(TerminalText.sanitize(typed))' is not a file name")
        }
        return path
    }

    /// `export VIEW [ARG…] FILE`: the view run with its arguments as `--format csv` (or `json`,
    /// by FILE's extension) prints it, written to FILE as `export report` writes: atomically, an
    /// existing file only with `--force`, cells guarded as in every file (not escaped as for a
    /// terminal).
    static func exportView(_ shell: Shell, _ view: Command, _ words: [String], to typed: String, force: Bool) throws(ShellError) -> CommandOutcome {
        let format: OutputFormat
        switch ExportFormat(path: typed) {
        case .csv?: format = .csv
        case .json?: format = .json
        default: throw named("export").usageError("cannot tell the format of '\(TerminalText.sanitize(typed))': name it .csv or .json")
        }
        let path = try exportPath(shell, typed)
        let kept = shell.output
        shell.output.format = format
        shell.output.stdoutIsTerminal = false
        let outcome: CommandOutcome
        do {
            outcome = try view.run(shell, words)
            shell.output = kept
        } catch {
            shell.output = kept
            throw error
        }
        let lines: [String]
        switch outcome {
        case .output(let out), .alert(let out): lines = out
        case .failed(let error): throw error
        default: throw named("export").usageError("'\(view.name)' shows nothing to write here")
        }
        do throws(ExportError) {
            try ExportFile.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: path, force: force)
        } catch {
            throw .export(error)
        }
        let shown = ([view.name] + words).joined(separator: " ")
        return shell.render(json: { .object([("exported", .string(path)), ("view", .string(shown)), ("format", .string(format.rawValue))]) }, csv: .record) {
            _, _ in ["exported \(TerminalText.sanitize(shown)) to \(TerminalText.sanitize(path)) (\(format.rawValue))"]
        }
    }

    /// `export store:LOCATION`: the store copied into another, made when new. One that is there
    /// already is merged into (each session kept once), as `import store:` merges: asked first
    /// at a terminal, refused in a batch run without `--force`, as a file already there is.
    static func exportStore(_ shell: Shell, into: StoreLocation, typed: String, force: Bool) throws(ShellError) -> CommandOutcome {
        let source = try shell.store.reader()
        let copy = { () throws(ShellError) -> CommandOutcome in
            try copyStore(shell, from: source.location, into: into) { () throws(ShellError) in
                do throws(StoreError) {
                    return try shell.store.stores.writer(into, create: true)
                } catch {
                    throw .store(error)
                }
            }
        }
        guard !force, into.identity != source.location.identity, let existing = try? shell.store.stores.reader(into) else { return try copy() }
        let sessions = ((try? existing.devices()) ?? []).reduce(0) { $0 + $1.sessions }
        let shown = TerminalText.sanitize(existing.location.description)
        let holding = "\(sessions) session\(sessions == 1 ? "" : "s")"
        return .confirm(
            Confirmation(
                question: "'\(shown)' is a store already (\(holding)): merge this store into it (each session kept once)?",
                withYes: "export \(typed) --force",
                refusal: .refused("'\(shown)' is a store already (\(holding)): add --force to merge this store into it (each session kept once)"),
                proceed: {
                    do throws(ShellError) {
                        return try copy()
                    } catch {
                        return .failed(error)
                    }
                }))
    }
}
