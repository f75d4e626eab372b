// DayBarsChart.swift — several days as bars stacked by category (`week`, `days N`): day labels, the selected day marked, the average line, the legend and a summary sentence.
import UsageCore

/// How the days under the bars are labelled.
public enum DayLabels: Sendable {
    /// `Mon` and the day of the month under each bar (`week`).
    case weekdays
    /// A narrow weekday (`M`), Mondays also with the date and month (`23 Feb`), as the iOS
    /// "Last 10 days" chart (`days N`).
    case narrow
}

extension TextReport {
    /// `week` and `days N`: one bar per day stacked by category (the range's top five, then
    /// "other"), on an axis of round steps whose top is the first at or above the busiest day;
    /// the selected day marked `▲`; a dashed line at the daily average over the days with data,
    /// labelled with its value (`BarMarker`: never over a grid line); the legend; and a sentence
    /// with the total, that average (saying over how many days when not all have data), the
    /// busiest day and the change of the average against the `previous` days of the same
    /// length (their daily totals). Bars are as wide as leave room for the average's label. Accessible mode (or too
    /// narrow for bars): the sentence and one line per day.
    /// `span` names the days compared with (`the previous month`; by default the previous
    /// week, or as many days).
    public static func dayBars(
        _ days: [DaySummary], previous: [Micros], selected: LocalDate, title: String, labels: DayLabels,
        width: Int, theme: Theme = .plain, colors: SeriesColors? = nil, span: String? = nil
    ) -> [String] {
        let total = days.reduce(0) { $0 + $1.totalMicros }
        guard total > 0 else { return wrap([title, "  no usage recorded in these \(days.count) days"], width: width).headed(theme) }
        let sentence = daysSentence(days, previous: previous, theme: theme, span: span)
        let ranked = DayReport.ranked(days.lazy.flatMap { $0.categories.map { ($0.name, $0.micros) } })
        let palette = Palette(apps: [], categories: ranked.map(\.name), colors: colors)
        let average = DaySummary.average(days).micros
        let averageLabel = "avg " + TextFormat.duration(average)
        // The widest bars with gaps that leave room for the average's label after them; else the
        // widest with gaps (the legend names the line); bars without gaps only where none fit.
        let gapped = BarLayout.daily.filter { $0.1 > 0 }
        let gapless = BarLayout.daily.filter { $0.1 == 0 }
        let room = width - 1 - averageLabel.count
        let choices: [(layout: BarLayout?, labelled: Bool)] = [
            (BarLayout(count: days.count, width: room, choices: gapped), true),
            (BarLayout(count: days.count, width: width, choices: gapped), false),
            (BarLayout(count: days.count, width: room, choices: gapless), true),
            (BarLayout(count: days.count, width: width, choices: gapless), false),
        ]
        let chosen = choices.first { $0.layout != nil }
        guard !theme.accessible, let layout = chosen?.layout else {
            return dayList(days, selected: selected, title: title, sentence: sentence, width: width, theme: theme)
        }
        let labelled = chosen?.labelled == true
        var styles = palette.categories.map(palette.category)
        let otherMicros = ranked.dropFirst(palette.categories.count).reduce(0) { $0 + $1.micros }
        if otherMicros > 0 { styles.append(.other) }
        let values: [[Micros]] = days.map { d in
            var v = [Micros](repeating: 0, count: styles.count)
            for c in d.categories { v[palette.category(c.name).rank ?? styles.count - 1] += c.micros }
            return v
        }
        let marker = BarMarker(micros: average, label: labelled ? averageLabel : "")
        let axis = BarAxis(quartersUpTo: days.map(\.totalMicros).max() ?? 0)

        var lines = wrap([title], width: width).map(theme.heading)
        lines += stackedBars(values, styles: styles, axis: axis, layout: layout, theme: theme, marker: marker)
        lines += dayLabelRows(days, selected: selected, labels: labels, layout: layout, width: width, theme: theme)
        // The entries' times add up to the days' total.
        let top = ranked.prefix(palette.categories.count)
        let legendValues = TextFormat.durations(top.map(\.micros) + (otherMicros > 0 ? [otherMicros] : []))
        var legendEntries = zip(top, legendValues).map { c, value in
            LegendEntry(series: palette.category(c.name), name: c.name, value: value)
        }
        if otherMicros > 0, let value = legendValues.last {
            legendEntries.append(LegendEntry(series: .other, name: "other categories", value: value))
        }
        // Too narrow for the label after the bars: the legend names the line.
        if !labelled { legendEntries.append(LegendEntry(series: nil, name: "average", value: TextFormat.duration(average))) }
        lines += legend(legendEntries, width: width, theme: theme)
        lines += wrap(["  " + sentence], width: width)
        return fitStyled(lines, width: width)
    }

    /// `52h 10m in 7 days · 7h 27m a day on average · busiest Sat 21 Feb (9h 5m) · ▲ 12% vs the previous 7 days`.
    static func daysSentence(_ days: [DaySummary], previous: [Micros], theme: Theme, span: String? = nil) -> String {
        let total = days.reduce(0) { $0 + $1.totalMicros }
        let busiest = days.reduce(days[0]) { $1.totalMicros > $0.totalMicros ? $1 : $0 }
        let (average, withData) = DaySummary.average(days)
        // Days before the data began (or without use) are no zeros in the average: say so.
        let over = withData < days.count ? " over the \(withData) day\(withData == 1 ? "" : "s") with data" : ""
        var parts = [
            "\(TextFormat.duration(total)) in \(days.count) day\(days.count == 1 ? "" : "s")",
            "\(TextFormat.duration(average)) a day on average\(over)",
            "busiest \(TextFormat.shortWeekday(busiest.day)) \(busiest.day.day) \(TextFormat.shortMonth(busiest.day)) (\(TextFormat.duration(busiest.totalMicros)))",
        ]
        // Averages compared, so that a stretch before the data began is no drop.
        let before = DaySummary.average(totals: previous).micros
        let span = span ?? (days.count == 7 ? "the previous week" : days.count == 1 ? "the day before" : "the previous \(days.count) days")
        parts.append(changeText(average: average, before: before, span: span, theme: theme))
        return parts.joined(separator: " · ")
    }

    /// `▲ 12% vs the previous week`, `the same as …`, `no usage in …`: a daily average against
    /// the one before it.
    static func changeText(average: Micros, before: Micros, span: String, theme: Theme) -> String {
        guard before > 0 else { return "no usage in \(span)" }
        let change = Int((Double(average - before) / Double(before) * 100).rounded())
        let ascii = theme.glyphs.isASCII || theme.accessible
        switch change {
        case 0: return "the same as \(span)"
        // A no-break space keeps the arrow with its number when the sentence wraps.
        case 1...: return (ascii ? "up " : "▲\u{A0}") + "\(change)% vs \(span)"
        default: return (ascii ? "down " : "▼\u{A0}") + "\(-change)% vs \(span)"
        }
    }

    /// The rows under the x axis: labels, then `▲` under the selected day.
    private static func dayLabelRows(
        _ days: [DaySummary], selected: LocalDate, labels: DayLabels, layout: BarLayout, width: Int, theme: Theme
    ) -> [String] {
        var first = ""
        var second = ""
        var mark = ""
        /// Puts `text` centred under bar `k` (or from its first column), unless it would touch the
        /// text before or pass the width.
        func place(_ text: String, _ k: Int, in row: inout String, centred: Bool = true) {
            let start = layout.column(k) + (centred ? max(0, (layout.bar - text.count) / 2) : 0)
            guard start >= row.count + (row.isEmpty ? 0 : 1), start + text.count <= width else { return }
            row += String(repeating: " ", count: start - row.count) + text
        }
        for (k, d) in days.enumerated() {
            let weekday = TextFormat.shortWeekday(d.day)
            switch labels {
            case .weekdays:
                place(layout.bar >= 3 ? weekday : String(weekday.prefix(layout.bar >= 2 ? 2 : 1)), k, in: &first)
                if layout.bar >= 2 { place(String(d.day.day), k, in: &second) }
            case .narrow:
                place(String(weekday.prefix(1)), k, in: &first)
                if d.day.isoWeekday == 1 { place("\(d.day.day) \(TextFormat.shortMonth(d.day))", k, in: &second, centred: false) }
            }
            if d.day == selected { place(theme.glyphs.isASCII ? "^" : "▲", k, in: &mark) }
        }
        return [first, second, mark].filter { !$0.isEmpty }
    }

    /// Accessible mode: the title, the sentence, one line per day with its top categories.
    private static func dayList(
        _ days: [DaySummary], selected: LocalDate, title: String, sentence: String, width: Int, theme: Theme
    ) -> [String] {
        var lines = [title, sentence.prefix(1).uppercased() + sentence.dropFirst() + "."]
        for (d, dayDuration) in zip(days, TextFormat.durations(days.map(\.totalMicros))) {
            let top = d.categories.prefix(3).map { "\(TerminalText.sanitize($0.name)) \(TextFormat.duration($0.micros))" }
            let more = d.categories.count > 3 ? ", +\(d.categories.count - 3) more" : ""
            let detail = d.totalMicros > 0 ? ": " + top.joined(separator: ", ") + more : ""
            let mark = d.day == selected ? " (selected)" : ""
            lines.append("  \(TextFormat.shortWeekday(d.day)) \(d.day)\(mark) \(dayDuration)\(detail)")
        }
        return wrap(lines, width: width).headed(theme)
    }
}
