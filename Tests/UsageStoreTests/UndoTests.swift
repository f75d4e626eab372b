// UndoTests.swift — on every backend, `undo` puts the store back exactly (the tracker's tables and the journal compared as plain SQL) after each change to tracked time, tasks and categories, again and again in reverse, after the store is closed and opened again; a refused change writes no entry; nothing to undo says so; the journal keeps its last entries only.
import Foundation
import GRDB
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct UndoTests {
    typealias F = EditFixture

    /// A change to make on the fixture (with a paused task, a category, a rename already made).
    struct Change: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (any StoreWriter) throws -> Void
        var testDescription: String { name }
    }

    static let changes: [Change] = [
        Change(name: "start a new task, stopping the running one") { _ = try $0.start("Fresh", at: F.at("14:00")) },
        Change(name: "stop") { _ = try $0.stop(at: F.at("13:45")) },
        Change(name: "pause") { _ = try $0.pause(at: F.at("13:45")) },
        Change(name: "pause, then stop ends the pause") { s in
            _ = try s.pause(at: F.at("13:45"))
            _ = try s.stop(at: F.at("13:50"))
        },
        Change(name: "resume") { s in
            _ = try s.pause(at: F.at("13:30"))
            _ = try s.resume(at: F.at("13:45"))
        },
        Change(name: "track past time on a new task") { _ = try $0.track("Lunch", from: F.at("12:00"), to: F.at("12:45")) },
        Change(name: "mend a gap by a split") { _ = try $0.mendGap(stopAt: F.at("13:20"), again: F.at("13:50")) },
        Change(name: "session edit start") { _ = try $0.editSession(2, .start(F.at("10:10")), now: F.now) },
        Change(name: "session edit end of the running one") { _ = try $0.editSession(4, .end(F.at("13:40")), now: F.now) },
        Change(name: "session edit task to a new one") { _ = try $0.editSession(2, .task("Calls"), now: F.now) },
        Change(name: "session move") { _ = try $0.editSession(2, .move(F.at("12:05")), now: F.now) },
        Change(name: "session split of the running one") { _ = try $0.splitSession(4, at: F.at("13:30"), now: F.now) },
        Change(name: "session join with the running one") { _ = try $0.joinSessions(4, 3) },
        Change(name: "session delete") { _ = try $0.deleteSession(2) },
        Change(name: "continue") { _ = try $0.continueTask(.last, at: F.at("14:00")) },
        Change(name: "task add in a new category") { _ = try $0.addTask(TaskDraft(name: "Plan", category: "Home", estimate: 3_600_000_000), now: F.now) },
        Change(name: "task edit name") { _ = try $0.editTask("Mail", .name("Email"), now: F.now) },
        Change(name: "task edit category, a new one") { _ = try $0.editTask("Mail", .category("Chores"), now: F.now) },
        Change(name: "task edit category to Other") { _ = try $0.editTask("Write", .category(nil), now: F.now) },
        Change(name: "task edit due") { _ = try $0.editTask("Mail", .due(LocalDate(iso: "2026-03-01")), now: F.now) },
        Change(name: "task done") { _ = try $0.setDone("Write", true, now: F.now) },
        Change(name: "task delete, its time kept, the stopwatch on it") {
            try $0.deleteTask(id: try $0.task(named: "Review").task.id, withTime: false, now: F.now, offsetMinutes: 0)
        },
        Change(name: "task delete with its time") { try $0.deleteTask(id: try $0.task(named: "Write").task.id, withTime: true, now: F.now, offsetMinutes: 0) },
        Change(name: "category add, named as an old name was") { try $0.addCategory("Work", now: F.now) },
        Change(name: "category rename, again") { _ = try $0.renameCategory("Job", to: "Career") },
        Change(name: "category rename back to an old name") { _ = try $0.renameCategory("Job", to: "Work") },
        Change(name: "category delete, its tasks to Other") { _ = try $0.deleteCategory("Job") },
    ]

    /// The edit fixture, with Write in a category renamed from Work to Job (a rename remembered).
    static func fixture(_ backend: Backend) throws -> EditFixture {
        let f = try EditFixture(backend)
        _ = try f.store.editTask("Write", .category("Work"), now: F.now)
        _ = try f.store.renameCategory("Work", to: "Job")
        return f
    }

    @Test(arguments: Backend.allCases, changes)
    func undoPutsTheStoreBackExactly(backend: Backend, _ change: Change) throws {
        guard available(backend) else { return }
        let f = try Self.fixture(backend)
        let before = try f.dump()
        try change.make(f.store)
        #expect(try f.dump() != before, "the change changed nothing")
        var undone = try f.store.undo()
        if change.name.hasPrefix("pause, then") || change.name == "resume" { undone = try f.store.undo() }
        #expect(try f.dump() == before)
        #expect(undone.note.command != "change")
        try expectTheRulesHold(f.store)
    }

    @Test(arguments: Backend.allCases)
    func undoGoesBackOneChangeAtATimeToTheEmptyStore(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        let dump = { try s.trackerDump() }
        var states = [try dump()]
        var commands: [String] = []
        let steps: [(String, (any StoreWriter) throws -> Void)] = [
            ("track", { _ = try $0.track("Write", from: F.at("09:00"), to: F.at("10:00")) }),
            ("start", { _ = try $0.start("Mail", at: F.at("10:00")) }),
            ("session split", { _ = try $0.splitSession(2, at: F.at("10:30"), now: F.now) }),
            ("start", { _ = try $0.start("Write", at: F.at("11:00")) }),
            ("session join", { _ = try $0.joinSessions(2, 3) }),
            ("session edit task", { _ = try $0.editSession(1, .task("Mail"), now: F.now) }),
            ("task add", { _ = try $0.addTask(TaskDraft(name: "Plan", category: "Home"), now: F.now) }),
            ("category rename", { _ = try $0.renameCategory("Home", to: "House") }),
            ("task delete", { try $0.deleteTask(id: 2, withTime: true, now: F.now, offsetMinutes: 0) }),
            ("stop", { _ = try $0.stop(at: F.at("12:00")) }),
        ]
        for (command, step) in steps {
            try step(store)
            states.append(try dump())
            commands.append(command)
        }
        for k in steps.indices.reversed() {
            #expect(try store.undo().note.command == commands[k])
            #expect(try dump() == states[k], "after undoing \(commands[k])")
        }
        #expect(throws: TrackingError.nothingToUndo) { try store.undo() }
        #expect(try dump() == states[0])
        #expect(states[0].allSatisfy { $0.hasPrefix("meta: ") }, "a new store holds no tracked time and no journal")
    }

    @Test(arguments: Backend.allCases)
    func theJournalLastsWhenTheStoreIsClosedAndOpenedAgain(backend: Backend) throws {
        guard available(backend) else { return }
        let f = try EditFixture(backend)
        let before = try f.dump()
        _ = try f.store.editSession(2, .move(F.at("12:00")), now: F.now)
        let again = try f.backend.reopened()
        let undone = try again.undo()
        #expect(undone.note == ChangeNote("session move", name: "Mail", session: 2, start: F.t("12:00")))
        #expect(try f.dump() == before)
    }

    @Test(arguments: Backend.allCases)
    func aRefusedChangeOrOneThatChangesNothingWritesNoEntry(backend: Backend) throws {
        guard available(backend) else { return }
        let f = try EditFixture(backend)
        let entries = { try f.backend.rows("SELECT count(*) FROM undo_journal") }
        let before = try entries()
        #expect(throws: TrackingError.overlap(session: 1, task: "Write", start: F.t("09:00"), end: F.t("10:00"))) {
            try f.store.track("Mail", from: F.at("09:30"), to: F.at("09:45"))
        }
        _ = try f.store.start("Review", at: F.at("13:30"))  // already running
        _ = try f.store.resume(at: F.at("13:30"))  // nothing paused, one running
        #expect(try entries() == before)
    }

    @Test(arguments: Backend.allCases)
    func theJournalKeepsItsLastEntriesOnly(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        for k in 0..<(Journal.limit + 5) {
            try s.store.addCategory("C\(k)", now: F.now)
        }
        #expect(try s.rows("SELECT count(*), min(id) FROM undo_journal") == ["\(Journal.limit)|6"])
    }
}
