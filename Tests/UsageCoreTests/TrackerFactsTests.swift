// TrackerFactsTests.swift — the tracker's facts, table-driven: streaks (a day without time breaks one; today still going does not), time per local day across midnight and a spring-forward change, the order of tasks, a month's grid, estimated against actual.
import Testing
@testable import UsageCore
@testable import UsageFormats

struct TrackerFactsTests {
    static func day(_ s: String) -> LocalDate { LocalDate(iso: s)! }

    @Test(arguments: [
        (["2026-02-20", "2026-02-21", "2026-02-22", "2026-02-23"], "2026-02-23", 4, 4),
        (["2026-02-20", "2026-02-21", "2026-02-22"], "2026-02-23", 3, 3),  // today has no time yet
        (["2026-02-10", "2026-02-11", "2026-02-12", "2026-02-22"], "2026-02-23", 1, 3),
        (["2026-02-10", "2026-02-21"], "2026-02-23", 0, 1),  // yesterday had none: broken
        ([String](), "2026-02-23", 0, 0),
    ])
    func streaks(days: [String], today: String, current: Int, longest: Int) {
        let s = TrackerFacts.streaks(days: Set(days.map(Self.day)), today: Self.day(today))
        #expect(s.current == current)
        #expect(s.longest == longest)
    }

    @Test func aStopwatchAcrossSpringForwardCountsTheRealElapsedTime() {
        let ny = Zone(identifier: "America/New_York")!
        // 01:30 EST to 03:30 EDT on 2026-03-08 is one hour.
        let start = RFC3339.parse("2026-03-08T01:30:00-05:00")!
        let end = RFC3339.parse("2026-03-08T03:30:00-04:00")!
        let i = TrackedInterval(id: 1, task: 1, start: start, end: end, startOffsetMinutes: -300, endOffsetMinutes: -240)
        #expect(TrackerFacts.perDay([i], now: end, zone: ny) == [Self.day("2026-03-08"): 3_600_000_000])
    }

    @Test func anIntervalAcrossMidnightCountsOnBothDays() {
        let start = RFC3339.parse("2026-02-22T23:00:00Z")!
        let i = TrackedInterval(id: 1, task: 1, start: start, end: nil, startOffsetMinutes: 0, endOffsetMinutes: nil)
        let now = RFC3339.parse("2026-02-23T01:30:00Z")!
        #expect(TrackerFacts.perDay([i], now: now, zone: .utc) == [Self.day("2026-02-22"): 3_600_000_000, Self.day("2026-02-23"): 5_400_000_000])
    }

    @Test func tasksAreListedDueFirstThenByPriorityThenNumber() {
        func task(_ id: Int64, _ due: String?, _ p: TaskPriority) -> TrackerTask {
            TrackerTask(id: id, name: "t\(id)", category: nil, due: due.map(Self.day), priority: p, estimate: nil, created: 0, done: nil, deleted: nil)
        }
        let tasks = [task(1, nil, .low), task(2, "2026-02-25", .low), task(3, nil, .high), task(4, "2026-02-20", .medium), task(5, "2026-02-25", .high)]
        #expect(TrackerFacts.ordered(tasks).map(\.id) == [4, 5, 2, 3, 1])
        let snapshot = TrackerSnapshot(tasks: tasks, intervals: [], categories: [], stopwatch: .idle)
        let today = TrackerFacts.lines(snapshot, filter: .today, day: Self.day("2026-02-23"), now: 0, zone: .utc)
        #expect(today.map(\.task.id) == [4])
        #expect(today[0].overdue)
    }

    @Test func aMonthsGridStartsOnMonday() {
        let feb = CalendarMonth(year: 2026, month: 2)!
        #expect(feb.weeks.count == 5)  // 2026-02-01 is a Sunday: a week of one day first
        #expect(feb.weeks[0][6] == Self.day("2026-02-01"))
        #expect(feb.weeks[4][5] == Self.day("2026-02-28"))
        #expect(feb.adding(months: -2).year == 2025)
        #expect(feb.adding(months: 11).month == 1)
    }

    @Test func estimatedAgainstActualCountsFinishedTasksWithAnEstimate() {
        func task(_ id: Int64, _ estimate: Micros?, done: Bool) -> TrackerTask {
            TrackerTask(id: id, name: "t\(id)", category: nil, due: nil, priority: .medium, estimate: estimate, created: 0, done: done ? 1 : nil, deleted: nil)
        }
        let hour: Micros = 3_600_000_000
        let intervals = [(1, hour), (2, 3 * hour), (3, 2 * hour)].enumerated().map { k, p in
            TrackedInterval(id: Int64(k), task: Int64(p.0), start: Int64(k) * 10 * hour, end: Int64(k) * 10 * hour + p.1, startOffsetMinutes: 0, endOffsetMinutes: 0)
        }
        let snapshot = TrackerSnapshot(
            tasks: [task(1, 2 * hour, done: true), task(2, 2 * hour, done: true), task(3, nil, done: true)], intervals: intervals, categories: [], stopwatch: .idle)
        let facts = TrackerFacts.estimates(snapshot, now: 0)
        #expect(facts.finished == 2)
        #expect(facts.withinEstimate == 1)
        #expect(facts.meanOverrun == hour)
    }
}
