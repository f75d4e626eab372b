// CommandTable.swift — the one table of shell commands: names, usage, help text and handlers.
import UsageCore
import UsageData
import UsageRender

/// One shell command.
public struct Command: Sendable {
    public let name: String
    public let aliases: [String]
    public let usage: String
    public let summary: String
    /// Keywords its first argument accepts (for help and, later, completion).
    public let keywords: [String]
    let run: @Sendable (Shell, [String]) throws(ShellError) -> CommandOutcome
}

/// The command table: dispatch and `help` read it, so they cannot disagree.
public enum CommandTable {
    static let dayUsage = "day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday]"

    public static let all: [Command] = [
        Command(
            name: "show", aliases: [], usage: "show",
            summary: "the day screen: header, the selected chart, the app list", keywords: []
        ) { shell, args throws(ShellError) in
            try noArguments("show", args, usage: "show")
            let r = try shell.requireReport()
            return shell.render(
                json: { ReportJSON.show(r, skipped: shell.model.dataset.skipped) },
                table: { TextReport.show(r, hourly: shell.model.chart == .hourly, width: $0) })
        },
        Command(
            name: "day", aliases: [], usage: dayUsage,
            summary: "select a day and show its totals", keywords: DayQuery.words
        ) { shell, args throws(ShellError) in
            guard args.count <= 1 else { throw .usage(command: "day", problem: "too many arguments", usage: dayUsage) }
            try shell.requireData()
            if let word = args.first { try shell.selectDay(word) }
            let r = shell.model.report
            return shell.render(json: { ReportJSON.day(r) }, table: { TextReport.header(r, width: $0) })
        },
        Command(
            name: "apps", aliases: [], usage: "apps [top N]",
            summary: "the ranked app list of the day", keywords: ["top"]
        ) { shell, args throws(ShellError) in
            let usage = "apps [top N]"
            var limit: Int?
            if !args.isEmpty {
                guard args.count == 2, "top".hasPrefix(args[0].lowercased()), !args[0].isEmpty else {
                    throw .usage(command: "apps", problem: "unexpected '\(args.joined(separator: " "))'", usage: usage)
                }
                guard let n = Int(args[1]), n > 0 else {
                    throw .usage(command: "apps", problem: "'\(args[1])' is not a positive number", usage: usage)
                }
                limit = n
            }
            let r = try shell.requireReport()
            let list = Array(r.apps.prefix(limit ?? r.apps.count))
            return shell.render(json: { ReportJSON.apps(r, apps: list) }, table: { TextReport.apps(r, apps: list, width: $0) })
        },
        Command(
            name: "chart", aliases: [], usage: "chart [category|hourly]",
            summary: "select and show a chart; alone, show the selected one", keywords: ChartKind.allCases.map(\.rawValue)
        ) { shell, args throws(ShellError) in
            let usage = "chart [category|hourly]"
            guard args.count <= 1 else { throw .usage(command: "chart", problem: "too many arguments", usage: usage) }
            if let word = args.first {
                let matches = ChartKind.allCases.filter { !word.isEmpty && $0.rawValue.hasPrefix(word.lowercased()) }
                guard matches.count == 1 else {
                    throw .usage(command: "chart", problem: "'\(word)' is not a chart", usage: usage)
                }
                shell.model.chart = matches[0]
            }
            let r = try shell.requireReport()
            switch shell.model.chart {
            case .category:
                return shell.render(json: { ReportJSON.categoryChart(r) }, table: { TextReport.categories(r, width: $0) })
            case .hourly:
                return shell.render(json: { ReportJSON.hourlyChart(r) }, table: { TextReport.hourly(r, width: $0) })
            }
        },
        Command(
            name: "week", aliases: [], usage: "week",
            summary: "the 7 days ending on the selected day", keywords: []
        ) { shell, args throws(ShellError) in
            try noArguments("week", args, usage: "week")
            _ = try shell.requireReport()
            let days = DaySummary.days(
                endingOn: shell.model.selectedDay, count: 7, dataset: shell.model.dataset, zone: shell.model.zone)
            return shell.render(json: { ReportJSON.week(days) }, table: { TextReport.week(days, width: $0) })
        },
        Command(
            name: "load", aliases: [], usage: "load [SOURCE]",
            summary: "load a sessions file (:sample: is the bundled sample); alone, reload the current source",
            keywords: []
        ) { shell, args throws(ShellError) in
            guard args.count <= 1 else {
                throw .usage(command: "load", problem: "one source at a time (quote paths with spaces)", usage: "load [SOURCE]")
            }
            // Alone: the current source, or the one whose load failed when none has loaded.
            let source = args.first.map { SourceRef($0, home: shell.home) }
                ?? shell.model.loadedSource ?? shell.model.retrySource ?? .sample
            return shell.load(source)
        },
        Command(
            name: "retry", aliases: [], usage: "retry",
            summary: "run the last failed load again", keywords: []
        ) { shell, args throws(ShellError) in
            try noArguments("retry", args, usage: "retry")
            guard let source = shell.model.retrySource else { throw .nothingToRetry }
            return shell.load(source)
        },
        Command(
            name: "help", aliases: ["?"], usage: "help [COMMAND]",
            summary: "list the commands, or describe one", keywords: []
        ) { shell, args throws(ShellError) in
            guard let word = args.first else {
                return shell.text(all.flatMap { ["  " + $0.usage, "      " + $0.summary + aliasNote($0)] })
            }
            let command = try resolve(word).get()
            return shell.text(["usage: \(command.usage)", command.summary + aliasNote(command)])
        },
        Command(
            name: "quit", aliases: ["exit"], usage: "quit",
            summary: "leave the shell (Ctrl-D at the prompt too)", keywords: []
        ) { _, args throws(ShellError) in
            try noArguments("quit", args, usage: "quit")
            return .quit
        },
    ]

    /// The command a typed word names: exact name or alias, else a unique prefix.
    public static func resolve(_ word: String) -> Result<Command, ShellError> {
        let w = word.lowercased()
        if let exact = all.first(where: { $0.name == w || $0.aliases.contains(w) }) { return .success(exact) }
        let matches = all.filter { ([$0.name] + $0.aliases).contains { $0.hasPrefix(w) } }
        if matches.count == 1 { return .success(matches[0]) }
        if matches.count > 1 { return .failure(.ambiguousCommand(word, candidates: matches.map(\.name))) }
        return .failure(.unknownCommand(word, suggestion: suggestion(for: w)))
    }

    /// The closest command name within an edit distance of 2, if any.
    static func suggestion(for word: String) -> String? {
        let scored = all.flatMap { [$0.name] + $0.aliases }.map { ($0, editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < word.count else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    private static func aliasNote(_ command: Command) -> String {
        command.aliases.isEmpty ? "" : " (also: \(command.aliases.joined(separator: ", ")))"
    }

    private static func noArguments(_ name: String, _ args: [String], usage: String) throws(ShellError) {
        guard args.isEmpty else { throw .usage(command: name, problem: "takes no arguments", usage: usage) }
    }
}
