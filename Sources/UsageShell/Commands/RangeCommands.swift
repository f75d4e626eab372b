// RangeCommands.swift — the commands of a stretch of days: summary (totals of any range), month (a calendar month's days as bars), timesheet (tracked time as a sheet); and the RANGE argument that summary, apps, categories, tasks and timesheet share.
import UsageCore
import UsageRender
import UsageStore

extension CommandTable {
    /// `week`, `month`, `year`, `2026-10`, `2026`, `FROM..TO`.
    static let rangeSlot = Slot<RangeQuery>(
        "RANGE", completion: [.keywords(RangeQuery.words + ["last"])], invalid: slipped(RangeQuery.problem, among: RangeQuery.words + ["last"]),
        read: { RangeQuery($0) })
    /// What follows `last`: a number of days, or `week`, `month`, `year` (the one before this one).
    static let lastSlot = Slot<RangeQuery>(
        "N|week|month|year", completion: [.keywords(["7", "30", "week", "month", "year"])],
        missing: "last how many days? (last 30, last week, last month, last year)", invalid: slipped(RangeQuery.lastProblem, among: RangeQuery.words),
        read: { RangeQuery(last: $0) })
    /// A range's refusal with the word it is a slip of (`summary last wek`: did you mean
    /// 'week'?), as a keyword's slip gets its keyword (`apps tpo 5`).
    static func slipped(_ problem: @escaping @Sendable (String) -> String, among words: [String]) -> @Sendable (String) -> String {
        { word in
            let said = problem(word)
            guard !said.contains("did you mean"), let near = NameMatch.closest(to: word, among: words) else { return said }
            return said + " — did you mean '\(near)'?"
        }
    }
    /// A range as every command taking one reads it: `last N|week|month|year`, or one word.
    static let rangeSyntax = Syntax.alternatives([.sequence([.word(Keyword("last", exact: true)), .value(lastSlot)]), .value(rangeSlot)])
    static let monthStep = Choice("step", [Keyword("prev", aliases: ["previous"]), Keyword("next")])

    static let rangeCommands: [Command] = [
        Command(
            "summary", syntax: .optional(rangeSyntax),
            summary: "the totals of a range of days (alone, the selected day's month): total, days with data, daily average, busiest day, each category and app, and the change against the range before; RANGE is week, month, year, 2026-10, 2026, FROM..TO, last N or last week|month|year",
            examples: ["summary", "summary week", "summary last 30", "summary last month", "summary 2026-10", "summary 2026", "summary 2026-01-01..2026-03-31"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            try shell.requireData()
            let range = try shell.range(args, command: "summary", otherwise: .current(.month))
            let model = shell.model
            let s = shell.splitBySites(RangeSummary(history: model.history, range: range, zone: model.zone))
            return shell.renderView(
                "summary", json: { ReportJSON.summary(s) },
                table: { [unowned shell] width, theme in TextReport.summary(s, width: width, theme: theme, palette: shell.palette(s, theme: theme)) },
                figure: { Figure.summary(s, palette: Palette(apps: s.apps.map(\.name), categories: s.categories.map(\.name), colors: $0)) })
        },
        Command(
            "month", syntax: .optional(.choice(monthStep)),
            summary: "the days of the selected day's calendar month as bars stacked by category, with the daily average and the change against the month before; prev and next step a month",
            examples: ["month", "month prev", "month next"],
            watch: .selectsOnce
        ) { shell, args throws(ShellError) in
            try shell.requireData()
            if let step = args[monthStep] {
                let day = shell.model.selectedDay.movingMonths(step == "next" ? 1 : -1)
                try shell.selectDay(.date(day), typed: step)
            }
            let model = shell.model
            let selected = model.selectedDay
            let range = DateRange.month(of: selected)
            let days = shell.splitBySites(model.summaries(endingOn: range.to, count: range.dayCount))
            let before = range.previous.map { model.dailyTotals(endingOn: $0.to, count: $0.dayCount) } ?? []
            return shell.renderView(
                "month", json: { ReportJSON.month(range, days: days) },
                table: { [unowned shell] width, theme in
                    TextReport.dayBars(
                        days, previous: before, selected: selected, title: TextFormat.rangeTitle(range), labels: .narrow, width: width,
                        theme: theme, colors: theme.color ? shell.seriesColors : nil, span: TextFormat.previousName(range))
                },
                figure: {
                    Figure.days(
                        days, previous: before, selected: selected, title: TextFormat.rangeTitle(range), labels: .narrow, colors: $0,
                        span: TextFormat.previousName(range))
                })
        },
        Command(
            "timesheet", syntax: .optional(rangeSyntax),
            summary: "tracked time as a sheet: tasks grouped by category down, days across (weeks past 31 days), totals on both edges that add up; alone, the week of the selected day (or today); --format csv is a sheet in decimal hours",
            examples: ["timesheet", "timesheet last week", "timesheet month", "timesheet last month", "timesheet 2026-10", "timesheet 2026-10-01..2026-10-15"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            let snapshot = try shell.trackerSnapshot()
            let clock = shell.trackerClock
            let range = try shell.range(
                args, command: "timesheet", otherwise: .current(.week), selected: shell.calendarSelected,
                dataRange: TrackerFacts.dayRange(snapshot.intervals, now: clock.now, zone: clock.zone))
            let sheet = Timesheet(snapshot: snapshot, range: range, zone: clock.zone, now: clock.now, weekStart: shell.model.weekStart)
            // Each category in its colour among all the tracker's, as every view of it.
            let colors = SeriesColors(apps: [], categories: TrackerFacts.categoriesByTime(snapshot, now: clock.now))
            return shell.renderView(
                "timesheet", json: { ReportJSON.timesheet(sheet) }, csvTable: { TimesheetCSV.table(sheet) },
                table: { width, theme in TextReport.timesheet(sheet, width: width, theme: theme) }, figure: { _ in Figure.timesheet(sheet, colors: colors) })
        },
    ]
}

extension Shell {
    /// The range the command's arguments name (`RANGE` or `last …`), else `otherwise`, resolved
    /// against the clock, `selected` (by default the selected day) and the data's days.
    func range(
        _ args: Arguments, command: String, otherwise: RangeQuery, selected: LocalDate? = nil,
        dataRange: ClosedRange<LocalDate>?? = nil
    ) throws(ShellError) -> DateRange {
        let query = args[CommandTable.lastSlot] ?? args[CommandTable.rangeSlot] ?? otherwise
        let days = dataRange ?? model.history.dayRange(in: model.zone)
        switch query.resolve(today: model.today, selected: selected ?? model.selectedDay, dataRange: days, weekStart: model.weekStart) {
        case .success(let range): return range
        case .failure(let problem):
            throw .usage(command: command, problem: problem.description, usage: CommandTable.named(command).usage)
        }
    }

    /// A range's series with the session's colours (monochrome needs none).
    func palette(_ s: RangeSummary, theme: Theme) -> Palette {
        Palette(apps: s.apps.map(\.name), categories: s.categories.map(\.name), colors: theme.color ? seriesColors : nil)
    }
}
