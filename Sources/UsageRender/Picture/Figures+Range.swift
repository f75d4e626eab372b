// Figures+Range.swift — the figures of a range of days (summary, apps RANGE) and of the limits: the range's categories as the ring, its days (by week or month when long, so a year stays small) as columns, its apps as ranked bars that add up; each limit's use against it.
import UsageCore

extension Figure {
    /// `summary RANGE`: the sentence, the categories, the days, the top apps and the rest.
    public static func summary(_ s: RangeSummary, palette: Palette) -> Figure {
        let title = TextFormat.rangeTitle(s.range)
        let subtitle = Figure.rangeLine(title, s.range, zone: s.zone)
        guard s.totalMicros > 0 else {
            let n = s.range.dayCount
            return Figure(
                title: title, subtitle: subtitle, totals: ["0m total"],
                blocks: [.text(title: nil, ["No usage recorded in these \(n) day\(n == 1 ? "" : "s")."])])
        }
        let shown = Array(s.apps.prefix(TextReport.summaryApps))
        let appsTitle = s.apps.count > shown.count ? "Apps · top \(shown.count) of \(s.apps.count)" : "Apps"
        return Figure(
            title: title, subtitle: subtitle, totals: ["\(TextFormat.duration(s.totalMicros)) total"],
            sentence: TextReport.rangeSentence(s, theme: Theme(color: false)),
            blocks: [.donut(donut(s.categories, total: s.totalMicros, palette: palette)), rangeDays(s), rangeAppsBlock(s, apps: shown, title: appsTitle, palette: palette, restLine: true)])
    }

    /// `apps … RANGE`.
    public static func rangeApps(_ s: RangeSummary, apps list: [AppUsage], title: String, palette: Palette) -> Figure {
        Figure(
            title: title, subtitle: Figure.rangeLine(title, s.range, zone: s.zone),
            totals: ["\(TextFormat.duration(s.totalMicros)) total"],
            blocks: list.isEmpty ? [.text(title: nil, ["No usage recorded."])] : [rangeAppsBlock(s, apps: list, title: "Apps", palette: palette, restLine: false)])
    }

    /// `limits`: each limit's use that day against it.
    public static func limits(_ statuses: [LimitStatus], day: LocalDate, zone: Zone, colors: SeriesColors?) -> Figure {
        let title = "Limits · \(TextFormat.shortWeekday(day)) \(day)"
        guard !statuses.isEmpty else {
            return Figure(title: title, blocks: [.text(title: nil, ["No limits: set one with 'limit APP 30m' or 'limit category NAME 1h'."])])
        }
        let rows = statuses.map { s -> BarChart.Row in
            let series: Series
            switch s.limit.target {
            case .app(let name): series = Series(rank: 0, kind: .app, slot: colors?.app(name))
            case .category(let name): series = Series(rank: 0, kind: .category, slot: colors?.category(name))
            }
            return BarChart.Row(
                rank: nil, series: FigureSeries(name: TextReport.limitName(s), rgb: FigureSeries.rgb(series), value: TextFormat.duration(s.usedMicros)),
                micros: s.usedMicros, value: "\(TextFormat.duration(s.usedMicros)) of \(TextFormat.duration(s.limit.micros))",
                limit: s.limit.micros, note: TextReport.limitNote(s, zone: zone, day: day), alert: s.isCrossed)
        }
        let crossed = statuses.filter(\.isCrossed).count
        return Figure(
            title: title, totals: ["\(crossed) of \(statuses.count) limit\(statuses.count == 1 ? "" : "s") crossed"],
            blocks: [.bars(BarChart(title: "Limits", rows: rows, footer: []))])
    }

    /// The line under a range's title: its days, unless the title already names them, and the zone.
    static func rangeLine(_ title: String, _ range: DateRange, zone: String) -> String {
        let span = TextFormat.span(range.from, range.to)
        return (title.contains(span) ? "" : span + " · ") + "times in \(zone)"
    }

    /// The range's apps as ranked bars, each with the whole list's minutes; with `restLine`,
    /// what the others add up to and the total under them (as the terminal's `summary`).
    static func rangeAppsBlock(_ s: RangeSummary, apps list: [AppUsage], title: String, palette: Palette, restLine: Bool) -> FigureBlock {
        var minutesOf: [ExactName: Int64] = [:]
        for (a, m) in zip(s.apps, TextFormat.minutes(adding: s.apps.map(\.micros))) { minutesOf[ExactName(a.name)] = m }
        let duration = { (a: AppUsage) in TextFormat.duration(minutes: minutesOf[ExactName(a.name)] ?? TextFormat.minutes(a.micros), of: a.micros) }
        let rows = list.enumerated().map { k, a in
            BarChart.Row(
                rank: k + 1, series: FigureSeries(name: a.name, rgb: FigureSeries.rgb(palette.app(a.name)), value: duration(a)),
                detail: "\(a.category) · \(a.sessions) session\(a.sessions == 1 ? "" : "s")", micros: a.micros, value: duration(a),
                share: TextFormat.share(a.share))
        }
        var footer: [String] = []
        let listed = Set(list.map { ExactName($0.name) })
        let rest = s.apps.filter { !listed.contains(ExactName($0.name)) }
        if restLine, !rest.isEmpty {
            let minutes = rest.reduce(Int64(0)) { $0 + (minutesOf[ExactName($1.name)] ?? 0) }
            footer.append("\(rest.count) more app\(rest.count == 1 ? "" : "s") \(TextFormat.duration(minutes: minutes, of: rest.reduce(0) { $0 + $1.micros }))")
        }
        footer.append("\(TextFormat.duration(s.totalMicros)) total")
        return .bars(BarChart(title: title, rows: rows, footer: footer))
    }

    /// The range's time per day, or per week past 62 days, or per month past a year's weeks: at
    /// most 62 columns whatever the range, so a year's picture is as small as a month's.
    static func rangeDays(_ s: RangeSummary) -> FigureBlock {
        let n = s.range.dayCount
        let unit: (name: String, start: (LocalDate) -> LocalDate) =
            n <= 62 ? ("day", { $0 }) : n <= 371 ? ("week", { $0.adding(days: 1 - $0.isoWeekday) }) : ("month", { LocalDate(year: $0.year, month: $0.month, day: 1)! })
        var buckets: [(start: LocalDate, micros: Micros)] = []
        var day = unit.start(s.range.from)
        while day <= s.range.to {
            buckets.append((day, 0))
            switch unit.name {
            case "day": day = day.adding(days: 1)
            case "week": day = day.adding(days: 7)
            default: day = DateRange.month(of: day).to.adding(days: 1)
            }
        }
        var index: [LocalDate: Int] = [:]
        for (k, b) in buckets.enumerated() { index[b.start] = k }
        for d in s.days { if let k = index[unit.start(d.day)] { buckets[k].micros += d.micros } }
        let durations = TextFormat.durations(buckets.map(\.micros))
        let every = max(1, (buckets.count + 11) / 12)
        let columns = buckets.enumerated().map { k, b -> ColumnChart.Column in
            let label: String
            switch unit.name {
            case "day": label = k % every == 0 ? String(b.start.day) : ""
            case "week": label = k % every == 0 ? "\(b.start.day) \(TextFormat.shortMonth(b.start))" : ""
            default: label = k % every == 0 ? TextFormat.shortMonth(b.start) : ""
            }
            let name = unit.name == "month" ? "\(TextFormat.monthName(b.start.month)) \(b.start.year)"
                : unit.name == "week" ? "week of \(TextFormat.mediumDate(b.start))" : TextFormat.mediumDate(b.start)
            return ColumnChart.Column(label: label, sublabel: "", values: [b.micros], marked: false, description: "\(name): \(durations[k])")
        }
        let axis = BarAxis(quartersUpTo: buckets.map(\.micros).max() ?? 0)
        let perUnit = unit.name == "day" ? "a day" : "a \(unit.name)"
        return .columns(
            ColumnChart(
                title: "Time \(unit.name == "day" ? "per day" : "per \(unit.name)")",
                series: [FigureSeries(name: "time \(perUnit)", rgb: SeriesColor.categoriesRGB[0], value: TextFormat.duration(s.totalMicros))],
                columns: columns, stepMicros: axis.stepMicros, steps: axis.steps, average: nil))
    }
}
