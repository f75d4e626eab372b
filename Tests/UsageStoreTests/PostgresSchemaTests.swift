// PostgresSchemaTests.swift — PostgreSQL's migration of its own: v7 makes a new store's and an upgraded store's source index a block-range one, and a source's sessions are still found through it (importing a file again adds nothing).
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct PostgresSchemaTests {
    private static func indexMethod(_ conninfo: String) throws -> String {
        try TestPostgres.psql(
            conninfo,
            "SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = 'usage_shell' AND c.relname = 'session_source'"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func imported(_ store: any StoreWriter) throws -> [Int] {
        let d = dataset(StoreImportTests.day)
        let summary = try store.importSessions([ImportSource(identity: "/data.json", shown: d.source, dataset: d, device: "laptop")], now: importNow, zone: .utc)
        return summary.sources.map { $0.added }
    }

    @Test func aNewStoresSourceIndexIsABlockRangeOne() throws {
        guard available(.postgres) else { return }
        let database = try TestPostgres()
        _ = try OpenStores().writer(.postgres(conninfo: database.conninfo))
        #expect(try Self.indexMethod(database.conninfo) == "brin")
    }

    @Test func aStoreOfV6IsUpgradedToTheBlockRangeIndexAndStillFindsASourcesSessions() throws {
        guard available(.postgres) else { return }
        let database = try TestPostgres()
        let location = StoreLocation.postgres(conninfo: database.conninfo)
        #expect(try Self.imported(OpenStores().writer(location)) == [3])
        // As a store of the version before left it.
        _ = try TestPostgres.psql(
            database.conninfo,
            "SET search_path TO usage_shell; DROP INDEX session_source; CREATE INDEX session_source ON session (source); "
                + "DELETE FROM migrations WHERE identifier = 'v7: source by block range'")
        #expect(try Self.indexMethod(database.conninfo) == "btree")
        let upgraded = try OpenStores().writer(location)
        #expect(try Self.indexMethod(database.conninfo) == "brin")
        #expect(try Self.imported(upgraded) == [0], "the same file again: its sessions found by source, none added")
        #expect(try upgraded.history(source: "store").sessionCount == 3)
    }
}
