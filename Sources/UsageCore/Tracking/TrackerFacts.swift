// TrackerFacts.swift — what the tracker's reports are computed from, purely: each task's time (all, and on a day) against its estimate, the order tasks are listed in, time per local day, streaks, estimated against actual.

/// A task with its tracked time, as `tasks`, `today` and `task N` show it.
public struct TaskLine: Sendable, Equatable {
    public let task: TrackerTask
    /// All its tracked time, a running interval counted up to now.
    public let tracked: Micros
    /// Its tracked time on the day asked about.
    public let onDay: Micros
    /// Due before the day asked about and not done.
    public let overdue: Bool
    /// Its stopwatch runs now.
    public let running: Bool

    public init(task: TrackerTask, tracked: Micros, onDay: Micros, overdue: Bool, running: Bool) {
        self.task = task
        self.tracked = tracked
        self.onDay = onDay
        self.overdue = overdue
        self.running = running
    }
}

/// Which tasks `tasks` lists.
public enum TaskFilter: Sendable, Equatable {
    /// Not done: the default.
    case open
    /// Due on the day or overdue, not done (Mosaic's Today).
    case today
    /// Due on one day.
    case due(LocalDate)
    /// Due within the N days from the day (the day counted), or overdue; not done (`tasks due 7d`).
    case dueWithin(days: Int)
    /// Every task, done ones too.
    case all
    /// Done ones only.
    case done
    /// Not done, in one category.
    case category(String)
}

public enum TrackerFacts {
    /// The sum of tracked time per task id (running ones to `now`), and on the local day `day`.
    public static func time(
        of snapshot: TrackerSnapshot, now: Micros, day: LocalDate, zone: Zone
    ) -> (all: [Int64: Micros], onDay: [Int64: Micros]) {
        let window = zone.window(for: day)
        var all: [Int64: Micros] = [:]
        var onDay: [Int64: Micros] = [:]
        for interval in snapshot.intervals {
            let end = interval.end ?? now
            guard end > interval.start else { continue }
            all[interval.task, default: 0] += end - interval.start
            let from = max(interval.start, window.start)
            let to = min(end, window.end)
            if to > from { onDay[interval.task, default: 0] += to - from }
        }
        return (all, onDay)
    }

    /// The tasks `filter` keeps (deleted ones never), in the order lists show them: those with a
    /// due day first, earliest first (overdue ones so at the top), then by priority, high first,
    /// then by number; tasks without a due day after them, by priority then number.
    public static func lines(
        _ snapshot: TrackerSnapshot, filter: TaskFilter, day: LocalDate, now: Micros, zone: Zone
    ) -> [TaskLine] {
        let (all, onDay) = time(of: snapshot, now: now, day: day, zone: zone)
        let running = snapshot.stopwatch.running?.task
        let kept = snapshot.tasks.filter { task in
            guard task.deleted == nil else { return false }
            switch filter {
            case .open: return task.done == nil
            case .all: return true
            case .done: return task.done != nil
            case .today: return task.done == nil && task.due.map { $0 <= day } == true
            case .due(let date): return task.due == date
            case .dueWithin(let days): return task.done == nil && task.due.map { $0 < day.adding(days: days) } == true
            case .category(let name): return task.done == nil && task.categoryName.lowercased() == name.lowercased()
            }
        }
        return ordered(kept).map { task in
            TaskLine(
                task: task, tracked: all[task.id] ?? 0, onDay: onDay[task.id] ?? 0,
                overdue: task.done == nil && task.due.map { $0 < day } == true, running: task.id == running)
        }
    }

    /// The tasks worked on in `range` (time tracked in it; deleted ones never), most time in it
    /// first, then by number: each line's `onDay` is that time, `tracked` all its time.
    public static func lines(_ snapshot: TrackerSnapshot, worked range: DateRange, now: Micros, zone: Zone, today: LocalDate) -> [TaskLine] {
        let (from, to) = (zone.startOfDay(range.from), zone.startOfDay(range.to.adding(days: 1)))
        var all: [Int64: Micros] = [:]
        var inRange: [Int64: Micros] = [:]
        for interval in snapshot.intervals {
            let end = interval.end ?? now
            guard end > interval.start else { continue }
            all[interval.task, default: 0] += end - interval.start
            let part = min(end, to) - max(interval.start, from)
            if part > 0 { inRange[interval.task, default: 0] += part }
        }
        let running = snapshot.stopwatch.running?.task
        return snapshot.tasks.filter { $0.deleted == nil && inRange[$0.id] != nil }
            .sorted { (inRange[$0.id]!, -$0.id) > (inRange[$1.id]!, -$1.id) }
            .map { task in
                TaskLine(
                    task: task, tracked: all[task.id] ?? 0, onDay: inRange[task.id]!,
                    overdue: task.done == nil && task.due.map { $0 < today } == true, running: task.id == running)
            }
    }

    /// Due first (earliest first), then priority (high first), then number.
    public static func ordered(_ tasks: [TrackerTask]) -> [TrackerTask] {
        tasks.sorted { a, b in
            switch (a.due, b.due) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default:
                if a.priority != b.priority { return a.priority > b.priority }
                return a.id < b.id
            }
        }
    }

    /// Tracked time per local day of `zone`, a running interval counted up to `now`; an interval
    /// across midnight counts on both days.
    /// Every category with tracked time, the most tracked over all the tracker's time first
    /// (ties by name): the order its colours are handed out in, so a category keeps one colour
    /// in every view of the same data, whatever the view shows of it.
    public static func categoriesByTime(_ snapshot: TrackerSnapshot, now: Micros) -> [String] {
        let tasks = Dictionary(snapshot.tasks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let parts = snapshot.intervals.compactMap { i in
            tasks[i.task].map { (name: $0.categoryName, micros: max(0, (i.end ?? now) - i.start)) }
        }
        return DayReport.ranked(parts).filter { $0.micros > 0 }.map(\.name)
    }

    public static func perDay(_ intervals: [TrackedInterval], now: Micros, zone: Zone) -> [LocalDate: Micros] {
        var days: [LocalDate: Micros] = [:]
        for interval in intervals {
            let end = interval.end ?? now
            var from = interval.start
            while from < end {
                let day = zone.localDate(of: from)
                let dayEnd = zone.window(for: day).end
                let to = min(end, dayEnd)
                days[day, default: 0] += to - from
                // A day whose window does not move on (never in a real zone) must not loop.
                guard dayEnd > from else { break }
                from = to
            }
        }
        return days
    }

    /// The first and last local days with tracked time (a running interval up to `now`); nil without any.
    public static func dayRange(_ intervals: [TrackedInterval], now: Micros, zone: Zone) -> ClosedRange<LocalDate>? {
        let spans = intervals.compactMap { i -> (Micros, Micros)? in
            let end = i.end ?? now
            return end > i.start ? (i.start, end) : nil
        }
        guard let first = spans.map(\.0).min(), let last = spans.map(\.1).max() else { return nil }
        return zone.localDate(of: first)...zone.localDate(of: last - 1)
    }

    /// Days in a row with tracked time: the current run (ending today, or yesterday while
    /// today has none yet: a day still going does not break it) and the longest.
    public static func streaks(days: Set<LocalDate>, today: LocalDate) -> (current: Int, longest: Int) {
        var longest = 0
        for day in days where !days.contains(day.adding(days: -1)) {
            var n = 1
            while days.contains(day.adding(days: n)) { n += 1 }
            longest = max(longest, n)
        }
        var end = today
        if !days.contains(today) { end = today.adding(days: -1) }
        var current = 0
        while days.contains(end.adding(days: -current)) { current += 1 }
        return (current, longest)
    }

    /// Estimated against actual over the tasks done that had an estimate: how many, how many
    /// took no longer than estimated, and the mean overrun of those that took longer.
    public struct EstimateFacts: Sendable, Equatable {
        public let finished: Int
        public let withinEstimate: Int
        public let overran: Int
        public let meanOverrun: Micros

        public var withinShare: Double { finished == 0 ? 0 : Double(withinEstimate) / Double(finished) }
    }

    public static func estimates(_ snapshot: TrackerSnapshot, now: Micros) -> EstimateFacts {
        var tracked: [Int64: Micros] = [:]
        for interval in snapshot.intervals { tracked[interval.task, default: 0] += interval.length(now: now) }
        var finished = 0
        var within = 0
        var over: [Micros] = []
        for task in snapshot.tasks where task.done != nil && task.deleted == nil {
            guard let estimate = task.estimate else { continue }
            finished += 1
            let actual = tracked[task.id] ?? 0
            if actual <= estimate { within += 1 } else { over.append(actual - estimate) }
        }
        let mean = over.isEmpty ? 0 : over.reduce(0, +) / Micros(over.count)
        return EstimateFacts(finished: finished, withinEstimate: within, overran: over.count, meanOverrun: mean)
    }
}

/// A month as a calendar shows it: weeks from Monday (or Sunday), each day of the month in its column.
public struct CalendarMonth: Sendable, Equatable {
    public let year: Int
    public let month: Int
    /// The day each row begins on.
    public let weekStart: WeekStart
    /// Rows of seven; nil before the first and after the last day.
    public let weeks: [[LocalDate?]]

    public init?(year: Int, month: Int, weekStart: WeekStart = .monday) {
        guard let first = LocalDate(year: year, month: month, day: 1) else { return nil }
        self.year = year
        self.month = month
        self.weekStart = weekStart
        let count = LocalDate.daysIn(month: month, year: year)
        var cells: [LocalDate?] = Array(repeating: nil, count: weekStart.offset(first))
        for d in 0..<count { cells.append(first.adding(days: d)) }
        while cells.count % 7 != 0 { cells.append(nil) }
        weeks = stride(from: 0, to: cells.count, by: 7).map { Array(cells[$0..<$0 + 7]) }
    }

    /// The month before or after.
    public func adding(months n: Int) -> CalendarMonth {
        let index = year * 12 + (month - 1) + n
        return CalendarMonth(year: index / 12, month: index % 12 + 1, weekStart: weekStart)!
    }

    public var days: [LocalDate] { weeks.flatMap { $0.compactMap { $0 } } }
}
