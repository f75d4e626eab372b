// SVGTimeline.swift — intervals on a day's clock (today's sessions, an app's sessions): the hours as a ruled axis, each interval a bar from its start to its end, the legend.
import UsageCore

extension SVGCanvas {
    /// Up to this many intervals are drawn each with its own tooltip; more are one path a colour.
    static let spansWithTooltips = 200

    /// Draws the day's intervals; returns the chart's height.
    mutating func timeline(_ chart: TimelineChart) -> Double {
        let top = title(chart.title) + 4
        let left = PictureStyle.margin
        let right = width - PictureStyle.margin
        let lane = 30.0
        let day = Double(max(1, chart.dayEnd - chart.dayStart))
        func x(_ t: Micros) -> Double { left + Double(t - chart.dayStart) / day * (right - left) }
        rect(x: left, y: top, width: right - left, height: lane, ink: .track, radius: 3)
        for tick in chart.ticks {
            line(x1: x(tick.at), y1: top, x2: x(tick.at), y2: top + lane + 4)
            text(tick.label, x: x(tick.at), y: top + lane + 17, size: PictureStyle.smallSize, ink: .muted, anchor: .middle)
        }
        line(x1: right, y1: top, x2: right, y2: top + lane + 4)
        let drawn = chart.spans.filter { $0.end > $0.start }
        if drawn.count <= Self.spansWithTooltips {
            for span in drawn {
                rect(x: x(span.start), y: top + 3, width: x(span.end) - x(span.start), height: lane - 6, rgb: span.series.rgb,
                     tooltip: Markup.shown(span.description))
            }
        } else {
            // Hundreds of sessions (an app used all day on a store of many devices): one path a
            // colour, its sessions joined where less than a pixel parts them, so the picture has
            // at most one piece a pixel whatever the sessions; the tooltip says how many.
            let pixel = day / (right - left)
            var order: [Int] = []
            var runs: [Int: [(start: Micros, end: Micros)]] = [:]
            var counts: [Int: Int] = [:]
            for span in drawn.sorted(by: { $0.start < $1.start }) {
                let rgb = span.series.rgb
                if runs[rgb] == nil { order.append(rgb) }
                counts[rgb, default: 0] += 1
                if let last = runs[rgb]?.last, Double(span.start - last.end) < pixel {
                    runs[rgb]![runs[rgb]!.count - 1].end = max(last.end, span.end)
                } else {
                    runs[rgb, default: []].append((span.start, span.end))
                }
            }
            for rgb in order {
                let d = runs[rgb]!.map { run in
                    "M\(Markup.number(x(run.start))) \(Markup.number(top + 3))h\(Markup.number(x(run.end) - x(run.start)))v\(Markup.number(lane - 6))H\(Markup.number(x(run.start)))Z"
                }.joined()
                let name = drawn.first { $0.series.rgb == rgb }!.series.name
                path(d, rgb: rgb, tooltip: "\(Markup.shown(name)): \(counts[rgb]!) sessions")
            }
        }
        let entries = chart.legend.map { (name: $0.name, value: $0.value, rgb: Optional($0.rgb)) }
        return legend(entries, y: top + lane + 28)
    }
}
