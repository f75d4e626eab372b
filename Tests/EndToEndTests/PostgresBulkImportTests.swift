// PostgresBulkImportTests.swift — a large import into a PostgreSQL store builds the session table's indexes after its rows (the same indexes, made anew; two files together count as one import), and only when it may: not for a smaller import, not for a role that does not own the table (which never asks for its lock), not while another reader holds the table, not over indexes their definitions do not wholly describe; a failure while they are made leaves them as they were.
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
        let reader = try Self.holdingTheTable(db)
        defer { Self.release(reader, db) }

        let data = try w.sessions("large.json", count: Self.large)
        let r = try Binary.run(["--db", db.conninfo, "import", data])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(reader.process.isRunning, "the import ended before the reader did")
        #expect(try Self.indexes(db).oids == before.oids)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == String(Self.large + 3))
    }

    /// A role that may write the store but does not own its tables (its owner granted it what
    /// an import needs) cannot drop an index: its import adds the rows past them, and never asks
    /// for the table's lock (a reader holds the table meanwhile: no request waits behind it).
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
        let reader = try Self.holdingTheTable(db)
        defer { Self.release(reader, db) }
        let app = PostgresConnectionTests.tcp(db, role: "usage_app", password: "app-secret")
        let data = try w.sessions("large.json", count: Self.large)
        let importer = Process()
        importer.executableURL = Binary.url
        importer.arguments = ["--db", app, "import", data]
        importer.environment = ["HOME": w.url.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        var waited = 0
        while importer.isRunning {
            let waiting = "SELECT count(*) FROM pg_locks WHERE relation = 'usage_shell.session'::regclass AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            if try db.sql(waiting) != "0" { waited += 1 }
            Thread.sleep(forTimeInterval: 0.05)
        }
        importer.waitUntilExit()  // reaped: a Process never waited for outlives the test
        #expect(importer.terminationStatus == 0)
        #expect(waited == 0, "the import asked for the table's lock")
        #expect(try Self.indexes(db).oids == before.oids)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == String(Self.large + 3))
    }

    /// A psql session holding the session table in an open transaction (as a long report does),
    /// named for this test alone (its `application_name`): the tests run in parallel on one
    /// server, and each ends only its own reader.
    static func holdingTheTable(_ db: TestPostgres) throws -> (process: Process, name: String) {
        let reader = Process()
        let name = "usage-shell-test-reader-\(UUID().uuidString)"
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        reader.arguments = ["-X", "-q", db.conninfo, "-c", "BEGIN; SELECT count(*) FROM usage_shell.session; SELECT pg_sleep(120); COMMIT"]
        reader.environment = ProcessInfo.processInfo.environment.merging(["PGAPPNAME": name]) { $1 }
        reader.standardOutput = FileHandle.nullDevice
        reader.standardError = FileHandle.nullDevice
        try reader.run()
        let holds = "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.relation = 'usage_shell.session'::regclass AND l.granted AND a.application_name = '\(name)'"
        for _ in 0..<100 {
            if try db.sql(holds) != "0" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(try db.sql(holds) == "1", "the reader holds the table")
        return (reader, name)
    }

    /// Ends this test's reader, and only it, and waits for it (a Process never waited for outlives the test).
    static func release(_ reader: (process: Process, name: String), _ db: TestPostgres) {
        reader.process.terminate()
        _ = try? db.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(reader.name)'")
        reader.process.waitUntilExit()
    }

    /// The rule is the import's, not each file's: two files of 30,000 new sessions (60,000 in
    /// all) into a store of three make the indexes after their rows, once.
    @Test func twoFilesMakeALargeImportTogether() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        let before = try Self.indexes(db)
        let first = try w.sessions("first.json", count: 30_000, prefix: "f")
        let second = try w.sessions("second.json", count: 30_000, first: "2026-03-01T00:00:00Z", prefix: "g")
        let r = try Binary.run(["--db", db.conninfo, "import", first, second])
        #expect(r.status == 0, "\(r.stderr)")
        let after = try Self.indexes(db)
        #expect(after.definitions == before.definitions)
        #expect(after.oids != before.oids)
        #expect(try db.sql("SELECT count(*), count(DISTINCT id) FROM usage_shell.session") == "60003|60003")
    }

    /// Indexes with what their definition does not carry (a comment; a database owner may also
    /// give a tablespace, a replica identity, a clustering) or an invalid one left by a failed
    /// `CREATE INDEX CONCURRENTLY` (made again, it would be a real index the rows break) are
    /// left as they are: the rows go in past them.
    @Test func indexesADefinitionDoesNotDescribeWhollyAreLeftAsTheyAre() throws {
        for setting in [
            "COMMENT ON INDEX usage_shell.session_start IS 'the owner''s note'",
            "CREATE UNIQUE INDEX CONCURRENTLY one_per_app ON usage_shell.session (app)",
            "ALTER TABLE usage_shell.session CLUSTER ON session_start",
        ] {
            guard let db = postgresDatabase() else { return }
            let w = try StoreWorkspace()
            try Self.started(db, w)
            _ = try? db.sql(setting)  // the unique index fails (two sessions of Mail) and stays, invalid
            let before = try Self.indexes(db)
            let r = try Binary.run(["--db", db.conninfo, "import", try w.sessions("large.json", count: Self.large)])
            #expect(r.status == 0, "\(setting): \(r.stderr)")
            #expect(try Self.indexes(db).oids == before.oids, "\(setting)")
            #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == String(Self.large + 3))
        }
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.started(db, w)
        try db.sql("COMMENT ON INDEX usage_shell.session_start IS 'kept'")
        _ = try Binary.run(["--db", db.conninfo, "import", try w.sessions("large.json", count: Self.large)])
        #expect(try db.sql("SELECT obj_description('usage_shell.session_start'::regclass, 'pg_class')") == "kept")
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
        // Made again after the rows, not broken by one of them as it went in.
        #expect(r.stderr == "error: cannot use the store '\(db.conninfo)': could not create unique index \"owners_own\" (SQLSTATE 23505)\n")
        let after = try Self.indexes(db)
        #expect(after.definitions == before.definitions)
        #expect(after.oids == before.oids)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == "3")
        #expect(try Binary.json(["--db", db.conninfo, "-c", "store"])["sessions"] as? Int == 3)
    }
}
