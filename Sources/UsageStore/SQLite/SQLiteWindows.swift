// SQLiteWindows.swift — what a StoreHistory reads of a SQLite store, on the reader connection: the names and facts of a snapshot, a window's rows through the start index (read with SQLite's C API, no object a row), and a screen's reads kept in one transaction.
import GRDB
import GRDBSQLite
import UsageCore

extension SQLiteStore {
    func facts(device: String?) throws(StoreError) -> StoreHistory.Facts {
        try readerSnapshot { db in
            let apps = try Self.namesByID(db, table: "app")
            let categories = try Self.namesByID(db, table: "category")
            let tx = GRDBTransaction(db: db)
            let count = try Meta.get(tx, Meta.sessions) ?? 0
            let latestEnd = try Meta.get(tx, Meta.latestEnd)
            let longest = try Meta.get(tx, Meta.longest) ?? 0
            let lastRow = try Int64.fetchOne(db, sql: "SELECT max(id) FROM session") ?? 0
            let first = try Int64.fetchOne(db, sql: "SELECT min(start) FROM session")
            let latestStart = try Int64.fetchOne(db, sql: "SELECT max(start) FROM session")
            let all = StoreHistory.Facts(
                apps: apps, categories: categories, sessionCount: Int(count), span: first.flatMap { f in latestEnd.map { (f, $0) } },
                latestStart: latestStart, longest: longest, lastRow: lastRow)
            return try StoreHistory.narrowed(all, to: device, location: location, tx)
        }
    }

    /// Names by id (`id - 1`); ids are never reused, names never deleted.
    private static func namesByID(_ db: Database, table: String) throws -> [String] {
        var names: [String] = []
        for (id, name) in try SQLiteStore.names(db, table: table) {
            while names.count < Int(id) - 1 { names.append(Normalise.unknownApp) }
            names.append(name)
        }
        return names
    }

    /// The rows touching `[from, to)`: those starting from a day before `from` (through the
    /// start index), and the longer ones starting earlier (through their own index).
    func columns(from: Micros, to: Micros, ids: Bool, facts: StoreHistory.Facts) throws(StoreError) -> (SessionColumns, version: Int64) {
        let long = StoreHistory.longSession
        let (earliest, overflow) = from.subtractingReportingOverflow(long)
        let recentFrom = overflow ? Int64.min : earliest
        let (apps, categories, lastRow, longest) = (facts.apps.count, facts.categories.count, facts.lastRow, facts.longest)
        return try readerSnapshot { db -> (SessionColumns, version: Int64) in
            let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            var columns = SessionColumns()
            func collect(_ sql: String, _ arguments: [Int64]) throws {
                let statement = try db.makeStatement(sql: sql)
                let s = statement.sqliteStatement
                for (k, value) in arguments.enumerated() { sqlite3_bind_int64(s, Int32(k + 1), value) }
                while try Self.step(s, db) {
                    let start = sqlite3_column_int64(s, 0)
                    let end = start + sqlite3_column_int64(s, 1)
                    let app = Int(sqlite3_column_int64(s, 2)) - 1
                    let category = Int(sqlite3_column_int64(s, 3)) - 1
                    // Names added after the snapshot belong to sessions it does not show.
                    guard app >= 0, app < apps, category >= 0, category < categories else { continue }
                    var id: String?
                    if ids, let text = sqlite3_column_text(s, 4) {
                        id = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(s, 4))), as: UTF8.self)
                    }
                    columns.append(start: start, end: end, app: Int32(app), category: Int32(category), id: id)
                }
            }
            let (window, nulled) = (SessionRows.store.window, ids ? nil : SessionRows.windowID)
            let (device, onDevice) = (StoreHistory.deviceCondition(facts), facts.device.map { [$0] } ?? [])
            try collect(
                window.select("WHERE start >= ? AND start < ? AND start + length > ? AND id <= ?\(device) ORDER BY start", nulling: nulled),
                [recentFrom, to, from, lastRow] + onDevice)
            if longest > long, !overflow {
                try collect(
                    window.select("WHERE length > \(long) AND start < ? AND start + length > ? AND id <= ?\(device)", nulling: nulled),
                    [recentFrom, from, lastRow] + onDevice)
            }
            return (columns.sortedByStart(), version)
        }
    }

    func readVersion() throws(StoreError) -> Int64 {
        try readerSnapshot { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    func latestCategory(ofApp app: Int32) throws(StoreError) -> Int32? {
        try readerSnapshot { db in
            try Int64.fetchOne(db, sql: "SELECT category FROM app_latest WHERE app = ?", arguments: [Int64(app) + 1])
        }.map { Int32($0 - 1) }
    }

    // MARK: One screen, one transaction

    /// Runs `body` as one screen: the reader's transaction begins at its first read and ends
    /// with it (or when this store commits a change meanwhile: the screen's later reads see
    /// the change it made).
    func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try screens.run(body, end: endScreenTransaction)
    }

    /// `readerTransaction`, its errors as the store's.
    func readerSnapshot<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try readerTransaction(body)
        } catch {
            throw mapped(error)
        }
    }

    /// A read on the reader: inside a screen, in the screen's transaction (begun by the first
    /// read); else in a transaction of its own.
    func readerTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        let inScreen = screens.inScreen
        return try reader.inDatabase { db in
            if db.isInsideTransaction { return try body(db) }
            try db.execute(sql: "BEGIN DEFERRED")
            if inScreen { return try body(db) }
            do {
                let result = try body(db)
                try db.execute(sql: "COMMIT")
                return result
            } catch {
                try? db.execute(sql: "ROLLBACK")
                throw error
            }
        }
    }

    /// Ends the screen's transaction on the reader, if one is open.
    func endScreenTransaction() {
        reader.inDatabase { db in
            if db.isInsideTransaction { try? db.execute(sql: "COMMIT") }
        }
    }
}
