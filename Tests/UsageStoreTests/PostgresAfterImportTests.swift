// PostgresAfterImportTests.swift — a large import leaves the store on PostgreSQL vacuumed and analysed (its pages all-visible for the reads' index-only scans) and a small one leaves it as autovacuum would; a role that may not vacuum, or a table another session holds, still gets the import, whole, and no wait.
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct PostgresAfterImportTests {
    /// How often each table was vacuumed and analysed by a client (autovacuum's are counted
    /// apart), and whether its pages are all marked all-visible.
    private static func maintenance(_ conninfo: String, _ table: String) throws -> (vacuums: Int, analyses: Int, allVisible: Bool) {
        let row = try TestPostgres.psql(
            conninfo,
            "SELECT s.vacuum_count, s.analyze_count, c.relpages > 0 AND c.relallvisible = c.relpages FROM pg_stat_user_tables s "
                + "JOIN pg_class c ON c.oid = s.relid WHERE s.schemaname = 'usage_shell' AND s.relname = '\(table)'"
        ).split(separator: "|").map(String.init)
        return (Int(row[0])!, Int(row[1])!, row[2] == "t")
    }

    private static func importing(_ store: any StoreWriter, _ count: Int, device: String = "laptop") throws -> ImportSummary {
        let d = ImportChunkTests.sessions(count: count)
        return try store.importSessions([ImportSource(identity: "/\(count).json", shown: d.source, dataset: d, device: device)], now: importNow, zone: .utc)
    }

    @Test func anImportOfManyRowsLeavesTheSessionsAndKeptTotalsVacuumedAndAnalysedAndASmallOneDoesNot() throws {
        guard available(.postgres) else { return }
        let s = try BackendStore(.postgres)
        let small = try Self.importing(s.store, 2_000)
        #expect(small.sources.map(\.added) == [2_000])
        for table in PostgresStore.readyTables {
            let after = try Self.maintenance(s.location.conninfo, table)
            #expect(after.vacuums == 0 && after.analyses == 0, "a small import leaves \(table) to autovacuum")
        }
        let large = try Self.importing(s.store, PostgresStore.readyAfterRows, device: "desktop")
        #expect(large.sources.map(\.added) == [PostgresStore.readyAfterRows])
        for table in PostgresStore.readyTables {
            let after = try Self.maintenance(s.location.conninfo, table)
            #expect(after.vacuums == 1 && after.analyses == 1, "a large import vacuums and analyses \(table)")
        }
        #expect(try Self.maintenance(s.location.conninfo, "session").allVisible, "every page of the sessions all-visible: index-only scans read no heap")
    }

    /// A role that may write the store's rows but does not own its tables: the server skips
    /// the VACUUM with a warning (not shown), and the import is the same as the owner's.
    @Test func aRoleThatMayNotVacuumStillImportsTheSame() throws {
        guard available(.postgres) else { return }
        let s = try BackendStore(.postgres)
        let conninfo = s.location.conninfo
        let role = "writer_" + String(conninfo.split(separator: "_").last!.prefix(12))
        try TestPostgres.psql(
            conninfo,
            "DROP ROLE IF EXISTS \(role); CREATE ROLE \(role) LOGIN; GRANT USAGE ON SCHEMA usage_shell TO \(role); "
                + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO \(role); "
                + "GRANT USAGE ON ALL SEQUENCES IN SCHEMA usage_shell TO \(role)")
        defer { _ = try? TestPostgres.psql(conninfo, "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let writer = try OpenStores().writer(.postgres(conninfo: TestPostgres.replacing("user", in: conninfo, with: role)))
        let summary = try Self.importing(writer, PostgresStore.readyAfterRows)
        #expect(summary.sources.map(\.added) == [PostgresStore.readyAfterRows])
        #expect(try s.store.history(source: "store").sessionCount == PostgresStore.readyAfterRows)
        #expect(try Self.maintenance(conninfo, "session").vacuums == 0, "not the owner: nothing vacuumed")
    }

    /// A table another session holds (a VACUUM, an ANALYZE, an index made concurrently) is
    /// skipped, not waited for: the import ends, the other tables vacuumed.
    @Test func aTableAnotherSessionHoldsIsSkippedNotWaitedFor() throws {
        guard available(.postgres) else { return }
        let s = try BackendStore(.postgres)
        let other = try PostgresConnection.connect(s.location.conninfo, shown: "other")
        defer { other.close() }
        _ = try other.execute("BEGIN")
        _ = try other.execute("LOCK TABLE usage_shell.day_total IN SHARE UPDATE EXCLUSIVE MODE")
        let summary = try Self.importing(s.store, PostgresStore.readyAfterRows)
        _ = try other.execute("COMMIT")
        #expect(summary.sources.map(\.added) == [PostgresStore.readyAfterRows])
        #expect(try Self.maintenance(s.location.conninfo, "day_total").vacuums == 0, "held: skipped")
        #expect(try Self.maintenance(s.location.conninfo, "session").vacuums == 1, "the others vacuumed")
    }
}

extension StoreLocation {
    /// The connection string of a store on PostgreSQL.
    fileprivate var conninfo: String {
        guard case .postgres(let conninfo) = self else { fatalError("not a store on PostgreSQL: \(self)") }
        return conninfo
    }
}
