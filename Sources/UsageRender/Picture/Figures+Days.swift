// Figures+Days.swift — the figures of several days (week, days N, month, insights): the days as columns stacked by category with the daily average, the selected day marked, the sentence the terminal writes.
import UsageCore

extension Figure {
    /// `week`, `days N`, `month`: the days as `TextReport.dayBars` draws them.
    /// `sites`: the days' sites by browser family (`week`), their top sites after the days.
    public static func days(
        _ days: [DaySummary], previous: [Micros], selected: LocalDate, title: String, labels: DayLabels, colors: SeriesColors?,
        span: String? = nil, sites: [String: [SiteTotal]] = [:]
    ) -> Figure {
        let total = days.reduce(0) { $0 + $1.totalMicros }
        guard total > 0 else {
            return Figure(
                title: title, totals: ["0m total"], blocks: [.text(title: nil, ["No usage recorded in these \(days.count) days."])])
        }
        return Figure(
            title: title, totals: ["\(TextFormat.duration(total)) total"],
            sentence: TextReport.daysSentence(days, previous: previous, theme: Theme(color: false, glyphs: .unicode), span: span),
            blocks: [.columns(dayColumns(days, selected: selected, labels: labels, colors: colors, title: "By category"))] + rangeSitesBlock(sites))
    }

    /// `insights`: the facts, the week's days, the advice.
    /// `tracked`: the lines on tracked time (estimates, streaks), when the loaded data is tracked time.
    public static func insights(_ i: Insights, zone: Zone, colors: SeriesColors?, tracked: [String] = []) -> Figure {
        guard let first = i.days.first?.day, let last = i.days.last?.day else { return Figure(title: "Insights") }
        let title = "Insights · \(TextFormat.shortWeekday(first)) \(first) – \(TextFormat.shortWeekday(last)) \(last)"
        guard i.totalMicros > 0 else {
            return Figure(title: title, totals: ["0m total"], blocks: [.text(title: nil, ["No usage recorded in these 7 days."])])
        }
        let facts = TextReport.insightFacts(i, zone: zone)
        var blocks: [FigureBlock] = [
            .facts(title: "The week in facts", facts),
            .columns(dayColumns(i.days, selected: last, labels: .weekdays, colors: colors, title: "The 7 days by category")),
            .text(title: "Advice", TextReport.adviceLines(i)),
        ]
        if !tracked.isEmpty { blocks.append(.text(title: "Tracked time", tracked)) }
        return Figure(title: title, totals: ["\(TextFormat.duration(i.totalMicros)) total"], blocks: blocks)
    }

    /// A line of the terminal's with its column padding taken out (`estimates  3 of 4` → `estimates 3 of 4`).
    public static func words(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Days as columns stacked by category: the top five categories of the days, then the rest.
    static func dayColumns(_ days: [DaySummary], selected: LocalDate, labels: DayLabels, colors: SeriesColors?, title: String) -> ColumnChart {
        let ranked = DayReport.ranked(days.lazy.flatMap { $0.categories.map { ($0.name, $0.micros) } })
        let palette = Palette(apps: [], categories: ranked.map(\.name), colors: colors)
        var styles = palette.categories.map(palette.category)
        let otherMicros = ranked.dropFirst(palette.categories.count).reduce(0) { $0 + $1.micros }
        if otherMicros > 0 { styles.append(.other) }
        let top = ranked.prefix(palette.categories.count)
        let values = TextFormat.durations(top.map(\.micros) + (otherMicros > 0 ? [otherMicros] : []))
        var series = zip(top, values).map { FigureSeries(name: $0.name, rgb: FigureSeries.rgb(palette.category($0.name)), value: $1) }
        if otherMicros > 0, let value = values.last { series.append(FigureSeries(name: "other categories", rgb: SeriesColor.otherRGB, value: value)) }
        let dayMinutes = TextFormat.minutes(adding: days.map(\.totalMicros))
        let durations = zip(dayMinutes, days).map { TextFormat.duration(minutes: $0, of: $1.totalMicros) }
        let columns = days.enumerated().map { k, d -> ColumnChart.Column in
            var v = [Micros](repeating: 0, count: styles.count)
            for c in d.categories { v[palette.category(c.name).rank ?? styles.count - 1] += c.micros }
            let weekday = TextFormat.shortWeekday(d.day)
            let (label, sublabel): (String, String)
            switch labels {
            case .weekdays: (label, sublabel) = (weekday, String(d.day.day))
            case .narrow: (label, sublabel) = (String(weekday.prefix(1)), d.day.isoWeekday == 1 ? "\(d.day.day) \(TextFormat.shortMonth(d.day))" : "")
            }
            // The parts add up to the day as its column says it (the days add up to the total).
            let parts = zip(d.categories, TextFormat.durations(d.categories.map(\.micros), shown: dayMinutes[k]))
                .map { "\($0.name) \($1)" }.joined(separator: ", ")
            return ColumnChart.Column(
                label: label, sublabel: sublabel, values: v, marked: d.day == selected,
                description: "\(weekday) \(d.day.day) \(TextFormat.shortMonth(d.day)): \(durations[k])" + (parts.isEmpty ? "" : " (\(parts))"))
        }
        let average = DaySummary.average(days).micros
        let axis = BarAxis(quartersUpTo: days.map(\.totalMicros).max() ?? 0)
        return ColumnChart(
            title: title, series: series, columns: columns, stepMicros: axis.stepMicros, steps: axis.steps,
            average: average > 0 ? (average, "avg " + TextFormat.duration(average)) : nil)
    }
}
