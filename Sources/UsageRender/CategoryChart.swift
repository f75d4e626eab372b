// CategoryChart.swift — the day's time by category (the original's pie): a donut of half blocks with colour, a 100% strip of patterns without, and the legend.
import Foundation
import UsageCore

extension TextReport {
    /// `chart category`. With colour and Unicode: a donut drawn with half blocks (two square
    /// pixels per cell, so slice angles are true), the largest slice first from 12 o'clock going
    /// clockwise, the day's total in the hole and the legend beside it (below it when narrow).
    /// Otherwise a 100% strip of fill patterns over the legend. At most six slices: past six,
    /// the rest fold into the last. The legend carries name, duration and share, so colour is
    /// never the only signal. Accessible mode: a sentence and one line per category.
    public static func categories(_ r: DayReport, width: Int, theme: Theme = .plain, palette: Palette? = nil) -> [String] {
        categories(r.categories, total: r.totalMicros, width: width, theme: theme, palette: palette ?? Palette(r))
    }

    /// The chart of any categories that make up `total` (a range's, in `summary`).
    static func categories(_ list: [CategoryUsage], total: Micros, width: Int, theme: Theme, palette: Palette) -> [String] {
        guard total > 0 else { return fitAll(["By category", "  no usage recorded"], width: width).headed(theme) }
        if theme.accessible { return categoryList(list, total: total, width: width, theme: theme) }
        let slices = CategorySlice.slices(list, total: total, palette: palette)
        var lines = fitAll(["By category"], width: width).headed(theme)
        if theme.color && !theme.glyphs.isASCII {
            lines += donut(slices, total: total, width: width, theme: theme)
        } else {
            lines += strip(slices, total: total, width: width, theme: theme)
            lines += categoryLegend(slices, width: width, theme: theme)
        }
        return fitStyled(lines, width: width)
    }

    private static func categoryList(_ categories: [CategoryUsage], total: Micros, width: Int, theme: Theme) -> [String] {
        let top = categories[0]
        let name = TerminalText.sanitize(top.name)
        let durations = TextFormat.durations(categories.map(\.micros))
        let sentence =
            categories.count == 1
            ? "\(name) is the only category: \(durations[0])."
            : "\(name) is the largest of \(categories.count) categories: \(durations[0]), "
                + "\(TextFormat.share(top.share)) of \(TextFormat.duration(total))."
        let rows = zip(categories, durations).map { c, duration in
            "  \(TerminalText.sanitize(c.name)): \(duration), \(TextFormat.share(c.share))"
        }
        return wrap(["By category", sentence] + rows, width: width).headed(theme)
    }

    /// The legend: swatch, name, duration, share; one line per slice.
    private static func categoryLegend(_ slices: [CategorySlice], width: Int, theme: Theme, indent: Int = 2) -> [String] {
        let durations = TextFormat.durations(slices.map(\.micros))
        let durationWidth = durations.map(\.count).max() ?? 0
        let shareWidth = slices.map { TextFormat.share($0.share).count }.max() ?? 0
        // The share column goes before a name is cut (then the name is cut to what is left).
        let longest = slices.map { TerminalText.cells(TerminalText.sanitize($0.name)) }.max() ?? 0
        let withShare = width - (indent + 3 + 2 + durationWidth + 2 + shareWidth) >= longest
        let fixed = indent + 3 + 2 + durationWidth + (withShare ? 2 + shareWidth : 0)
        let nameWidth = max(1, min(longest, width - fixed))
        return zip(slices, durations).map { s, duration in
            var line = StyledLine(theme)
            line.append(String(repeating: " ", count: indent))
            let swatch = theme.color && !theme.glyphs.isASCII ? "█" : s.series.pattern(theme.glyphs)
            line.append(String(repeating: swatch, count: 2), codes: s.series.color(theme)?.foreground)
            line.append(" " + TerminalText.pad(s.name, width: nameWidth) + "  ")
            line.append(TerminalText.padLeft(duration, width: durationWidth))
            if withShare { line.append("  " + TerminalText.padLeft(TextFormat.share(s.share), width: shareWidth)) }
            return line.finished()
        }
    }

    /// A 100% strip: each slice's cells end where its running total rounds to.
    private static func strip(_ slices: [CategorySlice], total: Micros, width: Int, theme: Theme) -> [String] {
        let cells = max(1, min(60, width - 2))
        var line = StyledLine(theme)
        line.append("  ")
        var running: Micros = 0
        var drawn = 0
        for s in slices {
            running += s.micros
            let end = Int((running * Micros(cells) + total / 2) / total)
            guard end > drawn else { continue }
            let glyph = s.series.pattern(theme.glyphs)
            line.append(String(repeating: glyph, count: end - drawn), codes: s.series.color(theme)?.foreground)
            drawn = end
        }
        return [line.finished()]
    }

    /// The donut and its legend, side by side when both fit, else the legend below.
    private static func donut(_ slices: [CategorySlice], total: Micros, width: Int, theme: Theme) -> [String] {
        let radius = width >= 60 ? 10 : 8
        let art = DonutRaster(slices: slices, total: total, radius: radius)
        let hole = [TextFormat.duration(total), "total"]
        var rows = art.render(theme: theme, hole: hole, indent: 2)
        let legendIndent = 2 + 2 * radius + 3
        if width - legendIndent >= 3 + 8 + 2 + 7 + 2 + 5 {
            let legend = categoryLegend(slices, width: width - legendIndent, theme: theme, indent: 0)
            let first = max(0, (rows.count - legend.count) / 2)
            for (k, entry) in legend.enumerated() {
                if first + k < rows.count {
                    rows[first + k] = rows[first + k].padded(toCells: legendIndent) + entry
                } else {
                    rows.append(String(repeating: " ", count: legendIndent) + entry)
                }
            }
            return rows
        }
        return rows + categoryLegend(slices, width: width, theme: theme)
    }
}

/// One slice of the category chart: a category, or the categories folded into the last slice.
struct CategorySlice {
    let name: String
    let micros: Micros
    let share: Double
    let series: Series

    /// At most six: the top five and, past six categories, `N others` folded into the last.
    static func slices(_ categories: [CategoryUsage], total: Micros, palette: Palette) -> [CategorySlice] {
        let all = categories.map { CategorySlice(name: $0.name, micros: $0.micros, share: $0.share, series: palette.category($0.name)) }
        guard all.count > 6 else { return all }
        let rest = all.dropFirst(5)
        let micros = rest.reduce(0) { $0 + $1.micros }
        let share = total > 0 ? Double(micros) / Double(total) : 0
        return Array(all.prefix(5)) + [CategorySlice(name: "\(rest.count) others", micros: micros, share: share, series: .other)]
    }
}

/// The donut as a raster of square pixels, two per cell (`▀`: upper pixel in the foreground
/// colour, lower pixel in the background colour).
struct DonutRaster {
    /// Per pixel row (2 × radius of them), per column (2 × radius): the slice index, nil outside the ring.
    let pixels: [[Int?]]
    let slices: [CategorySlice]
    let radius: Int
    /// The hole's radius as a fraction of the outer one.
    static let holeRatio = 0.6

    init(slices: [CategorySlice], total: Micros, radius: Int) {
        self.slices = slices
        self.radius = radius
        var ends: [Double] = []
        var running: Micros = 0
        for s in slices {
            running += s.micros
            ends.append(Double(running) / Double(max(total, 1)))
        }
        let r = Double(radius)
        let inner = r * Self.holeRatio
        pixels = (0..<(2 * radius)).map { py in
            (0..<(2 * radius)).map { px -> Int? in
                let dx = Double(px) + 0.5 - r
                let dy = Double(py) + 0.5 - r
                let d = (dx * dx + dy * dy).squareRoot()
                guard d <= r, d >= inner else { return nil }
                // Clockwise from 12 o'clock, as a fraction of the turn.
                var turn = atan2(dx, -dy) / (2 * .pi)
                if turn < 0 { turn += 1 }
                return ends.firstIndex { turn < $0 } ?? slices.count - 1
            }
        }
    }

    /// Whether the pixel lies inside the hole (for the hole's text).
    private func inHole(_ px: Int, _ py: Int) -> Bool {
        let r = Double(radius)
        let dx = Double(px) + 0.5 - r
        let dy = Double(py) + 0.5 - r
        return (dx * dx + dy * dy).squareRoot() < r * Self.holeRatio
    }

    /// One line per cell row. The hole's text (centred, one string per row from the middle row
    /// up) goes where a whole row segment of the hole can hold it.
    func render(theme: Theme, hole: [String], indent: Int) -> [String] {
        let rows = radius
        let middle = rows / 2 - 1
        var lines: [String] = []
        for row in 0..<rows {
            var line = StyledLine(theme)
            line.append(String(repeating: " ", count: indent))
            let holeText: (start: Int, text: String)? = {
                let k = row - middle
                guard k >= 0, k < hole.count else { return nil }
                let free = (0..<(2 * radius)).filter { inHole($0, 2 * row) && inHole($0, 2 * row + 1) }
                guard let first = free.first, let last = free.last else { return nil }
                let text = hole[k]
                let cells = TerminalText.cells(text)
                // A space on each side, so the text never touches the ring.
                guard cells + 2 <= last - first + 1 else { return nil }
                return (first + (last - first + 1 - cells) / 2, text)
            }()
            var px = 0
            while px < 2 * radius {
                if let holeText, px == holeText.start {
                    line.append(holeText.text, codes: "1")
                    px += TerminalText.cells(holeText.text)
                    continue
                }
                let upper = pixels[2 * row][px].flatMap { slices[$0].series.color(theme) }
                let lower = pixels[2 * row + 1][px].flatMap { slices[$0].series.color(theme) }
                switch (upper, lower) {
                case (nil, nil): line.append(" ")
                case (let u?, nil): line.append("▀", fg: u)
                case (nil, let l?): line.append("▄", fg: l)
                case (let u?, let l?): u == l ? line.append("█", fg: u) : line.append("▀", fg: u, bg: l)
                }
                px += 1
            }
            lines.append(line.finished())
        }
        return lines
    }
}

extension String {
    /// The line padded with spaces to `cells` (SGR sequences take none).
    func padded(toCells cells: Int) -> String {
        self + String(repeating: " ", count: max(0, cells - TerminalText.cells(self)))
    }
}
