// SVGChart.swift — one chart of a figure as an `<svg>` element: role="img", its <title> and <desc> (what it shows in words), a viewBox 640 wide and as tall as the chart; the kinds' drawings are in SVG<Kind>.swift.
import UsageCore

/// A chart drawn: its `<svg>` element and its height.
struct DrawnChart {
    let svg: String
    let height: Double
}

enum SVGChart {
    /// The chart of `block` as an `<svg>` element placed at `y` (for a document of several; 0
    /// in HTML); nil for a block that is not a chart.
    /// Without `legend` (the HTML report, which writes legends as text that reflows on a phone),
    /// the donut is the ring alone and the other charts end under their axes.
    /// `width`: the space it is drawn in (`PictureStyle.narrowWidth`: the HTML report's phones).
    static func draw(_ block: FigureBlock, y: Double = 0, id: String, legend: Bool = true, width: Double = PictureStyle.width) -> DrawnChart? {
        var canvas = SVGCanvas(standalone: legend, width: width)
        let height: Double
        let title: String
        let description: String
        switch block {
        case .donut(let chart):
            (title, description) = (chart.title, describe(chart))
            height = canvas.donut(chart)
        case .columns(let chart):
            (title, description) = (chart.title, describe(chart))
            height = canvas.columns(chart)
        case .bars(let chart):
            (title, description) = (chart.title, describe(chart))
            height = canvas.bars(chart)
        case .timeline(let chart):
            (title, description) = (chart.title, describe(chart))
            height = canvas.timeline(chart)
        case .calendar(let chart):
            (title, description) = (chart.title, chart.summary)
            height = canvas.calendar(chart)
        case .table, .facts, .text:
            return nil
        }
        var svg = Markup()
        let width = canvas.width
        let w = Markup.number(width)
        let h = Markup.number(height)
        svg.open("svg", [
            ("x", "0"), ("y", Markup.number(y)), ("width", w), ("height", h), ("viewBox", "0 0 \(w) \(h)"),
            ("role", "img"), ("aria-labelledby", "\(id)-title \(id)-desc"),
        ])
        svg.element("title", [("id", "\(id)-title")], text: Markup.shown(title))
        svg.element("desc", [("id", "\(id)-desc")], text: Markup.shown(description))
        svg.raw(canvas.markup.text)
        svg.close("svg")
        return DrawnChart(svg: svg.text, height: height)
    }

    /// `By category: Productivity 2h 58m (39%), Entertainment 2h 12m (29%), …`.
    static func describe(_ chart: DonutChart) -> String {
        "\(chart.title): " + chart.slices.map { "\($0.series.name) \($0.series.value) (\($0.shareText))" }.joined(separator: ", ")
    }

    /// The bars in words: each column's own description.
    static func describe(_ chart: ColumnChart) -> String {
        let used = chart.columns.filter { $0.values.contains { $0 > 0 } }
        let bars = used.map(\.description).joined(separator: "; ")
        let legend = chart.series.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
        return "\(chart.title). " + (bars.isEmpty ? "No usage." : bars + ".") + (legend.isEmpty ? "" : " Series: " + legend + ".")
    }

    static func describe(_ chart: BarChart) -> String {
        "\(chart.title): " + chart.rows.map { row in
            ([row.series.name, row.value] + (row.share.isEmpty ? [] : [row.share]) + (row.note.isEmpty ? [] : [row.note])
                + (row.sites.isEmpty ? [] : ["(sites: \(row.sites))"])).joined(separator: " ")
        }.joined(separator: ", ")
    }

    static func describe(_ chart: TimelineChart) -> String {
        "\(chart.title): " + (chart.spans.isEmpty ? "nothing." : chart.spans.map(\.description).joined(separator: "; "))
    }
}
