// AppRows.swift — the ranked app list (the original's list row): rank, name, a bar scaled to the top app, category and sessions, duration, share; under a browser, its top sites; then a total line.
import UsageCore

extension TextReport {
    /// The app list. Bars are drawn in eighths (`▏…█`) in the app's colour or pattern (the top
    /// five apps their own, the rest "other"), scaled to the first row. Below 60 cells the
    /// category and sessions column goes first, then the bar shrinks, so names keep their room.
    /// Accessible mode: a sentence, then one line per app with its facts in words.
    public static func apps(
        _ r: DayReport, apps list: [AppUsage], width: Int, theme: Theme = .plain, title: String = "Apps",
        totalLine: String? = nil, palette: Palette? = nil, leftOut: [AppUsage] = [], sites: [String: [SiteTotal]] = [:]
    ) -> [String] {
        guard !list.isEmpty else { return fitAll([title, "  no usage recorded"], width: width).headed(theme) }
        let total = totalLine ?? TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)
        let more = moreLine(r, leftOut).map { [$0] } ?? []
        let under = topSitesUnder(list, sites: sites, width: width)
        if theme.accessible {
            return appList(list, title: title, total: total, more: more, durations: dayMinutes(r), width: width, theme: theme, under: under)
        }
        let palette = palette ?? Palette(r)
        let minutes = dayMinutes(r)
        let rows = list.map { a in
            RankedRow(
                name: a.name, detail: [a.category, "\(TextFormat.count(a.sessions, "session"))"],
                micros: a.micros, duration: minutes(a), share: a.share, series: palette.app(a.name))
        }
        let ranked = rankedRows(rows, width: width, theme: theme)
        let listed = ranked.indices.flatMap { [ranked[$0]] + (under[$0] ?? []) }
        return fitAll([title], width: width).headed(theme) + listed + wrap(more + ["  " + total], width: width)
    }

    /// The lines of top sites under each browser of `list` (by its row), a browser family's
    /// under the first of its apps listed (`sites` by family, as `BrowserApps` names them).
    static func topSitesUnder(_ list: [AppUsage], sites: [String: [SiteTotal]], width: Int) -> [Int: [String]] {
        guard !sites.isEmpty else { return [:] }
        var shown = Set<String>()
        var under: [Int: [String]] = [:]
        for (k, app) in list.enumerated() {
            guard let family = BrowserApps.family(ofApp: app.name), shown.insert(family).inserted, let top = sites[family] else { continue }
            under[k] = topSites(top, width: width)
        }
        return under
    }

    /// `  11 more apps 2h 28m`: what `apps top N` leaves out, in the minutes the whole list
    /// shows them (so the rows and this line add up, as `show compact`'s do); nil for none.
    static func moreLine(_ r: DayReport, _ leftOut: [AppUsage]) -> String? {
        guard !leftOut.isEmpty else { return nil }
        var byName: [ExactName: Int64] = [:]
        for (a, m) in zip(r.apps, TextFormat.minutes(adding: r.apps.map(\.micros))) { byName[ExactName(a.name)] = m }
        let minutes = leftOut.reduce(Int64(0)) { $0 + (byName[ExactName($1.name)] ?? TextFormat.minutes($1.micros)) }
        let count = leftOut.count
        return "  \(count) more app\(count == 1 ? "" : "s") \(TextFormat.duration(minutes: minutes, of: leftOut.reduce(0) { $0 + $1.micros }))"
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
        _ list: [AppUsage], title: String, total: String, more: [String], durations: (AppUsage) -> String, width: Int, theme: Theme,
        under: [Int: [String]]
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
                    + "\(TextFormat.count(a.sessions, "session")), \(durations(a)), \(TextFormat.share(a.share))")
            lines += under[k] ?? []
        }
        lines += more
        lines.append("  " + total)
        return wrap(lines, width: width).headed(theme)
    }
}

/// One row of a ranked list: what `apps` and `hour H` draw.
struct RankedRow {
    let name: String
    /// `["Social", "3 sessions"]`, shown joined by ` · `; the last parts go first when narrow.
    let detail: [String]
    let micros: Micros
    /// `micros` as the list shows it (its rows add up to the list's total).
    let duration: String
    let share: Double
    let series: Series
}

extension TextReport {
    /// Ranked rows: `  1. Safari   ███████▍   Social · 3 sessions   2h 5m   45%`. Narrower,
    /// whole columns go before any word is cut: the bar shrinks from 30 cells to 10, the
    /// detail loses its last part (`Social` without `3 sessions`), the bar shrinks to 3 (with
    /// as much of the detail as then fits), the detail goes, then the bar, then the share; only
    /// then is the name cut (with `…`). Names longer than 20 cells are cut at 20 whatever the
    /// width. Numbers are never cut.
    static func rankedRows(_ rows: [RankedRow], width: Int, theme: Theme) -> [String] {
        let layout = RankedLayout(rows, width: width)
        let topMicros = rows.map(\.micros).max() ?? 0
        return fitStyled(rows.enumerated().map { k, row in
            var line = StyledLine(theme)
            line.append("  " + TerminalText.padLeft("\(k + 1).", width: layout.rankWidth) + " ")
            line.append(TerminalText.pad(row.name, width: layout.nameWidth))
            if layout.barWidth > 0 {
                line.append("  ")
                let start = line.cells
                appendBar(&line, micros: row.micros, of: topMicros, cells: layout.barWidth, series: row.series)
                line.pad(to: start + layout.barWidth)
            }
            if layout.detailParts > 0 {
                let detail = row.detail.prefix(layout.detailParts).joined(separator: " · ")
                line.append("  " + TerminalText.pad(detail, width: layout.detailWidth))
            }
            line.append("  " + TerminalText.padLeft(row.duration, width: layout.durationWidth))
            if layout.share { line.append("  " + TerminalText.padLeft(TextFormat.share(row.share), width: layout.shareWidth)) }
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
        line.append(text, codes: series.color(line.theme)?.foreground)
    }
}

/// The columns of ranked rows at a width: which are shown and how wide (see `rankedRows`).
struct RankedLayout {
    let rankWidth: Int
    private(set) var nameWidth: Int
    private(set) var barWidth = 0
    /// How many parts of the detail are shown (0: no detail column).
    private(set) var detailParts = 0
    private(set) var detailWidth = 0
    let durationWidth: Int
    private(set) var share = true
    let shareWidth: Int

    init(_ rows: [RankedRow], width: Int) {
        rankWidth = String(rows.count).count + 1
        durationWidth = max(rows.map(\.duration.count).max() ?? 0, 4)
        shareWidth = rows.map { TextFormat.share($0.share).count }.max() ?? 0
        let longestName = rows.map { TerminalText.cells(TerminalText.sanitize($0.name)) }.max() ?? 0
        nameWidth = max(1, min(longestName, 20))
        let partsCount = rows.map(\.detail.count).max() ?? 0
        func detailCells(_ parts: Int) -> Int {
            rows.map { TerminalText.cells(TerminalText.sanitize($0.detail.prefix(parts).joined(separator: " · "))) }.max() ?? 0
        }
        // The cells left for the bar (and its two spaces) with the columns chosen so far.
        func room() -> Int {
            width - (2 + rankWidth + 1) - nameWidth - (detailParts > 0 ? 2 + detailWidth : 0) - (2 + durationWidth)
                - (share ? 2 + shareWidth : 0)
        }
        // The first of these that leaves the bar its least: the most parts of the detail with
        // a bar of 10, then with a bar of 3; then no detail with a bar of 3.
        var chosen = false
        for least in [10, 3] where !chosen {
            for parts in stride(from: partsCount, through: 1, by: -1) {
                detailParts = parts
                detailWidth = detailCells(parts)
                if room() - 2 >= least {
                    barWidth = min(30, room() - 2)
                    chosen = true
                    break
                }
            }
        }
        if !chosen {
            detailParts = 0
            detailWidth = 0
            barWidth = room() - 2 >= 3 ? min(30, room() - 2) : 0
            // Then the share column; then the name is cut to what is left (at least one cell).
            if room() < 0 { share = false }
            if room() < 0 { nameWidth = max(1, nameWidth + room()) }
        }
    }
}
