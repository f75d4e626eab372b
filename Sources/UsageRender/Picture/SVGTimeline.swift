// SVGTimeline.swift — intervals on a day's clock (today's sessions, an app's sessions): the hours as a ruled axis, each interval a bar from its start to its end, the legend.
import UsageCore

extension SVGCanvas {
    /// Draws the day's intervals; returns the chart's height.
    mutating func timeline(_ chart: TimelineChart) -> Double {
        let top = title(chart.title) + 4
        let left = PictureStyle.margin
        let right = PictureStyle.width - PictureStyle.margin
        let lane = 30.0
        let day = Double(max(1, chart.dayEnd - chart.dayStart))
        func x(_ t: Micros) -> Double { left + Double(t - chart.dayStart) / day * (right - left) }
        rect(x: left, y: top, width: right - left, height: lane, ink: .track, radius: 3)
        for tick in chart.ticks {
            line(x1: x(tick.at), y1: top, x2: x(tick.at), y2: top + lane + 4)
            text(tick.label, x: x(tick.at), y: top + lane + 17, size: PictureStyle.smallSize, ink: .muted, anchor: .middle)
        }
        line(x1: right, y1: top, x2: right, y2: top + lane + 4)
        for span in chart.spans where span.end > span.start {
            rect(x: x(span.start), y: top + 3, width: x(span.end) - x(span.start), height: lane - 6, rgb: span.series.rgb,
                 tooltip: Markup.shown(span.description))
        }
        let entries = chart.legend.map { (name: $0.name, value: $0.value, rgb: Optional($0.rgb)) }
        return legend(entries, y: top + lane + 28)
    }
}
