// SVGColumns.swift — stacked columns on a time axis: the terminal's round steps as grid lines, each segment a rectangle exactly its time tall, labels under the bars, the selected day marked, the average as a dashed line, the legend.
import UsageCore

extension SVGCanvas {
    /// The plot's height: the axis' maximum is this many pixels.
    static let plotHeight = 180.0

    /// Draws the columns; returns the chart's height.
    mutating func columns(_ chart: ColumnChart) -> Double {
        let top = title(chart.title) + 8
        let left = PictureStyle.margin + 38
        let right = width - PictureStyle.margin - (chart.average == nil ? 0 : 88)
        let height = Self.plotHeight
        let base = top + height
        let maximum = Double(max(1, chart.maximum))
        let scale = height / maximum

        // Grid lines at each step, labelled on the left; the axis at 0.
        for k in 1...max(1, chart.steps) {
            let y = base - Double(k) * Double(chart.stepMicros) * scale
            line(x1: left, y1: y, x2: right, y2: y)
            text(chart.stepLabel(k), x: left - 6, y: y + 4, size: PictureStyle.smallSize, ink: .muted, anchor: .end)
        }
        line(x1: left, y1: base, x2: right, y2: base, ink: .muted)

        let count = Double(max(1, chart.columns.count))
        let slot = (right - left) / count
        let bar = min(32, slot * 0.72)
        let hasSublabels = chart.columns.contains { !$0.sublabel.isEmpty }
        // A row of labels is written when each label and the next, both centred under their
        // columns, do not meet (a month's initials do not, in the narrow drawing: its Mondays'
        // dates do); else the row is left out whole rather than cut into a stray letter.
        func fits(_ labels: [String]) -> Bool {
            let half = { (j: Int) in PictureStyle.textWidth(labels[j], size: PictureStyle.smallSize, bold: chart.columns[j].marked) / 2 }
            let shown = labels.indices.filter { !labels[$0].isEmpty }
            return zip(shown, shown.dropFirst()).allSatisfy { a, b in half(a) + half(b) <= Double(b - a) * slot - 2 }
        }
        let showLabels = fits(chart.columns.map(\.label))
        let showSublabels = fits(chart.columns.map(\.sublabel))
        for (k, column) in chart.columns.enumerated() {
            let x = left + Double(k) * slot + (slot - bar) / 2
            var running: Micros = 0
            markup.open("g")
            markup.element("title", text: Markup.shown(column.description))
            for (value, series) in zip(column.values, chart.series) where value > 0 {
                let y = base - Double(running + value) * scale
                rect(x: x, y: y, width: bar, height: Double(value) * scale, series: series.rgb)
                running += value
            }
            markup.close("g")
            let middle = x + bar / 2
            if !column.label.isEmpty, showLabels {
                text(column.label, x: middle, y: base + 15, size: PictureStyle.smallSize, ink: column.marked ? .text : .muted, anchor: .middle, bold: column.marked)
            }
            if !column.sublabel.isEmpty, showSublabels {
                text(column.sublabel, x: middle, y: base + 28, size: PictureStyle.smallSize, ink: column.marked ? .text : .muted, anchor: .middle, bold: column.marked)
            }
            if column.marked {
                let y = base + (hasSublabels ? 34 : 21)
                markup.open("path", [
                    ("d", "M\(Markup.number(middle)) \(Markup.number(y)) l5 8 h-10 Z"), ("fill", Ink.text.light), ("class", Ink.text.rawValue),
                ], close: true)
            }
        }

        if let average = chart.average, average.micros > 0 {
            let y = base - Double(average.micros) * scale
            line(x1: left, y1: y, x2: right, y2: y, ink: .text, dashed: true, width: 1.5)
            text(average.label, x: right + 6, y: y + 4, size: PictureStyle.smallSize, bold: true)
        }

        let marked = chart.columns.contains(where: \.marked)
        let below = base + (hasSublabels ? 34 : 21) + (marked ? 14 : 0)
        let entries = chart.series.map { (name: $0.name, value: $0.value, rgb: Optional($0.rgb)) }
        return entries.isEmpty ? below + 8 : legend(entries, y: below)
    }
}
