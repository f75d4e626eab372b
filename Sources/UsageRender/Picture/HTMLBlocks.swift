// HTMLBlocks.swift — each block of a figure in the HTML report: the ring, columns and timeline as inline SVG with their legends as text; ranked bars, the calendar and tables as HTML tables that reflow; facts as a description list.
import UsageCore

enum HTMLBlocks {
    static func write(_ block: FigureBlock, id: String, into page: inout Markup) {
        page.open("section", [("aria-labelledby", "\(id)-h")])
        switch block {
        case .donut(let chart):
            heading(chart.title, id: id, into: &page)
            page.open("div", [("class", "ring")])
            figure(block, id: id, into: &page)
            let rows = chart.slices.map { [$0.series.name, $0.series.value, $0.shareText] }
            legendTable(rows, colors: chart.slices.map(\.series.rgb), into: &page)
            page.close("div")
        case .columns(let chart):
            heading(chart.title, id: id, into: &page)
            figure(block, id: id, into: &page)
            legend(chart.series, average: chart.average?.label, into: &page)
        case .timeline(let chart):
            heading(chart.title, id: id, into: &page)
            figure(block, id: id, into: &page)
            legend(chart.legend, average: nil, into: &page)
        case .bars(let chart):
            heading(chart.title, id: id, into: &page)
            bars(chart, into: &page)
        case .calendar(let chart):
            heading(chart.title, id: id, into: &page)
            calendar(chart, into: &page)
        case .table(let table):
            heading(table.title, id: id, into: &page)
            self.table(table, into: &page)
        case .facts(let title, let facts):
            heading(title, id: id, into: &page)
            page.open("dl")
            for fact in facts {
                page.element("dt", text: Markup.shown(fact.label))
                page.element("dd", text: Markup.shown(fact.value))
            }
            page.close("dl")
        case .text(let title, let lines):
            if let title { heading(title, id: id, into: &page) }
            for line in lines { page.element("p", text: Markup.shown(line)) }
        }
        page.close("section")
        page.newline()
    }

    private static func heading(_ title: String, id: String, into page: inout Markup) {
        page.element("h2", [("id", "\(id)-h")], text: Markup.shown(title))
        page.newline()
    }

    private static func figure(_ block: FigureBlock, id: String, into page: inout Markup) {
        guard let drawn = SVGChart.draw(block, id: id, legend: false) else { return }
        page.open("figure")
        page.raw(drawn.svg)
        page.close("figure")
        page.newline()
    }

    /// The legend as text: swatch, name, value; the average's dashed line last.
    private static func legend(_ series: [FigureSeries], average: String?, into page: inout Markup) {
        guard !series.isEmpty || average != nil else { return }
        page.open("ul", [("class", "legend")])
        for entry in series {
            page.open("li")
            swatch(entry.rgb, into: &page)
            page.write(Markup.shown(entry.name) + " ")
            page.element("span", [("class", "mu")], text: entry.value)
            page.close("li")
        }
        if let average {
            page.open("li")
            page.open("span", [("class", "dash")])
            page.close("span")
            page.write(average)
            page.close("li")
        }
        page.close("ul")
        page.newline()
    }

    private static func swatch(_ rgb: Int, into page: inout Markup) {
        page.open("span", [("class", "sw"), ("style", "background:\(Markup.hex(rgb))")])
        page.close("span")
    }

    /// The ring's legend: swatch and name, time, share.
    private static func legendTable(_ rows: [[String]], colors: [Int], into page: inout Markup) {
        page.open("table")
        page.open("tbody")
        for (row, rgb) in zip(rows, colors) {
            page.open("tr")
            page.open("td")
            swatch(rgb, into: &page)
            page.write(Markup.shown(row[0]))
            page.close("td")
            page.element("td", [("class", "num")], text: row[1])
            page.element("td", [("class", "num mu")], text: row[2])
            page.close("tr")
        }
        page.close("tbody")
        page.close("table")
    }

    /// Ranked bars as a table: rank, name and detail, the bar (a width in percent: the same
    /// proportion as the SVG's), time and share (or a note).
    private static func bars(_ chart: BarChart, into page: inout Markup) {
        page.open("table")
        page.open("tbody")
        let scale = Double(chart.scale)
        for row in chart.rows {
            page.open("tr")
            page.element("td", [("class", "num mu")], text: row.rank.map { "\($0)." } ?? "")
            page.open("td")
            page.write(Markup.shown(row.series.name))
            if !row.detail.isEmpty { page.element("span", [("class", "detail")], text: Markup.shown(row.detail)) }
            page.close("td")
            let fraction = row.limit.map { min(1, Double(row.micros) / Double(max(1, $0))) } ?? Double(row.micros) / scale
            page.open("td", [("class", "bar")])
            page.open("div", row.limit == nil ? [] : [("class", "track")])
            page.open("span", [("style", "width:\(Markup.number(fraction * 100))%;background:\(Markup.hex(row.series.rgb))")])
            page.close("span")
            page.close("div")
            page.close("td")
            page.element("td", [("class", row.limit == nil ? "num" : "note")], text: row.value)
            if !row.share.isEmpty { page.element("td", [("class", "num mu")], text: row.share) }
            if !row.note.isEmpty { page.element("td", [("class", row.alert ? "note alert" : "note mu")], text: row.note) }
            page.close("tr")
        }
        page.close("tbody")
        page.close("table")
        for line in chart.footer { page.element("p", [("class", "mu")], text: Markup.shown(line)) }
        page.newline()
    }

    /// The month as a table a week a row, each day's cell shaded as the terminal's.
    private static func calendar(_ chart: CalendarChart, into page: inout Markup) {
        page.open("table", [("class", "cal")])
        page.open("thead")
        page.open("tr")
        for name in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] { page.element("th", text: name) }
        page.close("tr")
        page.close("thead")
        page.open("tbody")
        for week in chart.weeks {
            page.open("tr")
            for day in week {
                guard let day else {
                    page.element("td", [("class", "out")], text: "")
                    continue
                }
                var classes = day.level > 0 ? ["l\(day.level)"] : []
                if day.selected { classes.append("sel") }
                let when = "\(day.date): " + (day.micros > 0 ? TextFormat.duration(day.micros) + " tracked" : "nothing tracked")
                page.open("td", (classes.isEmpty ? [] : [("class", classes.joined(separator: " "))]) + [("title", when)])
                page.write(String(day.date.day))
                if day.due > 0 { page.element("span", [("class", "due")], text: "\(day.due) due") }
                page.close("td")
            }
            page.close("tr")
        }
        page.close("tbody")
        page.close("table")
        page.open("ul", [("class", "legend")])
        for (k, name) in chart.levels.enumerated() {
            page.open("li")
            page.open("span", [("class", "sw l\(k + 1)")])
            page.close("span")
            page.write(name)
            page.close("li")
        }
        page.close("ul")
        page.element("p", text: chart.summary)
        page.newline()
    }

    /// A table; one of more than five columns also as a list of rows (shown instead on a narrow
    /// screen, where the table would not fit).
    private static func table(_ table: FigureTable, into page: inout Markup) {
        let wide = table.header.count > 5
        page.open("table", wide ? [("class", "wide")] : [])
        page.open("thead")
        page.open("tr")
        for (k, cell) in table.header.enumerated() { page.element("th", table.numeric.contains(k) ? [("class", "num")] : [], text: Markup.shown(cell)) }
        page.close("tr")
        page.close("thead")
        page.open("tbody")
        for (row, style) in zip(table.rows, table.styles) {
            page.open("tr", style == .plain ? [] : [("class", style == .group ? "group" : "total")])
            for (k, cell) in row.enumerated() { page.element("td", table.numeric.contains(k) ? [("class", "num")] : [], text: Markup.shown(cell)) }
            page.close("tr")
        }
        page.close("tbody")
        page.close("table")
        page.newline()
        guard wide else { return }
        page.open("div", [("class", "narrow")])
        for (row, style) in zip(table.rows, table.styles) {
            let cells = zip(table.header.dropFirst(), row.dropFirst()).filter { !$1.isEmpty }.map { "\($0) \($1)" }
            page.open("p", style == .plain ? [] : [("class", "alert")])
            page.write(Markup.shown(row.first ?? "") + ": " + Markup.shown(cells.joined(separator: ", ")))
            page.close("p")
        }
        page.close("div")
        page.newline()
    }
}
