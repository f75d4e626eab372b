// StoreImport.swift — puts loaded sessions into the store, each once: keyed by its source and its own identity (id, start or content), added when new, updated in place when it changed (a growing ActivityWatch event), counted unchanged otherwise; all sources in one transaction.
import GRDB
import GRDBSQLite
import UsageCore

/// One source to import: its sessions and what makes it the same source next time.
public struct ImportSource: Sendable {
    /// What makes it the same source: an absolute path, a URL, `aw://HOST:PORT`.
    public let identity: String
    /// As the user named it (for messages).
    public let shown: String
    /// Its sessions, category rules applied.
    public let dataset: Dataset

    public init(identity: String, shown: String, dataset: Dataset) {
        self.identity = identity
        self.shown = shown
        self.dataset = dataset
    }
}

extension Store {
    /// Imports every source in one transaction: a failure (or a kill) leaves the store as it
    /// was. `now` and `zone` place the retention cut, applied afterwards when one is set.
    public func importSessions(_ sources: [ImportSource], now: Micros, zone: Zone) throws(StoreError) -> ImportSummary {
        try write { db in
            // An import touches many pages: let SQLite keep them in memory rather than read them
            // back from the file system (the default cache is 2,000 pages).
            try db.execute(sql: "PRAGMA cache_size = -131072")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            var names = try NameIDs(db)
            var results: [ImportResult] = []
            var added = 0
            var latestEnd = try Store.meta(db, MetaKey.latestEnd) ?? Int64.min
            var longest = try Store.meta(db, MetaKey.longest) ?? 0
            for source in sources {
                let result = try importOne(source, db: db, names: &names, now: now)
                added += result.added
                results.append(result)
                if let span = source.dataset.span { latestEnd = max(latestEnd, span.end) }
                longest = max(longest, source.dataset.longestSession)
            }
            let count = (try Store.meta(db, MetaKey.sessions) ?? 0) + Int64(added)
            try Store.setMeta(db, MetaKey.sessions, count)
            if latestEnd > Int64.min { try Store.setMeta(db, MetaKey.latestEnd, latestEnd) }
            try Store.setMeta(db, MetaKey.longest, longest)
            let forgotten = try applyRetention(db, now: now, zone: zone)
            return ImportSummary(
                path: path, sources: results, forgotten: forgotten,
                retentionDays: try Store.meta(db, MetaKey.retentionDays).map(Int.init), sessions: Int(count) - forgotten)
        }
    }

    /// A stored session, as far as the import compares it.
    private struct Stored {
        let row: Int64
        let app: Int64
        let category: Int64
        let start: Int64
        let length: Int64
    }

    private func importOne(_ source: ImportSource, db: Database, names: inout NameIDs, now: Micros) throws -> ImportResult {
        try db.execute(
            sql: """
                INSERT INTO source (name, shown, first_import, last_import, imports) VALUES (?, ?, ?, ?, 1)
                ON CONFLICT(name) DO UPDATE SET shown = excluded.shown, last_import = excluded.last_import, imports = imports + 1
                """,
            arguments: [source.identity, source.shown, now, now])
        let sourceID = try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE name = ?", arguments: [source.identity])!
        let dataset = source.dataset
        let appIDs = try dataset.apps.map { try names.app($0, db: db) }
        let categoryIDs = try dataset.categories.map { try names.category($0, db: db) }

        // What the store holds of this source already, by key (integers only: reading every
        // id's text would cost as much again; a key that matches with other content has its
        // id read, below, to tell an update from a collision).
        var stored: [Int64: Stored] = [:]
        let had = try Int64.fetchOne(db, sql: "SELECT sessions FROM source WHERE id = ?", arguments: [sourceID]) ?? 0
        if had > 0 {
            stored.reserveCapacity(Int(had))
            let statement = try db.makeStatement(sql: "SELECT key, id, app, category, start, length FROM session WHERE source = ?")
            let s = statement.sqliteStatement
            sqlite3_bind_int64(s, 1, sourceID)
            while try Self.step(s, db) {
                stored[sqlite3_column_int64(s, 0)] = Stored(
                    row: sqlite3_column_int64(s, 1), app: sqlite3_column_int64(s, 2), category: sqlite3_column_int64(s, 3),
                    start: sqlite3_column_int64(s, 4), length: sqlite3_column_int64(s, 5))
            }
        }
        let idOfRow = try db.makeStatement(sql: "SELECT ext_id FROM session WHERE id = ?")

        var result = ImportResult(source: source.shown, skipped: dataset.skipped)
        let insert = try db.makeStatement(
            sql: "INSERT INTO session (source, key, app, category, start, length, ext_id, start_offset, end_offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let update = try db.makeStatement(sql: "UPDATE session SET app = ?, category = ?, start = ?, length = ?, ext_id = ? WHERE id = ?")
        // Keys written new by this import (a 64-bit collision among them is looked past).
        var added = Set<Int64>(minimumCapacity: max(0, dataset.sessionCount - stored.count))
        // How often each identity came so far: a repeated id is a second session, kept apart.
        var occurrences: [UInt64: Int32] = [:]
        occurrences.reserveCapacity(dataset.sessionCount)
        var latestOfApp = [(start: Int64, category: Int64)?](repeating: nil, count: dataset.apps.count)
        let all = dataset.all
        for session in all {
            let app = appIDs[Int(session.app)]
            let category = categoryIDs[Int(session.category)]
            let start = session.start
            let length = session.end - session.start
            try all.withID(of: session) { (id: UnsafeBufferPointer<UInt8>?) throws in
                // How the source tells this session apart.
                let kind: Int64
                var base = IdentityHash()
                if dataset.identity == .byStart {
                    kind = 2
                    base.add(start)
                } else if let id {
                    kind = 0
                    base.add(id)
                } else {
                    kind = 1
                    base.add(app)
                    base.add(category)
                    base.add(start)
                    base.add(length)
                }
                let occurrence = occurrences[base.value, default: 0]
                occurrences[base.value] = occurrence + 1
                var probe = 0
                while true {
                    let key = base.key(kind: kind, occurrence: Int(occurrence), probe: probe)
                    // A stored session is matched once: it leaves `stored` when it is.
                    if let old = stored.removeValue(forKey: key) {
                        let same = old.app == app && old.category == category && old.start == start && old.length == length
                        if same {
                            result.unchanged += 1
                        } else if kind == 2 ? old.start == start : kind == 0 ? try Self.storedID(row: old.row, idOfRow, db, equals: id!) : false {
                            try Self.update(update, db, row: old.row, app: app, category: category, start: start, length: length, id: id!)
                            result.updated += 1
                        } else {
                            // Another session's key (a collision of 64-bit hashes): look further.
                            stored[key] = old
                            probe += 1
                            continue
                        }
                    } else if added.insert(key).inserted {
                        try Self.insert(
                            insert, db, source: sourceID, key: key, app: app, category: category, start: start, length: length, id: id,
                            offsets: all.offsets(of: session))
                        result.added += 1
                    } else {
                        probe += 1
                        continue
                    }
                    break
                }
            }
            if start >= latestOfApp[Int(session.app)]?.start ?? Int64.min { latestOfApp[Int(session.app)] = (start, category) }
        }
        try db.execute(sql: "UPDATE source SET sessions = sessions + ? WHERE id = ?", arguments: [result.added, sourceID])
        let latest = try db.makeStatement(
            sql: """
                INSERT INTO app_latest (app, category, start) VALUES (?, ?, ?)
                ON CONFLICT(app) DO UPDATE SET category = excluded.category, start = excluded.start WHERE excluded.start >= start
                """)
        for (k, newest) in latestOfApp.enumerated() {
            guard let newest else { continue }
            try latest.execute(arguments: [appIDs[k], newest.category, newest.start])
        }
        return result
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
    private static func storedID(row: Int64, _ statement: Statement, _ db: Database, equals id: UnsafeBufferPointer<UInt8>) throws -> Bool {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, row)
        guard try step(s, db), let text = sqlite3_column_text(s, 0) else { return false }
        let stored = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(s, 0)))
        return stored.elementsEqual(id)
    }

    private static func update(
        _ statement: Statement, _ db: Database, row: Int64, app: Int64, category: Int64, start: Int64, length: Int64,
        id: UnsafeBufferPointer<UInt8>
    ) throws {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, app)
        sqlite3_bind_int64(s, 2, category)
        sqlite3_bind_int64(s, 3, start)
        sqlite3_bind_int64(s, 4, length)
        bindText(s, 5, id)
        sqlite3_bind_int64(s, 6, row)
        _ = try step(s, db)
    }

    private static func insert(
        _ statement: Statement, _ db: Database, source: Int64, key: Int64, app: Int64, category: Int64, start: Int64, length: Int64,
        id: UnsafeBufferPointer<UInt8>?, offsets: UTCOffsets
    ) throws {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, source)
        sqlite3_bind_int64(s, 2, key)
        sqlite3_bind_int64(s, 3, app)
        sqlite3_bind_int64(s, 4, category)
        sqlite3_bind_int64(s, 5, start)
        sqlite3_bind_int64(s, 6, length)
        if let id {
            bindText(s, 7, id)
        } else {
            sqlite3_bind_null(s, 7)
        }
        for (index, minutes) in [(Int32(8), offsets.start), (9, offsets.end)] {
            if let minutes { sqlite3_bind_int64(s, index, Int64(minutes)) } else { sqlite3_bind_null(s, index) }
        }
        guard !(try step(s, db)) else { return }
    }
}

/// SQLite copies bound text at once (`SQLITE_TRANSIENT`), as the bytes do not outlive the call.
let SQLITE_TRANSIENT_VALUE = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The ids of app and category names in the store, made on first use (names are stored once).
struct NameIDs {
    private var apps: [ExactName: Int64] = [:]
    private var categories: [ExactName: Int64] = [:]

    init(_ db: Database) throws {
        for (id, name) in try Store.names(db, table: "app") { apps[ExactName(name)] = id }
        for (id, name) in try Store.names(db, table: "category") { categories[ExactName(name)] = id }
    }

    mutating func app(_ name: String, db: Database) throws -> Int64 {
        if let id = apps[ExactName(name)] { return id }
        let id = try Self.insert(name, into: "app", db)
        apps[ExactName(name)] = id
        return id
    }

    mutating func category(_ name: String, db: Database) throws -> Int64 {
        if let id = categories[ExactName(name)] { return id }
        let id = try Self.insert(name, into: "category", db)
        categories[ExactName(name)] = id
        return id
    }

    /// Inserts a name with its byte count (a name may hold a NUL, where a C string would end).
    private static func insert(_ name: String, into table: String, _ db: Database) throws -> Int64 {
        let statement = try db.makeStatement(sql: "INSERT INTO \(table) (name) VALUES (?)")
        let s = statement.sqliteStatement
        var text = name
        text.withUTF8 { Store.bindText(s, 1, $0) }
        _ = try Store.step(s, db)
        return db.lastInsertedRowID
    }
}
