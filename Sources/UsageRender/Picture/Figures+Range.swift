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
            return Figure(title: title, blocks: [.text(title: nil, ["No limits: set one with 'limit APP 30m', 'limit youtube.com 1h' or 'limit category NAME 1h'."])])
        }
        // The session's colour of each name; without the session's colours, by the limit's place in the list.
        let rows = statuses.enumerated().map { k, s -> BarChart.Row in
            let series: Series
            switch s.limit.target {
            case .app(let name): series = Series(rank: 0, kind: .app, slot: colors.map { $0.app(name) } ?? k % SeriesColors.slots)
            case .category(let name): series = Series(rank: 0, kind: .category, slot: colors.map { $0.category(name) } ?? k % SeriesColors.slots)
            case .site: series = Series(rank: 0, kind: .app, slot: k % SeriesColors.slots)
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

    /// How a range's days are drawn: one column a day, a week (from Monday), a month or a year —
    /// the smallest that gives at most 62 columns — so a picture of years is as small as a month's.
    enum RangeUnit: String {
        case day, week, month, year

        init(_ range: DateRange) {
            let weeks = Self.week.start(range.from).days(to: range.to) / 7 + 1
            let months = (range.to.year - range.from.year) * 12 + range.to.month - range.from.month + 1
            self = range.dayCount <= 62 ? .day : weeks <= 62 ? .week : months <= 62 ? .month : .year
        }

        /// The first day of the column a day falls in.
        func start(_ d: LocalDate) -> LocalDate {
            switch self {
            case .day: return d
            case .week: return d.adding(days: 1 - d.isoWeekday)
            case .month: return LocalDate(year: d.year, month: d.month, day: 1)!
            case .year: return LocalDate(year: d.year, month: 1, day: 1)!
            }
        }

        /// The first day of the next column.
        func next(_ d: LocalDate) -> LocalDate {
            switch self {
            case .day: return d.adding(days: 1)
            case .week: return d.adding(days: 7)
            case .month: return DateRange.month(of: d).to.adding(days: 1)
            case .year: return LocalDate(year: d.year + 1, month: 1, day: 1)!
            }
        }
    }

    /// The range's time per column of `RangeUnit`, on an axis of round hours; a column cut by
    /// the range (its first and last week) is named by the days inside it.
    static func rangeDays(_ s: RangeSummary) -> FigureBlock {
        let unit = RangeUnit(s.range)
        var buckets: [(start: LocalDate, micros: Micros)] = []
        var day = unit.start(s.range.from)
        while day <= s.range.to {
            buckets.append((day, 0))
            day = unit.next(day)
        }
        var index: [LocalDate: Int] = [:]
        for (k, b) in buckets.enumerated() { index[b.start] = k }
        for d in s.days { if let k = index[unit.start(d.day)] { buckets[k].micros += d.micros } }
        let durations = TextFormat.durations(buckets.map(\.micros))
        let every = max(1, (buckets.count + 11) / 12)
        let columns = buckets.enumerated().map { k, b -> ColumnChart.Column in
            let first = max(b.start, s.range.from)
            let last = min(unit.next(b.start).adding(days: -1), s.range.to)
            let label: String
            switch unit {
            case .day: label = String(first.day)
            case .week: label = "\(first.day) \(TextFormat.shortMonth(first))"
            // The year where it begins, and on the first column.
            case .month: label = TextFormat.shortMonth(first) + (k == 0 || first.month == 1 ? " \(first.year)" : "")
            case .year: label = String(first.year)
            }
            let name: String
            switch unit {
            case .day: name = TextFormat.mediumDate(first)
            case .week, .year: name = TextFormat.span(first, last)
            case .month: name = "\(TextFormat.monthName(first.month)) \(first.year)"
            }
            return ColumnChart.Column(
                label: k % every == 0 ? label : "", sublabel: "", values: [b.micros], marked: false, description: "\(name): \(durations[k])")
        }
        let axis = roundHours(upTo: buckets.map(\.micros).max() ?? 0)
        return .columns(
            ColumnChart(
                title: "Time per \(unit.rawValue)",
                series: [FigureSeries(name: "all apps", rgb: FigureSeries.textInk, value: TextFormat.duration(s.totalMicros))],
                columns: columns, stepMicros: axis.step, steps: axis.steps, average: nil))
    }

    /// An axis of round steps for any time: the terminal's (15m, 30m, 1h … 12h) up to two days,
    /// then 1, 2 or 5 times a power of ten hours (24h, 50h, 100h, 200h …): the smallest step of
    /// which four reach the busiest column, and as many steps as reach it.
    static func roundHours(upTo busiest: Micros) -> (step: Micros, steps: Int) {
        let hour: Micros = 3_600_000_000
        guard busiest > 48 * hour else {
            let axis = BarAxis(quartersUpTo: busiest)
            return (axis.stepMicros, axis.steps)
        }
        var power: Micros = 10
        while true {
            for k: Micros in [1, 2, 5] where 4 * k * power * hour >= busiest {
                let step = k * power * hour
                return (step, Int((busiest + step - 1) / step))
            }
            power *= 10
        }
    }
}
