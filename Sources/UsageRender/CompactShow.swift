// CompactShow.swift — `show compact`: the day screen in at most 23 lines (a 24-row terminal with its prompt): the header, a one-line category strip with its legend, a short hourly chart, the top five apps and the rest in one line.
import UsageCore

extension TextReport {
    /// The most lines `show compact` takes, so that it and the next prompt fit 24 rows.
    public static let compactLines = 23

    /// `show compact`: the header in one line when it fits; the categories as a one-line strip
    /// with a legend of shares; the hourly chart without its legend (the app rows below carry
    /// the apps' colours and patterns, the category legend the categories'); the top five apps
    /// and one line for the rest. The selected chart comes first. From 40 columns it never
    /// takes more than `compactLines`: when it would, the blank lines between the parts go,
    /// then the hourly axis shortens (8 rows, 6, 4, 3). Accessible mode: the header, each
    /// chart's sentence and the top apps.
    public static func showCompact(
        _ r: DayReport, hourlyFirst: Bool, hourlyBy stack: HourlyStack = .app, width: Int, theme: Theme = .plain,
        palette: Palette? = nil
    ) -> [String] {
        guard !r.isEmpty else { return header(r, width: width, theme: theme) }
        let head = compactHeader(r, width: width, theme: theme)
        let palette = palette ?? Palette(r)
        let top = Array(r.apps.prefix(Palette.rankedCount))
        if theme.accessible {
            let category = categories(r, width: width, theme: theme, palette: palette).prefix(2)
            let hourly = self.hourly(r, by: stack, width: width, theme: theme, palette: palette).prefix(2)
            var lines = head + [""] + (hourlyFirst ? Array(hourly + [""] + category) : Array(category + [""] + hourly))
            lines += [""] + apps(r, apps: top, width: width, theme: theme, title: "Top apps", totalLine: restLine(r))
            return lines
        }
        let category = compactCategories(r, width: width, theme: theme, palette: palette)
        let list = compactApps(r, top: top, width: width, theme: theme, palette: palette)
        var lines: [String] = []
        for (rows, blanks) in [(8, true), (8, false), (6, false), (4, false), (3, false)] {
            let hourly = compactHourly(r, by: stack, rows: rows, width: width, theme: theme, palette: palette)
            let parts = [head] + (hourlyFirst ? [hourly, category] : [category, hourly]) + [list]
            lines = parts.enumerated().flatMap { k, part in (k > 0 && blanks ? [""] : []) + part }
            if lines.count <= compactLines { break }
        }
        return lines
    }

    /// `Monday, February 23, 2026 · 7h 32m total · 6h 22m screen time` when it fits, else the
    /// two lines of `header`.
    private static func compactHeader(_ r: DayReport, width: Int, theme: Theme) -> [String] {
        let date = TextFormat.longDate(r.day)
        let totals = TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)
        guard TerminalText.cells(date + " · " + totals) <= width else { return header(r, width: width, theme: theme) }
        var line = StyledLine(theme)
        line.append(date, codes: "1")
        line.append(" · " + totals)
        return [line.finished()]
    }

    /// `By category  ████████▓▓▓▓▒▒▌▚` and a legend of shares, wrapped (`██ Productivity 39%`).
    private static func compactCategories(_ r: DayReport, width: Int, theme: Theme, palette: Palette) -> [String] {
        let slices = CategorySlice.slices(r.categories, total: r.totalMicros, palette: palette)
        var line = StyledLine(theme)
        line.append("By category", codes: "1")
        line.append("  ")
        let cells = max(1, min(50, width - line.cells))
        var running: Micros = 0
        var drawn = 0
        for s in slices {
            running += s.micros
            let end = Int((running * Micros(cells) + r.totalMicros / 2) / max(1, r.totalMicros))
            guard end > drawn else { continue }
            let glyph = theme.color && !theme.glyphs.isASCII ? "█" : s.series.pattern(theme.glyphs)
            line.append(String(repeating: glyph, count: end - drawn), codes: s.series.color(theme)?.foreground)
            drawn = end
        }
        let entries = slices.map { LegendEntry(series: $0.series, name: $0.name, value: TextFormat.share($0.share)) }
        return fitStyled([line.finished()] + legend(entries, width: width, theme: theme), width: width)
    }

    /// The hourly chart's title and bars on a short axis, without its legend.
    private static func compactHourly(
        _ r: DayReport, by stack: HourlyStack, rows: Int, width: Int, theme: Theme, palette: Palette
    ) -> [String] {
        let series = HourlySeries(r, by: stack, palette: palette)
        guard let layout = HourlyLayout(slots: r.hours.count, width: width) else {
            return fitAll([hourlyTitle(r, by: stack, width: width)], width: width).headed(theme)
        }
        var lines = fitAll([hourlyTitle(r, by: stack, width: width, perTwoHours: layout.slotsPerBar == 2)], width: width).headed(theme)
        lines += hourlyBars(slots: r.window.slots, series: series, layout: layout, theme: theme, rows: rows)
        return fitStyled(lines, width: width)
    }

    /// `Top apps`, five ranked rows, and the rest in one line with the "other" swatch; the
    /// minutes are those of the whole list, so the rows and the rest add up to the header's total.
    private static func compactApps(_ r: DayReport, top: [AppUsage], width: Int, theme: Theme, palette: Palette) -> [String] {
        let minutes = dayMinutes(r)
        let rows = top.map { a in
            RankedRow(name: a.name, detail: [a.category], micros: a.micros, duration: minutes(a), share: a.share, series: palette.app(a.name))
        }
        var lines = fitAll(["Top apps"], width: width).headed(theme) + rankedRows(rows, width: width, theme: theme)
        if let rest = restLine(r) {
            var line = StyledLine(theme)
            line.append("  ")
            let swatch = theme.color && !theme.glyphs.isASCII ? "█" : Series.other.pattern(theme.glyphs)
            line.append(String(repeating: swatch, count: 2), codes: Series.other.color(theme)?.foreground)
            line.append(" " + rest)
            lines += fitStyled([line.finished()], width: width)
        }
        return lines
    }

    /// `11 more apps 2h 28m`: what the top five leave, in the minutes that make the rows add up
    /// to the day's total; nil when there are no more.
    private static func restLine(_ r: DayReport) -> String? {
        guard r.apps.count > Palette.rankedCount else { return nil }
        let all = TextFormat.minutes(adding: r.apps.map(\.micros))
        let rest = r.apps.dropFirst(Palette.rankedCount)
        let minutes = all.dropFirst(Palette.rankedCount).reduce(0, +)
        let count = rest.count
        return "\(count) more app\(count == 1 ? "" : "s") \(TextFormat.duration(minutes: minutes, of: rest.reduce(0) { $0 + $1.micros }))"
    }
}
