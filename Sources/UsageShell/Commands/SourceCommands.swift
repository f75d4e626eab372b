// SourceCommands.swift — the commands about where data comes from and what it is worth: `load` (one or more sources), `retry`, `check` (and `check fix`, the sessions a store holds twice) and `rules` (`export`, where it goes, has a file of its own).
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let sourceSlot = Slot<String>(
        "SOURCE", completion: [.paths, .keywords([SourceRef.sampleName, SourceRef.activityWatchName])],
        invalid: { _ in "a source is empty" }, read: { $0.isEmpty ? nil : $0 })

    static let checkFixChoice = Choice("fix", [Keyword("fix", exact: true)])

    static let checkCommand = Command(
        "check", syntax: .optional(.sequence([.choice(checkFixChoice), .flag("--yes")])),
        summary: "data quality: skipped rows by reason with examples, overlapping time, days covered, the sessions the store holds twice; "
            + "check fix removes those (one of each kept), after asking or with --yes",
        examples: ["check", "check fix", "check fix --yes"],
        watch: .shows
    ) { shell, args throws(ShellError) in
        if args[checkFixChoice] != nil { return try removeStoredTwice(shell, yes: args.has("--yes")) }
        try shell.requireData()
        let q = DataQuality(history: shell.model.history, zone: shell.model.zone)
        // Said when a store holds sessions twice, whatever is loaded (the store is where they are).
        let twice = (try? shell.store.existing?.storedTwice()) ?? StoredTwice()
        return shell.renderData(json: { ReportJSON.check(q) }, csv: .record) { width, theme in
            TextReport.check(q, width: width, theme: theme) + (twice.total > 0 ? TextReport.wrap([storedTwiceLine(twice)], width: width) : [])
        }
    }

    /// `the store holds 1,500 sessions twice (the same device, app and start): check fix removes the copies`.
    static func storedTwiceLine(_ twice: StoredTwice) -> String {
        let why: String
        switch (twice.sameID, twice.sameAppAndStart) {
        case (_, 0): why = "the same device and id"
        case (0, _): why = "the same device, app and start"
        case let (id, appAndStart): why = "\(TextReport.grouped(id)) of the same device and id, \(TextReport.grouped(appAndStart)) of the same device, app and start"
        }
        return "the store holds \(TextFormat.count(twice.total, "session")) twice (\(why)): check fix removes the copies, one of each kept"
    }

    /// `check fix`: the sessions the store holds twice removed (the first of each kept), after asking.
    static func removeStoredTwice(_ shell: Shell, yes: Bool) throws(ShellError) -> CommandOutcome {
        let store = try shell.store.writer(create: false)
        let twice: StoredTwice
        do throws(StoreError) {
            twice = try store.storedTwice()
        } catch {
            throw .store(error)
        }
        guard twice.total > 0 else {
            // The re-keying's note, when forget or retention took the copies since, goes too.
            _ = try? store.removeStoredTwice()
            return shell.render(json: { .object([("removed", .int(0))]) }, csv: .record) { width, _ in
                TextReport.wrap(["nothing to fix: the store holds no session twice"], width: width)
            }
        }
        let fix = { () -> CommandOutcome in
            let removed: Int
            do throws(StoreError) {
                removed = try store.removeStoredTwice()
            } catch {
                return .failed(.store(error))
            }
            shell.reloadStoreIfShown()
            return shell.render(json: { .object([("removed", .int(removed))]) }, csv: .record) { width, _ in
                TextReport.wrap(["removed \(TextFormat.count(removed, "session")) the store held twice"], width: width)
            }
        }
        if yes { return fix() }
        return .confirm(
            Confirmation(
                question: "remove the \(TextFormat.count(twice.total, "session")) the store holds twice (one of each kept)?",
                withYes: "check fix --yes", proceed: fix))
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
