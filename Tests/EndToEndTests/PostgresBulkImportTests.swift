// PostgresBulkImportTests.swift — a large import into a PostgreSQL store builds the session table's indexes after its rows (the same indexes, made anew), and only when it may: not for a smaller import, not for a role that does not own the table, not while another reader holds the table; a failure while they are made leaves them as they were.
import Foundation
import Testing
import TestSupport

struct PostgresBulkImportTests {
    /// Enough sessions for an import to build the indexes after its rows (at least 50,000).
    static let large = 60_000

    /// The session table's indexes: each one's name, its definition and whether it is valid, and
    /// (apart) their object ids, which change when an index is made anew.
    static func indexes(_ db: TestPostgres) throws -> (definitions: String, oids: String) {
        let from = "FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = 'usage_shell.session'::regclass"
        return (
            try db.sql("SELECT string_agg(c.relname || ' ' || x.indisvalid || ' ' || pg_get_indexdef(c.oid), E'\\n' ORDER BY c.relname) \(from)"),
            try db.sql("SELECT string_agg(c.relname || ' ' || c.oid, ' ' ORDER BY c.relname) \(from)")
        )
    }

    /// A store of three sessions, made by a small import (its indexes as the schema makes them).
    static func started(_ db: TestPostgres, _ w: StoreWorkspace) throws {
        let small = try w.write(
            "small.json",
            """
            [{"session_id":"a","app_name":"Mail","category":"Work","start_timestamp":"2025-12-01T09:00:00Z","end_timestamp":"2025-12-01T09:01:00Z"},
             {"session_id":"b","app_name":"Mail","category":"Work","start_timestamp":"2025-12-01T10:00:00Z","end_timestamp":"2025-12-01T10:02:00Z"},
             {"session_id":"c","app_name":"Maps","category":"Travel","start_timestamp":"2025-12-01T11:00:00Z","end_timestamp":"2025-12-01T11:03:00Z"}]
            """)
        let r = try Binary.run(["--db", db.conninfo, "import", small])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aLargeImportMakesTheSameIndexesAnewAfterItsRows() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        let before = try Self.indexes(db)
        #expect(before.definitions.components(separatedBy: "\n").map { $0.prefix { $0 != " " } } == [
            "session_long", "session_pkey", "session_source", "session_start",
        ])
        let data = try w.sessions("large.json", count: Self.large)
        let r = try Binary.run(["--db", db.conninfo, "import", data])
        #expect(r.status == 0, "\(r.stderr)")

        let after = try Self.indexes(db)
        #expect(after.definitions == before.definitions)
        #expect(after.oids.split(separator: " ").enumerated().allSatisfy { k, part in
            k % 2 == 0 || part != before.oids.split(separator: " ")[k]
        }, "every index made anew: \(before.oids) → \(after.oids)")
        #expect(try db.sql("SELECT contype FROM pg_constraint WHERE conname = 'session_pkey' AND conrelid = 'usage_shell.session'::regclass") == "p")
        #expect(try db.sql("SELECT count(*), count(DISTINCT id) FROM usage_shell.session") == "\(Self.large + 3)|\(Self.large + 3)")

        // What the store shows is what a SQLite store of the same imports shows.
        let days = ["-c", "day 2026-01-02", "-c", "show", "-c", "week", "-c", "day 2025-12-01", "-c", "show", "--format", "json"]
        let onServer = try Binary.run(["--db", db.conninfo] + days)
        let sqlite = w.url.appendingPathComponent("same.sqlite").path
        for file in [w.url.appendingPathComponent("small.json").path, data] {
            #expect(try Binary.run(["--db", sqlite, "import", file]).status == 0)
        }
        let onFile = try Binary.run(["--db", sqlite] + days)
        #expect(onServer.status == 0 && onServer.stdout.contains("\"total\""), "\(onServer.stderr)")
        #expect(onServer.stdout == onFile.stdout.replacingOccurrences(of: sqlite, with: db.conninfo))

        // The next import, smaller than the table, adds its rows past the indexes.
        let more = try w.sessions("more.json", count: Self.large - 5_000, first: "2026-06-01T00:00:00Z", prefix: "m")
        #expect(try Binary.run(["--db", db.conninfo, "import", more]).status == 0)
        #expect(try Self.indexes(db).oids == after.oids)
    }

    @Test func anImportOfFewerThan50000SessionsKeepsTheIndexes() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        let before = try Self.indexes(db)
        let data = try w.sessions("some.json", count: 49_999)
        #expect(try Binary.run(["--db", db.conninfo, "import", data]).status == 0)
        #expect(try Self.indexes(db).oids == before.oids)
    }

    /// Another connection reading the table (an open transaction) keeps its lock from the
    /// import, which waits a second at most and then adds its rows past the indexes; it never
    /// waits for the reader to end.
    @Test func aReaderHoldingTheTableIsNotWaitedForAndTheIndexesStay() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        let before = try Self.indexes(db)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        reader.arguments = ["-X", "-q", db.conninfo, "-c", "BEGIN; SELECT count(*) FROM usage_shell.session; SELECT pg_sleep(120); COMMIT"]
        reader.standardOutput = FileHandle.nullDevice
        reader.standardError = FileHandle.nullDevice
        try reader.run()
        defer {
            reader.terminate()
            _ = try? db.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid()")
        }
        let holds = "SELECT count(*) FROM pg_locks l WHERE l.relation = 'usage_shell.session'::regclass AND l.granted AND l.pid <> pg_backend_pid()"
        for _ in 0..<100 {
            if try db.sql(holds) != "0" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(try db.sql(holds) == "1", "the reader holds the table")

        let data = try w.sessions("large.json", count: Self.large)
        let r = try Binary.run(["--db", db.conninfo, "import", data])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(reader.isRunning, "the import ended before the reader did")
        #expect(try Self.indexes(db).oids == before.oids)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == String(Self.large + 3))
    }

    /// A role that may write the store but does not own its tables (its owner granted it what
    /// an import needs) cannot drop an index: its import adds the rows past them.
    @Test func aRoleThatDoesNotOwnTheTableImportsPastTheIndexes() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        try db.sql(
            """
            GRANT USAGE ON SCHEMA usage_shell TO usage_app;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO usage_app;
            GRANT USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA usage_shell TO usage_app
            """)
        let before = try Self.indexes(db)
        let app = PostgresConnectionTests.tcp(db, role: "usage_app", password: "app-secret")
        let r = try Binary.run(["--db", app, "import", try w.sessions("large.json", count: Self.large)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.indexes(db).oids == before.oids)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == String(Self.large + 3))
    }

    /// An index that cannot be made again (a unique one of the database owner's own, which the
    /// new rows break) fails the import in one line, and the store keeps its rows and every
    /// index it had, the dropped ones back as they were.
    @Test func aLargeImportWhoseIndexCannotBeMadeAgainLeavesEveryIndexAsItWas() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        try db.sql("CREATE UNIQUE INDEX owners_own ON usage_shell.session (length)")
        let before = try Self.indexes(db)
        let r = try Binary.run(["--db", db.conninfo, "import", try w.sessions("large.json", count: Self.large)])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: cannot use the store '\(db.conninfo)': ") && r.stderr.hasSuffix("\n"), "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(r.stderr)")
        let after = try Self.indexes(db)
        #expect(after.definitions == before.definitions)
        #expect(after.oids == before.oids)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == "3")
        #expect(try Binary.json(["--db", db.conninfo, "-c", "store"])["sessions"] as? Int == 3)
    }
}
