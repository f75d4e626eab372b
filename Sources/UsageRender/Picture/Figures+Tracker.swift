// Figures+Tracker.swift — the figures of tracked time (today, calendar, timesheet): today's sessions on the day's clock and the tasks due, the month as a heat map, the sheet as columns by category and as the table a client reads (its times rounded to add up both ways, as the terminal's).
import UsageCore

extension Figure {
    /// `today`: the day's tracked total, what runs and the streak; its sessions on the clock; the
    /// tasks due today and overdue; the sessions as a list.
    public static func today(
        _ lines: [TaskLine], trackedToday: Micros, state: StopwatchState, streak: (current: Int, longest: Int), sessions: [TaskInterval],
        clock: TrackerClock, colors: SeriesColors? = nil
    ) -> Figure {
        let days = { (n: Int) in "\(n) day\(n == 1 ? "" : "s")" }
        let window = clock.zone.window(for: clock.day)
        // Colours by category: the tracker's (`colors`), else the day's most tracked first.
        let lengths = sessions.map { $0.interval.length(now: clock.now) }
        var byCategory: [String: Micros] = [:]
        for (s, length) in zip(sessions, lengths) { byCategory[s.task.categoryName, default: 0] += length }
        let ranked = DayReport.ranked(byCategory.map { ($0.key, $0.value) })
        let categoryValues = TextFormat.durations(ranked.map(\.micros))
        let legend = ranked.enumerated().map { k, c in
            FigureSeries(name: c.name, rgb: trackedRGB(c.name, rank: k, colors: colors), value: categoryValues[k])
        }
        let colorOf = Dictionary(legend.map { ($0.name, $0) }) { first, _ in first }
        let durations = TextFormat.durations(lengths)
        let spans = zip(sessions, durations).map { s, duration in
            TimelineChart.Span(
                series: colorOf[s.task.categoryName]!, start: max(window.start, s.interval.start), end: min(window.end, s.interval.end ?? clock.now),
                description: "\(TextReport.sessionTimes(s.interval, clock: clock)) \(s.task.name) (\(duration))")
        }
        var blocks: [FigureBlock] = [
            .timeline(TimelineChart(title: "Sessions today", dayStart: window.start, dayEnd: window.end, ticks: ticks(window.slots), spans: spans, legend: legend))
        ]
        if lines.isEmpty {
            blocks.append(.text(title: "Due today and overdue", ["Nothing due today or overdue."]))
        } else {
            blocks.append(.table(FigureTable(
                title: "Due today and overdue", header: ["#", "Task", "Category", "Due", "Priority", "Today", "Tracked", "Estimate"],
                rows: lines.map { line in
                    [
                        "\(line.task.id)", line.task.name + (line.running ? " (running)" : ""), line.task.categoryName,
                        line.task.due.map { clock.due($0) + (line.overdue ? " (overdue)" : "") } ?? "–", line.task.priority.word,
                        TextFormat.duration(line.onDay), TextFormat.duration(line.tracked), line.task.estimate.map(TextFormat.duration) ?? "",
                    ]
                }, numeric: [0, 5, 6, 7])))
        }
        if !sessions.isEmpty {
            blocks.append(.table(FigureTable(
                title: "Sessions today", header: ["Id", "Time", "Task", "Length"],
                rows: zip(sessions, durations).map { [TextReport.sessionID($0.interval.id), TextReport.sessionTimes($0.interval, clock: clock), $0.task.name, $1] },
                numeric: [3])))
        }
        return Figure(
            title: "Today · \(TextFormat.shortWeekday(clock.day)) \(clock.day)",
            totals: ["\(TextFormat.duration(trackedToday)) tracked", TextReport.status(state, clock: clock, theme: Theme(color: false)),
                     "streak \(days(streak.current)) (longest \(days(streak.longest)))"],
            blocks: blocks)
    }

    /// `calendar`: the month's days shaded by tracked time, with the tasks due.
    public static func calendar(_ month: CalendarMonth, tracked: [LocalDate: Micros], due: [LocalDate: Int], selected: LocalDate) -> Figure {
        let total = month.days.reduce(Micros(0)) { $0 + (tracked[$1] ?? 0) }
        let daysTracked = month.days.filter { (tracked[$0] ?? 0) > 0 }.count
        let dueTotal = month.days.reduce(0) { $0 + (due[$1] ?? 0) }
        let summary = "\(TextFormat.duration(total)) tracked on \(daysTracked) day\(daysTracked == 1 ? "" : "s"); \(dueTotal) task\(dueTotal == 1 ? "" : "s") due"
        let weeks = month.weeks.map { week in
            week.map { date in
                date.map { d in
                    CalendarChart.Day(
                        date: d, micros: tracked[d] ?? 0, level: TextReport.shadeIndex(tracked[d] ?? 0), due: due[d] ?? 0, selected: d == selected)
                }
            }
        }
        let title = "\(TextFormat.monthName(month.month)) \(month.year)"
        return Figure(
            title: "Calendar · \(title)", totals: ["\(TextFormat.duration(total)) tracked"],
            blocks: [.calendar(CalendarChart(title: title, weeks: weeks, levels: ["<1h", "1–3h", "3–6h", "6h+"], summary: summary + "."))])
    }

    /// `timesheet`: the columns (days or weeks) stacked by category, and the sheet.
    public static func timesheet(_ sheet: Timesheet, colors: SeriesColors? = nil) -> Figure {
        let title = "Timesheet · " + TextFormat.rangeTitle(sheet.range)
        guard sheet.total > 0 else {
            return Figure(title: title, totals: ["0m tracked"], blocks: [.text(title: nil, ["No time tracked in these \(sheet.range.dayCount) days."])])
        }
        let rounded = SheetRounding(sheet.groups.map { $0.rows.map(\.cells) }, columns: sheet.columns.count, unit: 60_000_000)
        let hm = { (minutes: Int64, exact: Micros) in TextReport.hoursMinutes(minutes, exact: exact) }
        let series = sheet.groups.enumerated().map { g, group in
            FigureSeries(
                name: group.category, rgb: trackedRGB(group.category, rank: g, colors: colors),
                value: TextFormat.duration(minutes: rounded.groupTotals[g], of: group.total))
        }
        let labels = sheet.columns.map { c in (TextFormat.shortWeekday(c.from), c.from == c.to ? String(c.from.day) : "\(c.from.day) \(TextFormat.shortMonth(c.from))") }
        // At most 14 labelled columns (a month's days, a year's weeks), so labels never run together.
        let every = max(1, (sheet.columns.count + 13) / 14)
        let columns = sheet.columns.indices.map { c in
            ColumnChart.Column(
                label: sheet.byWeek || c % every != 0 ? "" : labels[c].0, sublabel: c % every == 0 ? labels[c].1 : "",
                values: sheet.groups.map { $0.cells[c] }, marked: false,
                description: "\(sheet.columns[c].from == sheet.columns[c].to ? TextFormat.mediumDate(sheet.columns[c].from) : TextFormat.span(sheet.columns[c].from, sheet.columns[c].to)): "
                    + TextFormat.duration(minutes: rounded.columnTotals[c], of: sheet.columnTotals[c]))
        }
        let axis = BarAxis(quartersUpTo: sheet.columnTotals.max() ?? 0)
        var rows: [[String]] = []
        var styles: [FigureTable.RowStyle] = []
        for (g, group) in sheet.groups.enumerated() {
            rows.append([group.category] + sheet.columns.indices.map { hm(rounded.groupCells[g][$0], group.cells[$0]) } + [hm(rounded.groupTotals[g], 1)])
            styles.append(.group)
            for (r, row) in group.rows.enumerated() {
                rows.append([row.task] + sheet.columns.indices.map { hm(rounded.cells[g][r][$0], row.cells[$0]) } + [hm(rounded.rowTotals[g][r], 1)])
                styles.append(.member)
            }
        }
        rows.append(["Total"] + sheet.columns.indices.map { hm(rounded.columnTotals[$0], sheet.columnTotals[$0]) } + [hm(rounded.total, 1)])
        styles.append(.total)
        let header = [""] + labels.map { sheet.byWeek ? $0.1 : "\($0.0) \($0.1)" } + ["Total"]
        return Figure(
            title: title, subtitle: Figure.rangeLine(title, sheet.range, zone: sheet.zone),
            totals: ["\(TextFormat.duration(minutes: rounded.total, of: sheet.total)) tracked"],
            blocks: [
                .columns(ColumnChart(
                    title: sheet.byWeek ? "Per week by category" : "Per day by category", series: series, columns: columns,
                    stepMicros: axis.stepMicros, steps: axis.steps, average: nil)),
                .table(FigureTable(title: "Sheet (h:mm)", header: header, rows: rows, styles: styles, numeric: Set(1..<header.count))),
            ])
    }

    /// A tracked category's colour: its slot among the tracker's categories (`colors`, from
    /// `TrackerFacts.categoriesByTime`: the same in every view and save of the same data), else
    /// its rank in the view.
    static func trackedRGB(_ name: String, rank: Int, colors: SeriesColors?) -> Int {
        let slot = colors?.category(name) ?? rank
        return SeriesColor.categoriesRGB[slot % SeriesColor.categoriesRGB.count]
    }
}
