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
                page.elementKeepingTimes("dd", text: Markup.shown(fact.value))
            }
            page.close("dl")
        case .text(let title, let lines):
            if let title { heading(title, id: id, into: &page) }
            for line in lines { page.elementKeepingTimes("p", text: Markup.shown(line)) }
        }
        page.close("section")
        page.newline()
    }

    private static func heading(_ title: String, id: String, into page: inout Markup) {
        page.element("h2", [("id", "\(id)-h")], text: Markup.shown(title))
        page.newline()
    }

    /// The chart as inline SVG. Columns and a timeline are drawn twice: 640 wide for a desktop
    /// and paper, 360 wide for a screen under `PictureStyle.narrowScreen` pixels (`cw` and `cn`:
    /// the style sheet shows one), so their labels are never scaled under 10 px; the ring is
    /// drawn once, at its own size.
    private static func figure(_ block: FigureBlock, id: String, into page: inout Markup) {
        guard let drawn = SVGChart.draw(block, id: id, legend: false) else { return }
        let twice: Bool
        switch block {
        case .columns, .timeline: twice = true
        default: twice = false
        }
        page.open("figure", twice ? [("class", "cw")] : [])
        page.raw(drawn.svg)
        page.close("figure")
        page.newline()
        guard twice, let narrow = SVGChart.draw(block, id: id + "n", legend: false, width: PictureStyle.narrowWidth) else { return }
        page.open("figure", [("class", "cn")])
        page.raw(narrow.svg)
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
        page.open("span", rgb == FigureSeries.textInk ? [("class", "sw ink")] : [("class", "sw"), ("style", "background:\(Markup.hex(rgb))")])
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
    /// proportion as the SVG's), time and share (or a note). Its columns are set, so a long name
    /// wraps within its own and never pushes the table wider than a phone.
    private static func bars(_ chart: BarChart, into page: inout Markup) {
        let limits = chart.rows.contains { $0.limit != nil }
        let shares = chart.rows.contains { !$0.share.isEmpty }
        let notes = chart.rows.contains { !$0.note.isEmpty }
        // The rank's column only where rows have ranks (a limit has none): on a phone its 2.4em
        // are the names'.
        let ranked = chart.rows.contains { $0.rank != nil }
        page.open("table", [("class", "bars")])
        page.open("colgroup")
        var widths = (ranked ? ["2.4em"] : []) + ["", limits ? "22%" : "26%", limits ? "7.2em" : "4.8em"]
        if shares { widths.append("3.6em") }
        if notes { widths.append("7.4em") }
        for width in widths { page.open("col", width.isEmpty ? [] : [("style", "width:\(width)")], close: true) }
        page.close("colgroup")
        page.open("tbody")
        for row in chart.rows {
            page.open("tr")
            if ranked { page.element("td", [("class", "num mu")], text: row.rank.map { "\($0)." } ?? "") }
            page.open("td")
            page.write(Markup.shown(row.series.name))
            if !row.detail.isEmpty { page.element("span", [("class", "detail")], text: Markup.shown(row.detail)) }
            page.close("td")
            page.open("td", [("class", "bar")])
            if let limit = row.limit {
                // The track is the longer of the time and the limit; the limit is marked on it.
                let whole = Double(max(row.micros, limit, 1))
                page.open("div", [("class", "track")])
                page.open("span", [("style", "width:\(Markup.number(Double(row.micros) / whole * 100))%;background:\(Markup.hex(row.series.rgb))")])
                page.close("span")
                page.open("i", [("class", "limit"), ("style", "width:\(Markup.number(Double(limit) / whole * 100))%")])
                page.close("i")
                page.close("div")
            } else {
                page.open("span", [("style", "width:\(Markup.number(Double(row.micros) / Double(chart.scale) * 100))%;background:\(Markup.hex(row.series.rgb))")])
                page.close("span")
            }
            page.close("td")
            page.elementKeepingTimes("td", [("class", row.limit == nil ? "num" : "note")], text: row.value)
            if shares { page.element("td", [("class", "num mu")], text: row.share) }
            if notes { page.elementKeepingTimes("td", [("class", row.alert ? "note alert" : "note mu")], text: row.note) }
            page.close("tr")
        }
        page.close("tbody")
        page.close("table")
        for line in chart.footer { page.elementKeepingTimes("p", [("class", "mu")], text: Markup.shown(line)) }
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
        page.elementKeepingTimes("p", text: chart.summary)
        page.newline()
    }

    /// A table, its numeric columns narrow. One of more than five columns is also written as a
    /// list of rows, shown instead on a narrow screen; one of more than nine is cut into tables of
    /// eight columns each (the first, the names, repeated), as the terminal cuts a wide sheet, so
    /// each fits a desktop and a printed page.
    private static func table(_ table: FigureTable, into page: inout Markup) {
        let wide = table.header.count > 5
        let values = Array(1..<max(1, table.header.count))
        let blocks = table.header.count > 10 ? stride(from: 0, to: values.count, by: 8).map { Array(values[$0..<min(values.count, $0 + 8)]) } : [values]
        for block in blocks {
            let columns = [0] + block
            page.open("table", [("class", (wide ? "wide " : "") + "sheet")])
            page.open("colgroup")
            for k in columns { page.open("col", table.numeric.contains(k) ? [("style", "width:\(numericWidth(table, column: k))em")] : [], close: true) }
            page.close("colgroup")
            page.open("thead")
            page.open("tr")
            for k in columns { page.element("th", table.numeric.contains(k) ? [("class", "num")] : [], text: Markup.shown(table.header[k])) }
            page.close("tr")
            page.close("thead")
            page.open("tbody")
            for (row, style) in zip(table.rows, table.styles) {
                page.open("tr", rowClass(style))
                for k in columns { page.element("td", table.numeric.contains(k) ? [("class", "num")] : [], text: Markup.shown(row[k])) }
                page.close("tr")
            }
            page.close("tbody")
            page.close("table")
            page.newline()
        }
        guard wide else { return }
        page.open("div", [("class", "narrow")])
        for (row, style) in zip(table.rows, table.styles) {
            let cells = zip(table.header.dropFirst(), row.dropFirst()).filter { !$1.isEmpty }.map { "\($0) \($1)" }
            page.open("p", style == .group || style == .total ? [("class", "alert")] : style == .member ? [("class", "member")] : [])
            page.writeKeepingTimes(Markup.shown(row.first ?? "") + ": " + Markup.shown(cells.joined(separator: ", ")))
            page.close("p")
        }
        page.close("div")
        page.newline()
    }

    /// A numeric column's width in em: its widest cell in bold (a total row) or word of its header
    /// (`Mon 16` may take two lines), and the cell's padding, so no number wraps and the names'
    /// column keeps the rest of the line.
    static func numericWidth(_ table: FigureTable, column k: Int) -> String {
        let texts = table.header[k].split(separator: " ").map(String.init) + table.rows.map { $0[k] }
        let widest = texts.map { PictureStyle.textWidth($0, size: 1, bold: true) }.max() ?? 0
        return Markup.number((max(2, widest + 1) * 10).rounded(.up) / 10)
    }

    private static func rowClass(_ style: FigureTable.RowStyle) -> [(String, String)] {
        switch style {
        case .plain: return []
        case .group: return [("class", "group")]
        case .member: return [("class", "member")]
        case .total: return [("class", "total")]
        }
    }
}
