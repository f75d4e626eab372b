// SummaryReport.swift — `summary RANGE` and `apps … RANGE` as text and JSON: the range's title and sentence (total, days with data, daily average, busiest day, the change against the range before), its categories as the category chart, its apps as ranked rows that add up.
import UsageCore

extension TextReport {
    /// How many apps `summary` lists before one line for the rest.
    public static let summaryApps = 10

    /// `summary`: the title, the sentence, the categories (the category chart), the top apps
    /// and one line for the rest, then the total. Durations add up: the apps' minutes (all of
    /// them, the rest's line included) and the categories' make the total shown.
    public static func summary(_ s: RangeSummary, width: Int, theme: Theme = .plain, palette: Palette? = nil) -> [String] {
        let title = TextFormat.rangeTitle(s.range)
        guard s.totalMicros > 0 else {
            return wrap([title, "  no usage recorded in these \(s.range.dayCount) day\(s.range.dayCount == 1 ? "" : "s")"], width: width)
                .headed(theme)
        }
        let palette = palette ?? Palette(apps: s.apps.map(\.name), categories: s.categories.map(\.name))
        var lines = wrap([title], width: width).headed(theme)
        lines += wrap(["  " + rangeSentence(s, theme: theme)], width: width)
        lines.append("")
        lines += categories(s.categories, total: s.totalMicros, width: width, theme: theme, palette: palette)
        lines.append("")
        let shown = Array(s.apps.prefix(summaryApps))
        let title2 = s.apps.count > shown.count ? "Apps · top \(shown.count) of \(s.apps.count)" : "Apps"
        lines += rangeApps(s, apps: shown, title: title2, width: width, theme: theme, palette: palette, restLine: true)
        return lines
    }

    /// `212h 5m in 31 days · 6h 50m a day on average over the 28 days with data · busiest Sat
    /// 17 Oct 2026 (9h 5m) · ▲ 12% vs the previous month`.
    static func rangeSentence(_ s: RangeSummary, theme: Theme) -> String {
        let n = s.range.dayCount
        let withData = s.daysWithData
        let over = withData < n ? " over the \(withData) day\(withData == 1 ? "" : "s") with data" : ""
        var parts = [
            "\(TextFormat.duration(s.totalMicros)) in \(n) day\(n == 1 ? "" : "s")",
            "\(TextFormat.duration(s.averageMicros)) a day on average\(over)",
        ]
        if let busiest = s.busiest, n > 1 {
            parts.append("busiest \(TextFormat.mediumDate(busiest.day)) (\(TextFormat.duration(busiest.micros)))")
        }
        if let previous = s.previous {
            parts.append(changeText(average: s.averageMicros, before: previous.averageMicros, span: TextFormat.previousName(s.range), theme: theme))
        }
        return parts.joined(separator: " · ")
    }

    /// A range's ranked apps (`apps RANGE`, `summary`): rank, name, bar, category and sessions,
    /// duration and share of the range, then (with `restLine`) what the apps not listed add up
    /// to, and the total. Each app's minutes are those of the whole list, so a shorter list
    /// (`apps top 5 month`) shows the same minutes. Accessible mode: one sentence a line.
    public static func rangeApps(
        _ s: RangeSummary, apps list: [AppUsage], title: String = "Apps", width: Int, theme: Theme = .plain, palette: Palette? = nil,
        restLine: Bool = false
    ) -> [String] {
        guard !list.isEmpty else { return fitAll([title, "  no usage recorded"], width: width).headed(theme) }
        let palette = palette ?? Palette(apps: s.apps.map(\.name), categories: s.categories.map(\.name))
        var minutesOf: [ExactName: Int64] = [:]
        for (a, m) in zip(s.apps, TextFormat.minutes(adding: s.apps.map(\.micros))) { minutesOf[ExactName(a.name)] = m }
        let duration = { (a: AppUsage) in TextFormat.duration(minutes: minutesOf[ExactName(a.name)] ?? TextFormat.minutes(a.micros), of: a.micros) }
        let listed = Set(list.map { ExactName($0.name) })
        let rest = s.apps.filter { !listed.contains(ExactName($0.name)) }
        var tail: [String] = []
        if restLine, !rest.isEmpty {
            let minutes = rest.reduce(Int64(0)) { $0 + (minutesOf[ExactName($1.name)] ?? 0) }
            let micros = rest.reduce(0) { $0 + $1.micros }
            tail.append("  \(rest.count) more app\(rest.count == 1 ? "" : "s") \(TextFormat.duration(minutes: minutes, of: micros))")
        }
        tail.append("  \(TextFormat.duration(s.totalMicros)) total")
        if theme.accessible {
            let top = list[0]
            var lines = [
                title,
                "\(s.apps.count) app\(s.apps.count == 1 ? "" : "s"); the most used is \(TerminalText.sanitize(top.name)): "
                    + "\(duration(top)), \(TextFormat.share(top.share)) of the range.",
            ]
            for (k, a) in list.enumerated() {
                lines.append(
                    "  \(k + 1). \(TerminalText.sanitize(a.name)), \(TerminalText.sanitize(a.category)), "
                        + "\(TextFormat.count(a.sessions, "session")), \(duration(a)), \(TextFormat.share(a.share))")
            }
            return wrap(lines + tail, width: width).headed(theme)
        }
        let rows = list.map { a in
            RankedRow(
                name: a.name, detail: [a.category, "\(TextFormat.count(a.sessions, "session"))"], micros: a.micros,
                duration: duration(a), share: a.share, series: palette.app(a.name))
        }
        return fitAll([title], width: width).headed(theme) + rankedRows(rows, width: width, theme: theme) + wrap(tail, width: width)
    }
}

extension ReportJSON {
    /// `summary RANGE`: `{"from","to","time_zone","days","total_seconds","days_with_data",
    /// "daily_average_seconds","busiest_day","previous","change","apps","categories","daily"}`
    /// — the range's apps first (its CSV rows), then its categories and its days with data.
    public static func summary(_ s: RangeSummary) -> JSONText {
        .object(
            rangeHeader(s) + [
                ("days_with_data", .int(s.daysWithData)),
                ("daily_average_seconds", .seconds(s.averageMicros)),
                ("busiest_day", s.busiest.map { .object([("day", .string($0.day.description)), ("seconds", .seconds($0.micros))]) } ?? .null),
                (
                    "previous",
                    s.previous.map { p in
                        .object([
                            ("from", .string(p.range.from.description)), ("to", .string(p.range.to.description)),
                            ("total_seconds", .seconds(p.totalMicros)), ("days_with_data", .int(p.daysWithData)),
                            ("daily_average_seconds", .seconds(p.averageMicros)),
                        ])
                    } ?? .null
                ),
                ("change", s.change.map { .double($0) } ?? .null),
                ("apps", apps(s.apps)),
                ("categories", categories(s.categories)),
                ("daily", .records(s.days.map { .object([("day", .string($0.day.description)), ("seconds", .seconds($0.micros))]) }, fields: ["day", "seconds"])),
            ])
    }

    /// `apps … RANGE`: the range's header and the listed apps (`category`, `category_seconds`
    /// before them with `category NAME`).
    public static func rangeApps(_ s: RangeSummary, apps list: [AppUsage], category: String? = nil) -> JSONText {
        var fields = rangeHeader(s)
        if let category {
            let micros = s.categories.first { $0.name.sameScalars(as: category) }?.micros ?? 0
            fields += [("category", .string(category)), ("category_seconds", .seconds(micros))]
        }
        return .object(fields + [("apps", apps(list))])
    }

    /// `from`, `to`, `time_zone`, `days` (how many), `total_seconds`.
    static func rangeHeader(_ s: RangeSummary) -> [(String, JSONText)] {
        [
            ("from", .string(s.range.from.description)), ("to", .string(s.range.to.description)), ("time_zone", .string(s.zone)),
            ("days", .int(s.range.dayCount)), ("total_seconds", .seconds(s.totalMicros)),
        ]
    }
}
