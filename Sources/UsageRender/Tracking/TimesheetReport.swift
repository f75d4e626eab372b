// TimesheetReport.swift — `timesheet RANGE` as a table (categories and their tasks down, days or weeks across, totals on both edges, cut into blocks of columns that fit the width), as JSON, and as the CSV sheet a client or an accounting tool takes (decimal hours that add up).
import UsageCore

extension TextReport {
    /// The sheet: a title, then blocks of as many columns as fit the width (the row names
    /// repeated), the last with the total column. Each category's row carries its tasks' sums;
    /// the total row the columns'. Times are `h:mm`, rounded so that every row, column and
    /// category adds up (`SheetRounding`); a cell with time that rounds to none is `0:00`, one
    /// without is blank. Accessible mode, or too narrow for one column: one line per task.
    public static func timesheet(_ sheet: Timesheet, width: Int, theme: Theme = .plain) -> [String] {
        let title = "Timesheet · " + TextFormat.rangeTitle(sheet.range)
        guard sheet.total > 0 else { return wrap([title, "  no time tracked in these \(sheet.range.dayCount) days"], width: width).headed(theme) }
        let rounded = SheetRounding(sheet.groups.map { $0.rows.map(\.cells) }, columns: sheet.columns.count, unit: 60_000_000)
        // The rows: a category, then its tasks, each with its cells, exact cells and total.
        var rows: [SheetRow] = []
        for (g, group) in sheet.groups.enumerated() {
            rows.append(SheetRow(name: group.category, indent: false, style: .category, cells: rounded.groupCells[g], exact: group.cells, total: rounded.groupTotals[g]))
            for (r, row) in group.rows.enumerated() {
                rows.append(SheetRow(name: row.task, indent: true, style: .task, cells: rounded.cells[g][r], exact: row.cells, total: rounded.rowTotals[g][r]))
            }
        }
        rows.append(SheetRow(name: "Total", indent: false, style: .total, cells: rounded.columnTotals, exact: sheet.columnTotals, total: rounded.total))
        let labels = columnLabels(sheet)
        let names = rows.map { ($0.indent ? "  " : "") + TerminalText.sanitize($0.name) }
        let nameWidth = min(24, max(5, names.map(TerminalText.cells).max() ?? 5))
        let totalWidth = max(5, rows.map { hoursMinutes($0.total, exact: 1).count }.max() ?? 5)
        // One width for every column, so the columns of every block line up.
        let cellWidth = sheet.columns.indices.map { c in
            max(4, labels[c].top.count, labels[c].bottom.count, rows.map { hoursMinutes($0.cells[c], exact: $0.exact[c]).count }.max() ?? 0)
        }.max() ?? 4
        let cellWidths = [Int](repeating: cellWidth, count: sheet.columns.count)
        // Columns per block: as many as fit beside the names (at least 8 cells of them).
        let name = max(8, min(nameWidth, width - 2 - (cellWidths.first ?? 4) - 2 - totalWidth))
        guard !theme.accessible, name + 2 + (cellWidths.first ?? 4) + 2 + totalWidth <= width else {
            return timesheetList(sheet, rounded: rounded, title: title, width: width, theme: theme)
        }
        var blocks: [Range<Int>] = []
        var start = 0
        while start < sheet.columns.count {
            var used = name
            var end = start
            while end < sheet.columns.count, used + 2 + cellWidths[end] + (end == sheet.columns.count - 1 ? 2 + totalWidth : 0) <= width {
                used += 2 + cellWidths[end]
                end += 1
            }
            // The total column needs room of its own: the last block may end before the last column.
            if end == start { end = start + 1 }
            blocks.append(start..<end)
            start = end
        }
        var lines = wrap([title], width: width).headed(theme)
        for block in blocks {
            lines.append("")
            let withTotal = block.upperBound == sheet.columns.count
            var top = String(repeating: " ", count: name)
            var bottom = top
            for c in block {
                top += "  " + TerminalText.padLeft(labels[c].top, width: cellWidths[c])
                bottom += "  " + TerminalText.padLeft(labels[c].bottom, width: cellWidths[c])
            }
            if withTotal {
                top += "  " + TerminalText.padLeft("Total", width: totalWidth)
                bottom += "  " + String(repeating: " ", count: totalWidth)
            }
            lines.append(theme.sgr("1", trimmedRight(top)))
            let bottomLine = trimmedRight(bottom)
            if !bottomLine.isEmpty { lines.append(theme.sgr("1", bottomLine)) }
            for (row, shown) in zip(rows, names) {
                var line = TerminalText.pad(shown, width: name)
                for c in block { line += "  " + TerminalText.padLeft(hoursMinutes(row.cells[c], exact: row.exact[c]), width: cellWidths[c]) }
                if withTotal { line += "  " + TerminalText.padLeft(hoursMinutes(row.total, exact: 1), width: totalWidth) }
                let text = trimmedRight(line)
                lines.append(row.style == .task ? text : theme.sgr("1", text))
            }
        }
        return fitStyled(lines, width: width)
    }

    /// One row of the sheet as drawn.
    private struct SheetRow {
        enum Style { case category, task, total }
        let name: String
        let indent: Bool
        let style: Style
        /// Rounded minutes per column.
        let cells: [Int64]
        /// The exact time per column (to tell a cell that rounds to none from an empty one).
        let exact: [Micros]
        let total: Int64
    }

    /// `2:05` for minutes; blank when nothing was tracked, `0:00` when what was rounds to none.
    static func hoursMinutes(_ minutes: Int64, exact: Micros) -> String {
        guard exact > 0 else { return "" }
        return "\(minutes / 60):\(String(minutes % 60).leftPad(2))"
    }

    /// The two header rows of each column: a day's weekday and date, or a week's month (where
    /// it changes) and first date.
    private static func columnLabels(_ sheet: Timesheet) -> [(top: String, bottom: String)] {
        var lastMonth: (Int, Int)?
        return sheet.columns.map { column in
            guard sheet.byWeek else { return (TextFormat.shortWeekday(column.from), String(column.from.day)) }
            let month = (column.from.year, column.from.month)
            defer { lastMonth = month }
            return (lastMonth.map { $0 != month } ?? true ? TextFormat.shortMonth(column.from) : "", String(column.from.day))
        }
    }

    /// Accessible mode (and widths too narrow for a column): a sentence, then each category and
    /// its tasks with their columns in words, then each column's total.
    private static func timesheetList(_ sheet: Timesheet, rounded: SheetRounding, title: String, width: Int, theme: Theme) -> [String] {
        func duration(_ minutes: Int64, _ exact: Micros) -> String { TextFormat.duration(minutes: minutes, of: exact) }
        func columnName(_ c: Int) -> String {
            let column = sheet.columns[c]
            return column.from == column.to ? TextFormat.mediumDate(column.from) : TextFormat.span(column.from, column.to)
        }
        func spread(_ cells: [Int64], _ exact: [Micros]) -> String {
            cells.indices.filter { exact[$0] > 0 }.map { "\(columnName($0)) \(duration(cells[$0], exact[$0]))" }.joined(separator: ", ")
        }
        let tasks = sheet.groups.reduce(0) { $0 + $1.rows.count }
        var lines = [
            title,
            "\(duration(rounded.total, sheet.total)) tracked on \(tasks) task\(tasks == 1 ? "" : "s") in \(sheet.groups.count) "
                + "categor\(sheet.groups.count == 1 ? "y" : "ies").",
        ]
        for (g, group) in sheet.groups.enumerated() {
            lines.append("  \(TerminalText.sanitize(group.category)): \(duration(rounded.groupTotals[g], group.total))")
            for (r, row) in group.rows.enumerated() {
                lines.append("    \(TerminalText.sanitize(row.task)): \(duration(rounded.rowTotals[g][r], row.total)) (\(spread(rounded.cells[g][r], row.cells)))")
            }
        }
        lines.append("  Each \(sheet.byWeek ? "week" : "day"): " + spread(rounded.columnTotals, sheet.columnTotals))
        return wrap(lines, width: width).headed(theme)
    }
}

extension ReportJSON {
    /// `timesheet`: `{"from","to","time_zone","total_seconds","columns":[{"from","to","seconds"}],
    /// "rows":[{"category","task","seconds","columns":[seconds…]}],"categories":[{"name","seconds"}]}`
    /// — exact seconds; the sheet's rounding is the table's and the CSV's.
    public static func timesheet(_ sheet: Timesheet) -> JSONText {
        let columnTotals = sheet.columnTotals
        return .object([
            ("from", .string(sheet.range.from.description)), ("to", .string(sheet.range.to.description)), ("time_zone", .string(sheet.zone)),
            ("total_seconds", .seconds(sheet.total)),
            ("columns", .array(sheet.columns.indices.map { c in
                .object([
                    ("from", .string(sheet.columns[c].from.description)), ("to", .string(sheet.columns[c].to.description)),
                    ("seconds", .seconds(columnTotals[c])),
                ])
            })),
            ("rows", .array(sheet.groups.flatMap { group in
                group.rows.map { row in
                    .object([
                        ("category", .string(group.category)), ("task", .string(row.task)), ("seconds", .seconds(row.total)),
                        ("columns", .array(row.cells.map { .seconds($0) })),
                    ])
                }
            })),
            ("categories", .array(sheet.groups.map { .object([("name", .string($0.category)), ("seconds", .seconds($0.total))]) })),
        ])
    }
}

/// `timesheet --format csv`: the sheet as a client or an accounting tool takes it — a header
/// (`category,task`, each column's first day, or `FROM..TO` for a week, `total_hours`), one row per
/// task and a `Total` row, in decimal hours to two places (`1.50`), rounded so that every row
/// and column still adds up to its total.
public enum TimesheetCSV {
    /// Hours to two decimals: a hundredth of an hour is 36 seconds.
    static let hundredth: Micros = 36_000_000

    public static func table(_ sheet: Timesheet) -> CSVTable {
        let rounded = SheetRounding(sheet.groups.map { $0.rows.map(\.cells) }, columns: sheet.columns.count, unit: hundredth)
        func hours(_ units: Int64) -> CSVTable.Cell { .number("\(units / 100).\(String(units % 100).leftPad(2))") }
        let header = ["category", "task"]
            + sheet.columns.map { $0.from == $0.to ? $0.from.description : "\($0.from)..\($0.to)" } + ["total_hours"]
        var rows: [[CSVTable.Cell]] = []
        for (g, group) in sheet.groups.enumerated() {
            for (r, row) in group.rows.enumerated() {
                rows.append([.text(group.category), .text(row.task)] + rounded.cells[g][r].map(hours) + [hours(rounded.rowTotals[g][r])])
            }
        }
        rows.append([.text("Total"), .empty] + rounded.columnTotals.map(hours) + [hours(rounded.total)])
        return CSVTable(header: header, rows: rows)
    }
}
