// Timesheet.swift — `timesheet RANGE`: tracked time as a sheet, tasks grouped by category down and days (or weeks, past 31 days) across, each cell the exact time of its task in its column, a running interval counted up to now.

/// Tracked time over a range as a grid: one row per task (by name, in its category), one
/// column per day — per calendar week (from the week's first day, cut to the range) when the range is
/// longer than 31 days. Cells are exact microseconds; rounding is the sheet's (it adds up).
public struct Timesheet: Sendable {
    /// One column: its first and last day (a day, or a week cut to the range).
    public struct Column: Sendable, Equatable {
        public let from: LocalDate
        public let to: LocalDate
    }

    /// One task's row: its time per column.
    public struct Row: Sendable {
        public let task: String
        public let cells: [Micros]
        public var total: Micros { cells.reduce(0, +) }
    }

    /// A category's tasks, and its time per column.
    public struct Group: Sendable {
        public let category: String
        public let rows: [Row]
        public var cells: [Micros] { Timesheet.columnSums(rows.map(\.cells), count: rows.first?.cells.count ?? 0) }
        public var total: Micros { rows.reduce(0) { $0 + $1.total } }
    }

    public let range: DateRange
    public let zone: String
    /// Weeks across (a range longer than 31 days), else days.
    public let byWeek: Bool
    public let columns: [Column]
    /// Categories with time, most first (then by name); their tasks likewise.
    public let groups: [Group]

    /// Time per column over every task.
    public var columnTotals: [Micros] { Self.columnSums(groups.map(\.cells), count: columns.count) }
    /// All the tracked time of the range.
    public var total: Micros { groups.reduce(0) { $0 + $1.total } }

    /// Ranges up to this many days have a column per day.
    public static let maxDayColumns = 31

    /// The sheet of `range` in `zone`: the time of each interval inside each column (a running
    /// one up to `now`); tasks of one name in one category are one row (a deleted task's kept
    /// time and a new one of its name), as `load tracked` makes them one app.
    public init(snapshot: TrackerSnapshot, range: DateRange, zone: Zone, now: Micros, weekStart: WeekStart = .monday) {
        self.range = range
        self.zone = zone.identifier
        byWeek = range.dayCount > Self.maxDayColumns
        var columns: [Column] = []
        var day = range.from
        while day <= range.to {
            let end = byWeek ? min(range.to, day.adding(days: 6 - weekStart.offset(day))) : day
            columns.append(Column(from: day, to: end))
            day = end.adding(days: 1)
        }
        self.columns = columns
        let bounds = columns.map { zone.startOfDay($0.from) } + [zone.startOfDay(range.to.adding(days: 1))]
        let (from, to) = (bounds[0], bounds[bounds.count - 1])
        let tasks = Dictionary(snapshot.tasks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var cells: [Key: [Micros]] = [:]
        for interval in snapshot.intervals {
            guard let task = tasks[interval.task] else { continue }
            let start = max(interval.start, from)
            let end = min(interval.end ?? now, to)
            guard end > start else { continue }
            let key = Key(category: ExactName(task.categoryName), task: ExactName(task.name))
            var row = cells[key] ?? [Micros](repeating: 0, count: columns.count)
            // The column holding the start, then onwards while the interval lasts.
            var k = (bounds.lastIndex { $0 <= start } ?? 0)
            var at = start
            while at < end {
                let until = min(end, bounds[k + 1])
                row[k] += until - at
                at = until
                k += 1
            }
            cells[key] = row
        }
        var byCategory: [ExactName: [Row]] = [:]
        for (key, row) in cells { byCategory[key.category, default: []].append(Row(task: key.task.text, cells: row)) }
        groups = byCategory.map { category, rows in
            Group(category: category.text, rows: rows.sorted { DayReport.mostFirst(($0.task, $0.total), ($1.task, $1.total)) })
        }.sorted { DayReport.mostFirst(($0.category, $0.total), ($1.category, $1.total)) }
    }

    private struct Key: Hashable {
        let category: ExactName
        let task: ExactName
    }

    static func columnSums(_ rows: [[Micros]], count: Int) -> [Micros] {
        var sums = [Micros](repeating: 0, count: count)
        for row in rows { for k in row.indices { sums[k] += row[k] } }
        return sums
    }
}
