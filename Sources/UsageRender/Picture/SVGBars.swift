// SVGBars.swift — ranked horizontal bars (apps, an hour's apps, limits, sites): rank, name and detail, a browser's top sites under its row, a bar exactly its time long against the longest row (or against its own limit, over a track), the time and share, a note; the footer lines under them.
import UsageCore

extension SVGCanvas {
    /// The longest bar's length.
    static let barLength = 240.0

    /// Draws the rows; returns the chart's height.
    mutating func bars(_ chart: BarChart) -> Double {
        var y = title(chart.title)
        let right = width - PictureStyle.margin
        let nameX = PictureStyle.margin + 30
        let barX = nameX + 178
        let twoLines = chart.rows.contains { !$0.detail.isEmpty || !$0.note.isEmpty }
        let rowHeight = twoLines ? 38.0 : 26.0
        let scale = Double(chart.scale)
        for row in chart.rows {
            let name = PictureStyle.fitted(Markup.shown(row.series.name), width: 170, size: PictureStyle.labelSize)
            if let rank = row.rank {
                text("\(rank).", x: nameX - 8, y: y + 15, ink: .muted, anchor: .end)
            }
            text(name, x: nameX, y: y + 15)
            if !row.detail.isEmpty {
                text(PictureStyle.fitted(Markup.shown(row.detail), width: 170, size: PictureStyle.smallSize), x: nameX, y: y + 30,
                     size: PictureStyle.smallSize, ink: .muted)
            }
            let tooltip = "\(Markup.shown(row.series.name)): \(row.value)" + (row.share.isEmpty ? "" : ", \(row.share)")
            if let limit = row.limit {
                // Against its limit: a track as long as the longer of the time and the limit, filled
                // up to the time, the limit marked across it (past the limit, the mark is inside).
                let whole = Double(max(row.micros, limit, 1))
                rect(x: barX, y: y + 5, width: Self.barLength, height: 14, ink: .track, radius: 2)
                if row.micros > 0 { rect(x: barX, y: y + 5, width: Double(row.micros) / whole * Self.barLength, height: 14, rgb: row.series.rgb, tooltip: tooltip, radius: 2) }
                let mark = barX + Double(limit) / whole * Self.barLength
                line(x1: mark, y1: y + 2, x2: mark, y2: y + 22, ink: .text, width: 2)
            } else if row.micros > 0 {
                rect(x: barX, y: y + 5, width: Double(row.micros) / scale * Self.barLength, height: 14, rgb: row.series.rgb, tooltip: tooltip, radius: 2)
            }
            let valueX = row.share.isEmpty ? right : right - 52
            text(row.value, x: valueX, y: y + 15, anchor: .end)
            if !row.share.isEmpty { text(row.share, x: right, y: y + 15, ink: .muted, anchor: .end) }
            if !row.note.isEmpty {
                text(row.note, x: right, y: y + 30, size: PictureStyle.smallSize, ink: row.alert ? .text : .muted, anchor: .end, bold: row.alert)
            }
            if !row.sites.isEmpty {
                // Under the name and its detail, across the row: the line the terminal writes under a browser.
                let top = y + (twoLines ? rowHeight : 26) - 4
                text(PictureStyle.fitted(Markup.shown(row.sites), width: right - nameX, size: PictureStyle.smallSize), x: nameX, y: top + 11,
                     size: PictureStyle.smallSize, ink: .muted)
                y += 18
            }
            y += rowHeight
        }
        if !chart.footer.isEmpty { y += 4 }
        for line in chart.footer {
            for part in PictureStyle.wrapped(Markup.shown(line), width: right - PictureStyle.margin, size: PictureStyle.labelSize) {
                text(part, x: PictureStyle.margin, y: y + 14, ink: .muted)
                y += 18
            }
        }
        return y + 10
    }
}
