// DayCommands.swift — the commands that show the selected day and the days around it: show, day, chart, apps (also of a range), app, hour, week, days, insights.
import UsageCore
import UsageData
import UsageRender

extension CommandTable {
    /// A day as `day` and `--day` take it.
    static let daySlot = Slot<DayQuery>(
        "DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday", completion: [.days],
        invalid: DayQuery.problemSuggesting, read: DayQuery.init)
    static let showForm = Choice("form", [Keyword("full"), Keyword("compact")])
    static let chartChoice = Choice("chart", [Keyword(ChartKind.category.rawValue)], noun: "a chart")
    static let hourlyChoice = Choice("chart", [Keyword(ChartKind.hourly.rawValue)], noun: "a chart")
    static let byHint = "say 'by app' or 'by category'"
    static let stackChoice = Choice("stack", HourlyStack.allCases.map { Keyword($0.rawValue) }, missing: byHint)
    static let topSlot = Slot<Int>.count("N", invalid: { "'\($0)' is not a positive number" })
    static let categorySlot = Slot<String>.text("NAME", completion: [.categories])
    static let appSlot = Slot<String>.text("NAME", completion: [.apps], missing: "which app?")
    static let hourSlot = Slot<Int>(
        "H", completion: [.hours], missing: "which hour?", invalid: { "'\($0)' is not an hour from 0 to 23" }, read: parseHour)
    static let weekStep = Choice("step", [Keyword("prev", aliases: ["previous"]), Keyword("next")])
    static let daysSlot = Slot<Int>(
        "N", invalid: { "'\($0)' is not a number of days from 1 to 31" }, read: { Int($0).flatMap { (1...31).contains($0) ? $0 : nil } })

    static let dayCommands: [Command] = [
        Command(
            "show", syntax: .optional(.choice(showForm)),
            summary: "the day screen: header, both charts (the selected one first), the app list; compact fits 24 rows (chosen by itself when the full one is taller than the terminal). "
                + "Its two totals: app time adds up every app's time, so two apps open at once (music under a map) both count; screen time is the time any app was in use, counted once.",
            examples: ["show", "show compact", "show full"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            let r = shell.splitBySites(try shell.requireReport())
            let (hourlyFirst, stack) = (shell.model.chart == .hourly, shell.model.hourlyBy)
            let form = args[showForm]
            // At the prompt's terminal, a full screen taller than it gives way to the compact one.
            let rows = form == nil ? shell.environment.screen?.rows : nil
            let skipped = shell.model.history.skipped
            let sites = shell.daySitesByBrowser()
            let colors = { [unowned shell] in shell.seriesColors }
            return shell.renderView(
                "show", json: { ReportJSON.show(r, skipped: skipped) },
                table: { [unowned shell] width, theme in
                    let palette = shell.palette(r, theme: theme)
                    let compact = {
                        TextReport.showCompact(r, hourlyFirst: hourlyFirst, hourlyBy: stack, width: width, theme: theme, palette: palette)
                    }
                    if form == "compact" { return compact() }
                    let full = TextReport.show(r, hourlyFirst: hourlyFirst, hourlyBy: stack, width: width, theme: theme, palette: palette, sites: sites)
                    if let rows, full.count > rows - 1 { return compact() }
                    return full
                }, figure: { Figure.show(r, hourlyFirst: hourlyFirst, by: stack, palette: Palette(r, colors: $0), sites: sites) })
        },
        Command(
            "day", abbreviations: ["d"], syntax: .optional(.value(daySlot)),
            summary: "select a day and show its totals; alone, show the selected day",
            examples: ["day 2026-02-23", "day yesterday", "day -7", "day monday"],
            watch: .selectsOnce
        ) { shell, args throws(ShellError) in
            try shell.requireData()
            if let query = args[daySlot] { try shell.selectDay(query, typed: args.words[0]) }
            let r = shell.model.report
            // A header, not a view that draws: `week`, `day next`, `save week.svg` saves the week.
            return shell.renderData(json: { ReportJSON.day(r) }, table: { TextReport.header(r, width: $0, theme: $1) })
        },
        Command(
            "chart", abbreviations: ["ch"],
            syntax: .optional(.alternatives([.choice(chartChoice), .sequence([.choice(hourlyChoice), .optional(.sequence([.word("by", hint: byHint), .choice(stackChoice)]))])])),
            summary: "select and show a chart (hourly stacks the top apps, or by category the top categories); alone, the selected one",
            examples: ["chart hourly", "ch h", "chart hourly by category", "chart category", "chart"],
            explain: { _, failure in
                // `by` fits only after `hourly`.
                guard case .unexpected(let word, _) = failure, PrefixMatch.unique(word, among: ["by"]) != nil else { return nil }
                return "only the hourly chart is stacked 'by' something"
            },
            watch: .shows
        ) { shell, args throws(ShellError) in
            if let chart = args[chartChoice].flatMap(ChartKind.init) { shell.model.chart = chart }
            if let stack = args[stackChoice].flatMap(HourlyStack.init) { shell.model.hourlyBy = stack }
            let r = try shell.requireReport()
            let colors = { [unowned shell] in shell.seriesColors }
            switch shell.model.chart {
            case .category:
                let r = shell.splitBySites(r)
                return shell.renderView(
                    "chart category", json: { ReportJSON.categoryChart(r) },
                    table: { TextReport.categories(r, width: $0, theme: $1, palette: Palette(r, colors: $1.color ? colors() : nil)) },
                    figure: { Figure.categoryChart(r, palette: Palette(r, colors: $0)) })
            case .hourly:
                let by = shell.model.hourlyBy
                return shell.renderView(
                    "chart hourly", json: { ReportJSON.hourlyChart(r, by: by) },
                    table: { TextReport.hourly(r, by: by, width: $0, theme: $1, palette: Palette(r, colors: $1.color ? colors() : nil)) },
                    figure: { Figure.hourlyChart(r, by: by, palette: Palette(r, colors: $0)) })
            }
        },
        Command(
            "apps",
            syntax: .anyOrder([.sequence([.word("top"), .value(topSlot)]), .sequence([.word("category"), .value(categorySlot)]), rangeSyntax]),
            summary: "the ranked app list of the day, or of a RANGE (as summary takes it); top N keeps the first N, category NAME one category's apps",
            examples: ["apps", "apps top 5", "apps category Social", "apps top 3 category \"Social Media\"", "apps top 10 month", "apps last 30"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            if args[rangeSlot] != nil || args[lastSlot] != nil { return try rangeApps(shell, args) }
            let r = try shell.requireReport()
            var list = r.apps
            var title = "Apps"
            var totalLine: String?
            var category: String?
            if let word = args[categorySlot] {
                let name = try NameMatch.resolve(word, among: shell.model.history.categories, kind: "category").get()
                category = name
                list = list.filter { $0.category.sameScalars(as: name) }
                // The category's own time, as `chart category` shows it (an app is listed under
                // the category most of its time had, so the two can differ a little).
                let micros = r.categories.first { $0.name.sameScalars(as: name) }?.micros ?? 0
                title = "Apps in \(TerminalText.sanitize(name))"
                totalLine = "\(TextFormat.duration(micros)) in \(TerminalText.sanitize(name)) · "
                    + "\(TextFormat.share(r.totalMicros > 0 ? Double(micros) / Double(r.totalMicros) : 0)) of the day"
            }
            // What `top N` leaves out is counted under the rows, as `show compact` counts it.
            var leftOut: [AppUsage] = []
            if let top = args[topSlot] { (list, leftOut) = (Array(list.prefix(top)), Array(list.dropFirst(top))) }
            let (listed, categoryName, shownTitle, shownTotal, left) = (list, category, title, totalLine, leftOut)
            let sites = shell.daySitesByBrowser()
            let colors = { [unowned shell] in shell.seriesColors }
            return shell.renderView(
                "apps", json: { ReportJSON.apps(r, apps: listed, category: categoryName) },
                table: {
                    TextReport.apps(
                        r, apps: listed, width: $0, theme: $1, title: shownTitle, totalLine: shownTotal, palette: Palette(r, colors: $1.color ? colors() : nil),
                        leftOut: left, sites: sites)
                }, figure: { Figure.apps(r, apps: listed, title: shownTitle, totalLine: shownTotal, palette: Palette(r, colors: $0), sites: sites) })
        },
        Command(
            "app", syntax: .value(appSlot), summary: "one app's day: total, share, category, each session and its hours",
            examples: ["app Safari", "app \"Google Chrome\"", "app goo"], tooMany: "one name (quote names with spaces)",
            watch: .shows
        ) { shell, args throws(ShellError) in
            try shell.requireData()
            let history = shell.model.history
            let name = try NameMatch.resolve(args[appSlot]!, among: history.apps, kind: "app").get()
            // By scalars: `é` and `e` + U+0301 are two apps although Swift's `==` calls them equal.
            let id = Int32(history.apps.firstIndex { $0.sameScalars(as: name) }!)
            let a = AppDayReport(history: history, app: id, date: shell.model.selectedDay, zone: shell.model.zone)
            let (r, colors) = (shell.model.report, { [unowned shell] in shell.seriesColors })
            // A browser's sites that day, under it (none for any other app).
            // Each with its category (`category rule SITE CATEGORY`), as `sites` shows them.
            var sites: [SiteTotal]?
            var categories = SiteCategories([])
            if let family = BrowserApps.family(ofApp: name) {
                sites = SiteTimes.totals(try shell.siteTimes(from: a.day, to: a.day).filter { $0.browser == family })
                categories = try shell.siteCategories()
            }
            let (shownSites, siteCategories) = (sites, categories)
            return shell.renderView(
                "app", json: { ReportJSON.app(a, sites: shownSites, categories: siteCategories) },
                table: { width, theme in
                    TextReport.app(a, width: width, theme: theme, palette: Palette(r, colors: theme.color ? colors() : nil))
                        + (shownSites.map { [""] + TextReport.sites($0, title: "Sites", width: width, theme: theme, categories: siteCategories) } ?? [])
                },
                figure: { Figure.app(a, palette: Palette(r, colors: $0)) })
        },
        Command(
            "hour", syntax: .value(hourSlot), summary: "the apps used in one hour of the day (H is 0–23)",
            examples: ["hour 9", "hour 21"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            let hour = args[hourSlot]!
            let r = try shell.requireReport()
            // None on a spring-forward day's skipped hour: the renderers say so; it is no error.
            let slots = r.hours.filter { $0.slot.hour == hour }
            let colors = { [unowned shell] in shell.seriesColors }
            return shell.renderView(
                "hour", json: { ReportJSON.hour(r, hour: hour, slots: slots) },
                table: { TextReport.hour(r, slots: slots, width: $0, theme: $1, palette: Palette(r, colors: $1.color ? colors() : nil)) },
                figure: { Figure.hour(r, slots: slots, palette: Palette(r, colors: $0)) })
        },
        Command(
            "week", syntax: .optional(.choice(weekStep)),
            summary: "the calendar week of the selected day (Monday to Sunday; set week-start sunday for Sunday to Saturday), a bar a day stacked by category, days still to come empty, against the week before; prev and next step a week",
            examples: ["week", "week prev", "week next"],
            watch: .selectsOnce
        ) { shell, args throws(ShellError) in
            try shell.requireData()
            if let step = args[weekStep] { try shell.selectDay(step == "next" ? "+7" : "-7") }
            return weekBars(shell)
        },
        Command(
            "days", syntax: .optional(.value(daysSlot)),
            summary: "the last N days (1–31, default 10) ending on the selected day, as the iOS \"Last 10 days\" chart; days 7 is the 7 days ending on the selected day (week is the calendar week)",
            examples: ["days", "days 14", "days 7", "days 31"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            let count = args[daysSlot] ?? 10
            try shell.requireData()
            // Seven days ending on a day: the chart `week` drew until it became the calendar week, byte for byte.
            if count == 7 { return dayBars(shell, name: "days", count: 7, labels: .weekdays) { "Week ending \($0)" } }
            return dayBars(shell, name: "days", count: count, labels: .narrow) { "Last \(count) day\(count == 1 ? "" : "s") ending \($0)" }
        },
        Command(
            "insights",
            summary: "the 7 days ending on the selected day in facts: top app and category, average, longest session, busiest hour, trend, advice",
            examples: ["insights"],
            watch: .shows
        ) { shell, _ throws(ShellError) in
            try shell.requireData()
            let model = shell.model
            let insights = model.insights(endingOn: model.selectedDay)
            // On tracked time: estimated against actual, and the streaks.
            let tracker = model.loadedSource?.parts.contains(.tracked) == true ? try shell.trackerInsights() : nil
            let (zone, colors) = (model.zone, { [unowned shell] in shell.seriesColors })
            return shell.renderView(
                "insights",
                json: {
                    let json = ReportJSON.insights(insights, zone: zone)
                    guard let tracker, case .object(let fields) = json else { return json }
                    return .object(fields + ReportJSON.trackerInsights(tracker.estimates, streak: tracker.streak))
                }, csv: .record,
                table: { width, theme in
                    TextReport.insights(insights, zone: zone, width: width, theme: theme)
                        + (tracker.map { TextReport.trackerInsights($0.estimates, streak: $0.streak, width: width) } ?? [])
                },
                figure: { colors in
                    Figure.insights(
                        insights, zone: zone, colors: colors,
                        tracked: tracker.map { TextReport.trackerInsights($0.estimates, streak: $0.streak, width: 1000).dropFirst(2).map(Figure.words) } ?? [])
                })
        },
    ]

    /// `apps … RANGE`: the range's apps (from its totals, as `summary` lists them), the first
    /// N, or one category's with that category's time in the range.
    private static func rangeApps(_ shell: Shell, _ args: Arguments) throws(ShellError) -> CommandOutcome {
        try shell.requireData()
        let model = shell.model
        let range = try shell.range(args, command: "apps", otherwise: .current(.month))
        let s = RangeSummary(history: model.history, range: range, zone: model.zone)
        var list = s.apps
        var title = "Apps · " + TextFormat.rangeTitle(range)
        var category: String?
        if let word = args[categorySlot] {
            let name = try NameMatch.resolve(word, among: model.history.categories, kind: "category").get()
            category = name
            list = list.filter { $0.category.sameScalars(as: name) }
            title = "Apps in \(TerminalText.sanitize(name)) · " + TextFormat.rangeTitle(range)
        }
        if let top = args[topSlot] { list = Array(list.prefix(top)) }
        let (listed, categoryName, shownTitle) = (list, category, title)
        let colors = { [unowned shell] in shell.seriesColors }
        let palette = { (colors: SeriesColors?) in Palette(apps: s.apps.map(\.name), categories: s.categories.map(\.name), colors: colors) }
        return shell.renderView(
            "apps", json: { ReportJSON.rangeApps(s, apps: listed, category: categoryName) },
            table: { width, theme in
                TextReport.rangeApps(s, apps: listed, title: shownTitle, width: width, theme: theme, palette: palette(theme.color ? colors() : nil))
            }, figure: { Figure.rangeApps(s, apps: listed, title: shownTitle, palette: palette($0)) })
    }

    /// `week`: the calendar week holding the selected day, from the week's first day (`set
    /// week-start`), its seven days drawn whatever they hold (days still to come are empty, as
    /// Screen Time's week draws them), the selected day marked, compared with the week before.
    static func weekBars(_ shell: Shell) -> CommandOutcome {
        let model = shell.model
        let selected = model.selectedDay
        let range = DateRange.week(of: selected, start: model.weekStart)
        let days = shell.splitBySites(model.summaries(endingOn: range.to, count: 7))
        let previous = model.dailyTotals(endingOn: range.from.adding(days: -1), count: 7)
        let title = "Week · " + TextFormat.rangeTitle(range)
        // The week's top sites under their browser (none without a store, or when it cannot be read: `sites week` says why).
        let times = (try? shell.siteTimes(from: range.from, to: range.to)) ?? []
        let sites = Dictionary(grouping: times, by: \.browser).mapValues { SiteTimes.totals($0) }
        let (zone, categories) = (model.zone.identifier, (try? shell.siteCategories()) ?? SiteCategories([]))
        return shell.renderView(
            "week", json: { ReportJSON.week(days, zone: zone, sites: sites, categories: categories) },
            table: { [unowned shell] width, theme in
                TextReport.dayBars(
                    days, previous: previous, selected: selected, title: title, labels: .weekdays, width: width, theme: theme,
                    colors: theme.color ? shell.seriesColors : nil) + TextReport.browserSites(sites, width: width, theme: theme)
            },
            figure: { Figure.days(days, previous: previous, selected: selected, title: title, labels: .weekdays, colors: $0, sites: sites) })
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

    /// `week` and `days N`, titled with the selected day's long date (`Monday, February 23,
    /// 2026`), or its short one (`Mon 23 Feb 2026`) where the long title would be cut.
    static func dayBars(_ shell: Shell, name: String, count: Int, labels: DayLabels, title: @escaping (String) -> String) -> CommandOutcome {
        let model = shell.model
        let days = shell.splitBySites(model.summaries(endingOn: model.selectedDay, count: count))
        let selected = model.selectedDay
        let previous = model.dailyTotals(endingOn: selected.adding(days: -count), count: count)
        let colors = { [unowned shell] in shell.seriesColors }
        return shell.renderView(
            name, json: { ReportJSON.week(days) },
            table: { width, theme in
                let long = title(TextFormat.longDate(selected))
                let fitting = TerminalText.cells(long) <= width ? long : title(TextFormat.mediumDate(selected))
                return TextReport.dayBars(
                    days, previous: previous, selected: selected, title: fitting, labels: labels, width: width, theme: theme,
                    colors: theme.color ? colors() : nil)
            },
            figure: { Figure.days(days, previous: previous, selected: selected, title: title(TextFormat.longDate(selected)), labels: labels, colors: $0) })
    }
}
