// CommandTable.swift — the one table of shell commands: names, usage, help, examples, argument kinds for completion, and handlers.
import UsageCore
import UsageData
import UsageRender

/// One shell command.
public struct Command: Sendable {
    public let name: String
    public let aliases: [String]
    /// Prefixes that name this command although other commands share them (`ch` is `chart`,
    /// not `check`), as gdb gives `c` to `continue`.
    public let abbreviations: [String]
    public let usage: String
    public let summary: String
    /// Typical uses, shown by `help COMMAND` (and in the README).
    public let examples: [String]
    /// What the next argument can be, given the arguments already typed (for completion).
    public let arguments: @Sendable ([String]) -> [ArgumentKind]
    let run: @Sendable (Shell, [String]) throws(ShellError) -> CommandOutcome

    init(
        name: String, aliases: [String], abbreviations: [String] = [], usage: String, summary: String,
        examples: [String], arguments: @escaping @Sendable ([String]) -> [ArgumentKind],
        run: @escaping @Sendable (Shell, [String]) throws(ShellError) -> CommandOutcome
    ) {
        self.name = name
        self.aliases = aliases
        self.abbreviations = abbreviations
        self.usage = usage
        self.summary = summary
        self.examples = examples
        self.arguments = arguments
        self.run = run
    }
}

/// The command table: dispatch, `help`, completion and "did you mean" all read it, so they
/// cannot disagree.
public enum CommandTable {
    static let dayUsage = "day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday]"
    static let chartUsage = "chart [category|hourly [by app|category]]"
    static let appsUsage = "apps [top N] [category NAME]"
    static let setUsage =
        "set [format table|json] [color auto|always|never] [glyphs auto|unicode|ascii] [accessible on|off] [width N|auto] [tz ZONE] [timer on|off] [timeout SECONDS]"

    /// The settings `set` knows, in the order it lists them.
    static let settings = ["format", "color", "glyphs", "accessible", "width", "tz", "timer", "timeout"]

    public static let all: [Command] = [
        Command(
            name: "show", aliases: [], usage: "show",
            summary: "the day screen: header, both charts (the selected one first), the app list",
            examples: ["show"], arguments: { _ in [] }
        ) { shell, args throws(ShellError) in
            try noArguments("show", args, usage: "show")
            let r = try shell.requireReport()
            return shell.render(
                json: { ReportJSON.show(r, skipped: shell.model.dataset.skipped) },
                table: {
                    TextReport.show(
                        r, hourlyFirst: shell.model.chart == .hourly, hourlyBy: shell.model.hourlyBy, width: $0, theme: $1)
                })
        },
        Command(
            name: "day", aliases: [], abbreviations: ["d"], usage: dayUsage,
            summary: "select a day and show its totals; alone, show the selected day",
            examples: ["day 2026-02-23", "day yesterday", "day -7", "day monday"],
            arguments: { $0.isEmpty ? [.days] : [] }
        ) { shell, args throws(ShellError) in
            guard args.count <= 1 else { throw .usage(command: "day", problem: "too many arguments", usage: dayUsage) }
            try shell.requireData()
            if let word = args.first { try shell.selectDay(word) }
            let r = shell.model.report
            return shell.render(json: { ReportJSON.day(r) }, table: { TextReport.header(r, width: $0, theme: $1) })
        },
        Command(
            name: "chart", aliases: [], abbreviations: ["ch"], usage: chartUsage,
            summary: "select and show a chart (hourly stacks the top apps, or by category the top categories); alone, the selected one",
            examples: ["chart hourly", "ch h", "chart hourly by category", "chart category", "chart"],
            arguments: { args in
                switch args.count {
                case 0: return [.keywords(ChartKind.allCases.map(\.rawValue))]
                case 1 where args[0].lowercased().hasPrefix("h"): return [.keywords(["by"])]
                case 2 where args[1].lowercased() == "by": return [.keywords(HourlyStack.allCases.map(\.rawValue))]
                default: return []
                }
            }
        ) { shell, args throws(ShellError) in
            let (chart, stack) = try parseChart(args)
            if let chart { shell.model.chart = chart }
            if let stack { shell.model.hourlyBy = stack }
            let r = try shell.requireReport()
            switch shell.model.chart {
            case .category:
                return shell.render(json: { ReportJSON.categoryChart(r) }, table: { TextReport.categories(r, width: $0, theme: $1) })
            case .hourly:
                let by = shell.model.hourlyBy
                return shell.render(
                    json: { ReportJSON.hourlyChart(r, by: by) }, table: { TextReport.hourly(r, by: by, width: $0, theme: $1) })
            }
        },
        Command(
            name: "apps", aliases: [], usage: appsUsage,
            summary: "the ranked app list of the day; top N keeps the first N, category NAME one category's apps",
            examples: ["apps", "apps top 5", "apps category Social", "apps top 3 category \"Social Media\""],
            arguments: { args in
                switch args.last?.lowercased() {
                case "top": return []
                case "category": return [.categories]
                default:
                    return [.keywords(["top", "category"].filter { !args.map { $0.lowercased() }.contains($0) })]
                }
            }
        ) { shell, args throws(ShellError) in
            let filter = try AppsFilter(args)
            let r = try shell.requireReport()
            var list = r.apps
            var title = "Apps"
            var totalLine: String?
            var category: String?
            if let word = filter.category {
                let name = try NameMatch.resolve(word, among: shell.model.dataset.categories, kind: "category").get()
                category = name
                list = list.filter { $0.category.sameScalars(as: name) }
                // The category's own time, as `chart category` shows it (an app is listed under
                // the category most of its time had, so the two can differ a little).
                let micros = r.categories.first { $0.name.sameScalars(as: name) }?.micros ?? 0
                title = "Apps in \(TerminalText.sanitize(name))"
                totalLine = "\(TextFormat.duration(micros)) in \(TerminalText.sanitize(name)) · "
                    + "\(TextFormat.share(r.totalMicros > 0 ? Double(micros) / Double(r.totalMicros) : 0)) of the day"
            }
            if let top = filter.top { list = Array(list.prefix(top)) }
            let (listed, categoryName) = (list, category)
            return shell.render(
                json: { ReportJSON.apps(r, apps: listed, category: categoryName) },
                table: { TextReport.apps(r, apps: listed, width: $0, theme: $1, title: title, totalLine: totalLine) })
        },
        Command(
            name: "app", aliases: [], usage: "app NAME",
            summary: "one app's day: total, share, category, each session and its hours",
            examples: ["app Safari", "app \"Google Chrome\"", "app goo"],
            arguments: { $0.isEmpty ? [.apps] : [] }
        ) { shell, args throws(ShellError) in
            guard args.count == 1 else {
                throw .usage(command: "app", problem: args.isEmpty ? "which app?" : "one name (quote names with spaces)", usage: "app NAME")
            }
            try shell.requireData()
            let dataset = shell.model.dataset
            let name = try NameMatch.resolve(args[0], among: dataset.apps, kind: "app").get()
            // By scalars: `é` and `e` + U+0301 are two apps although Swift's `==` calls them equal.
            let id = Int32(dataset.apps.firstIndex { $0.sameScalars(as: name) }!)
            let a = AppDayReport(dataset: dataset, app: id, date: shell.model.selectedDay, zone: shell.model.zone)
            return shell.render(json: { ReportJSON.app(a) }, table: { TextReport.app(a, width: $0, theme: $1, palette: Palette(shell.model.report)) })
        },
        Command(
            name: "hour", aliases: [], usage: "hour H",
            summary: "the apps used in one hour of the day (H is 0–23)",
            examples: ["hour 9", "hour 21"],
            arguments: { $0.isEmpty ? [.hours] : [] }
        ) { shell, args throws(ShellError) in
            let usage = "hour H"
            guard args.count == 1 else { throw .usage(command: "hour", problem: args.isEmpty ? "which hour?" : "too many arguments", usage: usage) }
            guard let hour = parseHour(args[0]) else {
                throw .usage(command: "hour", problem: "'\(args[0])' is not an hour from 0 to 23", usage: usage)
            }
            let r = try shell.requireReport()
            // None on a spring-forward day's skipped hour: the renderers say so; it is no error.
            let slots = r.hours.filter { $0.slot.hour == hour }
            return shell.render(
                json: { ReportJSON.hour(r, hour: hour, slots: slots) }, table: { TextReport.hour(r, slots: slots, width: $0, theme: $1) })
        },
        Command(
            name: "week", aliases: [], usage: "week [prev|next]",
            summary: "the 7 days ending on the selected day, stacked by category; prev and next step a week",
            examples: ["week", "week prev", "week next"],
            arguments: { $0.isEmpty ? [.keywords(["prev", "next"])] : [] }
        ) { shell, args throws(ShellError) in
            let usage = "week [prev|next]"
            guard args.count <= 1 else { throw .usage(command: "week", problem: "too many arguments", usage: usage) }
            try shell.requireData()
            if let word = args.first {
                guard let step = Settings.unique(word, among: ["prev", "previous", "next"]) ?? (word.lowercased() == "p" ? "prev" : nil) else {
                    throw .usage(command: "week", problem: "'\(word)' is not prev or next", usage: usage)
                }
                try shell.selectDay(step == "next" ? "+7" : "-7")
            }
            return dayBars(shell, count: 7, labels: .weekdays, title: "Week ending \(TextFormat.longDate(shell.model.selectedDay))")
        },
        Command(
            name: "days", aliases: [], usage: "days [N]",
            summary: "the last N days (1–31, default 10) ending on the selected day, as the iOS \"Last 10 days\" chart",
            examples: ["days", "days 14", "days 31"],
            arguments: { _ in [] }
        ) { shell, args throws(ShellError) in
            let usage = "days [N]"
            guard args.count <= 1 else { throw .usage(command: "days", problem: "too many arguments", usage: usage) }
            var count = 10
            if let word = args.first {
                guard let n = Int(word), (1...31).contains(n) else {
                    throw .usage(command: "days", problem: "'\(word)' is not a number of days from 1 to 31", usage: usage)
                }
                count = n
            }
            try shell.requireData()
            let title = "Last \(count) day\(count == 1 ? "" : "s") ending \(TextFormat.longDate(shell.model.selectedDay))"
            return dayBars(shell, count: count, labels: .narrow, title: title)
        },
        Command(
            name: "insights", aliases: [], usage: "insights",
            summary: "the week ending on the selected day in facts: top app and category, average, longest session, busiest hour, trend, advice",
            examples: ["insights"], arguments: { _ in [] }
        ) { shell, args throws(ShellError) in
            try noArguments("insights", args, usage: "insights")
            try shell.requireData()
            let model = shell.model
            let insights = Insights(dataset: model.dataset, endingOn: model.selectedDay, zone: model.zone)
            return shell.render(json: { ReportJSON.insights(insights, zone: model.zone) }) {
                TextReport.insights(insights, zone: model.zone, width: $0, theme: $1)
            }
        },
        Command(
            name: "check", aliases: [], usage: "check",
            summary: "data quality: skipped rows by reason with examples, overlapping time, days covered",
            examples: ["check"], arguments: { _ in [] }
        ) { shell, args throws(ShellError) in
            try noArguments("check", args, usage: "check")
            try shell.requireData()
            let q = DataQuality(dataset: shell.model.dataset, zone: shell.model.zone)
            return shell.render(json: { ReportJSON.check(q) }, table: { TextReport.check(q, width: $0, theme: $1) })
        },
        Command(
            name: "set", aliases: [], usage: setUsage,
            summary: "change a setting; alone, show them all",
            examples: [
                "set", "set format json", "set color never", "set glyphs ascii", "set accessible on", "set width 100",
                "set tz Europe/Paris", "set timer on", "set timeout 120",
            ],
            arguments: { args in
                guard let setting = args.last, args.count % 2 == 1 else { return [.keywords(settings)] }
                switch Settings.unique(setting, among: settings) {
                case "format": return [.keywords(OutputFormat.allCases.map(\.rawValue))]
                case "color": return [.keywords(ColorMode.allCases.map(\.rawValue))]
                case "width": return [.keywords(["auto"])]
                case "tz": return [.zones]
                case "glyphs": return [.keywords(GlyphMode.allCases.map(\.rawValue))]
                case "timer", "accessible": return [.keywords(["on", "off"])]
                default: return []
                }
            }
        ) { shell, args throws(ShellError) in
            try Settings.apply(args, to: shell)
            return Settings.show(shell, only: args.count == 1 ? Settings.unique(args[0], among: settings) : nil)
        },
    ] + sourceCommands + limitCommands + [
        Command(
            name: "help", aliases: ["?"], usage: "help [COMMAND]",
            summary: "list the commands, or describe one",
            examples: ["help", "help apps"], arguments: { $0.isEmpty ? [.commands] : [] }
        ) { shell, args throws(ShellError) in
            guard args.count <= 1 else { throw .usage(command: "help", problem: "one command at a time", usage: "help [COMMAND]") }
            guard let word = args.first else {
                return shell.text(all.flatMap { ["  " + $0.usage, "      " + $0.summary + aliasNote($0)] })
            }
            let command = try resolve(word).get()
            return shell.text(
                ["usage: \(command.usage)", command.summary + aliasNote(command), "examples:"]
                    + command.examples.map { "  " + $0 })
        },
        Command(
            name: "quit", aliases: ["exit"], usage: "quit",
            summary: "leave the shell (Ctrl-D at the prompt too)",
            examples: ["quit"], arguments: { _ in [] }
        ) { _, args throws(ShellError) in
            try noArguments("quit", args, usage: "quit")
            return .quit
        },
    ]

    /// The command a typed word names: exact name or alias, else a unique prefix.
    public static func resolve(_ word: String) -> Result<Command, ShellError> {
        let w = word.lowercased()
        if let exact = all.first(where: { $0.name == w || $0.aliases.contains(w) || $0.abbreviations.contains(w) }) {
            return .success(exact)
        }
        let matches = all.filter { ([$0.name] + $0.aliases).contains { $0.hasPrefix(w) } }
        if matches.count == 1 { return .success(matches[0]) }
        if matches.count > 1 { return .failure(.ambiguousCommand(word, candidates: matches.map(\.name))) }
        return .failure(.unknownCommand(word, suggestion: suggestion(for: w)))
    }

    /// The closest command name within an edit distance of 2, if any.
    static func suggestion(for word: String) -> String? {
        NameMatch.closest(to: word, among: all.flatMap { [$0.name] + $0.aliases })
    }

    /// An hour typed as `9`, `09` or `09:00`.
    static func parseHour(_ word: String) -> Int? {
        var text = Substring(word)
        if text.hasSuffix(":00") { text = text.dropLast(3) }
        guard (1...2).contains(text.count), text.allSatisfy(\.isASCII), let hour = Int(text), (0...23).contains(hour) else {
            return nil
        }
        return hour
    }

    private static func aliasNote(_ command: Command) -> String {
        let also = command.aliases + command.abbreviations
        return also.isEmpty ? "" : " (also: \(also.joined(separator: ", ")))"
    }

    static func noArguments(_ name: String, _ args: [String], usage: String) throws(ShellError) {
        guard args.isEmpty else { throw .usage(command: name, problem: "takes no arguments", usage: usage) }
    }
}

/// The arguments of `apps`: `top N` and `category NAME`, in either order.
struct AppsFilter {
    var top: Int?
    var category: String?

    init(_ args: [String]) throws(ShellError) {
        let usage = CommandTable.appsUsage
        var rest = args[...]
        while let word = rest.popFirst() {
            let key = word.lowercased()
            guard let value = rest.popFirst() else {
                throw .usage(command: "apps", problem: "'\(word)' needs a value", usage: usage)
            }
            if !key.isEmpty, "top".hasPrefix(key), top == nil {
                guard let n = Int(value), n > 0 else {
                    throw .usage(command: "apps", problem: "'\(value)' is not a positive number", usage: usage)
                }
                top = n
            } else if !key.isEmpty, "category".hasPrefix(key), category == nil {
                category = value
            } else {
                throw .usage(command: "apps", problem: "unexpected '\(word)'", usage: usage)
            }
        }
    }
}

extension CommandTable {
    /// `chart [category|hourly [by app|category]]`, each word or a prefix of it.
    static func parseChart(_ args: [String]) throws(ShellError) -> (ChartKind?, HourlyStack?) {
        func fail(_ problem: String) -> ShellError { .usage(command: "chart", problem: problem, usage: chartUsage) }
        guard let word = args.first else { return (nil, nil) }
        guard let chart = Settings.unique(word, among: ChartKind.allCases.map(\.rawValue)).flatMap(ChartKind.init) else {
            throw fail("'\(word)' is not a chart")
        }
        guard args.count > 1 else { return (chart, nil) }
        guard chart == .hourly else { throw fail("only the hourly chart is stacked 'by' something") }
        guard Settings.unique(args[1], among: ["by"]) != nil, args.count == 3 else { throw fail("say 'by app' or 'by category'") }
        guard let stack = Settings.unique(args[2], among: HourlyStack.allCases.map(\.rawValue)).flatMap(HourlyStack.init) else {
            throw fail("'\(args[2])' is not app or category")
        }
        return (chart, stack)
    }
}

extension CommandTable {
    /// `week` and `days N`: the days ending on the selected day, compared with the days before.
    static func dayBars(_ shell: Shell, count: Int, labels: DayLabels, title: String) -> CommandOutcome {
        let model = shell.model
        let days = DaySummary.days(endingOn: model.selectedDay, count: count, dataset: model.dataset, zone: model.zone)
        let selected = model.selectedDay
        return shell.render(json: { ReportJSON.week(days) }) { width, theme in
            let previous = DaySummary.days(
                endingOn: selected.adding(days: -count), count: count, dataset: model.dataset, zone: model.zone)
            return TextReport.dayBars(
                days, previous: previous, selected: selected, title: title, labels: labels, width: width, theme: theme)
        }
    }
}
