// PostgresStore.swift — the store on a PostgreSQL server: two connections (changes and the tracker's reads; a screen's windows) and a side reader for long windows, its schema made and upgraded under a lock, one writer at a time across every machine (an advisory lock, as SQLite has one writer), a counter of changes for `watch`, the server's errors said as the store's.
import Foundation
import Synchronization
import UsageCore

/// One usage-shell store in a PostgreSQL database (its tables in the `usage_shell` schema).
///
/// Every change is one transaction that first takes the store's writer lock, so changes from any
/// number of machines happen one after another and none reads what another is halfway through
/// writing. Each commits a step of the `changes` counter, the change token `watch` compares. A
/// role that may only read opens it for reading; a write is then refused in one line.
final class PostgresStore: SQLStore, StoreWindows, @unchecked Sendable {
    let location: StoreLocation
    /// As messages name it: the connection string without its password.
    let shown: String
    /// Changes, and the tracker's reads.
    let writer: PostgresConnection
    /// The windows of screens (a transaction left open across calls: see `readingAsOne`).
    let reader: PostgresConnection
    /// Whether this role may only read it.
    let isReadOnly: Bool
    /// How many `readingAsOne` calls are open.
    let screens = ScreenNesting()
    /// A third connection, made when first needed: the later half of a long window.
    let side: PostgresSideReader

    private init(location: StoreLocation, shown: String, writer: PostgresConnection, reader: PostgresConnection, side: PostgresSideReader, isReadOnly: Bool) {
        self.location = location
        self.shown = shown
        self.writer = writer
        self.reader = reader
        self.side = side
        self.isReadOnly = isReadOnly
    }

    /// Opens the store `conninfo` names. With `create`, a database without one gets one;
    /// without, that is `.missing`.
    ///
    /// - Throws: `.noClient`, `.connection`, `.missing`, `.newerSchema`, `.readOnlyRole` (when
    ///   the schema must be made or upgraded by a role that may only read), `.failed`.
    static func open(_ location: StoreLocation, conninfo: String, create: Bool) throws(StoreError) -> PostgresStore {
        let shown = location.description
        let writer = try PostgresConnection.connect(conninfo, shown: shown)
        // The reader is connected on another thread while the schema is checked: a connection
        // is mostly waiting for the server to start a process for it. (Only once the writer is
        // connected: a server that cannot be reached is tried once.)
        let pendingReader = Background { () -> Result<PostgresConnection, StoreError> in
            do throws(StoreError) {
                let reader = try PostgresConnection.connect(conninfo, shown: shown)
                do {
                    _ = try reader.execute("SET search_path TO \(PostgresSchema.namespace)")
                } catch {
                    reader.close()
                    throw Self.mapped(error, shown: shown)
                }
                return .success(reader)
            } catch {
                return .failure(error)
            }
        }
        let isReadOnly: Bool
        do throws(StoreError) {
            isReadOnly = try prepareSchema(writer, shown: shown, create: create)
        } catch {
            writer.close()
            if case .success(let reader) = pendingReader.value { reader.close() }
            throw error
        }
        switch pendingReader.value {
        case .success(let reader):
            return PostgresStore(
                location: location, shown: shown, writer: writer, reader: reader, side: PostgresSideReader(conninfo: conninfo, shown: shown),
                isReadOnly: isReadOnly)
        case .failure(let error):
            writer.close()
            throw error
        }
    }

    /// The schema checked on the writer's connection, made or upgraded when it must be; whether
    /// this role may only read.
    private static func prepareSchema(_ writer: PostgresConnection, shown: String, create: Bool) throws(StoreError) -> Bool {
        let state: (applied: [String], writable: Bool)
        do {
            state = try schemaState(writer)
        } catch {
            throw mapped(error, shown: shown)
        }
        if let unknown = Optional(state.applied.filter { !PostgresSchema.known.contains($0) }), !unknown.isEmpty {
            throw .newerSchema(path: shown, found: unknown)
        }
        if state.applied.isEmpty, !create { throw .missing(path: shown) }
        if state.applied.count < PostgresSchema.known.count {
            guard state.writable else {
                guard state.applied.isEmpty else {
                    throw .failed(path: shown, reason: "it was written by an older usage-shell, and this role may only read it, so it cannot be upgraded")
                }
                throw whyNotCreated(writer, shown: shown)
            }
            do {
                try migrate(writer)
            } catch let failure as PostgresFailure where failure.denied && !state.applied.isEmpty {
                // Changing a table or an index is its owner's alone, whatever else was granted.
                throw .failed(
                    path: shown,
                    reason: "it was written by an older usage-shell, and only the role that owns its tables may upgrade it (\(failure.message)); open it once with this usage-shell as that role")
            } catch {
                throw mapped(error, shown: shown)
            }
        }
        return !state.writable
    }

    /// Why this role cannot make the store in a database without one: read-only transactions
    /// (a read-only role, a standby), or no CREATE on the database (its owner can grant it).
    private static func whyNotCreated(_ connection: PostgresConnection, shown: String) -> StoreError {
        guard let asked = try? connection.execute("SELECT current_setting('transaction_read_only'), current_user, current_database()"),
            asked.rows == 1, asked.text(0, 0) == "off"
        else { return .readOnlyRole(path: shown) }
        return .cannotCreate(path: shown, role: asked.text(0, 1), database: asked.text(0, 2))
    }

    /// The search path set, then the migrations the database holds and whether this role may
    /// write to it: one round trip for a store that exists (the usual case), the longer way
    /// for a database without one yet.
    private static func schemaState(_ connection: PostgresConnection) throws -> (applied: [String], writable: Bool) {
        let known = try? connection.script(
            """
            SET search_path TO \(PostgresSchema.namespace);
            SELECT identifier, has_table_privilege('\(PostgresSchema.namespace).migrations', 'INSERT')
                AND current_setting('transaction_read_only') = 'off'
            FROM migrations ORDER BY ordinal
            """)
        if let known, known.rows > 0 {
            return ((0..<known.rows).map { known.text($0, 0) }, known.text(0, 1) == "t")
        }
        // No migrations table (the failed statement took the SET back with it) or an empty one.
        _ = try connection.execute("SET search_path TO \(PostgresSchema.namespace)")
        let present = try connection.execute(
            "SELECT to_regclass($1) IS NOT NULL", [PostgresSchema.namespace + ".migrations"])
        let hasTable = present.text(0, 0) == "t"
        var applied: [String] = []
        if hasTable {
            let rows = try connection.execute("SELECT identifier FROM migrations ORDER BY ordinal")
            applied = (0..<rows.rows).map { rows.text($0, 0) }
        }
        let check =
            hasTable
            ? "SELECT has_table_privilege('\(PostgresSchema.namespace).migrations', 'INSERT') AND current_setting('transaction_read_only') = 'off'"
            : "SELECT has_database_privilege(current_database(), 'CREATE') AND current_setting('transaction_read_only') = 'off'"
        let writable = try connection.execute(check)
        return (applied, writable.text(0, 0) == "t")
    }

    /// Makes or upgrades the schema in one transaction, under the writer lock (two machines
    /// opening a new store at once make it once).
    private static func migrate(_ connection: PostgresConnection) throws {
        try connection.exclusive { held in
            _ = try held.execute("BEGIN")
            do {
                _ = try held.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
                // Made when missing only: either needs CREATE, which a role that may write an
                // existing store's rows (and so apply a migration of rows alone) need not have.
                if try held.execute("SELECT to_regclass($1) IS NULL", [PostgresSchema.namespace + ".migrations"]).text(0, 0) == "t" {
                    _ = try held.execute("CREATE SCHEMA IF NOT EXISTS \(PostgresSchema.namespace)")
                    _ = try held.execute(
                        "CREATE TABLE IF NOT EXISTS migrations (ordinal INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE)")
                }
                let rows = try held.execute("SELECT identifier FROM migrations")
                let applied = Set((0..<rows.rows).map { rows.text($0, 0) })
                for (ordinal, migration) in PostgresSchema.migrations.enumerated() where !applied.contains(migration.name) {
                    let tx = PostgresTransaction(held: held)
                    try migration.run(.postgres, tx) { try KeptTotals.fill(tx) }
                    _ = try held.execute("INSERT INTO migrations (ordinal, identifier) VALUES ($1, $2)", [String(ordinal + 1), migration.name])
                }
                _ = try held.execute("COMMIT")
            } catch {
                _ = try? held.execute("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: Reads and changes, as the shared code takes them

    func snapshot<T>(_ body: (any SQLTransaction) throws -> T) throws -> T {
        try writer.exclusive { held in
            _ = try held.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let result = try body(PostgresTransaction(held: held))
                _ = try held.execute("COMMIT")
                return result
            } catch {
                _ = try? held.execute("ROLLBACK")
                throw error
            }
        }
    }

    func change<T>(_ body: (any SQLTransaction) throws -> T) throws -> T {
        try changeHeld { held in try body(PostgresTransaction(held: held)) }
    }

    /// A change on the writer's connection itself (the import's COPY), in one transaction under
    /// the writer lock, the change counter stepped; the screen under way then reads anew. Its
    /// transaction ends before the change too: it holds the tables, which a large import locks.
    func changeHeld<T>(_ body: (PostgresConnection.Held) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError.readOnlyRole(path: shown) }
        endScreenTransaction()
        let result = try writer.exclusive { held in
            _ = try held.execute("BEGIN")
            do {
                _ = try held.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
                let result = try body(held)
                _ = try held.execute(
                    "INSERT INTO meta (key, value) VALUES ('\(Meta.changes)', 1) ON CONFLICT (key) DO UPDATE SET value = meta.value + 1")
                _ = try held.execute("COMMIT")
                return result
            } catch {
                _ = try? held.execute("ROLLBACK")
                // A privilege refused here refused a change: the advice is how to let it write.
                if var failure = error as? PostgresFailure, failure.denied {
                    failure.writing = true
                    throw failure
                }
                throw error
            }
        }
        endScreenTransaction()
        return result
    }

    func mapped(_ error: any Error) -> StoreError {
        Self.mapped(error, shown: shown)
    }

    /// The server's and libpq's errors as the store's.
    static func mapped(_ error: any Error, shown: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let failure = error as? PostgresFailure else { return .failed(path: shown, reason: "\(error)") }
        if failure.readOnly { return .readOnlyRole(path: shown) }
        if failure.denied { return .denied(path: shown, reason: failure.message, role: failure.role, writing: failure.writing) }
        if failure.connectionLost { return .connection(path: shown, reason: "the connection to the server was lost (\(failure.message)); nothing was changed") }
        if failure.state == "40P01" || failure.state == "55P03" {
            return .failed(path: shown, reason: "another client kept it busy; try again")
        }
        return .failed(path: shown, reason: failure.description)
    }

    // MARK: What only PostgreSQL does its own way

    func summary(zone: Zone) throws(StoreError) -> StoreSummary {
        let bytes = try read { tx in
            try tx.int(
                """
                SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'
                """, [.text(PostgresSchema.namespace)]) ?? 0
        }
        return try summary(zone: zone, bytes: bytes, readOnly: isReadOnly)
    }

    func rangeTotals(_ bounds: DayBounds, detail: Bool, device: String?) throws(StoreError) -> RangeTotals {
        try read { tx in
            try KeptTotals.range(bounds, detail: detail, device: try KeptTotals.deviceID(device, location: location, tx), upToRow: nil, tx)
        } ?? .empty(days: bounds.count)
    }

    /// The server gives freed space back itself (autovacuum).
    @discardableResult
    func forget(endingBefore cut: Micros) throws(StoreError) -> Int {
        try write { tx in try Retention.forget(tx, endingBefore: cut) }
    }

    /// Every connection closed.
    func close() {
        writer.close()
        reader.close()
        side.close()
    }
}
