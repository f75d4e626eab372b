// LimitCommands.swift — `limit` and `limits`: daily limits on apps, categories and sites, kept in the limits file, checked against the selected day.
import UsageCore
import UsageData
import UsageRender

extension CommandTable {
    /// A daily limit as typed: a duration of at most 24 hours, or `off`.
    enum LimitAmount: Sendable {
        case off
        case micros(Micros)
    }

    static let limitAppSlot = Slot<String>.text("APP", completion: [.apps], missing: "which app?")
    static let limitCategorySlot = Slot<String>.text("NAME", completion: [.categories])
    static let limitAmountSlot = Slot<LimitAmount>(
        "DURATION|off", completion: [.keywords(["off", "30m", "1h"])],
        invalid: { "'\($0)' is not a duration such as 30m, 1h30m or 2h (at most 24h)" },
        read: { word in
            if word.lowercased() == "off" { return .off }
            guard let micros = DurationText.parse(word), micros <= 24 * 3_600_000_000 else { return nil }
            return .micros(micros)
        })
    static let checkChoice = Choice("check", ["check"])

    static let limitCommands: [Command] = [
        Command(
            "limit",
            syntax: .alternatives([
                .sequence([.value(limitAppSlot), .value(limitAmountSlot)]),
                .sequence([.word(Keyword("category", exact: true)), .value(limitCategorySlot), .value(limitAmountSlot)]),
            ]),
            summary: "set a daily limit on an app, a category or a site (youtube.com, *.example.org; its time as sites counts it) (30m, 1h30m), or remove it with off; then show the limits",
            examples: ["limit Safari 30m", "limit category Social 1h30m", "limit youtube.com 1h", "limit Safari off"],
            explain: { args, _ in
                // Say what is wrong in the ways people get it wrong.
                var words = args[...]
                let isCategory = words.first?.lowercased() == "category" && words.count >= 2
                if isCategory { words = words.dropFirst() }
                let kind = isCategory ? "category" : "app"
                if words.count == 3, DurationText.parse(words[words.startIndex + 1]) != nil, DurationText.parse(words.last!) != nil {
                    return "write the duration as one word: \(words[words.startIndex + 1])\(words.last!)"
                }
                if words.count == 1 {
                    return "how long a day for the \(kind) '\(TerminalText.sanitize(words.first!))'? (30m, 1h30m, or off)"
                }
                return args.isEmpty ? "which app?" : "say a name and a duration (quote names with spaces)"
            }
        ) { shell, args throws(ShellError) in
            let isCategory = args[limitCategorySlot] != nil
            let name = args[limitCategorySlot] ?? args[limitAppSlot]!
            let kind = isCategory ? "category" : "app"
            let amount = args[limitAmountSlot]!
            try shell.limits.update(warn: shell.warn) { limits throws(ShellError) in
                var limits = limits
                // The name as the data or the limits spell it.
                let history = shell.model.history
                let known = (isCategory ? history.categories : history.apps) + limitNames(limits, categories: isCategory)
                let target: LimitTarget
                let resolvedName = NameMatch.resolve(name, among: uniqueByScalars(known), kind: kind)
                if !isCategory, case .failure = resolvedName, let site = siteOfLimit(name) {
                    // No app of that name, and a host name (or *.domain): a limit on a site.
                    target = .site(site.description)
                } else if !isCategory, case .failure(.unknownName(_, _, nil)) = resolvedName, SitePattern(name) != nil {
                    // A host name without a dot (`localhost`, an intranet's `wiki`) is taken as an app's:
                    // said, since `sites` lists it and `category rule` and `web ignore` take it.
                    throw .refused("no app named '\(TerminalText.sanitize(name))' in the loaded data (a site's limit needs a name with a dot, such as youtube.com)")
                } else {
                    let resolved = try resolvedName.get()
                    target = isCategory ? .category(resolved) : .app(resolved)
                }
                switch amount {
                case .micros(let micros):
                    let limit = UsageLimit(target: target, micros: micros)
                    if let k = limits.firstIndex(where: { $0.target.sameAs(target) }) { limits[k] = limit } else { limits.append(limit) }
                case .off:
                    guard limits.contains(where: { $0.target.sameAs(target) }) else {
                        let what = if case .site = target { "site" } else { kind }
                        throw named("limit").usageError("there is no limit on the \(what) '\(TerminalText.sanitize(target.name))'")
                    }
                    limits.removeAll { $0.target.sameAs(target) }
                }
                return limits
            }
            return try showLimits(shell, check: false)
        },
        Command(
            "limits", syntax: .optional(.choice(checkChoice)),
            summary: "each limit with the selected day's use and when it was crossed; check: only the crossed ones, exit status 3 when any",
            examples: ["limits", "limits check"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            try showLimits(shell, check: args[checkChoice] != nil)
        },
    ]

    /// The limits against the selected day; with `check`, an alert when any is crossed.
    static func showLimits(_ shell: Shell, check: Bool) throws(ShellError) -> CommandOutcome {
        let limits = shell.limits.current(warn: shell.warn)
        // A check that could not read the stored limits has no answer (cron must not see a pass).
        if check, let fault = shell.limits.fault, fault.contentsUnknown { throw .limitsNotChecked(path: fault.path) }
        // No limits need no data, unless the store named is not there: then that is said.
        if !limits.isEmpty || shell.awaitedStore != nil { try shell.requireData() }
        let model = shell.model
        let day = model.selectedDay
        // A site's time is read from the store's sites (only when a site has a limit).
        let spans = limits.contains { if case .site = $0.target { true } else { false } } ? try shell.siteSpans(from: day, to: day) : []
        let statuses = limits.map { limit in
            if case .site = limit.target { return LimitStatus(limit, seen: spans) }
            return LimitStatus(limit, history: model.history, date: day, zone: model.zone)
        }
        let shown = check ? statuses.filter(\.isCrossed) : statuses
        let zone = model.zone
        let json = { ReportJSON.limits(shown, day: day, zone: zone) }
        // `limits check` answers cron; `limits` is a view that draws (`save` keeps it).
        let outcome =
            check
            ? shell.renderData(json: json) { width, _ in TextReport.limitsCheck(statuses, day: day, zone: zone, width: width) }
            : shell.renderView(
                "limits", json: json,
                table: { [unowned shell] width, theme in
                    TextReport.limits(statuses, day: day, zone: zone, width: width, theme: theme, colors: theme.color ? shell.seriesColors : nil)
                }, figure: { Figure.limits(statuses, day: day, zone: zone, colors: $0) })
        if check, !shown.isEmpty, case .output(let lines) = outcome { return .alert(lines) }
        return outcome
    }

    /// The site a `limit` names that is no app: a host name with a dot (`youtube.com`,
    /// `localhost` is an app's name as much as a host's), or `*.domain`.
    static func siteOfLimit(_ word: String) -> SitePattern? {
        guard word.contains("."), let pattern = SitePattern(word) else { return nil }
        return pattern
    }

    /// The names of the app limits (or the category limits).
    static func limitNames(_ limits: [UsageLimit], categories: Bool) -> [String] {
        limits.compactMap { limit in
            switch limit.target {
            case .app(let name): return categories ? nil : name
            case .category(let name): return categories ? name : nil
            case .site: return nil
            }
        }
    }

    /// Names without repeats, compared scalar for scalar.
    static func uniqueByScalars(_ names: [String]) -> [String] {
        var seen = Set<ExactName>()
        return names.filter { seen.insert(ExactName($0)).inserted }
    }
}
