// AppRows.swift — the ranked app list (the original's list row): rank, name, a bar scaled to the top app, category and sessions, duration, share; then a total line.
import UsageCore

extension TextReport {
    /// The app list. Bars are drawn in eighths (`▏…█`) in the app's colour or pattern (the top
    /// five apps their own, the rest "other"), scaled to the first row. Below 60 cells the
    /// category and sessions column goes first, then the bar shrinks, so names keep their room.
    /// Accessible mode: a sentence, then one line per app with its facts in words.
    public static func apps(
        _ r: DayReport, apps list: [AppUsage], width: Int, theme: Theme = .plain, title: String = "Apps",
        totalLine: String? = nil, palette: Palette? = nil
    ) -> [String] {
        guard !list.isEmpty else { return fitAll([title, "  no usage recorded"], width: width).headed(theme) }
        let total = totalLine ?? TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)
        if theme.accessible { return appList(list, title: title, total: total, durations: dayMinutes(r), width: width, theme: theme) }
        let palette = palette ?? Palette(r)
        let minutes = dayMinutes(r)
        let rows = list.map { a in
            RankedRow(
                name: a.name, detail: "\(a.category) · \(a.sessions) session\(a.sessions == 1 ? "" : "s")",
                micros: a.micros, duration: minutes(a), share: a.share, series: palette.app(a.name))
        }
        return fitAll([title], width: width).headed(theme) + rankedRows(rows, width: width, theme: theme) + wrap(["  " + total], width: width)
    }

    /// Each app's time as the day's list shows it: the minutes of all the day's apps add up to
    /// the day's total, and a shorter list (`apps top 5`, `apps category X`) shows the same
    /// minutes as the whole one.
    static func dayMinutes(_ r: DayReport) -> (AppUsage) -> String {
        var byName: [ExactName: String] = [:]
        for (a, text) in zip(r.apps, TextFormat.durations(r.apps.map(\.micros))) { byName[ExactName(a.name)] = text }
        return { byName[ExactName($0.name)] ?? TextFormat.duration($0.micros) }
    }

    private static func appList(
        _ list: [AppUsage], title: String, total: String, durations: (AppUsage) -> String, width: Int, theme: Theme
    ) -> [String] {
        let top = list[0]
        let count = "\(list.count) app\(list.count == 1 ? "" : "s")"
        var lines = [
            title,
            "\(count); the most used is \(TerminalText.sanitize(top.name)): \(durations(top)), \(TextFormat.share(top.share)) of the day.",
        ]
        for (k, a) in list.enumerated() {
            lines.append(
                "  \(k + 1). \(TerminalText.sanitize(a.name)), \(TerminalText.sanitize(a.category)), "
                    + "\(a.sessions) session\(a.sessions == 1 ? "" : "s"), \(durations(a)), \(TextFormat.share(a.share))")
        }
        lines.append("  " + total)
        return wrap(lines, width: width).headed(theme)
    }
}

/// One row of a ranked list: what `apps` and `hour H` draw.
struct RankedRow {
    let name: String
    /// `Social · 3 sessions`; empty for none.
    let detail: String
    let micros: Micros
    /// `micros` as the list shows it (its rows add up to the list's total).
    let duration: String
    let share: Double
    let series: Series
}

extension TextReport {
    /// Ranked rows: `  1. Safari   ███████▍   Social · 3 sessions   2h 5m   45%`. The bar is at
    /// most 30 cells; it is left out below 3.
    static func rankedRows(_ rows: [RankedRow], width: Int, theme: Theme) -> [String] {
        let rankWidth = String(rows.count).count + 1
        // Very narrow (under 30 cells): durations as wide as the longest, no share column, so
        // names keep some room.
        let narrow = width < 30
        let durationWidth = narrow ? rows.map(\.duration.count).max() ?? 0 : 7
        let fixed = 2 + rankWidth + 1 + 2 + durationWidth + (narrow ? 0 : 2 + 5)
        let longestName = rows.map { TerminalText.cells(TerminalText.sanitize($0.name)) }.max() ?? 0
        let longestDetail = width < 60 ? 0 : rows.map { TerminalText.cells(TerminalText.sanitize($0.detail)) }.max() ?? 0
        // Names up to 20 cells and the detail up to 26; then the bar gets at least 10 cells,
        // taken from the detail (down to 12) and then from the name (down to 10); a bar that
        // would be narrower than 3 is left out. Bars are at most 30 cells.
        var nameWidth = max(1, min(longestName, 20))
        var detailWidth = min(longestDetail, 26)
        func bar() -> Int { width - fixed - nameWidth - 2 - (detailWidth > 0 ? detailWidth + 2 : 0) }
        if bar() < 10, detailWidth > 12 { detailWidth = max(12, detailWidth - (10 - bar())) }
        if bar() < 10, detailWidth > 0, bar() < 3 { detailWidth = 0 }
        if bar() < 10, nameWidth > 10 { nameWidth = max(10, nameWidth - (10 - bar())) }
        var barWidth = bar()
        if barWidth < 3 {
            nameWidth = max(1, nameWidth + barWidth + 2)
            barWidth = 0
        }
        barWidth = min(barWidth, 30)
        let topMicros = rows.map(\.micros).max() ?? 0
        return fitStyled(rows.enumerated().map { k, row in
            var line = StyledLine(theme)
            line.append("  " + TerminalText.padLeft("\(k + 1).", width: rankWidth) + " ")
            line.append(TerminalText.pad(row.name, width: nameWidth))
            if barWidth > 0 {
                line.append("  ")
                let start = line.cells
                appendBar(&line, micros: row.micros, of: topMicros, cells: barWidth, series: row.series)
                line.pad(to: start + barWidth)
            }
            if detailWidth > 0 { line.append("  " + TerminalText.pad(row.detail, width: detailWidth)) }
            line.append("  " + TerminalText.padLeft(row.duration, width: durationWidth))
            if !narrow { line.append("  " + TerminalText.padLeft(TextFormat.share(row.share), width: 5)) }
            return line.finished()
        }, width: width)
    }

    /// A horizontal bar of `micros / top` of `cells`, in eighths; a nonzero value shows at least
    /// the thinnest glyph. Monochrome bars use the series' pattern for whole cells.
    static func appendBar(_ line: inout StyledLine, micros: Micros, of top: Micros, cells: Int, series: Series) {
        guard top > 0, micros > 0 else { return }
        let g = line.theme.glyphs
        var eighths = Int((micros * Micros(cells * 8) + top / 2) / top)
        eighths = max(1, eighths)
        let whole = eighths / 8
        let part = eighths % 8
        let solid = line.theme.color && !g.isASCII || series.isSolid(g)
        let fill: Character = solid && !g.isASCII ? "█" : series.pattern(g)
        var text = String(repeating: fill, count: whole)
        // The end in eighths where they read as the same series (colour, or the solid pattern);
        // a patterned bar rounds to whole cells, a bar of less than a cell shows the thinnest mark.
        if part > 0 {
            if solid, let left = g.leftEighths {
                text.append(left[part])
            } else if part >= 4 {
                text.append(fill)
            } else if whole == 0 {
                text.append(g.leftEighths?[1] ?? g.stub)
            }
        }
        line.append(text, codes: String(series.color.foreground))
    }
}
