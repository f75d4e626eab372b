// SourceCommands.swift — the commands about where data comes from, what it is worth and where it goes: `load` (one or more sources), `retry`, `check`, `rules` and `export`.
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let sourceSlot = Slot<String>(
        "SOURCE", completion: [.paths, .keywords([SourceRef.sampleName, SourceRef.activityWatchName])],
        invalid: { _ in "a source is empty" }, read: { $0.isEmpty ? nil : $0 })
    static let exportFileSlot = Slot<String>(
        "FILE", completion: [.paths], missing: "which file?", invalid: { _ in "one file (quote paths with spaces)" },
        read: { $0.isEmpty ? nil : $0 })
    static let reportChoice = Choice("report", [Keyword("report", exact: true)])

    static let checkCommand = Command(
        "check", summary: "data quality: skipped rows by reason with examples, overlapping time, days covered",
        examples: ["check"],
        watch: .shows
    ) { shell, _ throws(ShellError) in
        try shell.requireData()
        let q = DataQuality(history: shell.model.history, zone: shell.model.zone)
        return shell.renderData(json: { ReportJSON.check(q) }, csv: .record, table: { TextReport.check(q, width: $0, theme: $1) })
    }

    static let sourceCommands: [Command] = [
        Command(
            "load", abbreviations: ["l"], syntax: .many(sourceSlot),
            summary: "load sources and merge them: files (JSON, NDJSON, CSV, ActivityWatch or Timewarrior exports), "
                + "http(s) URLs, aw://HOST:PORT, - for stdin; alone, reload the current source",
            examples: [
                "load ~/screen-time.json", "load phone.json laptop.csv", "load aw://localhost:5600", "load activitywatch",
                "load https://example.com/usage.json", "load :sample:", "load",
            ]
        ) { shell, args throws(ShellError) in
            let sources = args.all(sourceSlot)
            // Alone: the current source, or the one whose load failed when none has loaded.
            let source = sources.isEmpty
                ? shell.model.loadedSource ?? shell.model.retrySource ?? .sample
                : SourceRef(sources, home: shell.home)
            return shell.load(source)
        },
        Command(
            "retry", summary: "run the last failed load again", examples: ["retry"]
        ) { shell, _ throws(ShellError) in
            guard let source = shell.model.retrySource else { throw .nothingToRetry }
            return shell.load(source)
        },
        Command(
            "rules",
            summary: "the category rules (categories.json), read anew and applied: what each categorised, and the time still uncategorised",
            examples: ["rules"],
            watch: .shows
        ) { shell, _ throws(ShellError) in
            try shell.requireData()
            let rules = try shell.applyRules()
            let summary = rulesSummary(rules, file: shell.rules.file?.path, history: shell.model.rawHistory)
            return shell.render(json: { ReportJSON.rules(summary) }, table: { TextReport.rules(summary, width: $0, theme: $1) })
        },
        Command(
            "export",
            syntax: .alternatives([
                .sequence([.value(exportFileSlot), .flag("--force")]),
                .sequence([.choice(reportChoice), .value(exportFileSlot), .flag("--force")]),
            ]),
            summary: "write the loaded sessions (.json, .ndjson or .csv, by extension), or the day's app list (report); "
                + "an existing file only with --force; store:LOCATION copies the store into another (its devices and tracked time too)",
            examples: ["export sessions.json", "export sessions.csv", "export report today.csv", "export report today.csv --force", "export store:backup.sqlite"],
            tooMany: "one file (quote paths with spaces)"
        ) { shell, args throws(ShellError) in
            let force = args.has("--force")
            let typed = args[exportFileSlot]!
            let report = args[reportChoice] != nil
            // `export store:LOCATION`: the store copied into another (made when new).
            if !report, case .storeAt(let name) = SourceRef(typed, home: shell.home) {
                let source = try shell.storeReader()
                let into = StoreLocation(name)
                return try copyStore(shell, from: source.location, into: into) { () throws(ShellError) in
                    do throws(StoreError) {
                        return try OpenStores.shared.writer(into, create: true)
                    } catch {
                        throw .store(error)
                    }
                }
            }
            guard let format = ExportFormat(path: typed), !(report && format == .ndjson) else {
                let names = report ? ".csv or .json" : ".json, .ndjson (.jsonl) or .csv"
                throw named("export").usageError("cannot tell the format of '\(TerminalText.sanitize(typed))': name it \(names)")
            }
            try shell.requireData()
            guard case .file(let path) = SourceRef(typed, home: shell.home) else {
                throw named("export").usageError("'\(TerminalText.sanitize(typed))' is not a file name")
            }
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
        },
    ]

    /// What `rules` shows: each rule with what it categorised, and the time left uncategorised.
    static func rulesSummary(_ rules: CategoryRules?, file: String?, history: some SessionHistory) -> RulesSummary {
        // No rules measure as an empty list (nothing to compile, so nothing can fail).
        let effect = (rules ?? (try? CategoryRules([])))?.effect(on: history)
        let list = (rules?.rules ?? []).enumerated().map { k, rule in
            RulesSummary.Rule(
                pattern: rule.pattern, category: rule.category, apps: effect?.perRule[k].apps ?? 0,
                micros: effect?.perRule[k].micros ?? 0)
        }
        return RulesSummary(file: file, hasFile: rules != nil, rules: list, uncategorised: effect?.uncategorised ?? [])
    }
}
