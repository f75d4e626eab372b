// SVGCalendar.swift — a month as a heat map: a week a row from Monday, each day a tile with its number, its tracked time as one of the terminal's four shades, the tasks due; the selected day outlined; the shades' legend and the month's sentence.
import UsageCore

extension SVGCanvas {
    /// Draws the month; returns the chart's height.
    mutating func calendar(_ chart: CalendarChart) -> Double {
        var y = title(chart.title)
        let left = PictureStyle.margin
        let cell = (width - 2 * PictureStyle.margin) / 7
        let tile = 56.0
        for (k, name) in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].enumerated() {
            text(name, x: left + Double(k) * cell + 6, y: y + 12, size: PictureStyle.smallSize, ink: .muted)
        }
        y += 20
        for week in chart.weeks {
            for (k, day) in week.enumerated() {
                guard let day else { continue }
                let x = left + Double(k) * cell
                rect(x: x + 2, y: y + 2, width: cell - 4, height: tile - 4, ink: .track, radius: 4)
                let when = "\(day.date): " + (day.micros > 0 ? TextFormat.duration(day.micros) + " tracked" : "nothing tracked")
                    + (day.due > 0 ? ", \(day.due) task\(day.due == 1 ? "" : "s") due" : "")
                if day.level > 0 {
                    let shade = PictureStyle.shadesLight[day.level - 1]
                    markup.open("rect", [
                        ("x", Markup.number(x + 6)), ("y", Markup.number(y + 24)), ("width", Markup.number(cell - 12)), ("height", "26"),
                        ("rx", "3"), ("fill", shade), ("class", "s\(day.level)"),
                    ])
                    markup.element("title", text: when)
                    markup.close("rect")
                }
                text(String(day.date.day), x: x + 8, y: y + 17, bold: day.selected)
                if day.due > 0 {
                    text("\(day.due) due", x: x + cell - 8, y: y + 17, size: PictureStyle.smallSize, ink: .muted, anchor: .end)
                }
                if day.selected {
                    markup.open("rect", [
                        ("x", Markup.number(x + 2)), ("y", Markup.number(y + 2)), ("width", Markup.number(cell - 4)),
                        ("height", Markup.number(tile - 4)), ("rx", "4"), ("fill", "none"), ("stroke", PictureStyle.Ink.text.light),
                        ("stroke-width", "2"), ("class", "ln"),
                    ], close: true)
                }
            }
            y += tile
        }
        // The shades' legend, then the sentence.
        var x = left
        y += 8
        for (k, name) in chart.levels.enumerated() {
            markup.open("rect", [
                ("x", Markup.number(x)), ("y", Markup.number(y + 3)), ("width", "12"), ("height", "12"), ("rx", "2"),
                ("fill", PictureStyle.shadesLight[k]), ("class", "s\(k + 1)"),
            ], close: true)
            text(name, x: x + 18, y: y + 14, ink: .muted)
            x += 18 + PictureStyle.textWidth(name, size: PictureStyle.labelSize) + 18
        }
        y += 24
        for part in PictureStyle.wrapped(chart.summary, width: width - 2 * PictureStyle.margin, size: PictureStyle.labelSize) {
            text(part, x: left, y: y + 14)
            y += 18
        }
        return y + 10
    }
}
