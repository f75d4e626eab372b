// SVGDonut.swift — the category ring as real arcs: each slice an annular sector whose angle is its share of the turn (clockwise from 12 o'clock, the largest first, as the terminal's), the total in the hole, the legend with time and share beside it.
import UsageCore
import Foundation

extension SVGCanvas {
    /// The ring's geometry: outer radius, hole as the terminal's (0.6 of it).
    static let donutRadius = 96.0
    static let donutHole = 0.6

    /// Draws the ring and its legend; returns the chart's height.
    mutating func donut(_ chart: DonutChart) -> Double {
        let top = title(chart.title)
        let radius = Self.donutRadius
        let inner = radius * Self.donutHole
        let (cx, cy) = (PictureStyle.margin + radius, top + 8 + radius)
        var start = 0.0
        for slice in chart.slices {
            let end = start + slice.share
            path(
                Self.sector(cx: cx, cy: cy, outer: radius, inner: inner, from: start, to: end), rgb: slice.series.rgb,
                tooltip: "\(Markup.shown(slice.series.name)): \(slice.series.value), \(slice.shareText)")
            start = end
        }
        // The total in the hole, smaller when it is long (years of time: `14838h 6m`).
        let room = 2 * inner * 0.86
        let size = min(18, 18 * room / max(1, PictureStyle.textWidth(chart.centre, size: 18, bold: true)))
        text(chart.centre, x: cx, y: cy + 4, size: size, anchor: .middle, bold: true)
        text("total", x: cx, y: cy + 21, size: PictureStyle.smallSize, ink: .muted, anchor: .middle)

        guard standalone else {
            width = 2 * PictureStyle.margin + 2 * radius
            return top + 8 + 2 * radius + 12
        }
        // The legend: swatch, name, time and share, a row each.
        let left = PictureStyle.margin + 2 * radius + 32
        let right = width - PictureStyle.margin
        var y = top + 8 + max(0, radius - Double(chart.slices.count) * 13)
        for slice in chart.slices {
            rect(x: left, y: y + 4, width: 12, height: 12, rgb: slice.series.rgb, radius: 2)
            let name = PictureStyle.fitted(Markup.shown(slice.series.name), width: right - left - 150, size: PictureStyle.labelSize)
            text(name, x: left + 20, y: y + 15)
            text(slice.series.value, x: right - 52, y: y + 15, anchor: .end)
            text(slice.shareText, x: right, y: y + 15, ink: .muted, anchor: .end)
            y += 26
        }
        return max(top + 8 + 2 * radius, y) + 12
    }

    /// An annular sector from `from` to `to` (fractions of the turn, clockwise from 12 o'clock):
    /// the outer arc, the radius in, the inner arc back. A whole turn is two half rings.
    static func sector(cx: Double, cy: Double, outer: Double, inner: Double, from: Double, to: Double) -> String {
        func point(_ r: Double, _ turn: Double) -> String {
            let angle = turn * 2 * Double.pi
            return Markup.number(cx + r * sin(angle)) + " " + Markup.number(cy - r * cos(angle))
        }
        let span = to - from
        if span >= 0.99999 {
            // Two half rings, each an ordinary sector.
            return sector(cx: cx, cy: cy, outer: outer, inner: inner, from: 0, to: 0.5) + " "
                + sector(cx: cx, cy: cy, outer: outer, inner: inner, from: 0.5, to: 1)
        }
        let large = span > 0.5 ? 1 : 0
        let (o, i) = (Markup.number(outer), Markup.number(inner))
        return "M\(point(outer, from)) A\(o) \(o) 0 \(large) 1 \(point(outer, to)) L\(point(inner, to)) A\(i) \(i) 0 \(large) 0 \(point(inner, from)) Z"
    }
}
