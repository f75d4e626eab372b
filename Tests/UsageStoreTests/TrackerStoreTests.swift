// TrackerStoreTests.swift — tasks and the stopwatch in the store (on both backends, but for the SQLite schema's own rules and its upgrade): the database itself refuses two running intervals, overlaps and an end before the start; track with its end at its start refused with its own line; start stops the other at one instant; refusals change nothing; delete keeps time unless asked; categories move to Other; a v1 store is upgraded.
import Foundation
import GRDB
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

private let zoneID = "Europe/Paris"
private func at(_ text: String) -> Stamp {
    let t = RFC3339.parse(text)!
    return Stamp(instant: t, offsetMinutes: 60, zone: zoneID)
}

struct TrackerStoreTests {
    @Test func theDatabaseRefusesTwoRunningIntervalsOverlapsAndAnEndBeforeItsStart() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        _ = try store.start("A", at: at("2026-02-23T09:00:00Z"))
        let queue = try DatabaseQueue(path: folder.store)
        // Straight SQL, past every Swift check: the schema holds the rules.
        #expect(throws: (any Error).self) {
            try queue.write { try $0.execute(sql: "INSERT INTO tracked (task, start, start_offset, zone) VALUES (1, 1, 0, 'UTC')") }
        }
        #expect(throws: (any Error).self) {
            try queue.write {
                try $0.execute(sql: "INSERT INTO tracked (task, start, end, start_offset, end_offset, zone) VALUES (1, 2000000000000000, 2000000000000001, 0, 0, 'UTC')")
            }
        }
        #expect(throws: (any Error).self) {
            try queue.write { try $0.execute(sql: "INSERT INTO tracked (task, start, end, start_offset, end_offset, zone) VALUES (1, 5, 5, 0, 0, 'UTC')") }
        }
        try queue.write { try $0.execute(sql: "INSERT INTO tracked (task, start, end, start_offset, end_offset, zone) VALUES (1, 5, 6, 0, 0, 'UTC')") }
        #expect(throws: (any Error).self) {
            try queue.write { try $0.execute(sql: "UPDATE tracked SET end = 2000000000000000000 WHERE start = 5") }
        }
    }

    @Test(arguments: Backend.allCases)
    func startingAnotherTaskStopsTheFirstAtTheSameInstant(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        let first = try store.start("Write", at: at("2026-02-23T09:00:00Z"))
        #expect(first.createdTask)
        let second = try store.start("Mail", at: at("2026-02-23T10:15:00Z"))
        #expect(second.stopped?.task.name == "Write")
        #expect(second.stopped?.interval.end == RFC3339.parse("2026-02-23T10:15:00Z"))
        #expect(second.started?.interval.start == RFC3339.parse("2026-02-23T10:15:00Z"))
        let state = try store.stopwatchState()
        #expect(state.runningTask?.name == "Mail")
    }

    @Test(arguments: Backend.allCases)
    func anOverlappingTrackIsRefusedNamingTheIntervalAndChangesNothing(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        _ = try store.track("Write", from: at("2026-02-23T09:00:00Z"), to: at("2026-02-23T10:00:00Z"))
        let before = try store.trackerSnapshot()
        #expect(throws: TrackingError.overlap(session: 1, task: "Write", start: RFC3339.parse("2026-02-23T09:00:00Z")!, end: RFC3339.parse("2026-02-23T10:00:00Z")!)) {
            try store.track("New", from: at("2026-02-23T09:30:00Z"), to: at("2026-02-23T11:00:00Z"))
        }
        // Not even the new task was made.
        #expect(try store.trackerSnapshot().tasks == before.tasks)
        #expect(try store.trackerSnapshot().intervals == before.intervals)
        // A start inside it is refused too (the running one would reach over it).
        // The tracker's own refusal names the interval in the way (the database trigger alone would give a generic line).
        let inTheWay = TrackingError.overlap(session: 1, task: "Write", start: RFC3339.parse("2026-02-23T09:00:00Z")!, end: RFC3339.parse("2026-02-23T10:00:00Z")!)
        #expect(throws: inTheWay) { try store.start("Write", at: at("2026-02-23T08:00:00Z")) }
        #expect(throws: inTheWay) { try store.start("Other", at: at("2026-02-23T09:59:00Z")) }
        let line = inTheWay.description(when: { RFC3339.format($0) }, range: { "\(RFC3339.format($0))–\($1.map { RFC3339.format($0) } ?? "now")" })
        #expect(line == "that overlaps @1 'Write' tracked 2026-02-23T09:00:00Z–2026-02-23T10:00:00Z; nothing was changed")
        // Touching ends are fine.
        _ = try store.track("Write", from: at("2026-02-23T10:00:00Z"), to: at("2026-02-23T10:30:00Z"))
    }

    /// `track` with its end at its start is refused with its own line (the schema's CHECK alone
    /// would give a generic one) and makes nothing, not even the task.
    @Test(arguments: Backend.allCases)
    func trackWithTheEndEqualToTheStartIsRefusedWithItsOwnLineAndMakesNothing(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        let nine = RFC3339.parse("2026-02-23T09:00:00Z")!
        let refusal = TrackingError.endNotAfterStart(start: nine, end: nine)
        #expect(throws: refusal) { try store.track("Write", from: at("2026-02-23T09:00:00Z"), to: at("2026-02-23T09:00:00Z")) }
        let line = refusal.description(when: { RFC3339.format($0) }, range: { "\(RFC3339.format($0))–\($1.map { RFC3339.format($0) } ?? "now")" })
        #expect(line == "the end 2026-02-23T09:00:00Z is not after the start 2026-02-23T09:00:00Z")
        #expect(try store.trackerSnapshot().tasks.isEmpty)
        #expect(try store.trackerSnapshot().intervals.isEmpty)
        // One microsecond later is an interval.
        let tracked = try store.track("Write", from: at("2026-02-23T09:00:00Z"), to: Stamp(instant: nine + 1, offsetMinutes: 60, zone: zoneID))
        #expect(tracked.started?.interval.end == nine + 1)
    }

    @Test(arguments: Backend.allCases)
    func pauseSplitsTheTimeIntoSessionsAndStopEndsAPause(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        _ = try store.start("Write", at: at("2026-02-23T09:00:00Z"))
        _ = try store.pause(at: at("2026-02-23T09:30:00Z"))
        #expect(try store.stopwatchState().pausedTask?.name == "Write")
        _ = try store.resume(at: at("2026-02-23T09:45:00Z"))
        _ = try store.stop(at: at("2026-02-23T10:00:00Z"))
        let intervals = try store.trackerSnapshot().intervals
        #expect(intervals.map { $0.length(now: 0) } == [1_800_000_000, 900_000_000])
        #expect(throws: TrackingError.nothingRunning) { try store.stop(at: at("2026-02-23T11:00:00Z")) }
        _ = try store.start("Write", at: at("2026-02-23T11:00:00Z"))
        _ = try store.pause(at: at("2026-02-23T11:10:00Z"))
        let ended = try store.stop(at: at("2026-02-23T11:20:00Z"))
        #expect(ended.endedPause?.name == "Write")
        #expect(try store.stopwatchState() == StopwatchState(running: nil, runningTask: nil, pausedTask: nil, lastSeen: try store.stopwatchState().lastSeen))
    }

    @Test(arguments: Backend.allCases)
    func deletingATaskKeepsItsTimeUnderItsNameUnlessAsked(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        _ = try store.track("Keep", from: at("2026-02-23T09:00:00Z"), to: at("2026-02-23T10:00:00Z"))
        _ = try store.track("Drop", from: at("2026-02-23T10:00:00Z"), to: at("2026-02-23T11:00:00Z"))
        try store.deleteTask(id: 1, withTime: false, now: importNow, offsetMinutes: 60)
        try store.deleteTask(id: 2, withTime: true, now: importNow, offsetMinutes: 60)
        let snapshot = try store.trackerSnapshot()
        #expect(snapshot.intervals.count == 1)
        #expect(snapshot.tasks.map(\.name) == ["Keep"])
        #expect(snapshot.tasks[0].deleted != nil)
        // Its name is free again, and the old time still shows under it as a source.
        _ = try store.addTask(TaskDraft(name: "Keep"), now: importNow)
        let d = TrackedRepository.dataset(snapshot.intervals, tasks: snapshot.tasks, now: importNow)
        #expect(d.apps == ["Keep"])
        #expect(throws: TrackingError.unknownTask("Drop")) { _ = try store.task(named: "Drop") }
    }

    @Test(arguments: Backend.allCases)
    func aDeletedCategorysTasksMoveToOtherAndARenameIsRemembered(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        _ = try store.addTask(TaskDraft(name: "Report", category: "Work"), now: importNow)
        #expect(try store.renameCategory("work", to: "Job") == "Work")
        #expect(try store.categoryRenames() == ["Work": "Job"])
        #expect(try store.trackerSnapshot().tasks[0].category == "Job")
        #expect(throws: TrackingError.otherIsImplicit) { try store.addCategory("other", now: importNow) }
        let deleted = try store.deleteCategory("Job")
        #expect(deleted.moved == 1)
        #expect(try store.trackerSnapshot().tasks[0].categoryName == "Other")
    }

    @Test func tasksAreNamedByNumberExactNameOrAUniqueBeginning() throws {
        let tasks = ["Write report", "Write tests", "Email"].enumerated().map { k, n in
            TrackerTask(id: Int64(k + 1), name: n, category: nil, due: nil, priority: .medium, estimate: nil, created: 0, done: nil, deleted: nil)
        }
        #expect(try TaskNaming.pick("3", among: tasks).name == "Email")
        #expect(try TaskNaming.pick("#1", among: tasks).name == "Write report")
        #expect(try TaskNaming.pick("em", among: tasks).name == "Email")
        #expect(try TaskNaming.pick("write TESTS", among: tasks).name == "Write tests")
        #expect(throws: TrackingError.ambiguousTask("Wri", candidates: ["Write report", "Write tests"])) { try TaskNaming.pick("Wri", among: tasks) }
        #expect(throws: TrackingError.unknownTask("Zed")) { try TaskNaming.pick("Zed", among: tasks) }
    }

    @Test func aVersionOneStoreIsUpgradedWithItsSessionsKept() throws {
        let folder = try TemporaryFolder("store")
        // A store as the first version wrote it: only the v1 migration.
        let queue = try DatabaseQueue(path: folder.store)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try SQLiteSchema.migrator.migrate(queue, upTo: "v1: sessions")
        #expect(try queue.read { try $0.tableExists("tracked") } == false)
        try queue.close()
        let store = try SQLiteStore.open(path: folder.store, create: false)
        try importInto(store, dataset(rows([row("a", "Mail", "Work", "2026-02-23T09:00:00Z", "2026-02-23T09:10:00Z")])))
        _ = try store.track("Write", from: at("2026-02-23T10:00:00Z"), to: at("2026-02-23T10:30:00Z"))
        #expect(try store.trackerSnapshot().intervals.count == 1)
        #expect(try store.summary(zone: .utc).sessions == 1)
    }
}
