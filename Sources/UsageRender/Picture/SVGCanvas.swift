// SVGCanvas.swift — the drawing primitives of a saved chart (rectangles, arcs, lines, text in the theme's inks, tooltips) over Markup, and the pieces every chart shares: its title and its legend.
import UsageCore

/// One chart being drawn: SVG elements in a space `width` wide (640, or 360 for a phone), top to bottom.
struct SVGCanvas {
    var markup = Markup()
    /// Whether the chart stands alone, its title and legend drawn (an SVG file), or sits in a page that writes them as text that reflows on a phone (the HTML report).
    let standalone: Bool
    /// The chart's width: every chart's (`PictureStyle.width`; the HTML report's narrow screens
    /// `PictureStyle.narrowWidth`), but the ring alone's.
    var width: Double

    init(standalone: Bool = true, width: Double = PictureStyle.width) {
        self.standalone = standalone
        self.width = width
    }

    typealias Ink = PictureStyle.Ink

    /// A filled rectangle in a series' colour, with a tooltip (`<title>`) when given.
    mutating func rect(x: Double, y: Double, width: Double, height: Double, rgb: Int, tooltip: String? = nil, radius: Double = 0) {
        var attributes = [("x", Markup.number(x)), ("y", Markup.number(y)), ("width", Markup.number(width)), ("height", Markup.number(height))]
        if radius > 0 { attributes.append(("rx", Markup.number(radius))) }
        attributes.append(("fill", Markup.hex(rgb)))
        shape("rect", attributes, tooltip: tooltip)
    }

    /// A rectangle in a series' colour, or in the text's ink for `FigureSeries.textInk`.
    mutating func rect(x: Double, y: Double, width: Double, height: Double, series rgb: Int, radius: Double = 0) {
        if rgb == FigureSeries.textInk {
            rect(x: x, y: y, width: width, height: height, ink: .text, radius: radius)
        } else {
            rect(x: x, y: y, width: width, height: height, rgb: rgb, radius: radius)
        }
    }

    /// A rectangle in one of the theme's inks (the background, a track).
    mutating func rect(x: Double, y: Double, width: Double, height: Double, ink: Ink, radius: Double = 0) {
        var attributes = [("x", Markup.number(x)), ("y", Markup.number(y)), ("width", Markup.number(width)), ("height", Markup.number(height))]
        if radius > 0 { attributes.append(("rx", Markup.number(radius))) }
        attributes += [("fill", ink.light), ("class", ink.rawValue)]
        markup.open("rect", attributes, close: true)
    }

    /// A path in a series' colour (the donut's slices).
    mutating func path(_ d: String, rgb: Int, tooltip: String? = nil) {
        shape("path", [("d", d), ("fill", Markup.hex(rgb))], tooltip: tooltip)
    }

    /// A grid line (or a dashed one).
    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, ink: Ink = .grid, dashed: Bool = false, width: Double = 1) {
        var attributes = [
            ("x1", Markup.number(x1)), ("y1", Markup.number(y1)), ("x2", Markup.number(x2)), ("y2", Markup.number(y2)),
            ("stroke", ink.light), ("stroke-width", Markup.number(width)),
        ]
        if dashed { attributes.append(("stroke-dasharray", "4 3")) }
        // A text ink used as a stroke: its class would set the fill, so the dark colour is set by a class of its own.
        attributes.append(("class", ink == .grid ? "gr" : "ln"))
        markup.open("line", attributes, close: true)
    }

    enum Anchor: String {
        case start, middle, end
    }

    /// Text in an ink; data text is shown in its safe form (`Markup.shown`) by the caller.
    mutating func text(
        _ content: String, x: Double, y: Double, size: Double = PictureStyle.labelSize, ink: Ink = .text, anchor: Anchor = .start,
        bold: Bool = false, id: String? = nil
    ) {
        var attributes = id.map { [("id", $0)] } ?? []
        attributes += [("x", Markup.number(x)), ("y", Markup.number(y))]
        if anchor != .start { attributes.append(("text-anchor", anchor.rawValue)) }
        if size != PictureStyle.labelSize { attributes.append(("font-size", Markup.number(size))) }
        if bold { attributes.append(("font-weight", "bold")) }
        attributes += [("fill", ink.light), ("class", ink.rawValue)]
        markup.element("text", attributes, text: content)
    }

    /// A shape with its tooltip inside (`<title>`: shown on hover, read by a screen reader).
    private mutating func shape(_ name: String, _ attributes: [(String, String)], tooltip: String?) {
        guard let tooltip else { return markup.open(name, attributes, close: true) }
        markup.open(name, attributes)
        markup.element("title", text: tooltip)
        markup.close(name)
    }

    /// The chart's title at the top; returns the y below it.
    mutating func title(_ title: String, y: Double = 0) -> Double {
        guard standalone else { return y + 4 }
        text(PictureStyle.fitted(Markup.shown(title), width: width - 2 * PictureStyle.margin, size: PictureStyle.titleSize, bold: true),
             x: PictureStyle.margin, y: y + 20, size: PictureStyle.titleSize, bold: true)
        return y + 32
    }

    /// A legend: swatch, name and value, entries flowing left to right and wrapping; returns
    /// the y below it. A series without a colour (`rgb` nil) is the dashed average line.
    mutating func legend(_ entries: [(name: String, value: String, rgb: Int?)], y: Double) -> Double {
        guard standalone else { return y + 4 }
        let left = PictureStyle.margin
        let right = width - PictureStyle.margin
        let size = PictureStyle.labelSize
        var x = left
        var row = y
        for entry in entries {
            let name = PictureStyle.fitted(Markup.shown(entry.name), width: 180, size: size)
            let width = 18 + PictureStyle.textWidth(name, size: size) + 6 + PictureStyle.textWidth(entry.value, size: size)
            if x > left, x + width > right {
                x = left
                row += 20
            }
            if let rgb = entry.rgb {
                rect(x: x, y: row + 3, width: 12, height: 12, series: rgb, radius: 2)
            } else {
                line(x1: x, y1: row + 9, x2: x + 12, y2: row + 9, ink: .text, dashed: true, width: 1.5)
            }
            // One text: the value follows the name at the font's own width, whatever the font.
            markup.open("text", [("x", Markup.number(x + 18)), ("y", Markup.number(row + 14)), ("fill", Ink.text.light), ("class", Ink.text.rawValue)])
            // A no-break space: an SVG reader that trims the spaces at a text's end (LibreOffice) keeps it.
            markup.write(name + "\u{A0}")
            markup.element("tspan", [("fill", Ink.muted.light), ("class", Ink.muted.rawValue)], text: entry.value)
            markup.close("text")
            x += width + 18
        }
        return row + 28
    }
}
