// TrackerReport.swift — the tracker's screens as text: the task list (due, priority, tracked against the estimate as a bar; columns dropped whole on narrow terminals), one task with its sessions (by id), today (with its sessions), the stopwatch's status, the categories.
import UsageCore

/// What the tracker's screens need to place times: the zone, the clock and the day shown.
public struct TrackerClock: Sendable {
    public let zone: Zone
    public let now: Micros
    /// The selected day (today's lists compare due days with it).
    public let day: LocalDate

    public init(zone: Zone, now: Micros, day: LocalDate) {
        self.zone = zone
        self.now = now
        self.day = day
    }

    /// `09:10`, local.
    public func clock(_ t: Micros) -> String { TextFormat.clock(t, offsetSeconds: zone.offsetSeconds(at: t)) }

    /// `09:10` today, else `Sun 2026-02-22 17:05`; with `dated`, always with its day.
    public func when(_ t: Micros, dated: Bool = false) -> String {
        let date = zone.localDate(of: t)
        return date == zone.localDate(of: now) && !dated ? clock(t) : "\(TextFormat.shortWeekday(date)) \(date) \(clock(t))"
    }

    /// `09:10–10:30`, with the day where it is not today (once when both ends share it); with
    /// `dated`, always with its day (`track`'s confirmation: the day it went to is said). An end
    /// today after a start on another day is dated too (`Thu 2026-11-26 20:00–Fri 2026-11-27
    /// 09:00`): alone, `09:00` would read as the start's day.
    public func range(_ start: Micros, _ end: Micros?, dated: Bool = false) -> String {
        guard let end else { return "\(when(start, dated: dated))–now" }
        if end == start { return when(start, dated: dated) }
        let a = when(start, dated: dated)
        let b = when(end, dated: dated || a.count > 5)
        if a.count > 5, zone.localDate(of: start) == zone.localDate(of: end) { return "\(a)–\(clock(end))" }
        return "\(a)–\(b)"
    }

    /// RFC 3339 with the local offset.
    public func timestamp(_ t: Micros) -> String { TextFormat.localTimestamp(t, offsetSeconds: zone.offsetSeconds(at: t)) }

    /// `today`, `tomorrow`, `yesterday`, else `Mon Feb 23` (`Feb 23` when `short`; with the
    /// year when it is not this one's).
    public func due(_ date: LocalDate, short: Bool = false) -> String {
        switch day.days(to: date) {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        default:
            let text = (short ? "" : "\(TextFormat.shortWeekday(date)) ") + "\(TextFormat.shortMonth(date)) \(date.day)"
            return date.year == day.year ? text : "\(text) \(date.year)"
        }
    }
}

extension TextReport {
    /// `0:25`: a stopwatch's hours and minutes (the prompt's form).
    public static func stopwatch(_ micros: Micros) -> String {
        let minutes = max(0, micros) / 60_000_000
        return "\(minutes / 60):\(String(minutes % 60).leftPad(2))"
    }

    /// `tasks`: a title, then one row per task: number, name, category, due, priority, tracked
    /// time against its estimate (text and a bar). Narrow terminals drop the bar, then the
    /// priority, then the category, whole; the name is what gets shorter.
    /// With `period` (`in range`), each task's time then (`TaskLine.onDay`) goes before its total.
    public static func tasks(
        _ lines: [TaskLine], title: String, clock: TrackerClock, width: Int, theme: Theme = .plain, period: String? = nil
    ) -> [String] {
        guard !lines.isEmpty else {
            let none = period == nil ? "no tasks (task add NAME makes one)" : "no time tracked in this range"
            return wrap([title, none], width: width).headed(theme)
        }
        if theme.accessible {
            return [theme.heading(title)] + wrap(lines.map { taskSentence($0, clock: clock, period: period) }, width: width)
        }
        return [theme.heading(title)] + taskRows(lines, clock: clock, width: width, theme: theme, period: period)
    }

    /// The rows of a task list (shared by `tasks` and `today`); `period` (`today`, `in range`)
    /// shows the time of that period (`TaskLine.onDay`) before the total.
    static func taskRows(_ lines: [TaskLine], clock: TrackerClock, width: Int, theme: Theme, period: String?) -> [String] {
        let numbers = lines.map { "\($0.task.id)" }
        let numberWidth = numbers.map(\.count).max() ?? 1
        // Narrow terminals get the short forms: `Feb 20` for a due day, `2h/30m` for time.
        let narrow = width < 60
        let dues = lines.map { line -> String in
            guard let due = line.task.due else { return "–" }
            return clock.due(due, short: narrow) + (line.overdue ? "!" : "")
        }
        let slash = narrow ? "/" : " / "
        let times = lines.map { line -> String in
            var text = period.map { "\(TextFormat.duration(line.onDay))\(narrow ? "" : " " + $0) · \(TextFormat.duration(line.tracked))" } ?? TextFormat.duration(line.tracked)
            if let estimate = line.task.estimate { text += slash + TextFormat.duration(estimate) }
            return text
        }
        let categories = lines.map { TerminalText.sanitize($0.task.categoryName) }
        let dueWidth = dues.map(\.count).max() ?? 1
        let timeWidth = times.map(\.count).max() ?? 1
        let categoryWidth = min(14, categories.map(TerminalText.cells).max() ?? 5)
        let barWidth = 10
        let nameMinimum = 12
        // Columns kept by width, dropped whole: bar, then priority, then category.
        var showBar = lines.contains { $0.task.estimate != nil }
        var showPriority = true
        var showCategory = true
        func used() -> Int {
            var n = 2 + numberWidth + 2 + 2 + dueWidth + 2 + timeWidth  // marker, number, name gap, due, time
            if showCategory { n += categoryWidth + 2 }
            if showPriority { n += 6 + 2 }
            if showBar { n += barWidth + 1 }
            return n
        }
        if used() + nameMinimum > width { showBar = false }
        if used() + nameMinimum > width { showPriority = false }
        if used() + nameMinimum > width { showCategory = false }
        let nameWidth = max(4, min(width - used(), lines.map { TerminalText.cells(TerminalText.sanitize($0.task.name)) }.max() ?? 4))
        return lines.enumerated().map { k, line in
            let marker = line.running ? theme.sgr("32", theme.glyphs.isASCII ? "*" : "●") : line.task.done != nil ? (theme.glyphs.isASCII ? "x" : "✓") : " "
            var row = marker + " " + TerminalText.padLeft(numbers[k], width: numberWidth) + "  "
            row += TerminalText.pad(line.task.name, width: nameWidth) + "  "
            if showCategory { row += TerminalText.pad(categories[k], width: categoryWidth) + "  " }
            let due = TerminalText.pad(dues[k], width: dueWidth)
            row += (line.overdue ? theme.sgr("31", due) : due) + "  "
            if showPriority {
                let word = TerminalText.pad(line.task.priority.word, width: 6)
                row += (line.task.priority == .high ? theme.sgr("1", word) : word) + "  "
            }
            row += TerminalText.pad(times[k], width: timeWidth)
            if showBar, let estimate = line.task.estimate {
                row += " " + estimateBar(tracked: line.tracked, estimate: estimate, width: barWidth, theme: theme)
            }
            return trimmedRight(row)
        }
    }

    /// Tracked time against an estimate, `width` cells: filled up to the estimate; past it the
    /// whole bar in red (and ending in `+`), so an overrun reads without colour too.
    static func estimateBar(tracked: Micros, estimate: Micros, width: Int, theme: Theme) -> String {
        let g = theme.glyphs
        let fullGlyph: Character = g.isASCII ? "#" : "█"
        let emptyGlyph: Character = g.isASCII ? "." : "░"
        if tracked > estimate {
            return theme.sgr("31", String(repeating: fullGlyph, count: width - 1) + "+")
        }
        let filled = Int((Double(tracked) / Double(estimate) * Double(width)).rounded(.down))
        return theme.sgr("36", String(repeating: fullGlyph, count: filled)) + String(repeating: emptyGlyph, count: width - filled)
    }

    /// A row's text without its trailing blanks (SGR sequences kept).
    static func trimmedRight(_ text: String) -> String {
        var s = Substring(text)
        while s.last == " " { s.removeLast() }
        return String(s)
    }

    /// One task in words (accessible mode).
    static func taskSentence(_ line: TaskLine, clock: TrackerClock, period: String? = nil) -> String {
        var parts = ["Task \(line.task.id), \(TerminalText.sanitize(line.task.name)), \(TerminalText.sanitize(line.task.categoryName))"]
        if let due = line.task.due { parts.append("due \(clock.due(due))\(line.overdue ? ", overdue" : "")") }
        parts.append("\(line.task.priority.word) priority")
        var time = (period.map { "\(TextFormat.duration(line.onDay)) \($0), " } ?? "") + "\(TextFormat.duration(line.tracked)) tracked"
        if let estimate = line.task.estimate { time += " of \(TextFormat.duration(estimate)) estimated" }
        parts.append(time)
        if line.running { parts.append("running") }
        if line.task.done != nil { parts.append("done") }
        return parts.joined(separator: ", ") + "."
    }

    /// `task N`: its fields, then its sessions, each with its day, times and length.
    public static func task(_ line: TaskLine, intervals: [TrackedInterval], clock: TrackerClock, width: Int, theme: Theme = .plain) -> [String] {
        let t = line.task
        var lines = ["Task \(t.id) · \(TerminalText.sanitize(t.name))"]
        lines.append("category   \(TerminalText.sanitize(t.categoryName))")
        lines.append("due        \(t.due.map { "\($0) (\(clock.due($0)))\(line.overdue ? ", overdue" : "")" } ?? "–")")
        lines.append("priority   \(t.priority.word)")
        var tracked = "tracked    \(TextFormat.duration(line.tracked))"
        if let estimate = t.estimate {
            let left = estimate - line.tracked
            tracked += " of \(TextFormat.duration(estimate)) estimated (" + (left >= 0 ? "\(TextFormat.duration(left)) left)" : "\(TextFormat.duration(-left)) over)")
        }
        lines.append(tracked)
        lines.append("state      " + (line.running ? "running" : t.done.map { "done \(clock.when($0))" } ?? "open"))
        lines.append(intervals.isEmpty ? "no sessions yet" : "Sessions")
        let idWidth = intervals.map { sessionID($0.id).count }.max() ?? 2
        for interval in intervals {
            let date = clock.zone.localDate(of: interval.start)
            let end = interval.end.map { clock.clock($0) } ?? "now"
            let id = TerminalText.padLeft(sessionID(interval.id), width: idWidth)
            var row = "  \(id)  \(TextFormat.shortWeekday(date)) \(date)  \(clock.clock(interval.start))–\(end)  \(TextFormat.duration(interval.length(now: clock.now)))"
            if let e = interval.end, clock.zone.localDate(of: e) != date { row += " (ends \(clock.zone.localDate(of: e)))" }
            lines.append(row)
        }
        return wrap(lines, width: width).headed(theme)
    }

    /// The stopwatch in one line: `● Write report 0:25 (since 09:10, @12)`, paused, or nothing.
    public static func status(_ state: StopwatchState, clock: TrackerClock, theme: Theme = .plain) -> String {
        if let running = state.running, let task = state.runningTask {
            let dot = theme.sgr("32", theme.glyphs.isASCII ? "*" : "●")
            return "\(dot) \(TerminalText.sanitize(task.name)) \(stopwatch(running.length(now: clock.now))) (since \(clock.when(running.start)), \(sessionID(running.id)))"
        }
        if let paused = state.pausedTask { return "paused: \(TerminalText.sanitize(paused.name)) (resume starts it again)" }
        return "nothing running"
    }

    /// `status`'s lines of the desktop recorders writing to the store (`usage-shell record`).
    public static func recorders(_ list: [(device: String, pid: Int, secondsAgo: Int)]) -> [String] {
        list.map { "recording: usage-shell record on device '\(TerminalText.sanitize($0.device))' (PID \($0.pid), last write \($0.secondsAgo) s ago)" }
    }

    /// `today`: the day's tracked total and what runs, the streak, then the tasks due today and
    /// overdue by priority, each with today's and its whole time against the estimate; then the
    /// day's sessions, the latest first.
    public static func today(
        _ lines: [TaskLine], trackedToday: Micros, state: StopwatchState, streak: (current: Int, longest: Int), sessions: [TaskInterval] = [],
        clock: TrackerClock, width: Int, theme: Theme = .plain
    ) -> [String] {
        var out = [theme.heading("Today · \(TextFormat.shortWeekday(clock.day)) \(clock.day)")]
        out.append("tracked \(TextFormat.duration(trackedToday)) · " + status(state, clock: clock, theme: theme))
        let days = { (n: Int) in "\(n) day\(n == 1 ? "" : "s")" }
        out.append("streak \(days(streak.current)) (longest \(days(streak.longest)))")
        out.append("")
        if lines.isEmpty {
            out.append("nothing due today or overdue")
        } else {
            out.append(theme.heading("Due today and overdue"))
            out += theme.accessible ? lines.map { taskSentence($0, clock: clock) } : taskRows(lines, clock: clock, width: width, theme: theme, period: "today")
        }
        var shown = wrap(out, width: width)
        if !sessions.isEmpty {
            shown += [""] + Self.sessions(sessions, title: "Sessions today", day: clock.day, clock: clock, width: width, theme: theme)
        }
        return shown
    }

    /// `insights` on tracked time: finished tasks within their estimate, the mean overrun, the streaks.
    public static func trackerInsights(_ e: TrackerFacts.EstimateFacts, streak: (current: Int, longest: Int), width: Int) -> [String] {
        let days = { (n: Int) in "\(n) day\(n == 1 ? "" : "s")" }
        var lines = ["", "Tracked time"]
        if e.finished == 0 {
            lines.append("estimates  no finished task had an estimate yet")
        } else {
            lines.append("estimates  \(e.withinEstimate) of \(e.finished) finished tasks within their estimate (\(TextFormat.share(e.withinShare)))")
            if e.overran > 0 { lines.append("overrun    \(TextFormat.duration(e.meanOverrun)) on average over the \(e.overran) that ran over") }
        }
        lines.append("streak     \(days(streak.current)) now, \(days(streak.longest)) the longest (days in a row with tracked time)")
        return wrap(lines, width: width)
    }

    /// `categories`: each with its tasks and tracked time; Other last.
    public static func trackerCategories(
        _ rows: [(name: String, tasks: Int, tracked: Micros)], title: String = "Categories", width: Int, theme: Theme = .plain
    ) -> [String] {
        let nameWidth = min(24, rows.map { TerminalText.cells(TerminalText.sanitize($0.name)) }.max() ?? 8)
        var lines = [title]
        for row in rows {
            lines.append(
                trimmedRight(
                    TerminalText.pad(row.name, width: nameWidth) + "  " + TerminalText.padLeft("\(row.tasks) task\(row.tasks == 1 ? "" : "s")", width: 9)
                        + "  " + TextFormat.duration(row.tracked)))
        }
        return wrap(lines, width: width).headed(theme)
    }
}

extension ReportJSON {
    /// `insights` on tracked time: flat fields added to its document.
    public static func trackerInsights(_ e: TrackerFacts.EstimateFacts, streak: (current: Int, longest: Int)) -> [(String, JSONText)] {
        [
            ("tasks_finished_with_estimate", .int(e.finished)), ("tasks_within_estimate", .int(e.withinEstimate)),
            ("mean_overrun_seconds", .seconds(e.meanOverrun)), ("streak_current_days", .int(streak.current)),
            ("streak_longest_days", .int(streak.longest)),
        ]
    }

    /// The fields of `taskLine`, for a list of tasks with none in it.
    static let taskFields = [
        "number", "name", "category", "due", "priority", "estimate_seconds", "tracked_seconds", "day_seconds", "overdue", "done", "running",
    ]

    /// The fields of `interval`.
    static let intervalFields = ["task", "start", "end", "seconds", "running"]

    /// A task as JSON: number, name, category, due, priority, estimate, tracked time, state.
    /// `periodKey` names the time of the period asked about (`day_seconds`, `range_seconds`).
    public static func taskLine(_ line: TaskLine, clock: TrackerClock, periodKey: String = "day_seconds") -> JSONText {
        let t = line.task
        return .object([
            ("number", .int(Int(t.id))), ("name", .string(t.name)), ("category", .string(t.categoryName)),
            ("due", t.due.map { .string($0.description) } ?? .null), ("priority", .string(t.priority.word)),
            ("estimate_seconds", t.estimate.map { .seconds($0) } ?? .null), ("tracked_seconds", .seconds(line.tracked)),
            (periodKey, .seconds(line.onDay)), ("overdue", .bool(line.overdue)), ("done", t.done.map { .string(clock.timestamp($0)) } ?? .null),
            ("running", .bool(line.running)),
        ])
    }

    /// `tasks RANGE`: `{"filter":"range","from","to","tasks":[…]}`, each task's time in the range as `range_seconds`.
    public static func tasks(_ lines: [TaskLine], range: DateRange, clock: TrackerClock) -> JSONText {
        .object([
            ("filter", .string("range")), ("from", .string(range.from.description)), ("to", .string(range.to.description)),
            ("tasks", .records(lines.map { taskLine($0, clock: clock, periodKey: "range_seconds") }, fields: taskFields.map { $0 == "day_seconds" ? "range_seconds" : $0 })),
        ])
    }

    /// `tasks`: `{"filter","day","tasks":[…]}`.
    public static func tasks(_ lines: [TaskLine], filter: String, clock: TrackerClock) -> JSONText {
        .object([("filter", .string(filter)), ("day", .string(clock.day.description)), ("tasks", .records(lines.map { taskLine($0, clock: clock) }, fields: taskFields))])
    }

    /// One interval: `{"id","task","start","end","seconds","running"}`.
    public static func interval(_ interval: TrackedInterval, task: String, clock: TrackerClock) -> JSONText {
        .object([
            ("id", .int(Int(interval.id))), ("task", .string(task)), ("start", .string(clock.timestamp(interval.start))),
            ("end", interval.end.map { .string(clock.timestamp($0)) } ?? .null), ("seconds", .seconds(interval.length(now: clock.now))),
            ("running", .bool(interval.isRunning)),
        ])
    }

    /// `task N`: `{"task":{…},"sessions":[…]}`.
    public static func task(_ line: TaskLine, intervals: [TrackedInterval], clock: TrackerClock) -> JSONText {
        .object([("task", taskLine(line, clock: clock)), ("sessions", .records(intervals.map { interval($0, task: line.task.name, clock: clock) }, fields: intervalFields))])
    }

    /// `status`: `{"running","task","since","seconds","id"}` (`task`, `since` and `id` null when nothing runs),
    /// and with `recorders` given (the `status` command) `"recorders":[{"device","pid","last_write_seconds_ago"}]`.
    public static func status(
        _ state: StopwatchState, clock: TrackerClock, recorders: [(device: String, pid: Int, secondsAgo: Int)]? = nil
    ) -> JSONText {
        let live: [(String, JSONText)] =
            recorders.map { list in
                [("recorders", .records(list.map { recorder(device: $0.device, pid: $0.pid, secondsAgo: $0.secondsAgo) }, fields: recorderFields))]
            } ?? []
        guard let running = state.running, let task = state.runningTask else {
            return .object([("running", .bool(false)), ("task", .null), ("since", .null), ("seconds", .int(0)), ("id", .null)] + live)
        }
        return .object([
            ("running", .bool(true)), ("task", .string(task.name)), ("since", .string(clock.timestamp(running.start))),
            ("seconds", .int(Int(running.length(now: clock.now) / 1_000_000))), ("id", .int(Int(running.id))),
        ] + live)
    }

    /// The fields of a recorder in `status`.
    static let recorderFields = ["device", "pid", "last_write_seconds_ago"]

    /// A desktop recorder writing to the store (`usage-shell record`): `{"device","pid","last_write_seconds_ago"}`.
    static func recorder(device: String, pid: Int, secondsAgo: Int) -> JSONText {
        .object([("device", .string(device)), ("pid", .int(pid)), ("last_write_seconds_ago", .int(secondsAgo))])
    }

    /// `today`: `{"date","tracked_seconds","status":{…},"streak":{"current","longest"},"tasks":[…],"sessions":[…]}`.
    public static func today(
        _ lines: [TaskLine], trackedToday: Micros, state: StopwatchState, streak: (current: Int, longest: Int), sessions: [TaskInterval] = [],
        clock: TrackerClock
    ) -> JSONText {
        .object([
            ("date", .string(clock.day.description)), ("tracked_seconds", .seconds(trackedToday)), ("status", status(state, clock: clock)),
            ("streak", .object([("current", .int(streak.current)), ("longest", .int(streak.longest))])),
            ("tasks", .records(lines.map { taskLine($0, clock: clock) }, fields: taskFields)), ("sessions", ReportJSON.sessions(sessions, clock: clock)),
        ])
    }

    /// `categories`: `{"categories":[{"name","tasks","tracked_seconds"}]}`.
    public static func trackerCategories(_ rows: [(name: String, tasks: Int, tracked: Micros)], range: DateRange? = nil) -> JSONText {
        let list = JSONText.records(
            rows.map { .object([("name", .string($0.name)), ("tasks", .int($0.tasks)), ("tracked_seconds", .seconds($0.tracked))]) },
            fields: ["name", "tasks", "tracked_seconds"])
        let bounds: [(String, JSONText)] = range.map { [("from", .string($0.from.description)), ("to", .string($0.to.description))] } ?? []
        return .object(bounds + [("categories", list)])
    }
}
