// HourlyChart.swift — the day's hour slots as stacked bars (top five apps or categories, then "other"), with axis, labels and legend.
import UsageCore

extension TextReport {
    /// `chart hourly`: one bar per hour slot (23, 24 or 25), stacked per series from the bottom
    /// in rank order. Each segment ends where the running total rounds to, so stacks never drift
    /// from their total; a bar's top is drawn in eighths. The y axis rises to the busiest hour in
    /// 15-minute steps with a grid mark per step (at most four); x labels every 3 hours; a legend
    /// with each series' time. Bars keep a gap between them at every width (`HourlyLayout`): one
    /// bar per hour 3, 2 or 1 cells wide, else one per two hours; below 28 cells, or in
    /// accessible mode, the hours are listed instead.
    public static func hourly(
        _ r: DayReport, by stack: HourlyStack = .app, width: Int, theme: Theme = .plain, palette: Palette? = nil
    ) -> [String] {
        let title = hourlyTitle(r, by: stack, width: width)
        guard !r.isEmpty else { return fitAll([title, "  no usage recorded"], width: width).headed(theme) }
        let palette = palette ?? Palette(r)
        let series = HourlySeries(r, by: stack, palette: palette)
        guard !theme.accessible, let layout = HourlyLayout(slots: r.hours.count, width: width) else {
            return hourlyList(r, series: series, width: width, theme: theme)
        }
        var lines = fitAll([hourlyTitle(r, by: stack, width: width, perTwoHours: layout.slotsPerBar == 2)], width: width).headed(theme)
        lines += hourlyBars(slots: r.window.slots, series: series, layout: layout, theme: theme)
        lines += legend(series.legend, width: width, theme: theme)
        return fitStyled(lines, width: width)
    }

    /// `By hour · busiest 14:00 (52m app time)`: the title carries the busiest hour, so it can be
    /// read off without counting bars; its time is the bar's, app time, which counts two apps at
    /// once both (an hour may hold more than an hour of it), and says so.
    /// Shortened rather than cut when narrow: without the duration, then without the hour. Bars
    /// of two hours say so (`Apps per 2 hours · busiest 18:00 (1h 18m)`).
    static func hourlyTitle(_ r: DayReport, by stack: HourlyStack, width: Int = .max, perTwoHours: Bool = false) -> String {
        let name = (stack == .app ? "Apps " : "Categories ") + (perTwoHours ? "per 2 hours" : "by hour")
        guard let busiest = busiestHour(r) else { return name }
        let hour = "\(name) · busiest \(slotLabel(busiest.slot, in: r))"
        let full = hour + " (\(TextFormat.duration(busiest.micros)) app time)"
        return [full, hour].first { TerminalText.cells($0) <= width } ?? name
    }

    /// The slot with the most app time (the first of equals): the tallest bar.
    static func busiestHour(_ r: DayReport) -> HourUsage? { r.busiestHour }

    /// `14:00`, or `01:00-04` for a repeated hour of a fall-back day.
    static func slotLabel(_ slot: HourSlot, in r: DayReport) -> String {
        slotClock(slot, repeated: repeatedHours(r.window.slots)).trimmingTrailingSpaces()
    }

    /// The bars, the x axis and its hour labels (no title, no legend): every 3 hours under
    /// hourly bars, every 4 under two-hour ones. `rows` asks for a shorter axis (`show compact`).
    static func hourlyBars(
        slots: [HourSlot], series: HourlySeries, layout: HourlyLayout, theme: Theme, rows: Int = 8
    ) -> [String] {
        let values = layout.binned(series.values)
        let axis = BarAxis(quarterHoursUpTo: values.map { $0.reduce(0, +) }.max() ?? 0, rows: rows)
        var lines = stackedBars(values, styles: series.styles, axis: axis, layout: layout.bars, theme: theme)
        // Under the first column of their bar; never overlapping.
        var labels = ""
        var seen = Set<Int>()
        for k in values.indices {
            let binSlots = slots[(k * layout.slotsPerBar)..<min(slots.count, (k + 1) * layout.slotsPerBar)]
            guard let slot = binSlots.first(where: { $0.hour % layout.labelEvery == 0 && !seen.contains($0.hour) }) else { continue }
            seen.insert(slot.hour)
            // One column late rather than missing (`03` after a skipped 02:00 with 1-cell bars).
            let free = labels.count + (labels.isEmpty ? 0 : 1)
            let column = max(layout.bars.column(k), free)
            guard column - layout.bars.column(k) <= 1 else { continue }
            labels += String(repeating: " ", count: column - labels.count) + (slot.hour < 10 ? "0" : "") + String(slot.hour)
        }
        lines.append(labels)
        return lines
    }

    /// Accessible mode (and widths too narrow for bars): the title, a summary sentence, then one
    /// line per hour with usage, runs of empty hours collapsed (`00:00–06:59 no usage`).
    private static func hourlyList(_ r: DayReport, series: HourlySeries, width: Int, theme: Theme) -> [String] {
        var lines = [theme.accessible ? (series.stack == .app ? "Apps by hour" : "Categories by hour") : hourlyTitle(r, by: series.stack, width: width)]
        let used = r.hours.filter { $0.micros > 0 }.count
        if theme.accessible, let busiest = busiestHour(r) {
            lines.append(
                "The busiest hour is \(slotRange(busiest.slot, in: r)) with \(TextFormat.duration(busiest.micros)) of app time; "
                    + "\(used) of \(r.hours.count) hours have usage.")
        }
        let hourDurations = TextFormat.durations(r.hours.map(\.micros))
        var emptyRun: [HourUsage] = []
        func flushEmpty() {
            guard let first = emptyRun.first, let last = emptyRun.last else { return }
            let from = TextFormat.clock(first.slot.start, offsetSeconds: first.slot.utcOffsetSeconds)
            let to = TextFormat.clock(last.slot.end - 60_000_000, offsetSeconds: last.slot.utcOffsetSeconds)
            lines.append("  \(from)–\(to) no usage")
            emptyRun = []
        }
        for (h, hourDuration) in zip(r.hours, hourDurations) {
            guard h.micros > 0 else {
                emptyRun.append(h)
                continue
            }
            flushEmpty()
            let parts = series.stack == .app ? h.apps : h.categories
            // As `hour H` lists them: the parts' minutes add up to the hour's.
            let named = zip(parts.prefix(3), TextFormat.durations(parts.map(\.micros))).map { "\(TerminalText.sanitize($0.name)) \($1)" }
            let more = parts.count > 3 ? ", +\(parts.count - 3) more" : ""
            lines.append("  \(slotRange(h.slot, in: r)) \(hourDuration): " + named.joined(separator: ", ") + more)
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
            if let series = entry.series {
                let swatch = theme.color && !theme.glyphs.isASCII ? "█" : series.pattern(theme.glyphs)
                line.append(String(repeating: swatch, count: 2), codes: series.color(theme)?.foreground)
            } else {
                line.append(String(repeating: theme.glyphs.dash, count: 2), codes: "1")
            }
            line.append(text)
        }
        lines.append(line.finished())
        return lines
    }
}

/// How the hour slots are drawn at a width: one bar per slot or per two slots, and the bar and
/// gap widths. Bars always keep a gap, so that they never merge into a block.
struct HourlyLayout {
    /// 1, or 2 when two hours share a bar.
    let slotsPerBar: Int
    let bars: BarLayout

    /// The widest that fits: hourly bars of 3, 2 or 1 cells (from 100, 76 and 52 cells with 24
    /// slots), then two-hour bars of 2 or 1 cells (from 40 and 28); nil when even those do not fit.
    init?(slots: Int, width: Int) {
        for (per, bar, gap) in [(1, 3, 1), (1, 2, 1), (1, 1, 1), (2, 2, 1), (2, 1, 1)] {
            if let bars = BarLayout(count: (slots + per - 1) / per, width: width, choices: [(bar, gap)]) {
                self.slotsPerBar = per
                self.bars = bars
                return
            }
        }
        return nil
    }

    /// Hours between x labels: 3 under hourly bars, 4 under two-hour ones.
    var labelEvery: Int { slotsPerBar == 1 ? 3 : 4 }

    /// Per-slot values summed per bar.
    func binned(_ values: [[Micros]]) -> [[Micros]] {
        guard slotsPerBar > 1 else { return values }
        return stride(from: 0, to: values.count, by: slotsPerBar).map { start in
            values[start..<min(values.count, start + slotsPerBar)].reduce(into: [Micros](repeating: 0, count: values[start].count)) {
                for (k, v) in $1.enumerated() { $0[k] += v }
            }
        }
    }
}

/// One legend entry: a series' swatch, name and value.
struct LegendEntry {
    /// The series; nil for the average line of the day charts (its swatch is the dashed line).
    let series: Series?
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
        // The entries' times add up to the day's total.
        let values = TextFormat.durations(zip(ranked, dayTotals).map { $1.micros } + (otherMicros > 0 ? [otherMicros] : []))
        var legend = zip(ranked, values).map { name, value in
            LegendEntry(series: stack == .app ? palette.app(name) : palette.category(name), name: name, value: value)
        }
        if otherMicros > 0, let value = values.last {
            // One left over is named; more are counted (`11 other apps`).
            let rest = dayTotals.dropFirst(ranked.count)
            let name = rest.count == 1 ? rest[rest.startIndex].name : "\(rest.count) other \(stack == .app ? "apps" : "categories")"
            legend.append(LegendEntry(series: .other, name: name, value: value))
        }
        self.legend = legend
    }
}
