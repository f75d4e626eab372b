// SourceCommands.swift — the commands about where data comes from and goes: `load` (one or more sources), `retry`, `rules` and `export`.
import UsageCore
import UsageData
import UsageRender

extension CommandTable {
    static let loadUsage = "load [SOURCE...]"
    static let exportUsage = "export FILE [--force], export report FILE [--force]"

    static let sourceCommands: [Command] = [
        Command(
            name: "load", aliases: [], abbreviations: ["l"], usage: loadUsage,
            summary: "load sources and merge them: files (JSON, NDJSON, CSV, ActivityWatch or Timewarrior exports), "
                + "http(s) URLs, aw://HOST:PORT, - for stdin; alone, reload the current source",
            examples: [
                "load ~/screen-time.json", "load phone.json laptop.csv", "load aw://localhost:5600", "load activitywatch",
                "load https://example.com/usage.json", "load :sample:", "load",
            ],
            arguments: { _ in [.paths, .keywords([SourceRef.sampleName, SourceRef.activityWatchName])] }
        ) { shell, args throws(ShellError) in
            guard !args.contains("") else { throw .usage(command: "load", problem: "a source is empty", usage: loadUsage) }
            // Alone: the current source, or the one whose load failed when none has loaded.
            let source = args.isEmpty
                ? shell.model.loadedSource ?? shell.model.retrySource ?? .sample
                : SourceRef(args, home: shell.home)
            return shell.load(source)
        },
        Command(
            name: "retry", aliases: [], usage: "retry",
            summary: "run the last failed load again",
            examples: ["retry"], arguments: { _ in [] }
        ) { shell, args throws(ShellError) in
            try noArguments("retry", args, usage: "retry")
            guard let source = shell.model.retrySource else { throw .nothingToRetry }
            return shell.load(source)
        },
        Command(
            name: "rules", aliases: [], usage: "rules",
            summary: "the category rules (categories.json), read anew and applied: what each categorised, and the time still uncategorised",
            examples: ["rules"], arguments: { _ in [] }
        ) { shell, args throws(ShellError) in
            try noArguments("rules", args, usage: "rules")
            try shell.requireData()
            let rules = try shell.applyRules()
            let summary = rulesSummary(rules, file: shell.rulesFile?.path, dataset: shell.model.rawDataset)
            return shell.render(json: { ReportJSON.rules(summary) }, table: { TextReport.rules(summary, width: $0, theme: $1) })
        },
        Command(
            name: "export", aliases: [], usage: exportUsage,
            summary: "write the loaded sessions (.json, .ndjson or .csv, by extension), or the day's app list (report); "
                + "an existing file only with --force",
            examples: ["export sessions.json", "export sessions.csv", "export report today.csv", "export report today.csv --force"],
            arguments: { args in
                args.isEmpty ? [.paths, .keywords(["report"])] : [.paths, .keywords(["--force"])]
            }
        ) { shell, args throws(ShellError) in
            var words = args
            let force = words.contains("--force")
            words.removeAll { $0 == "--force" }
            let report = words.first?.lowercased() == "report" && (words.count == 2 || ExportFormat(path: words[0]) == nil)
            if report { words.removeFirst() }
            guard words.count == 1, let typed = words.first, !typed.isEmpty else {
                throw .usage(command: "export", problem: words.isEmpty ? "which file?" : "one file (quote paths with spaces)", usage: exportUsage)
            }
            guard let format = ExportFormat(path: typed), !(report && format == .ndjson) else {
                let names = report ? ".csv or .json" : ".json, .ndjson (.jsonl) or .csv"
                throw .usage(
                    command: "export", problem: "cannot tell the format of '\(TerminalText.sanitize(typed))': name it \(names)",
                    usage: exportUsage)
            }
            try shell.requireData()
            guard case .file(let path) = SourceRef(typed, home: shell.home) else {
                throw .usage(command: "export", problem: "'\(TerminalText.sanitize(typed))' is not a file name", usage: exportUsage)
            }
            let model = shell.model
            if report {
                let r = model.report
                do throws(ExportError) {
                    try ExportFile.write(SessionsExport.report(r, format: format), to: path, force: force)
                } catch {
                    throw .export(error)
                }
                return shell.render(json: { ReportJSON.exported(path: path, format: format, day: r.day, rows: r.apps.count) }) { _, _ in
                    ["exported the app list of \(TextFormat.shortWeekday(r.day)) \(r.day) (\(r.apps.count) app\(r.apps.count == 1 ? "" : "s")) to \(TerminalText.sanitize(path))"]
                }
            }
            let dataset = model.dataset
            do throws(ExportError) {
                try ExportFile.write(SessionsExport.sessions(dataset, format: format), to: path, force: force)
            } catch {
                throw .export(error)
            }
            let n = dataset.sessions.count
            return shell.render(json: { ReportJSON.exported(path: path, format: format, day: nil, rows: n) }) { _, _ in
                ["exported \(n) session\(n == 1 ? "" : "s") to \(TerminalText.sanitize(path)) (\(format.rawValue))"]
            }
        },
    ]

    /// What `rules` shows: each rule with what it categorised, and the time left uncategorised.
    static func rulesSummary(_ rules: CategoryRules?, file: String?, dataset: Dataset) -> RulesSummary {
        // No rules measure as an empty list (nothing to compile, so nothing can fail).
        let effect = (rules ?? (try? CategoryRules([])))?.effect(on: dataset)
        let list = (rules?.rules ?? []).enumerated().map { k, rule in
            RulesSummary.Rule(
                pattern: rule.pattern, category: rule.category, apps: effect?.perRule[k].apps ?? 0,
                micros: effect?.perRule[k].micros ?? 0)
        }
        return RulesSummary(file: file, hasFile: rules != nil, rules: list, uncategorised: effect?.uncategorised ?? [])
    }
}
