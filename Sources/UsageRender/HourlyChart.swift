// HourlyChart.swift — the day's hour slots as stacked bars (top five apps or categories, then "other"), with axis, labels and legend.
import UsageCore

/// What the hourly bars are stacked by.
public enum HourlyStack: String, CaseIterable, Sendable {
    case app
    case category
}

extension TextReport {
    /// `chart hourly`: one bar per hour slot (23, 24 or 25), stacked per series from the bottom
    /// in rank order. Each segment ends where the running total rounds to, so stacks never drift
    /// from their total; a bar's top is drawn in eighths. The y axis rises to the busiest hour in
    /// 15-minute steps with a grid mark per step (at most four); x labels every 3 hours; a legend
    /// with each series' time. Bars are 3, 2 or 1 cells wide, whichever fits the width; below 29
    /// cells, or in accessible mode, the hours are listed instead.
    public static func hourly(
        _ r: DayReport, by stack: HourlyStack = .app, width: Int, theme: Theme = .plain, palette: Palette? = nil
    ) -> [String] {
        let title = hourlyTitle(r, by: stack)
        guard !r.isEmpty else { return fitAll([title, "  no usage recorded"], width: width).headed(theme) }
        let palette = palette ?? Palette(r)
        let series = HourlySeries(r, by: stack, palette: palette)
        guard !theme.accessible, let layout = HourlyLayout(slots: r.hours.count, width: width) else {
            return hourlyList(r, series: series, width: width, theme: theme)
        }
        var lines = fitAll([title], width: width).headed(theme)
        lines += hourlyBars(slots: r.window.slots, series: series, layout: layout, theme: theme)
        lines += legend(series.legend, width: width, theme: theme)
        return fitStyled(lines, width: width)
    }

    /// `By hour · busiest 14:00 (52m)`: the title carries the busiest hour, so it can be read off
    /// without counting bars.
    static func hourlyTitle(_ r: DayReport, by stack: HourlyStack) -> String {
        let name = stack == .app ? "Apps by hour" : "Categories by hour"
        guard let busiest = busiestHour(r) else { return name }
        return "\(name) · busiest \(slotLabel(busiest.slot, in: r)) (\(TextFormat.duration(busiest.micros)))"
    }

    /// The slot with the most time (the first of equals).
    static func busiestHour(_ r: DayReport) -> HourUsage? {
        r.hours.reduce(nil as HourUsage?) { best, h in h.micros > (best?.micros ?? 0) ? h : best }
    }

    /// `14:00`, or `01:00-04` for a repeated hour of a fall-back day.
    static func slotLabel(_ slot: HourSlot, in r: DayReport) -> String {
        slotClock(slot, repeated: repeatedHours(r.window.slots)).trimmingTrailingSpaces()
    }

    /// The bars, the x axis and its hour labels (no title, no legend).
    static func hourlyBars(slots: [HourSlot], series: HourlySeries, layout: HourlyLayout, theme: Theme) -> [String] {
        let g = theme.glyphs
        let axis = HourlyAxis(busiest: series.values.map { $0.reduce(0, +) }.max() ?? 0)
        let eighths = axis.rows * 8
        // Each slot's segment boundaries in eighths of a cell, rounded on the running total.
        let boundaries: [[Int]] = series.values.map { values in
            var running: Micros = 0
            var ends = values.map { v -> Int in
                running += v
                return Int((running * Micros(eighths) + axis.maximum / 2) / axis.maximum)
            }
            // A slot with any time shows at least the thinnest mark.
            if running > 0, ends.last == 0 { ends[ends.count - 1] = 1 }
            return ends
        }
        let seriesOf = series.styles
        var lines: [String] = []
        for row in stride(from: axis.rows - 1, through: 0, by: -1) {
            var line = StyledLine(theme)
            let isGrid = (row + 1) % axis.rowsPerStep == 0
            let label = isGrid ? axis.label(step: (row + 1) / axis.rowsPerStep) : ""
            line.append(TerminalText.padLeft(label, width: 4))
            line.append(String(isGrid ? g.tick : g.axis))
            let lo = row * 8
            let hi = lo + 8
            for (k, ends) in boundaries.enumerated() {
                if k > 0, layout.gap > 0 { line.append(isGrid ? String(g.grid) : " ", codes: isGrid ? "90" : nil) }
                let top = ends.last ?? 0
                let cell = barCell(ends: ends, lo: lo, hi: hi, top: top, styles: seriesOf, glyphs: g, color: theme.color)
                for _ in 0..<layout.bar {
                    if let cell {
                        line.append(cell.glyph, fg: cell.fg, bg: cell.bg)
                    } else {
                        // Without colour the grid stays in the gaps, so it never competes with the patterns.
                        let mark = isGrid && theme.color
                        line.append(mark ? String(g.grid) : " ", codes: mark ? "90" : nil)
                    }
                }
            }
            lines.append(line.finished())
        }
        let span = slots.count * (layout.bar + layout.gap) - layout.gap
        lines.append("    " + String(g.corner) + String(repeating: g.rule, count: span))
        // Hour labels every 3 hours, under the first column of their bar; never overlapping.
        var labels = ""
        var seen = Set<Int>()
        for (k, slot) in slots.enumerated() where slot.hour % 3 == 0 && !seen.contains(slot.hour) {
            seen.insert(slot.hour)
            let column = 5 + k * (layout.bar + layout.gap)
            guard column >= labels.count + (labels.isEmpty ? 0 : 1) else { continue }
            labels += String(repeating: " ", count: column - labels.count) + (slot.hour < 10 ? "0" : "") + String(slot.hour)
        }
        lines.append(labels)
        return lines
    }

    /// The glyph and colours of one bar cell covering eighths `lo..<hi`; nil above the bar.
    private static func barCell(
        ends: [Int], lo: Int, hi: Int, top: Int, styles: [Series], glyphs g: Glyphs, color: Bool
    ) -> (glyph: Character, fg: SeriesColor?, bg: SeriesColor?)? {
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
            if let lower = g.lowerEighths, color || s.isSolid(g) { return (lower[filled], color ? s.color : nil, nil) }
            if filled >= 4 { return (s.pattern(g), color ? s.color : nil, nil) }
            return lo == 0 ? (g.stub, color ? s.color : nil, nil) : nil
        }
        let bottom = seriesAt(lo)
        let upper = seriesAt(hi - 1)
        if bottom == upper {
            let s = styles[bottom]
            return color ? (g.lowerEighths == nil ? s.pattern(g) : "█", s.color, nil) : (s.pattern(g), nil, nil)
        }
        // Two series meet in this cell: with colour and eighths, the lower one is the glyph's
        // colour and the upper one its background; otherwise the larger part wins.
        if color, let lower = g.lowerEighths, let boundary = ends.first(where: { $0 > lo && $0 < hi }) {
            return (lower[boundary - lo], styles[bottom].color, styles[upper].color)
        }
        let s = styles[majority()]
        return (s.pattern(g), color ? s.color : nil, nil)
    }

    /// Accessible mode (and widths too narrow for bars): the title, a summary sentence, then one
    /// line per hour with usage, runs of empty hours collapsed (`00:00–06:59 no usage`).
    private static func hourlyList(_ r: DayReport, series: HourlySeries, width: Int, theme: Theme) -> [String] {
        var lines = [theme.accessible ? (series.stack == .app ? "Apps by hour" : "Categories by hour") : hourlyTitle(r, by: series.stack)]
        let used = r.hours.filter { $0.micros > 0 }.count
        if theme.accessible, let busiest = busiestHour(r) {
            lines.append(
                "The busiest hour is \(slotRange(busiest.slot, in: r)) with \(TextFormat.duration(busiest.micros)); "
                    + "\(used) of \(r.hours.count) hours have usage.")
        }
        var emptyRun: [HourUsage] = []
        func flushEmpty() {
            guard let first = emptyRun.first, let last = emptyRun.last else { return }
            let from = TextFormat.clock(first.slot.start, offsetSeconds: first.slot.utcOffsetSeconds)
            let to = TextFormat.clock(last.slot.end - 60_000_000, offsetSeconds: last.slot.utcOffsetSeconds)
            lines.append("  \(from)–\(to) no usage")
            emptyRun = []
        }
        for h in r.hours {
            guard h.micros > 0 else {
                emptyRun.append(h)
                continue
            }
            flushEmpty()
            let parts = series.stack == .app ? h.apps : h.categories
            let named = parts.prefix(3).map { "\(TerminalText.sanitize($0.name)) \(TextFormat.duration($0.micros))" }
            let more = parts.count > 3 ? ", +\(parts.count - 3) more" : ""
            lines.append("  \(slotRange(h.slot, in: r)) \(TextFormat.duration(h.micros)): " + named.joined(separator: ", ") + more)
        }
        flushEmpty()
        return wrap(lines, width: width).headed(theme)
    }

    /// `09:00–09:59`; a repeated hour of a fall-back day carries its UTC offset (`01:00–01:59-04`).
    static func slotRange(_ slot: HourSlot, in r: DayReport) -> String {
        let from = TextFormat.clock(slot.start, offsetSeconds: slot.utcOffsetSeconds)
        let to = TextFormat.clock(slot.end - 60_000_000, offsetSeconds: slot.utcOffsetSeconds)
        let repeated = repeatedHours(r.window.slots).contains(slot.hour)
        return "\(from)–\(to)" + (repeated ? String(TextFormat.offset(slot.utcOffsetSeconds).prefix(3)) : "")
    }

    /// Legend entries (`██ Safari 2h 5m`) laid out left to right, wrapping to the width.
    static func legend(_ entries: [LegendEntry], width: Int, theme: Theme) -> [String] {
        var lines: [String] = []
        var line = StyledLine(theme)
        line.append("  ")
        let nameLimit = max(4, min(20, width - 2 - 3 - 1 - 8))
        for entry in entries {
            let name = TerminalText.fit(entry.name, width: nameLimit)
            let text = " \(name) \(entry.value)"
            let cells = 2 + TerminalText.cells(text)
            if line.cells > 2, line.cells + 3 + cells > width {
                lines.append(line.finished())
                line = StyledLine(theme)
                line.append("  ")
            } else if line.cells > 2 {
                line.append("   ")
            }
            let swatch = theme.color && !theme.glyphs.isASCII ? "█" : entry.series.pattern(theme.glyphs)
            line.append(String(repeating: swatch, count: 2), codes: String(entry.series.color.foreground))
            line.append(text)
        }
        lines.append(line.finished())
        return lines
    }
}

/// One legend entry: a series' swatch, name and value.
struct LegendEntry {
    let series: Series
    let name: String
    let value: String
}

/// The hourly values split into series: per slot, the time of each ranked series then "other".
struct HourlySeries {
    let stack: HourlyStack
    /// The series in stacking order, bottom first: the ranked ones, then "other" when present.
    let styles: [Series]
    /// Per slot, the time of each series in `styles`' order.
    let values: [[Micros]]
    let legend: [LegendEntry]

    /// One series: a single app's hours (`app NAME`).
    init(single series: Series, name: String, hours: [Micros]) {
        stack = .app
        styles = [series]
        values = hours.map { [$0] }
        legend = [LegendEntry(series: series, name: name, value: TextFormat.duration(hours.reduce(0, +)))]
    }

    init(_ r: DayReport, by stack: HourlyStack, palette: Palette) {
        self.stack = stack
        let ranked = stack == .app ? palette.apps : palette.categories
        let dayTotals: [(name: String, micros: Micros)] =
            stack == .app ? r.apps.map { ($0.name, $0.micros) } : r.categories.map { ($0.name, $0.micros) }
        let otherMicros = dayTotals.dropFirst(ranked.count).reduce(0) { $0 + $1.micros }
        var styles = ranked.map { stack == .app ? palette.app($0) : palette.category($0) }
        if otherMicros > 0 { styles.append(.other) }
        self.styles = styles
        self.values = r.hours.map { h in
            var v = [Micros](repeating: 0, count: styles.count)
            for part in stack == .app ? h.apps : h.categories {
                let series = stack == .app ? palette.app(part.name) : palette.category(part.name)
                v[series.rank ?? styles.count - 1] += part.micros
            }
            return v
        }
        var legend = zip(ranked, dayTotals).map { name, total in
            LegendEntry(series: stack == .app ? palette.app(name) : palette.category(name), name: name, value: TextFormat.duration(total.micros))
        }
        if otherMicros > 0 {
            // One left over is named; more are counted (`11 other apps`).
            let rest = dayTotals.dropFirst(ranked.count)
            let name = rest.count == 1 ? rest[rest.startIndex].name : "\(rest.count) other \(stack == .app ? "apps" : "categories")"
            legend.append(LegendEntry(series: .other, name: name, value: TextFormat.duration(otherMicros)))
        }
        self.legend = legend
    }
}

/// The y axis: up to the busiest hour in 15-minute steps, at most four labelled steps (of 15,
/// 30, 45… minutes), with 8 or 9 rows so that every step ends on a row.
struct HourlyAxis {
    static let quarter: Micros = 15 * 60 * 1_000_000
    /// The labelled steps and the minutes each spans.
    let steps: Int
    let stepMicros: Micros
    let rowsPerStep: Int
    var rows: Int { steps * rowsPerStep }
    var maximum: Micros { Micros(steps) * stepMicros }

    init(busiest: Micros) {
        let quarters = max(1, Int((busiest + Self.quarter - 1) / Self.quarter))
        let quartersPerStep = (quarters + 3) / 4
        steps = (quarters + quartersPerStep - 1) / quartersPerStep
        stepMicros = Micros(quartersPerStep) * Self.quarter
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

/// Bar and gap widths: 3+1 from 101 cells, 2+1 from 77 (80 with 25 slots), else 1+0 from 29.
struct HourlyLayout {
    let bar: Int
    let gap: Int

    init?(slots: Int, width: Int) {
        for (bar, gap) in [(3, 1), (2, 1), (1, 0)] where 5 + slots * (bar + gap) - gap <= width {
            self.bar = bar
            self.gap = gap
            return
        }
        return nil
    }
}
