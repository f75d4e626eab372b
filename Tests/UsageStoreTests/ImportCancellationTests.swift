// ImportCancellationTests.swift — issue 51 item 2 in the store: a cancelled import writes nothing on either backend, SQLite's progress handler and PostgreSQL's PQcancel stop a statement under way, and a store file made for a cancelled import is taken away only while nobody else has it open and it holds nothing.
import Foundation
import GRDB
import Testing
import TestSupport
import UsageCore
@testable import UsageStore

struct ImportCancellationTests {
    static let day = rows([
        row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
        row("b", "Mail", "Work", "2026-02-23T12:00:00Z", "2026-02-23T12:30:00Z"),
    ])
    static let more = rows([row("c", "Maps", "Travel", "2026-02-24T09:00:00Z", "2026-02-24T09:10:00Z")])

    @Test(arguments: Backend.allCases)
    func item2ACancelledImportWritesNothingAndSaysSo(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try s.store.importSessions([ImportSource(identity: "/day.json", shown: "day.json", dataset: dataset(Self.day))], now: importNow, zone: .utc)
        let before = (try s.store.summary(zone: .utc).sessions, try s.store.imports().count)
        let cancelled = CancellationToken()
        cancelled.cancel()
        #expect(throws: StoreError.cancelled(path: s.location.description)) {
            try s.store.importSessions(
                [ImportSource(identity: "/more.json", shown: "more.json", dataset: dataset(Self.more))], now: importNow, zone: .utc,
                cancellation: cancelled)
        }
        #expect(try (s.store.summary(zone: .utc).sessions, s.store.imports().count) == before)
        #expect(StoreError.cancelled(path: "x").description == "cannot use the store 'x': import cancelled: nothing was written")
        // The store is left usable: the same import, not cancelled, goes in.
        let summary = try s.store.importSessions(
            [ImportSource(identity: "/more.json", shown: "more.json", dataset: dataset(Self.more))], now: importNow, zone: .utc)
        #expect(summary.sessions == 3)
    }

    /// A statement under way when the import is cancelled stops (SQLite's progress handler),
    /// and the transaction is rolled back, not committed.
    @Test func item2SQLitesProgressHandlerStopsAStatementUnderWay() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let token = CancellationToken()
        #expect(throws: (any Error).self) {
            try store.bulkChange(cancellation: token) { backend in
                try backend.tx.execute("INSERT INTO meta (key, value) VALUES ('cancelled-test', 1)", [])
                token.cancel()
                // Ten million steps: stopped long before its end.
                _ = try backend.tx.rows("WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 10000000) SELECT count(*) FROM n", [])
            }
        }
        #expect(try store.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM meta WHERE key = 'cancelled-test'") } == 0)
        // Without a cancellation the handler is gone: the same statement runs to its end.
        let count = try store.bulkChange(cancellation: nil) { backend in
            try backend.tx.rows("WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 100000) SELECT count(*) AS c FROM n", []).first?.int("c")
        }
        #expect(count == 100_000)
    }

    /// PostgreSQL: a statement under way when the import is cancelled (an index being made
    /// after a large import's rows, say) is cancelled by the server (PQcancel), and the
    /// transaction rolled back, long before the statement would end.
    @Test func item2APostgresStatementUnderWayIsCancelledByTheServer() throws {
        guard available(.postgres) else { return }
        let s = try BackendStore(.postgres)
        let store = try #require(s.store as? PostgresStore)
        let token = CancellationToken()
        let started = Date()
        #expect(throws: (any Error).self) {
            try store.bulkChange(cancellation: token) { backend in
                try backend.tx.execute("INSERT INTO meta (key, value) VALUES ('cancelled-test', 1)", [])
                token.cancel()
                _ = try backend.tx.rows("SELECT pg_sleep(30)", [])
            }
        }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try store.snapshot { try $0.int("SELECT count(*) FROM meta WHERE key = 'cancelled-test'", []) } == 0)
        // The connection goes on: the next change is made.
        try store.bulkChange(cancellation: CancellationToken()) { backend in
            _ = try backend.tx.execute("INSERT INTO meta (key, value) VALUES ('after-test', 1)", [])
        }
        #expect(try store.snapshot { try $0.int("SELECT count(*) FROM meta WHERE key = 'after-test'", []) } == 1)
    }

    /// What is at the store's path: the file, its -wal, -shm and .lock.
    static func files(_ path: String) -> [String] {
        ["", "-wal", "-shm", ".lock"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    @Test func item2AStoreMadeForACancelledImportIsTakenAwayWhole() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        #expect(store.made)
        #expect(Self.files(folder.store).contains(""))
        #expect(store.discardIfUnused())
        #expect(Self.files(folder.store) == [])
    }

    @Test func item2AStoreThisOpeningDidNotMakeIsKept() throws {
        let folder = try TemporaryFolder("store")
        try SQLiteStore.open(path: folder.store, create: true).close()
        let store = try SQLiteStore.open(path: folder.store, create: true)
        #expect(!store.made)
        #expect(!store.discardIfUnused())
        #expect(Self.files(folder.store).contains(""))
    }

    @Test func item2AStoreAnotherConnectionHasOpenIsKept() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        // Another process's opening, as the file sees it: a connection that has read it.
        let other = try DatabaseQueue(path: folder.store)
        _ = try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session") }
        #expect(!store.discardIfUnused())
        #expect(Self.files(folder.store).contains(""))
        try other.close()
    }

    @Test func item2AStoreSomebodyWroteToMeanwhileIsKept() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        // Another process imported, and closed, while this one's import ran.
        let other = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(other, dataset(Self.day))
        other.close()
        #expect(!store.discardIfUnused())
        #expect(try SQLiteStore.open(path: folder.store, create: false).summary(zone: .utc).sessions == 2)
    }
}
