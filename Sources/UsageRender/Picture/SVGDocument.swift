// SVGDocument.swift — a figure's charts as one SVG file (`save week.svg`): the title, totals and sentence as text, each chart a nested <svg> with its own title and description, light and dark from prefers-color-scheme, fonts every system has.
import UsageCore

extension Figure {
    /// The SVG file of the figure's charts; nil when it has none (the view draws nothing).
    public func svgDocument() -> String? {
        let charts = self.charts
        guard !charts.isEmpty else { return nil }
        var body = Markup()
        let left = PictureStyle.margin
        let textWidth = PictureStyle.width - 2 * left
        var y = 12.0
        var header = SVGCanvas()
        header.text(PictureStyle.fitted(Markup.shown(title), width: textWidth, size: 18, bold: true), x: left, y: y + 18, size: 18, bold: true)
        y += 28
        if let subtitle {
            header.text(PictureStyle.fitted(Markup.shown(subtitle), width: textWidth, size: PictureStyle.labelSize), x: left, y: y + 12, ink: .muted)
            y += 18
        }
        for (k, line) in totals.enumerated() {
            header.text(
                PictureStyle.fitted(Markup.shown(line), width: textWidth, size: 14, bold: k == 0), x: left, y: y + 15, size: 14, bold: k == 0,
                id: k == 0 ? "total" : nil)
            y += 21
        }
        if let sentence {
            for part in PictureStyle.wrapped(Markup.shown(sentence), width: textWidth, size: PictureStyle.labelSize) {
                header.text(part, x: left, y: y + 14, ink: .muted)
                y += 18
            }
        }
        body.raw(header.markup.text)
        y += 8
        for (k, block) in charts.enumerated() {
            guard let drawn = SVGChart.draw(block, y: y, id: "chart\(k + 1)") else { continue }
            body.raw(drawn.svg)
            y += drawn.height + 8
        }
        let height = Markup.number(y + 4)
        var doc = Markup()
        doc.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        doc.open("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("width", Markup.number(PictureStyle.width)), ("height", height),
            ("viewBox", "0 0 \(Markup.number(PictureStyle.width)) \(height)"), ("role", "img"), ("aria-labelledby", "title desc"),
            // Its size, kept as an image's is: a browser narrower than it scrolls it rather than
            // scaling its 11-pixel labels under 10 (the HTML report is what reflows on a phone).
            ("font-family", PictureStyle.fontStack), ("font-size", Markup.number(PictureStyle.labelSize)),
        ])
        doc.newline()
        doc.element("title", [("id", "title")], text: Markup.shown(title))
        doc.newline()
        // The sentence says the total first; without one, the totals lines do.
        let words = [subtitle].compactMap { $0 } + (sentence.map { [$0] } ?? totals)
        doc.element("desc", [("id", "desc")], text: Markup.shown(words.joined(separator: ". ")))
        doc.newline()
        doc.element("style", text: PictureStyle.sheet)
        doc.newline()
        doc.open("rect", [("width", "100%"), ("height", "100%"), ("fill", PictureStyle.Ink.background.light), ("class", PictureStyle.Ink.background.rawValue)], close: true)
        doc.newline()
        doc.raw(body.text)
        doc.newline()
        doc.close("svg")
        doc.newline()
        return doc.text
    }
}
