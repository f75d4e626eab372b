// SQLiteImport.swift — an import's bulk reads and writes on SQLite (the rules are StoreImporter's): its transaction with a larger page cache (stopped by a cancellation through the progress handler), the device's stored keys within the load's starts read through SQLite's C API (most of the store in one pass over the table), new rows inserted 64 to a statement in start order, names bound whole.
import GRDB
import GRDBSQLite
import UsageCore

extension SQLiteStore {
    /// An import or a copy in one transaction: a failure (or a kill) leaves the store as it was.
    /// Once `cancellation` is cancelled, the statement under way stops (SQLite's progress
    /// handler, which looks at it every few thousand steps of SQLite's machine) and the
    /// transaction is rolled back; the handler is gone before the rollback and the commit.
    func bulkChange<T>(cancellation: CancellationToken?, _ body: (SQLiteImportBackend) throws -> T) throws -> T {
        try changeDatabase { db in
            // A bulk change touches many pages: let SQLite keep them in memory rather than read
            // them back from the file system (the default cache is 2,000 pages).
            try db.execute(sql: "PRAGMA cache_size = -131072")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            guard let cancellation else { return try body(SQLiteImportBackend(db: db)) }
            return try withExtendedLifetime(cancellation) {
                sqlite3_progress_handler(db.sqliteConnection, 4096, { token in
                    Unmanaged<CancellationToken>.fromOpaque(token!).takeUnretainedValue().isCancelled ? 1 : 0
                }, Unmanaged.passUnretained(cancellation).toOpaque())
                defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
                return try body(SQLiteImportBackend(db: db))
            }
        }
    }

    /// Nothing to do once it committed: SQLite's reads need no upkeep after one.
    func afterBulkChange(rows: Int) {}
}

/// An import's bulk work on one SQLite connection, inside its transaction.
struct SQLiteImportBackend: ImportBackend {
    let db: Database
    var tx: any SQLTransaction { GRDBTransaction(db: db) }

    func names(_ table: String) throws -> [(id: Int64, name: String)] {
        try SQLiteStore.names(db, table: table)
    }

    /// Inserts a name with its byte count (a name may hold a NUL, where a C string would end).
    func insertName(_ name: String, into table: String) throws -> Int64 {
        let statement = try db.makeStatement(sql: "INSERT INTO \(table) (name) VALUES (?)")
        let s = statement.sqliteStatement
        var text = name
        text.withUTF8 { SQLiteStore.bindText(s, 1, $0) }
        _ = try SQLiteStore.step(s, db)
        return db.lastInsertedRowID
    }

    func storedSessions(of device: Int64, starts: ClosedRange<Int64>, within: Int64, total: Int64) throws -> [Int64: StoredSession] {
        try SQLiteStore.storedSessions(of: device, starts: starts, within: within, total: total, db)
    }

    func storedID(row: Int64, equals id: UnsafeBufferPointer<UInt8>) throws -> Bool {
        try SQLiteStore.storedID(row: row, try db.cachedStatement(sql: "SELECT ext_id FROM session WHERE id = ?"), db, equals: id)
    }

    func carryOut(_ plan: ImportPlan, _ dataset: Dataset, source: Int64, device: Int64, apps: [Int64], categories: [Int64]) throws {
        try SQLiteStore.carryOut(plan, dataset, source: source, device: device, apps: apps, categories: categories, db)
    }
}

extension SQLiteStore {
    /// What the store holds already of a device's sessions that start in `starts`, by key
    /// (integers only: reading every id's text would cost as much again; a key that matches
    /// with other content has its id read to tell an update from a collision). When they are
    /// most of the store (`within` of `total`), they are read in one pass over the table rather
    /// than through the start index, row by row.
    static func storedSessions(of device: Int64, starts: ClosedRange<Int64>, within: Int64, total: Int64, _ db: Database) throws -> [Int64: StoredSession] {
        var stored: [Int64: StoredSession] = [:]
        stored.reserveCapacity(Int(within))
        let table = within * 2 >= total && within > 0 ? "session NOT INDEXED" : "session INDEXED BY session_start"
        let statement = try db.makeStatement(sql: SessionRows.store.stored.select("WHERE start BETWEEN ? AND ? AND device = ?", from: table))
        let s = statement.sqliteStatement
        sqlite3_bind_int64(s, 1, starts.lowerBound)
        sqlite3_bind_int64(s, 2, starts.upperBound)
        sqlite3_bind_int64(s, 3, device)
        while try step(s, db) {
            stored[sqlite3_column_int64(s, 0)] = StoredSession(
                row: sqlite3_column_int64(s, 1), app: sqlite3_column_int64(s, 2), category: sqlite3_column_int64(s, 3),
                start: sqlite3_column_int64(s, 4), length: sqlite3_column_int64(s, 5))
        }
        return stored
    }

    /// Carries out a plan: new sessions inserted (in the load's order, which is the start
    /// index's, so its entries are appended), changed ones updated in place.
    static func carryOut(
        _ plan: ImportPlan, _ dataset: Dataset, source: Int64, device: Int64, apps: [Int64], categories: [Int64], _ db: Database
    ) throws {
        let sessions = dataset.sessions
        // Ids from one past the largest ever given (SessionIDs), not SQLite's max + 1: an
        // import's range of ids then holds its sessions alone (`forget import N`).
        let tx = GRDBTransaction(db: db)
        var nextID = try SessionIDs.next(tx)
        let rows = SessionRows.store
        let (written, updated) = (NewSessionRow.fields(rows.written), NewSessionRow.fields(rows.updated))
        let one = try db.makeStatement(sql: rows.written.insert())
        // Rows go in by batches: one statement step for many rows costs SQLite far less than one a row.
        let batchRows = 64
        let batch = try db.makeStatement(sql: rows.written.insert(rows: batchRows))
        let update = try db.makeStatement(sql: rows.updated.update(key: "id"))
        var pending: [Int] = []
        pending.reserveCapacity(batchRows)
        func flush(_ statement: Statement, _ rows: ArraySlice<Int>, _ ids: UsageCore.SessionIDs) throws {
            let s = statement.sqliteStatement
            sqlite3_reset(s)
            var binder = SQLiteRowBinder(statement: s)
            for k in rows {
                NewSessionRow.imported(sessions, ids, k, id: nextID, key: plan.keys[k], source: source, device: device, apps: apps, categories: categories)
                    .write(written, to: &binder)
                nextID += 1
            }
            _ = try step(s, db)
        }
        try sessions.withIDs { ids in
            for k in sessions.indices {
                switch plan.actions[k] {
                case ImportPlan.insert:
                    pending.append(k)
                    if pending.count == batchRows {
                        try flush(batch, pending[...], ids)
                        pending.removeAll(keepingCapacity: true)
                    }
                case ImportPlan.update:
                    let s = update.sqliteStatement
                    sqlite3_reset(s)
                    var binder = SQLiteRowBinder(statement: s)
                    let row = NewSessionRow.imported(
                        sessions, ids, k, id: plan.updates[k]!, key: plan.keys[k], source: source, device: device, apps: apps, categories: categories)
                    row.write(updated, to: &binder)
                    binder.bigint(row.id)
                    _ = try step(s, db)
                default:
                    break
                }
            }
            for k in pending { try flush(one, [k][...], ids) }
        }
        try SessionIDs.took(nextID - 1, tx)
    }

    /// The names of `app` or `category` by id, read by their byte count: a name may hold a NUL,
    /// which a C string would end at.
    static func names(_ db: Database, table: String) throws -> [(id: Int64, name: String)] {
        let statement = try db.makeStatement(sql: "SELECT id, name FROM \(table) ORDER BY id")
        let s = statement.sqliteStatement
        var names: [(Int64, String)] = []
        while try step(s, db) {
            let text = sqlite3_column_text(s, 1)
            let name = text.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(s, 1))), as: UTF8.self) } ?? ""
            names.append((sqlite3_column_int64(s, 0), name))
        }
        return names
    }

    /// Binds UTF-8 bytes as text, all of them (a NUL included), copied at once.
    static func bindText(_ s: SQLiteStatement, _ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        bytes.withMemoryRebound(to: CChar.self) { text in
            // A buffer of no bytes may have no address: an empty text is bound as "".
            if let base = text.baseAddress {
                _ = sqlite3_bind_text(s, index, base, Int32(text.count), SQLITE_TRANSIENT_VALUE)
            } else {
                _ = sqlite3_bind_text(s, index, "", 0, SQLITE_TRANSIENT_VALUE)
            }
        }
    }

    /// One step of a statement: true while it gives rows.
    static func step(_ s: SQLiteStatement, _ db: Database) throws -> Bool {
        switch sqlite3_step(s) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    /// Whether the stored session of `row` has the id `id`.
    static func storedID(row: Int64, _ statement: Statement, _ db: Database, equals id: UnsafeBufferPointer<UInt8>) throws -> Bool {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, row)
        guard try step(s, db), let text = sqlite3_column_text(s, 0) else { return false }
        let stored = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(s, 0)))
        return stored.elementsEqual(id)
    }
}

/// A row's fields bound to a statement's parameters in order, from the first on (a batch's
/// rows one after another).
struct SQLiteRowBinder: SessionRowSink {
    let statement: SQLiteStatement
    var index: Int32 = 1

    mutating func bigint(_ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
        index += 1
    }

    mutating func integer(_ value: Int32?) {
        if let value { sqlite3_bind_int64(statement, index, Int64(value)) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }

    mutating func text(_ value: UnsafeBufferPointer<UInt8>?) {
        if let value { SQLiteStore.bindText(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }
}

/// SQLite copies bound text at once (`SQLITE_TRANSIENT`), as the bytes do not outlive the call.
let SQLITE_TRANSIENT_VALUE = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
