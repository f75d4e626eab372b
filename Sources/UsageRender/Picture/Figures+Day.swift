// Figures+Day.swift — the figures of the selected day's views (show, day, chart category, chart hourly, apps, app, hour), made from the report the terminal's text is made from, with the same series, colours and rounding.
import UsageCore

extension Figure {
    /// `show`: the header, both charts (the selected one first) and the app list.
    public static func show(_ r: DayReport, hourlyFirst: Bool, by stack: HourlyStack, palette: Palette, sites: [String: [SiteTotal]] = [:]) -> Figure {
        var figure = day(r)
        guard !r.isEmpty else { return figure }
        let charts = [categoryBlock(r, palette: palette), hourlyBlock(r, by: stack, palette: palette)]
        figure.blocks = (hourlyFirst ? charts.reversed() : charts) + [appsBlock(r, apps: r.apps, title: "Apps", palette: palette, sites: sites)]
            + topSitesBlock(r.apps, sites: sites)
        return figure
    }

    /// A day's figure before its blocks: the date and the totals (`no usage recorded` and a line
    /// that says so for an empty day).
    static func day(_ r: DayReport) -> Figure {
        let totals = TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)
        return Figure(
            title: TextFormat.longDate(r.day), subtitle: "Times in \(r.zone)", totals: [r.isEmpty ? totals + " · no usage recorded" : totals],
            blocks: r.isEmpty ? [.text(title: nil, ["No usage recorded on this day."])] : [])
    }

    /// `chart category`.
    public static func categoryChart(_ r: DayReport, palette: Palette) -> Figure {
        var figure = day(r)
        if !r.isEmpty { figure.blocks = [categoryBlock(r, palette: palette)] }
        return figure
    }

    /// `chart hourly [by category]`.
    public static func hourlyChart(_ r: DayReport, by stack: HourlyStack, palette: Palette) -> Figure {
        var figure = day(r)
        if !r.isEmpty { figure.blocks = [hourlyBlock(r, by: stack, palette: palette)] }
        return figure
    }

    /// `apps [top N] [category NAME]`: the listed apps, their minutes as the whole list's.
    /// `sites`: the day's sites by browser family, under their browser's row (SVG) and in `Top sites` (HTML).
    public static func apps(_ r: DayReport, apps list: [AppUsage], title: String, totalLine: String?, palette: Palette, sites: [String: [SiteTotal]] = [:]) -> Figure {
        var figure = day(r)
        figure.title = title + " · " + TextFormat.longDate(r.day)
        // One category's apps: its time and share first (the JSON's `category_seconds`), then the day's.
        if let totalLine { figure.totals = [totalLine] + figure.totals }
        figure.blocks = list.isEmpty
            ? [.text(title: nil, ["No usage recorded."])] : [appsBlock(r, apps: list, title: title, palette: palette, sites: sites)] + topSitesBlock(list, sites: sites)
        return figure
    }

    /// `app NAME`: its sessions on the day's clock, its hours, its sessions as a table.
    public static func app(_ a: AppDayReport, palette: Palette) -> Figure {
        let title = "\(a.name) · \(a.category) · \(TextFormat.shortWeekday(a.day)) \(a.day)"
        let count = a.sessions.count
        guard !a.isEmpty else {
            return Figure(title: title, totals: ["0m"], blocks: [.text(title: nil, ["No usage of \(a.name) on \(TextFormat.longDate(a.day))."])])
        }
        let series = palette.alone(app: a.name)
        let rgb = FigureSeries.rgb(series)
        let minutes = TextFormat.minutes(adding: a.sessions.map(\.micros))
        let durations = zip(minutes, a.sessions).map { TextFormat.duration(minutes: $0, of: $1.micros) }
        let times = zip(a.sessions, minutes).map { s, m -> String in
            let (from, to) = SessionClock.shown(start: s.start, end: s.end, minutes: m)
            let end = to >= a.window.end ? "24:00" : TextFormat.clock(to, offsetSeconds: s.endUTCOffsetSeconds)
            return (s.startsBeforeDay ? "…" : "") + TextFormat.clock(from, offsetSeconds: s.startUTCOffsetSeconds) + "–" + end
                + (s.endsAfterDay ? "…" : "") + (s.running ? " running" : "")
        }
        let legend = FigureSeries(name: a.name, rgb: rgb, value: TextFormat.duration(a.micros))
        let spans = a.sessions.indices.map { k in
            TimelineChart.Span(
                series: legend, start: max(a.window.start, a.sessions[k].start), end: min(a.window.end, a.sessions[k].end),
                description: "\(times[k]) (\(durations[k]))")
        }
        let timeline = TimelineChart(
            title: "Sessions", dayStart: a.window.start, dayEnd: a.window.end, ticks: ticks(a.window.slots), spans: spans, legend: [legend])
        let hours = HourlySeries(single: series, name: a.name, hours: a.hours.map(\.micros))
        let columns = hourColumns(
            slots: a.window.slots, series: hours, title: "Hours", describe: { k in TextFormat.duration(a.hours[k].micros) })
        // The table lists at most the 100 longest sessions, in time order, and what the rest add up
        // to: a day's report stays small however many sessions an app had.
        let listed = count <= Self.sessionRows ? Array(a.sessions.indices)
            : Array(a.sessions.indices.sorted { (a.sessions[$0].micros, $1) > (a.sessions[$1].micros, $0) }.prefix(Self.sessionRows)).sorted()
        var rows = listed.map { [times[$0], durations[$0], a.sessions[$0].id.map { "#" + $0 } ?? ""] }
        var styles = listed.map { _ in FigureTable.RowStyle.plain }
        if listed.count < count {
            let rest = Set(a.sessions.indices).subtracting(listed)
            rows.append(["\(rest.count) shorter sessions", TextFormat.duration(minutes: rest.reduce(0) { $0 + minutes[$1] }, of: rest.reduce(0) { $0 + a.sessions[$1].micros }), ""])
            styles.append(.total)
        }
        let table = FigureTable(
            title: listed.count < count ? "Sessions · the \(listed.count) longest of \(count)" : "Sessions", header: ["Time", "Duration", "Id"],
            rows: rows, styles: styles, numeric: [1])
        return Figure(
            title: title,
            totals: ["\(TextFormat.duration(a.micros)) · \(TextFormat.share(a.share)) of the day · \(count) session\(count == 1 ? "" : "s")"],
            blocks: [.timeline(timeline), .columns(columns), .table(table)])
    }

    /// The most sessions an app's table lists.
    static let sessionRows = 100

    /// `hour H`: each slot of the hour (two on a fall-back day) with its apps ranked.
    public static func hour(_ r: DayReport, slots: [HourUsage], palette: Palette) -> Figure {
        var figure = day(r)
        guard !slots.isEmpty else {
            figure.blocks = [.text(title: nil, ["No such hour on \(TextFormat.longDate(r.day)): the clocks skip it."])]
            return figure
        }
        let repeated = TextReport.repeatedHours(r.window.slots)
        let labels = slots.map { h in
            repeated.contains(h.slot.hour) ? TextReport.slotClock(h.slot, repeated: repeated).trimmingTrailingSpaces() : TextReport.slotRange(h.slot, in: r)
        }
        figure.title = labels.joined(separator: " and ") + " · " + TextFormat.longDate(r.day)
        figure.totals = ["\(TextFormat.duration(slots.reduce(0) { $0 + $1.micros })) in \(slots.count == 1 ? "the hour" : "the \(slots.count) hours")"]
        figure.blocks = zip(slots, labels).map { h, label in
            guard h.micros > 0 else { return .text(title: label, ["No usage."]) }
            let rows = zip(h.apps, TextFormat.durations(h.apps.map(\.micros))).enumerated().map { k, pair in
                BarChart.Row(
                    rank: k + 1, series: FigureSeries(name: pair.0.name, rgb: FigureSeries.rgb(palette.app(pair.0.name)), value: pair.1),
                    micros: pair.0.micros, value: pair.1, share: TextFormat.share(Double(pair.0.micros) / Double(h.micros)))
            }
            return .bars(BarChart(title: "\(label) · \(TextFormat.duration(h.micros))", rows: rows, footer: []))
        }
        return figure
    }

    // MARK: - The day's blocks

    static func categoryBlock(_ r: DayReport, palette: Palette) -> FigureBlock {
        .donut(donut(r.categories, total: r.totalMicros, palette: palette))
    }

    /// The category ring of any categories making up `total`: the terminal's slices (the top five
    /// and the rest folded into one past six), their times adding up.
    static func donut(_ list: [CategoryUsage], total: Micros, palette: Palette) -> DonutChart {
        let slices = CategorySlice.slices(list, total: total, palette: palette)
        let values = TextFormat.durations(slices.map(\.micros))
        return DonutChart(
            title: "By category",
            slices: zip(slices, values).map { s, value in
                DonutChart.Slice(
                    series: FigureSeries(name: s.name, rgb: FigureSeries.rgb(s.series), value: value), micros: s.micros, share: s.share,
                    shareText: TextFormat.share(s.share))
            }, total: total, centre: TextFormat.duration(total))
    }

    static func hourlyBlock(_ r: DayReport, by stack: HourlyStack, palette: Palette) -> FigureBlock {
        let series = HourlySeries(r, by: stack, palette: palette)
        let hourMinutes = TextFormat.minutes(adding: r.hours.map(\.micros))
        let durations = zip(hourMinutes, r.hours).map { TextFormat.duration(minutes: $0, of: $1.micros) }
        return .columns(
            hourColumns(
                slots: r.window.slots, series: series, title: TextReport.hourlyTitle(r, by: stack),
                describe: { k in
                    let parts = stack == .app ? r.hours[k].apps : r.hours[k].categories
                    let named = zip(parts, TextFormat.durations(parts.map(\.micros), shown: hourMinutes[k])).map { "\($0.name) \($1)" }
                    return durations[k] + (named.isEmpty ? "" : " (" + named.joined(separator: ", ") + ")")
                }))
    }

    /// One column per hour slot, labelled every 3 hours, on the terminal's hourly axis.
    static func hourColumns(slots: [HourSlot], series: HourlySeries, title: String, describe: (Int) -> String) -> ColumnChart {
        let axis = BarAxis(quarterHoursUpTo: series.values.map { $0.reduce(0, +) }.max() ?? 0)
        let repeated = TextReport.repeatedHours(slots)
        var labelled = Set<Int>()
        let columns = slots.indices.map { k -> ColumnChart.Column in
            let slot = slots[k]
            let label = slot.hour % 3 == 0 && labelled.insert(slot.hour).inserted ? String(slot.hour).leftPad(2) : ""
            let clock = TextFormat.clock(slot.start, offsetSeconds: slot.utcOffsetSeconds)
                + (repeated.contains(slot.hour) ? String(TextFormat.offset(slot.utcOffsetSeconds).prefix(3)) : "")
            return ColumnChart.Column(label: label, sublabel: "", values: series.values[k], marked: false, description: "\(clock): " + describe(k))
        }
        return ColumnChart(
            title: title,
            series: zip(series.styles, series.legend).map { FigureSeries(name: $1.name, rgb: FigureSeries.rgb($0), value: $1.value) },
            columns: columns, stepMicros: axis.stepMicros, steps: axis.steps, average: nil)
    }

    /// The apps as ranked bars: the day's minutes (`dayMinutes`), category and sessions, share.
    /// `sites`: the day's sites by browser family, each browser's top three on a line under its row.
    static func appsBlock(_ r: DayReport, apps list: [AppUsage], title: String, palette: Palette, sites: [String: [SiteTotal]] = [:]) -> FigureBlock {
        let minutes = TextReport.dayMinutes(r)
        let under = browserRows(list, sites: sites)
        let rows = list.enumerated().map { k, a in
            BarChart.Row(
                rank: k + 1, series: FigureSeries(name: a.name, rgb: FigureSeries.rgb(palette.app(a.name)), value: minutes(a)),
                detail: "\(a.category) · \(a.sessions) session\(a.sessions == 1 ? "" : "s")", micros: a.micros, value: minutes(a),
                share: TextFormat.share(a.share), sites: under[k] ?? "")
        }
        return .bars(BarChart(title: title, rows: rows, footer: [TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)]))
    }

    /// The axis' hours of a day's slots: every third hour, at its slot's start.
    static func ticks(_ slots: [HourSlot]) -> [(at: Micros, label: String)] {
        var seen = Set<Int>()
        return slots.compactMap { slot in
            guard slot.hour % 3 == 0, seen.insert(slot.hour).inserted else { return nil }
            return (slot.start, String(slot.hour).leftPad(2))
        }
    }
}
