// CalendarReport.swift — `calendar`: a month as a grid, a week a row from Monday (or Sunday), each day's tracked time as a shade (a heat map with its legend) and the number of tasks due; the selected day marked; in accessible mode a sentence a week.
import UsageCore

extension TextReport {
    /// The shade steps: no time, under 1h, under 3h, under 6h, 6h or more.
    static let calendarSteps: [Micros] = [1, 3_600_000_000, 10_800_000_000, 21_600_000_000]

    /// The shade index of a day's tracked time: 0 (none) to 4.
    static func shadeIndex(_ tracked: Micros) -> Int {
        guard tracked > 0 else { return 0 }
        return calendarSteps.lastIndex { tracked >= $0 }.map { $0 + 1 } ?? 1
    }

    /// The month's grid. `tracked` and `due` are per local day; `selected` is marked (`>` before
    /// its number, and in reverse video with colour).
    public static func calendar(
        _ month: CalendarMonth, tracked: [LocalDate: Micros], due: [LocalDate: Int], selected: LocalDate, width: Int,
        theme: Theme = .plain
    ) -> [String] {
        let title = "\(TextFormat.monthName(month.month)) \(month.year)"
        let total = month.days.reduce(Micros(0)) { $0 + (tracked[$1] ?? 0) }
        let daysTracked = month.days.filter { (tracked[$0] ?? 0) > 0 }.count
        let dueTotal = month.days.reduce(0) { $0 + (due[$1] ?? 0) }
        let summary = "\(TextFormat.duration(total)) tracked on \(daysTracked) day\(daysTracked == 1 ? "" : "s"); \(dueTotal) task\(dueTotal == 1 ? "" : "s") due"
        if theme.accessible {
            var lines = [theme.heading("Calendar · \(title)"), summary + "."]
            for week in month.weeks {
                let days = week.compactMap { $0 }
                let time = days.reduce(Micros(0)) { $0 + (tracked[$1] ?? 0) }
                let on = days.filter { (tracked[$0] ?? 0) > 0 }.count
                let dueCount = days.reduce(0) { $0 + (due[$1] ?? 0) }
                var sentence = "Week of \(TextFormat.shortMonth(days[0])) \(days[0].day): \(TextFormat.duration(time)) tracked on \(on) day\(on == 1 ? "" : "s")"
                sentence += dueCount > 0 ? ", \(dueCount) task\(dueCount == 1 ? "" : "s") due" : ""
                if days.contains(selected) { sentence += "; the selected day, \(selected), has \(TextFormat.duration(tracked[selected] ?? 0))" }
                lines.append(sentence + ".")
            }
            return wrap(lines, width: width)
        }
        let g = theme.glyphs
        let shades: [Character] = g.isASCII ? [" ", ".", ":", "o", "#"] : [" ", "░", "▒", "▓", "█"]
        // A cell: the day's number (with `>` when selected), its shade, the tasks due, and a
        // blank before the next day, so a due digit never reads as part of the next date
        // (`1 28`). Where a cell has no room for that blank (below 43 columns), a day with tasks
        // due is marked `!` instead of a digit.
        let cell = max(5, min(10, (width - 1) / 7))
        let roomy = cell >= 6
        let shadeCells = roomy ? cell - 5 : cell - 4
        var lines = [theme.heading("Calendar · \(title)")]
        let names = month.weekStart.shortNames
        lines.append(trimmedRight(names.map { TerminalText.pad(" " + (cell >= 6 ? $0 : String($0.prefix(2))), width: cell) }.joined()))
        for week in month.weeks {
            var row = ""
            for date in week {
                guard let date else {
                    row += String(repeating: " ", count: cell)
                    continue
                }
                let number = (date == selected ? ">" : " ") + TerminalText.padLeft(String(date.day), width: 2)
                let marked = date == selected ? theme.sgr("7", number) : number
                let level = shadeIndex(tracked[date] ?? 0)
                let shade = String(repeating: shades[level], count: shadeCells)
                let styled = level > 0 ? theme.sgr("32", shade) : shade
                let dueCount = due[date] ?? 0
                let dueText = dueCount == 0 ? " " : !roomy ? "!" : dueCount > 9 ? "+" : String(dueCount)
                row += marked + styled + dueText + (roomy ? " " : "")
            }
            lines.append(trimmedRight(row))
        }
        lines.append("")
        let legend = (1...4).map { "\(shades[$0]) \(["<1h", "1–3h", "3–6h", "6h+"][$0 - 1])" }.joined(separator: "  ")
        lines += wrap([legend + (roomy ? "  · a digit: tasks due" : "  · !: tasks due"), summary], width: width)
        return lines
    }
}

extension ReportJSON {
    /// `calendar`: `{"month","selected","days":[{"date","tracked_seconds","due"}]}`.
    public static func calendar(_ month: CalendarMonth, tracked: [LocalDate: Micros], due: [LocalDate: Int], selected: LocalDate) -> JSONText {
        .object([
            ("month", .string("\(month.year)-\(String(month.month).leftPad(2))")), ("selected", .string(selected.description)),
            (
                "days",
                .array(
                    month.days.map { d in
                        .object([("date", .string(d.description)), ("tracked_seconds", .seconds(tracked[d] ?? 0)), ("due", .int(due[d] ?? 0))])
                    })
            ),
        ])
    }
}
