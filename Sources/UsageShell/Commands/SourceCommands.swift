// SourceCommands.swift — the commands about where data comes from and what it is worth: `load` (one or more sources), `retry`, `check` and `rules` (`export`, where it goes, has a file of its own).
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let sourceSlot = Slot<String>(
        "SOURCE", completion: [.paths, .keywords([SourceRef.sampleName, SourceRef.activityWatchName])],
        invalid: { _ in "a source is empty" }, read: { $0.isEmpty ? nil : $0 })

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
            "retry", summary: "run the last failed load (or cancelled import) again", examples: ["retry"]
        ) { shell, _ throws(ShellError) in
            if let request = shell.model.retryImport { return try importSources(shell, request, retry: true) }
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
