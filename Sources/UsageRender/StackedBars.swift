// StackedBars.swift — vertical bars stacked per series on a y axis with grid lines: the drawing the hourly chart and the day charts share.
import UsageCore

/// The y axis of a bar chart: labelled steps, each spanning the same time and ending on a row.
struct BarAxis {
    static let quarter: Micros = 15 * 60 * 1_000_000
    let steps: Int
    let stepMicros: Micros
    let rowsPerStep: Int
    var rows: Int { steps * rowsPerStep }
    var maximum: Micros { Micros(steps) * stepMicros }

    /// Up to the busiest value in 15-minute steps, at most four labelled steps (of 15, 30, 45…
    /// minutes): the top is the first step at or above the busiest value. 8 or 9 rows, so that
    /// every step ends on a row; `rows: 4` (or fewer) gives a short axis of 3 or 4.
    init(quarterHoursUpTo busiest: Micros, rows: Int = 8) {
        let quarters = max(1, Int((busiest + Self.quarter - 1) / Self.quarter))
        let quartersPerStep = (quarters + 3) / 4
        steps = (quarters + quartersPerStep - 1) / quartersPerStep
        stepMicros = Micros(quartersPerStep) * Self.quarter
        rowsPerStep = rows >= 8 ? (rows + steps - 1) / steps : max(1, rows / steps)
    }

    /// Steps of a round time (15m, 30m, 1h, 2h, 3h, 4h, 6h, 8h, 12h, then whole days): the
    /// smallest of which four reach the busiest value, and then only as many steps as reach it,
    /// so that the top is the first step at or above the busiest bar (8h 45m: 3h steps up to 9h,
    /// not 12h). About 8 rows: 8 for one step, 4 a step for two, 3 for three, 2 for four.
    init(quartersUpTo busiest: Micros) {
        let hour: Micros = 3_600_000_000
        let rounds = [Self.quarter, 2 * Self.quarter, hour, 2 * hour, 3 * hour, 4 * hour, 6 * hour, 8 * hour, 12 * hour]
        let step = rounds.first { 4 * $0 >= busiest } ?? ((busiest / 4 + 24 * hour - 1) / (24 * hour)) * 24 * hour
        steps = max(1, Int((busiest + step - 1) / step))
        stepMicros = step
        rowsPerStep = (8 + steps - 1) / steps
    }

    /// `15m`, `1h`, `1h30`: the time at the top of step `k` (at most 4 cells).
    func label(step k: Int) -> String {
        let minutes = Int(Micros(k) * stepMicros / 60_000_000)
        if minutes < 60 { return "\(minutes)m" }
        if minutes % 60 == 0 || minutes >= 600 { return "\(minutes / 60)h" }
        let m = minutes % 60
        return "\(minutes / 60)h" + (m < 10 ? "0" : "") + String(m)
    }
}

/// Bar and gap widths: the widest choice whose bars fit after the 5 cells of the y axis.
struct BarLayout {
    let bar: Int
    let gap: Int

    /// Days: 4+3 as the iOS charts, narrowing to 1+0.
    static let daily = [(4, 3), (3, 2), (2, 1), (1, 1), (1, 0)]

    init?(count: Int, width: Int, choices: [(Int, Int)]) {
        for (bar, gap) in choices where 5 + count * (bar + gap) - gap <= width {
            self.bar = bar
            self.gap = gap
            return
        }
        return nil
    }

    /// The first column of bar `k`.
    func column(_ k: Int) -> Int { 5 + k * (bar + gap) }
}

/// A horizontal mark across a bar chart (the average of the day charts).
struct BarMarker {
    /// The value it marks.
    let micros: Micros
    /// Written after the last bar when there is room (`avg 5h 2m`).
    let label: String

    /// Where the mark is drawn, to half a row: across the middle of the row its value falls in
    /// (`╌`); but a grid row keeps its grid line and label, so a value in one is drawn on the
    /// nearer of its edges from the row beside it — on the bottom of the row above (`▁`, just
    /// over the grid line, for a value in the upper half) or the top of the row below (`▔`).
    /// Every row but the bottom one is a grid row only every `rowsPerStep` rows, so the row
    /// beside a grid row is free. Nil for a mark at 0.
    func placement(on axis: BarAxis) -> (row: Int, level: Level)? {
        guard micros > 0 else { return nil }
        let position = Double(micros) * Double(axis.rows) / Double(axis.maximum)
        let row = min(axis.rows - 1, Int(position))
        let isGrid = { (r: Int) in (r + 1) % axis.rowsPerStep == 0 }
        guard isGrid(row), axis.rowsPerStep > 1 else { return (row, .middle) }
        let upper = position - Double(row) >= 0.5
        if upper, row + 1 < axis.rows { return (row + 1, .bottom) }
        // The lower edge of its row (and of the top row, which has no row above).
        if row > 0 { return (row - 1, .top) }
        return (row, .middle)
    }

    /// How high in its row a mark is drawn.
    enum Level {
        case bottom
        case middle
        case top
    }
}

extension TextReport {
    /// The rows of a stacked bar chart, top first, then the x axis (no labels under it). Each
    /// bar's segments end where the running total rounds to, in eighths of a cell, so a stack
    /// never drifts from its total; a bar with any time shows at least the thinnest mark. Grid
    /// lines (`▔`, on the row edge of each labelled step) are grey with colour and only in the gaps
    /// without. A marker is a dashed line (`╌`) across the empty cells of its row.
    static func stackedBars(
        _ values: [[Micros]], styles: [Series], axis: BarAxis, layout: BarLayout, theme: Theme, marker: BarMarker? = nil
    ) -> [String] {
        let g = theme.glyphs
        let eighths = axis.rows * 8
        let boundaries: [[Int]] = values.map { values in
            var running: Micros = 0
            var ends = values.map { v -> Int in
                running += v
                return Int((running * Micros(eighths) + axis.maximum / 2) / axis.maximum)
            }
            if running > 0, ends.last == 0 { ends[ends.count - 1] = 1 }
            return ends
        }
        // The marker's row and its level there.
        let placement = marker?.placement(on: axis)
        let markerGlyph: Character = {
            guard let placement, !g.isASCII else { return g.dash }
            switch placement.level {
            case .bottom: return "▁"
            case .middle: return g.dash
            case .top: return "▔"
            }
        }()
        var lines: [String] = []
        for row in stride(from: axis.rows - 1, through: 0, by: -1) {
            var line = StyledLine(theme)
            let isGrid = (row + 1) % axis.rowsPerStep == 0
            let isMarker = row == placement?.row
            // An edge mark is dashed (every other empty cell), so it never reads as a grid line.
            var markerCell = 0
            let label = isGrid ? axis.label(step: (row + 1) / axis.rowsPerStep) : ""
            line.append(TerminalText.padLeft(label, width: 4))
            line.append(String(isGrid ? g.tick : g.axis))
            func empty(inGap: Bool) {
                if isMarker {
                    let solid = markerGlyph == g.dash
                    line.append(solid || markerCell % 2 == 0 ? String(markerGlyph) : " ", codes: "1")
                    markerCell += 1
                } else if isGrid && (theme.color || inGap) {
                    // Without colour the grid stays in the gaps, so it never competes with the patterns.
                    line.append(String(g.grid), codes: theme.grid)
                } else {
                    line.append(" ")
                }
            }
            let lo = row * 8
            let hi = lo + 8
            for (k, ends) in boundaries.enumerated() {
                if k > 0 { for _ in 0..<layout.gap { empty(inGap: true) } }
                let cell = barCell(ends: ends, lo: lo, hi: hi, top: ends.last ?? 0, styles: styles, theme: theme)
                for _ in 0..<layout.bar {
                    if let cell { line.append(cell.glyph, fg: cell.fg, bg: cell.bg) } else { empty(inGap: false) }
                }
            }
            if isMarker, let marker, !marker.label.isEmpty { line.append(" " + marker.label, codes: "1") }
            lines.append(line.finished())
        }
        let span = values.count * (layout.bar + layout.gap) - layout.gap
        lines.append("    " + String(g.corner) + String(repeating: g.rule, count: span))
        return lines
    }

    /// The glyph and colours of one bar cell covering eighths `lo..<hi`; nil above the bar.
    static func barCell(
        ends: [Int], lo: Int, hi: Int, top: Int, styles: [Series], theme: Theme
    ) -> (glyph: Character, fg: SeriesColor?, bg: SeriesColor?)? {
        let g = theme.glyphs
        let color = theme.color
        guard top > lo else { return nil }
        func seriesAt(_ eighth: Int) -> Int { ends.firstIndex { $0 > eighth } ?? ends.count - 1 }
        // The series with the most eighths in this cell.
        func majority() -> Int {
            var best = seriesAt(lo)
            var bestCount = 0
            var start = lo
            for (k, end) in ends.enumerated() where end > lo {
                let count = min(end, min(hi, top)) - max(start, lo)
                if count > bestCount { (best, bestCount) = (k, count) }
                start = end
                if end >= hi { break }
            }
            return best
        }
        let filled = min(top, hi) - lo
        if filled < 8 {
            // The bar's top: in eighths where they cannot be mistaken for another series (with
            // colour, or for the solid series); otherwise a patterned cell from half a cell, and
            // below half only a stub for a bar that has nothing else to show.
            let s = styles[majority()]
            if let lower = g.lowerEighths, color || s.isSolid(g) { return (lower[filled], s.color(theme), nil) }
            // A bar under one cell is a stub whatever its size, so a minute never looks like seven.
            if lo == 0 { return (g.stub, s.color(theme), nil) }
            return filled >= 4 ? (s.pattern(g), s.color(theme), nil) : nil
        }
        let bottom = seriesAt(lo)
        let upper = seriesAt(hi - 1)
        if bottom == upper {
            let s = styles[bottom]
            return color ? (g.lowerEighths == nil ? s.pattern(g) : "█", s.color(theme), nil) : (s.pattern(g), nil, nil)
        }
        // Two series meet in this cell: with colour and eighths, the lower one is the glyph's
        // colour and the upper one its background; otherwise the larger part wins.
        if color, let lower = g.lowerEighths, let boundary = ends.first(where: { $0 > lo && $0 < hi }) {
            return (lower[boundary - lo], styles[bottom].color(theme), styles[upper].color(theme))
        }
        let s = styles[majority()]
        return (s.pattern(g), s.color(theme), nil)
    }
}
