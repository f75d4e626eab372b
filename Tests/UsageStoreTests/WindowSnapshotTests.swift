// WindowSnapshotTests.swift — a history's windows on every backend, after another process changed the store: rows it added stay out (they are past the snapshot), a session it made longer is still seen from as far back as it now reaches, and without a change the same window is what it was; a long window read in two halves at once (PostgreSQL) is one window of one snapshot, and the snapshot's id is read while its result lives.
import Testing
import Synchronization
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct WindowSnapshotTests {
    private static func imported(_ store: any StoreWriter, _ json: String) throws -> ImportSummary {
        let d = dataset(json)
        return try store.importSessions([ImportSource(identity: "/data.json", shown: d.source, dataset: d, device: "laptop")], now: importNow, zone: .utc)
    }

    private static func apps(_ history: StoreHistory, _ from: String, _ to: String) -> [String] {
        history.window(from: instant(from), to: instant(to)).map { history.apps[Int($0.app)] }
    }

    /// PostgreSQL reads back only the snapshot's longest session before a window while the store
    /// is unchanged, and leaves out rows past the snapshot by id only once it changed: both
    /// shortcuts must give way when another process grows a session and adds one.
    @Test(arguments: Backend.allCases)
    func aSessionGrownByAnotherProcessIsSeenAndOneItAddedIsNot(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        // The longest session is two hours; the evening one ends before the 23rd.
        _ = try Self.imported(s.store, rows([
            row("x", "Editor", "Work", "2026-02-22T20:00:00Z", "2026-02-22T22:00:00Z"),
            row("y", "Mail", "Work", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
        ]))
        let history = try s.store.history(source: "store")
        #expect(Self.apps(history, "2026-02-23T00:00:00Z", "2026-02-24T00:00:00Z") == ["Mail"])
        // Another process: the evening session now began at 10:00 and ran past midnight (16
        // hours, updated in place); a new one on the 23rd.
        let summary = try Self.imported(try s.another(), rows([
            row("x", "Editor", "Work", "2026-02-22T10:00:00Z", "2026-02-23T02:00:00Z"),
            row("y", "Mail", "Work", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            row("z", "Notes", "Work", "2026-02-23T12:00:00Z", "2026-02-23T13:00:00Z"),
        ]))
        #expect(summary.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[1, 1, 1]])
        let window = history.window(from: instant("2026-02-23T00:00:00Z"), to: instant("2026-02-24T00:00:00Z"))
        #expect(window.map { history.apps[Int($0.app)] } == ["Editor", "Mail"])
        #expect(window.map { $0.sessionEnd - $0.sessionStart } == [57_600_000_000, 3_600_000_000], "the grown session as it is now")
        // A new history sees the store as it is now.
        let now = try s.store.history(source: "store")
        #expect(Self.apps(now, "2026-02-23T00:00:00Z", "2026-02-24T00:00:00Z") == ["Editor", "Mail", "Notes"])
    }

    /// Four days: a session on each, two starting together (the shorter first), one at the
    /// middle of the window below (20th 00:00 to 24th, read from an hour before: PostgreSQL
    /// splits it at 21st 23:30, the later half from there) and one across midnight.
    private static let fourDays = rows([
        row("a", "Mail", "Work", "2026-02-20T09:00:00Z", "2026-02-20T10:00:00Z"),
        row("b", "Editor", "Work", "2026-02-21T23:30:00Z", "2026-02-22T00:30:00Z"),
        row("c", "Notes", "Work", "2026-02-22T00:00:00Z", "2026-02-22T00:20:00Z"),
        row("d", "Chat", "Social", "2026-02-22T00:00:00Z", "2026-02-22T00:10:00Z"),
        row("e", "Maps", "Travel", "2026-02-23T18:00:00Z", "2026-02-23T19:00:00Z"),
    ])

    /// A window longer than a day and a half is read on PostgreSQL in two halves at once, the
    /// later on another connection: it must read the reader's snapshot (exported to it), or a
    /// session another process adds meanwhile shows in one half of a screen and not in the other.
    /// (Its app is one the snapshot knows: rows naming a newer app are left out by name.)
    @Test(arguments: Backend.allCases)
    func aLongWindowReadInTwoHalvesIsOneWindowOfOneSnapshot(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try Self.imported(s.store, Self.fourDays)
        let other = try s.another()
        let history = try s.store.history(source: "store")
        let seen = history.readingAsOne { () -> [String] in
            _ = Self.apps(history, "2026-02-20T00:00:00Z", "2026-02-21T00:00:00Z")
            _ = try? Self.imported(other, Self.fourDays.dropLast() + "," + row("f", "Mail", "Work", "2026-02-23T20:00:00Z", "2026-02-23T21:00:00Z") + "]")
            return Self.apps(history, "2026-02-20T00:00:00Z", "2026-02-24T00:00:00Z")
        }
        #expect(seen == ["Mail", "Editor", "Chat", "Notes", "Maps"], "in (start, end) order, the screen's snapshot only")
        if let store = s.store as? PostgresStore { #expect(store.side.reads.load(ordering: .relaxed) == 1, "the later half read beside") }
        let later = try s.store.history(source: "store")
        #expect(Self.apps(later, "2026-02-20T00:00:00Z", "2026-02-24T00:00:00Z") == ["Mail", "Editor", "Chat", "Notes", "Maps", "Mail"])
        #expect(history.takeReadFailure() == nil)
    }

    /// The snapshot's id was read from the statement's result after Swift had freed it (a
    /// pointer into a temporary result, found by the AddressSanitizer run): mostly the freed
    /// bytes still held the id, so windows read right, but any reuse of that memory gave the side
    /// reader a wrong id. Results now lend their bytes only while they live (`withBytes`,
    /// `text`). Every one of many long windows must be read in halves, each in a good snapshot;
    /// under `scripts/test-asan` the old code fails here at once.
    @Test func bugTheSnapshotIDWasReadFromAResultAlreadyFreed() throws {
        guard available(.postgres) else { return }
        let s = try BackendStore(.postgres)
        _ = try Self.imported(s.store, Self.fourDays)
        let store = try #require(s.store as? PostgresStore)
        for k in 1...20 {
            let history = try store.history(source: "store")
            #expect(Self.apps(history, "2026-02-20T00:00:00Z", "2026-02-24T00:00:00Z") == ["Mail", "Editor", "Chat", "Notes", "Maps"])
            #expect(history.takeReadFailure() == nil)
            #expect(store.side.reads.load(ordering: .relaxed) == k, "window \(k)'s later half read beside, in the exported snapshot")
        }
    }

    /// Whatever stops the second connection (a pooler that will not share snapshots, a limit on
    /// connections) leaves the later half to the reader: the same window, read in turn.
    @Test func aSideReaderThatCannotReadLeavesTheWholeWindowToTheReader() throws {
        guard available(.postgres) else { return }
        let s = try BackendStore(.postgres)
        _ = try Self.imported(s.store, Self.fourDays)
        let store = try #require(s.store as? PostgresStore)
        store.side.close()
        let history = try store.history(source: "store")
        #expect(Self.apps(history, "2026-02-20T00:00:00Z", "2026-02-24T00:00:00Z") == ["Mail", "Editor", "Chat", "Notes", "Maps"])
        #expect(history.takeReadFailure() == nil)
    }
}
