// TimesheetTests.swift — the timesheet's grid: days across up to 31 days, calendar weeks cut to the range past that, an interval across midnight and across a spring-forward day split exactly, a running one counted up to now, tasks of one name in one category one row, the tasks worked on in a range.
import Testing
import TestSupport
@testable import UsageCore

struct TimesheetTests {
    static func day(_ s: String) -> LocalDate { LocalDate(iso: s)! }

    static func task(_ id: Int64, _ name: String, _ category: String?, deleted: Bool = false) -> TrackerTask {
        TrackerTask(id: id, name: name, category: category, due: nil, priority: .medium, estimate: nil, created: 0, done: nil, deleted: deleted ? 1 : nil)
    }

    static func interval(_ id: Int64, task: Int64, _ start: String, _ end: String?) -> TrackedInterval {
        TrackedInterval(id: id, task: task, start: instant(start), end: end.map(instant), startOffsetMinutes: 0, endOffsetMinutes: end == nil ? nil : 0)
    }

    static let snapshot = TrackerSnapshot(
        tasks: [task(1, "Write report", "Work"), task(2, "Email", "Work"), task(3, "Walk", nil), task(4, "Email", "Work", deleted: true)],
        intervals: [
            interval(1, task: 1, "2026-10-05T09:00:00Z", "2026-10-05T11:00:00Z"),
            interval(2, task: 2, "2026-10-05T23:30:00Z", "2026-10-06T00:45:00Z"),  // across midnight
            interval(3, task: 4, "2026-10-07T08:00:00Z", "2026-10-07T08:20:00Z"),  // the deleted Email's kept time
            interval(4, task: 3, "2026-10-11T12:00:00Z", "2026-10-11T12:30:00Z"),
            interval(5, task: 1, "2026-10-12T09:00:00Z", nil),  // running
        ],
        categories: ["Work"], stopwatch: .idle)

    @Test func aWeekHasADayAColumnAndTasksOfOneNameAreOneRow() {
        let now = instant("2026-10-12T10:00:00Z")
        let sheet = Timesheet(snapshot: Self.snapshot, range: .week(of: Self.day("2026-10-07")), zone: .utc, now: now)
        #expect(!sheet.byWeek)
        #expect(sheet.columns.map(\.from) == (0..<7).map { Self.day("2026-10-05").adding(days: $0) })
        #expect(sheet.groups.map(\.category) == ["Work", "Other"])
        let work = sheet.groups[0]
        #expect(work.rows.map(\.task) == ["Write report", "Email"])
        let minute: Micros = 60_000_000
        #expect(work.rows[0].cells == [120 * minute, 0, 0, 0, 0, 0, 0])
        #expect(work.rows[1].cells == [30 * minute, 45 * minute, 20 * minute, 0, 0, 0, 0])
        #expect(sheet.groups[1].rows[0].cells.last == 30 * minute)
        #expect(sheet.total == (120 + 95 + 30) * minute)
        #expect(sheet.columnTotals == [150 * minute, 45 * minute, 20 * minute, 0, 0, 0, 30 * minute])
    }

    @Test func theRunningIntervalCountsUpToNow() {
        let now = instant("2026-10-12T10:00:00Z")
        let sheet = Timesheet(snapshot: Self.snapshot, range: .week(of: Self.day("2026-10-12")), zone: .utc, now: now)
        #expect(sheet.total == 60 * 60_000_000)
        #expect(sheet.groups.map { $0.rows.map(\.task) } == [["Write report"]])
    }

    @Test func pastThirtyOneDaysTheColumnsAreWeeksCutToTheRange() {
        let range = DateRange(from: Self.day("2026-10-01"), to: Self.day("2026-11-04"), kind: .span)
        let sheet = Timesheet(snapshot: Self.snapshot, range: range, zone: .utc, now: instant("2026-10-12T10:00:00Z"))
        #expect(sheet.byWeek)
        #expect(sheet.columns.map { "\($0.from)..\($0.to)" } == [
            "2026-10-01..2026-10-04", "2026-10-05..2026-10-11", "2026-10-12..2026-10-18", "2026-10-19..2026-10-25",
            "2026-10-26..2026-11-01", "2026-11-02..2026-11-04",
        ])
        #expect(sheet.columnTotals[1] == (120 + 95 + 30) * 60_000_000)
        #expect(Timesheet(snapshot: Self.snapshot, range: .month(year: 2026, month: 10), zone: .utc, now: 0).columns.count == 31)
    }

    @Test func aSpringForwardDayIsTwentyThreeHoursLong() {
        let ny = Zone(identifier: "America/New_York")!
        let snapshot = TrackerSnapshot(
            tasks: [Self.task(1, "Night shift", "Work")],
            intervals: [Self.interval(1, task: 1, "2026-03-08T04:00:00Z", "2026-03-09T05:00:00Z")], categories: [], stopwatch: .idle)
        let sheet = Timesheet(snapshot: snapshot, range: .week(of: Self.day("2026-03-08")), zone: ny, now: 0)
        let hour: Micros = 3_600_000_000
        // 23:00 EST on the 7th to 01:00 EDT on the 9th: 1h, 23h, 1h.
        #expect(sheet.groups[0].rows[0].cells == [0, 0, 0, 0, 0, 1 * hour, 23 * hour] && sheet.columns.last?.to == Self.day("2026-03-08"))
        let next = Timesheet(snapshot: snapshot, range: .week(of: Self.day("2026-03-09")), zone: ny, now: 0)
        #expect(next.groups[0].rows[0].cells.first == 1 * hour)
    }

    @Test func theTasksWorkedOnInARangeMostTimeFirst() {
        let range = DateRange.week(of: Self.day("2026-10-05"))
        let lines = TrackerFacts.lines(Self.snapshot, worked: range, now: instant("2026-10-12T10:00:00Z"), zone: .utc, today: Self.day("2026-10-12"))
        // The deleted Email's time is no line of its own; the running task's time in the range only.
        #expect(lines.map(\.task.id) == [1, 2, 3])
        #expect(lines.map(\.onDay) == [120, 75, 30].map { Micros($0) * 60_000_000 })
        #expect(lines[0].tracked == 180 * 60_000_000)
    }

    @Test func theTrackedDaysAreThoseWithTime() {
        let days = TrackerFacts.dayRange(Self.snapshot.intervals, now: instant("2026-10-12T10:00:00Z"), zone: .utc)
        #expect(days == Self.day("2026-10-05")...Self.day("2026-10-12"))
        #expect(TrackerFacts.dayRange([], now: 0, zone: .utc) == nil)
    }
}
