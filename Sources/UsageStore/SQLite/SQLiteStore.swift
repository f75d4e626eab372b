// SQLiteStore.swift — the store in a SQLite file (the embedded default), through GRDB over the system's libsqlite3: one connection for changes and one for reading screens, opened once per file and process; its reads, changes and errors as the shared store code takes them.
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import UsageCore

#if canImport(Glibc)
    import Glibc
#endif

/// One usage-shell store in a SQLite file.
///
/// Every change is one transaction. Two processes may use it at once: SQLite's write-ahead log
/// lets readers read while a writer writes, and a writer waits up to `busyTimeout` for another.
/// Opening it writes nothing: a store that is only read keeps every byte. A file that is not a
/// store of ours (not SQLite, damaged, another program's database, a newer schema) is refused
/// with one line and never written.
///
/// It holds two connections, as GRDB's pool does: the writer, for changes and the tracker's
/// reads, and a reader, for the charts' windows, which a screen reads in one transaction while
/// the writer may commit (`readingAsOne`). A store that can only be read has the reader alone.
final class SQLiteStore: SQLStore, StoreWindows, @unchecked Sendable {
    let location: StoreLocation
    /// The database file.
    let path: String
    /// Whether it can only be read (a read-only file or folder).
    let isReadOnly: Bool
    /// Changes, and the tracker's reads; nil when it can only be read.
    let writer: DatabaseQueue?
    /// The windows of screens (transactions left open across calls: see `readingAsOne`).
    let reader: DatabaseQueue
    /// How many `readingAsOne` calls are open (a screen may nest histories of one store).
    let screens = ScreenNesting()

    /// How long a write waits for another process's write to end, in seconds.
    static let busyTimeout: TimeInterval = 60

    /// Whether this opening made the file (it was not there): a cancelled import may then take
    /// it away again (SQLiteDiscard.swift).
    let made: Bool

    init(path: String, isReadOnly: Bool, writer: DatabaseQueue?, reader: DatabaseQueue, made: Bool = false) {
        self.location = .sqlite(path: path)
        self.path = path
        self.isReadOnly = isReadOnly
        self.writer = writer
        self.reader = reader
        self.made = made
    }

    // MARK: Reads and changes, as the shared code takes them

    func snapshot<T>(_ body: (any SQLTransaction) throws -> T) throws -> T {
        guard let writer else { return try readerTransaction { try body(GRDBTransaction(db: $0)) } }
        return try writer.read { try body(GRDBTransaction(db: $0)) }
    }

    func change<T>(_ body: (any SQLTransaction) throws -> T) throws -> T {
        try changeDatabase { try body(GRDBTransaction(db: $0)) }
    }

    /// A change on the writer's own connection (the import's bulk statements), in one
    /// IMMEDIATE transaction; the screen under way then reads anew, so that it sees it.
    func changeDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        guard let writer else { throw StoreError.readOnly(path: path) }
        let result = try writer.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
        endScreenTransaction()
        return result
    }

    func mapped(_ error: any Error) -> StoreError {
        Self.mapped(error, path: path)
    }

    /// Reads with GRDB itself, in one snapshot (on the writer, else the reader).
    func readDatabase<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            guard let writer else { return try readerTransaction(body) }
            return try writer.read(body)
        } catch {
            throw mapped(error)
        }
    }

    /// A store nobody holds any more is closed (a copy's target, say): GRDB's own release
    /// leaves its cached statements, and SQLite then never writes the log into the file.
    deinit { close() }

    /// Closes both connections (the last to close checkpoints the write-ahead log into the
    /// file and removes it); the store is not used again.
    func close() {
        try? reader.close()
        try? writer?.close()
    }

    /// Changes with GRDB itself, in one transaction; errors as the store's.
    func writeDatabase<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try changeDatabase(body)
        } catch {
            throw mapped(error)
        }
    }

    /// SQLite's and GRDB's errors as the store's.
    static func mapped(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else { return .failed(path: path, reason: "\(error)") }
        switch error.resultCode {
        case .SQLITE_NOTADB: return .notADatabase(path: path)
        case .SQLITE_CORRUPT: return .corrupt(path: path, detail: error.message ?? "corrupt")
        case .SQLITE_READONLY: return .readOnly(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .failed(path: path, reason: "another process kept it busy for more than \(Int(busyTimeout)) s; try again")
        case .SQLITE_FULL: return .failed(path: path, reason: "the disk is full; nothing was changed")
        default: return .failed(path: path, reason: error.message ?? "\(error)")
        }
    }

    // MARK: What only SQLite does its own way

    /// `bytes` is what the database holds, its pages (the file's size once its write-ahead log is
    /// checkpointed, at the latest when the last connection closes): not the file and its log
    /// added, which after a `forget` of everything still counted every page the log held
    /// (issue 51: `0 sessions from 30 apps, size 34.7 MB`).
    func summary(zone: Zone) throws(StoreError) -> StoreSummary {
        let bytes = try read { tx in try tx.int("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()") ?? 0 }
        return try summary(zone: zone, bytes: bytes, readOnly: isReadOnly)
    }

    func rangeTotals(_ bounds: DayBounds, detail: Bool, device: String?) throws(StoreError) -> RangeTotals {
        let id = try read { tx in try KeptTotals.deviceID(device, location: location, tx) }
        // Without a row bound it always answers.
        return try keptRangeTotals(bounds, detail: detail, device: id, upToRow: nil) ?? .empty(days: bounds.count)
    }

    @discardableResult
    func forget(endingBefore cut: Micros) throws(StoreError) -> Int {
        let deleted = try write { tx in try Retention.forget(tx, endingBefore: cut) }
        if deleted > 0 { try giveSpaceBack() }
        return deleted
    }

    /// Returns freed pages to the file system (the store was made with incremental auto-vacuum).
    func giveSpaceBack() throws(StoreError) {
        guard let writer else { return }
        do {
            try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA incremental_vacuum") }
        } catch {
            throw mapped(error)
        }
    }
}

/// One transaction on a GRDB connection, as the shared store code takes it.
struct GRDBTransaction: SQLTransaction {
    let db: Database

    /// Stepped here rather than by GRDB: GRDB reads text up to its first NUL (a C string) and
    /// binds a `String` the same way, and the store keeps names and ids with NULs whole (a copy
    /// lost what followed one; a device or task name was cut where it was written).
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let statement = try prepared(sql, arguments)
        return try withExtendedLifetime(statement) {
            let s = statement.sqliteStatement
            let names = (0..<sqlite3_column_count(s)).map { String(cString: sqlite3_column_name(s, $0)) }
            var rows: [SQLRow] = []
            while try SQLiteStore.step(s, db) {
                rows.append(SQLRow(columns: names, values: names.indices.map { SQLValue(column: Int32($0), of: s) }))
            }
            return rows
        }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        let statement = try prepared(sql, arguments)
        try withExtendedLifetime(statement) {
            while try SQLiteStore.step(statement.sqliteStatement, db) {}
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// One statement with `arguments` bound here, each once: text by its length.
    private func prepared(_ sql: String, _ arguments: [SQLValue]) throws -> Statement {
        let statement = try db.makeStatement(sql: sql)
        let s = statement.sqliteStatement
        guard sqlite3_bind_parameter_count(s) == Int32(arguments.count) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.count)")
        }
        for (k, value) in arguments.enumerated() {
            let index = Int32(k + 1)
            switch value {
            case .null: sqlite3_bind_null(s, index)
            case .integer(let v): sqlite3_bind_int64(s, index, v)
            case .real(let v): sqlite3_bind_double(s, index, v)
            case .text(var text): text.withUTF8 { SQLiteStore.bindText(s, index, $0) }
            }
        }
        return statement
    }
}

extension SQLValue {
    /// Column `column` of the row `statement` stands on; text whole, by its length (a blob,
    /// which the store never writes, as text).
    init(column: Int32, of statement: SQLiteStatement) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_NULL: self = .null
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, column))
        default:
            let start = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            self = .text(start.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        }
    }
}
