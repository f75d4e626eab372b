// TrackerGoldenTests.swift — golden files of the tracker's screens (tasks, today, sessions, calendar) at 40 and 80 columns, colour on and off (and accessible); re-record with RECORD_GOLDEN=1.
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageRender

enum TrackerFixture {
    static let zone = Zone(identifier: "Europe/Paris")!
    static let now = RFC3339.parse("2026-02-23T10:25:00+01:00")!
    static let day = LocalDate(iso: "2026-02-23")!
    static let hour: Micros = 3_600_000_000

    static func task(_ id: Int64, _ name: String, _ category: String?, _ due: String?, _ p: TaskPriority, _ estimate: Micros?, done: Bool = false) -> TrackerTask {
        TrackerTask(
            id: id, name: name, category: category, due: due.flatMap { LocalDate(iso: $0) }, priority: p, estimate: estimate, created: 0,
            done: done ? now : nil, deleted: nil)
    }

    static let tasks = [
        task(1, "Write quarterly report", "Work", "2026-02-23", .high, 2 * hour),
        task(2, "Fix login bug", "Dev", "2026-02-20", .medium, hour / 2),
        task(3, "Email", nil, nil, .low, nil),
        task(4, "Plan 旅行 trip", "Home", "2026-02-27", .medium, 3 * hour),
        task(5, "Old", "Work", "2026-02-01", .low, hour, done: true),
    ]

    static func interval(_ id: Int64, _ task: Int64, _ start: String, _ end: String?) -> TrackedInterval {
        TrackedInterval(
            id: id, task: task, start: RFC3339.parse(start)!, end: end.map { RFC3339.parse($0)! }, startOffsetMinutes: 60,
            endOffsetMinutes: end == nil ? nil : 60)
    }

    static let intervals = [
        interval(1, 2, "2026-02-03T09:00:00+01:00", "2026-02-03T11:00:00+01:00"),
        interval(2, 2, "2026-02-20T14:00:00+01:00", "2026-02-20T14:50:00+01:00"),
        interval(3, 4, "2026-02-21T09:00:00+01:00", "2026-02-21T16:30:00+01:00"),
        interval(4, 3, "2026-02-22T08:00:00+01:00", "2026-02-22T08:20:00+01:00"),
        interval(5, 1, "2026-02-23T09:00:00+01:00", "2026-02-23T09:40:00+01:00"),
        interval(6, 1, "2026-02-23T10:00:00+01:00", nil),
    ]

    static let snapshot = TrackerSnapshot(
        tasks: tasks, intervals: intervals, categories: ["Dev", "Home", "Work"],
        stopwatch: StopwatchState(running: intervals[5], runningTask: tasks[0], pausedTask: nil, lastSeen: now))
    static let clock = TrackerClock(zone: zone, now: now, day: day)
}

struct TrackerGoldenTests {
    static let looks: [(String, Theme)] = [
        ("color", Theme(color: true)), ("mono", Theme(color: false)), ("accessible", Theme(color: false, accessible: true)),
    ]

    @Test(arguments: [40, 80])
    func tasksTodaySessionsAndCalendar(width: Int) {
        let f = TrackerFixture.self
        let lines = TrackerFacts.lines(f.snapshot, filter: .open, day: f.day, now: f.now, zone: f.zone)
        let today = TrackerFacts.lines(f.snapshot, filter: .today, day: f.day, now: f.now, zone: f.zone)
        let perDay = TrackerFacts.perDay(f.intervals, now: f.now, zone: f.zone)
        let streak = TrackerFacts.streaks(days: Set(perDay.keys), today: f.day)
        var due: [LocalDate: Int] = [:]
        for t in f.tasks where t.done == nil { if let d = t.due { due[d, default: 0] += 1 } }
        let all = f.intervals.reversed().map { TaskInterval(task: f.snapshot.task($0.task)!, interval: $0) }
        let todays = all.filter { f.zone.localDate(of: $0.interval.start) == f.day }
        for (look, theme) in Self.looks {
            let screens: [(String, [String])] = [
                ("tasks", TextReport.tasks(lines, title: "Tasks · \(lines.count)", clock: f.clock, width: width, theme: theme)),
                (
                    "today",
                    TextReport.today(
                        today, trackedToday: perDay[f.day] ?? 0, state: f.snapshot.stopwatch, streak: streak, sessions: todays, clock: f.clock, width: width,
                        theme: theme)
                ),
                ("sessions", TextReport.sessions(all, title: "Sessions · Feb 2026", day: nil, clock: f.clock, width: width, theme: theme)),
                ("calendar", TextReport.calendar(CalendarMonth(year: 2026, month: 2)!, tracked: perDay, due: due, selected: f.day, width: width, theme: theme)),
            ]
            for (name, rendered) in screens {
                Golden.check(rendered, name: "tracker_\(name)_w\(width)_\(look)")
                for line in rendered { #expect(TerminalText.cells(TerminalText.withoutSGR(line)) <= width, "\(name) \(look): '\(line)' is wider than \(width)") }
            }
        }
    }

    @Test func anOverrunBarReadsWithoutColour() {
        let bar = TextReport.estimateBar(tracked: 3, estimate: 2, width: 10, theme: .plain)
        #expect(bar == "█████████+")
        #expect(TextReport.estimateBar(tracked: 1, estimate: 2, width: 10, theme: .plain) == "█████░░░░░")
    }
}
