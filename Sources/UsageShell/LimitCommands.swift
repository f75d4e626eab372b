// LimitCommands.swift — `limit` and `limits`: daily limits on apps and categories, kept in the limits file, checked against the selected day.
import UsageCore
import UsageData
import UsageRender

extension CommandTable {
    static let limitUsage = "limit APP DURATION|off, limit category NAME DURATION|off"
    static let limitsUsage = "limits [check]"

    static let limitCommands: [Command] = [
        Command(
            name: "limit", aliases: [], usage: limitUsage,
            summary: "set a daily limit on an app or a category (30m, 1h30m), or remove it with off; then show the limits",
            examples: ["limit Safari 30m", "limit category Social 1h30m", "limit Safari off"],
            arguments: { args in
                switch args.count {
                case 0: return [.apps, .keywords(["category"])]
                case 1 where args[0].lowercased() == "category": return [.categories]
                case 1, 2 where args[0].lowercased() == "category": return [.keywords(["off", "30m", "1h"])]
                default: return []
                }
            }
        ) { shell, args throws(ShellError) in
            var words = args[...]
            let isCategory = words.first?.lowercased() == "category" && words.count >= 2
            if isCategory { words = words.dropFirst() }
            let kind = isCategory ? "category" : "app"
            guard words.count == 2 else {
                // Say what is wrong in the ways people get it wrong.
                if words.count == 3, DurationText.parse(words[words.startIndex + 1]) != nil, DurationText.parse(words.last!) != nil {
                    throw .usage(command: "limit", problem: "write the duration as one word: \(words[words.startIndex + 1])\(words.last!)", usage: limitUsage)
                }
                if words.count == 1 {
                    throw .usage(command: "limit", problem: "how long a day for the \(kind) '\(TerminalText.sanitize(words.first!))'? (30m, 1h30m, or off)", usage: limitUsage)
                }
                throw .usage(command: "limit", problem: args.isEmpty ? "which app?" : "say a name and a duration (quote names with spaces)", usage: limitUsage)
            }
            let (name, amount) = (words[words.startIndex], words[words.startIndex + 1])
            let micros = amount.lowercased() == "off" ? nil : DurationText.parse(amount)
            if amount.lowercased() != "off" {
                guard let micros, micros <= 24 * 3_600_000_000 else {
                    throw .usage(command: "limit", problem: "'\(amount)' is not a duration such as 30m, 1h30m or 2h (at most 24h)", usage: limitUsage)
                }
            }
            try shell.updateLimits { limits throws(ShellError) in
                var limits = limits
                // The name as the data or the limits spell it.
                let known = (isCategory ? shell.model.dataset.categories : shell.model.dataset.apps) + limitNames(limits, categories: isCategory)
                let resolved = try NameMatch.resolve(name, among: uniqueByScalars(known), kind: kind).get()
                let target: LimitTarget = isCategory ? .category(resolved) : .app(resolved)
                if let micros {
                    let limit = UsageLimit(target: target, micros: micros)
                    if let k = limits.firstIndex(where: { $0.target.sameAs(target) }) { limits[k] = limit } else { limits.append(limit) }
                } else {
                    guard limits.contains(where: { $0.target.sameAs(target) }) else {
                        throw .usage(command: "limit", problem: "there is no limit on the \(kind) '\(TerminalText.sanitize(resolved))'", usage: limitUsage)
                    }
                    limits.removeAll { $0.target.sameAs(target) }
                }
                return limits
            }
            return try showLimits(shell, check: false)
        },
        Command(
            name: "limits", aliases: [], usage: limitsUsage,
            summary: "each limit with the selected day's use and when it was crossed; check: only the crossed ones, exit status 3 when any",
            examples: ["limits", "limits check"],
            arguments: { $0.isEmpty ? [.keywords(["check"])] : [] }
        ) { shell, args throws(ShellError) in
            guard args.count <= 1 else { throw .usage(command: "limits", problem: "too many arguments", usage: limitsUsage) }
            if let word = args.first, Settings.unique(word, among: ["check"]) == nil {
                throw .usage(command: "limits", problem: "'\(word)' is not check", usage: limitsUsage)
            }
            return try showLimits(shell, check: !args.isEmpty)
        },
    ]

    /// The limits against the selected day; with `check`, an alert when any is crossed.
    static func showLimits(_ shell: Shell, check: Bool) throws(ShellError) -> CommandOutcome {
        let limits = shell.limits()
        // A check that could not read the stored limits has no answer (cron must not see a pass).
        if check, let fault = shell.limitsFault, fault.limitsUnknown { throw .limitsNotChecked(path: fault.path) }
        if !limits.isEmpty { try shell.requireData() }
        let model = shell.model
        let day = model.selectedDay
        let statuses = limits.map { LimitStatus($0, dataset: model.dataset, date: day, zone: model.zone) }
        let shown = check ? statuses.filter(\.isCrossed) : statuses
        let outcome = shell.render(json: { ReportJSON.limits(shown, day: day, zone: model.zone) }) { width, theme in
            check
                ? TextReport.limitsCheck(statuses, day: day, zone: model.zone, width: width)
                : TextReport.limits(statuses, day: day, zone: model.zone, width: width, theme: theme)
        }
        if check, !shown.isEmpty, case .output(let lines) = outcome { return .alert(lines) }
        return outcome
    }

    /// The names of the app limits (or the category limits).
    static func limitNames(_ limits: [UsageLimit], categories: Bool) -> [String] {
        limits.compactMap { limit in
            switch limit.target {
            case .app(let name): return categories ? nil : name
            case .category(let name): return categories ? name : nil
            }
        }
    }

    /// Names without repeats, compared scalar for scalar.
    static func uniqueByScalars(_ names: [String]) -> [String] {
        var seen = Set<ExactName>()
        return names.filter { seen.insert(ExactName($0)).inserted }
    }
}
