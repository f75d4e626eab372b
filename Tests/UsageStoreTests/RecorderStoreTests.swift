// RecorderStoreTests.swift — the desktop recorder's writes on every backend: the open session grown in place by each heartbeat, a restart's session beside the one a kill left, counts and devices kept, hostile names exact, the kept totals moved with every write, the recorder's mark for `status` set and cleared.
import Testing
import UsageCore
@testable import UsageStore

private let t0 = RFC3339Test.at("2026-03-02T09:00:00Z")

private func session(_ app: String, _ start: Micros, _ seconds: Micros, category: String = "Other") -> RecordedSession {
    RecordedSession(app: app, category: category, start: start, end: start + seconds * 1_000_000, startOffset: 60, endOffset: 60)
}

/// A file of two half-minute sessions a minute apart, from 09:00 UTC of `date`.
private func file(_ date: String, hour: String = "09") -> Dataset {
    dataset(rows([
        row(nil, "Mail", "Work", "\(date)T\(hour):00:00Z", "\(date)T\(hour):00:30Z"),
        row(nil, "Notes", "Work", "\(date)T\(hour):01:00Z", "\(date)T\(hour):01:30Z"),
    ]))
}

/// RFC 3339 instants for these cases.
enum RFC3339Test {
    static func at(_ text: String) -> Micros {
        var parts = text.dropLast().split(separator: "T")
        let date = parts.removeFirst().split(separator: "-").map { Int($0)! }
        let time = parts[0].split(separator: ":").map { Int($0)! }
        let days = LocalDate.daysFromCivil(year: date[0], month: date[1], day: date[2])
        return (Micros(days) * 86_400 + Micros(time[0] * 3600 + time[1] * 60 + time[2])) * 1_000_000
    }
}

struct RecorderStoreTests {
    @Test(arguments: Backend.allCases)
    func theOpenSessionGrowsInPlaceAndARestartsSessionGoesBesideIt(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let mark = RecorderMark(device: "laptop", pid: 4242, seen: t0 + 5_000_000)
        try s.store.record([session("Firefox", t0, 5)], device: "laptop", now: t0 + 5_000_000, mark: mark)
        try s.store.record([session("Firefox", t0, 10)], device: "laptop", now: t0 + 10_000_000, mark: mark)
        #expect(try s.store.recorders() == [mark])
        // Killed here; a new recorder starts a session of its own.
        try s.another().record(
            [session("Firefox", t0 + 20_000_000, 3), session("Terminal", t0 + 23_000_000, 2, category: "Dev")], device: "laptop",
            now: t0 + 25_000_000, mark: nil)
        let history = try s.store.history(source: "store")
        let all = Array(history.all)
        #expect(all.map { [$0.sessionStart - t0, $0.sessionEnd - t0] } == [[0, 10_000_000], [20_000_000, 23_000_000], [23_000_000, 25_000_000]])
        #expect(all.map { history.apps[Int($0.app)] } == ["Firefox", "Firefox", "Terminal"])
        #expect(all.map { history.categories[Int($0.category)] } == ["Other", "Other", "Dev"])
        #expect(try s.store.devices().map { [$0.name, String($0.sessions)] } == [["laptop", "3"]])
        let summary = try s.store.summary(zone: .utc)
        #expect(summary.sessions == 3)
        #expect(summary.sources.map(\.identity) == [RecorderSource.identity])
        #expect(try s.store.recorders() == [], "a stopped recorder leaves no mark")
    }

    /// The recorder inserted and grew sessions without adding them to the kept totals, so a
    /// range read from those totals (`summary`, `month`, the days before `week`) left recorded
    /// time out while `show` counted it. A session grown in place must move its time too (its
    /// app changed between heartbeats here), across a UTC midnight.
    @Test(arguments: Backend.allCases)
    func bugRecordedSessionsWereMissingFromTheKeptTotals(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let night = RFC3339Test.at("2026-03-02T23:59:00Z")
        try s.store.record([session("Firefox", t0, 30)], device: "laptop", now: t0 + 30_000_000, mark: nil)
        try s.store.record([session("Firefox", t0, 60), session("Terminal", t0 + 60_000_000, 5)], device: "laptop", now: t0 + 65_000_000, mark: nil)
        try s.store.record([session("Mail", night, 120)], device: "desk", now: night + 120_000_000, mark: nil)
        try s.store.record([session("Notes", night, 180, category: "Work")], device: "desk", now: night + 180_000_000, mark: nil)
        let tables = try StoreBackendTests.keptTables(s.store)
        #expect(tables.kept == tables.fresh)
        #expect(tables.kept.count > 0)
    }

    /// A store the recorder wrote before that fix: its totals lack the recorded time, and its
    /// next opening makes them again from every session (migration "recorded time in the kept
    /// totals"); a store without recorded sessions is left as it is. Here the totals are
    /// emptied and the migration forgotten, as a store of the version before would be.
    @Test(arguments: Backend.allCases)
    func aStoreWhoseTotalsLackedRecordedTimeGetsItWhenItIsOpened(backend: Backend) throws {
        guard available(backend) else { return }
        let migration = backend == .sqlite ? "v7: recorded time in the kept totals" : "v8: recorded time in the kept totals"
        let forget = backend == .sqlite
            ? "DELETE FROM grdb_migrations WHERE identifier = '\(migration)'" : "DELETE FROM migrations WHERE identifier = '\(migration)'"
        for recorded in [true, false] {
            let s = try BackendStore(backend)
            _ = try s.store.importSessions(
                [ImportSource(identity: "/a.json", shown: "a.json", dataset: file("2026-03-01"), device: "laptop")], now: t0, zone: .utc)
            if recorded { try s.store.record([session("Firefox", t0, 90)], device: "laptop", now: t0 + 90_000_000, mark: nil) }
            try s.raw("DELETE FROM quarter_total; DELETE FROM day_total; " + forget)
            let opened = try s.another()
            let tables = try StoreBackendTests.keptTables(opened)
            if recorded {
                #expect(!tables.kept.isEmpty && tables.kept == tables.fresh, "made again from every session")
            } else {
                #expect(tables.kept.isEmpty, "no recorded sessions: the totals are not touched")
            }
        }
    }

    /// On PostgreSQL an import took its sessions' ids from the table's identity sequence, which
    /// the recorder's inserts (max + 1) never moved: the first import after a recorded session
    /// failed on a duplicate `session_pkey`.
    @Test(arguments: Backend.allCases)
    func bugAnImportAfterRecordedSessionsTookTheirIDs(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try s.store.importSessions(
            [ImportSource(identity: "/first.json", shown: "first.json", dataset: file("2026-03-01"), device: "laptop")],
            now: t0, zone: .utc)
        try s.store.record([session("Firefox", t0, 5), session("Terminal", t0 + 5_000_000, 5)], device: "laptop", now: t0 + 10_000_000, mark: nil)
        let summary = try s.store.importSessions(
            [ImportSource(identity: "/second.json", shown: "second.json", dataset: file("2026-03-02", hour: "10"), device: "laptop")],
            now: t0, zone: .utc)
        #expect(summary.sources.map(\.added) == [2])
        #expect(summary.sessions == 6)
        let history = try s.store.history(source: "store")
        #expect(Array(history.all).map { ($0.sessionStart - t0) / 1_000_000 } == [-86_400, -86_340, 0, 5, 3_600, 3_660])
        // An older usage-shell's import takes its id from the table (PostgreSQL: the identity
        // sequence, which the import set past its rows).
        try s.raw("INSERT INTO session (source, key, app, category, start, length, device) VALUES (1, 99, 1, 1, 1, 10, 1)")
    }

    @Test(arguments: Backend.allCases)
    func hostileClassesAreKeptExactlyAndDevicesApart(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[31m\u{FFFD}evil"
        try s.store.record([session(hostile, t0, 4)], device: "laptop", now: t0 + 4_000_000, mark: nil)
        try s.store.record([session("Firefox", t0, 4)], device: "desk", now: t0 + 4_000_000, mark: nil)
        let laptop = try s.store.history(source: "store", device: "laptop")
        #expect(laptop.apps.contains(hostile))
        #expect(laptop.sessionCount == 1)
        #expect(try s.store.history(source: "store", device: "desk").sessionCount == 1)
    }
}
