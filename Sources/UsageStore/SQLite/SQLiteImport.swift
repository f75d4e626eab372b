// SQLiteImport.swift — puts loaded sessions into the store, each once: keyed by its source and its own identity (id, start or content), added when new, updated in place when it changed (a growing ActivityWatch event), counted unchanged otherwise; all sources in one transaction.
import GRDB
import GRDBSQLite
import UsageCore

extension SQLiteStore {
    /// Imports every source in one transaction: a failure (or a kill) leaves the store as it
    /// was. `now` and `zone` place the retention cut, applied afterwards when one is set.
    func importSessions(_ sources: [ImportSource], now: Micros, zone: Zone) throws(StoreError) -> ImportSummary {
        do {
            return try changeDatabase { db in try importAll(sources, now: now, zone: zone, db) }
        } catch {
            throw mapped(error)
        }
    }

    private func importAll(_ sources: [ImportSource], now: Micros, zone: Zone, _ db: Database) throws -> ImportSummary {
        let tx = GRDBTransaction(db: db)
        // An import touches many pages: let SQLite keep them in memory rather than read them
        // back from the file system (the default cache is 2,000 pages).
        try db.execute(sql: "PRAGMA cache_size = -131072")
        defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
        var names = try NameIDs(db)
        var results: [ImportResult] = []
        var totals = TotalsDelta()
        var added = 0
        var latestEnd = try Meta.get(tx, Meta.latestEnd) ?? Int64.min
        var longest = try Meta.get(tx, Meta.longest) ?? 0
        for source in sources {
            let result = try importOne(source, db: db, names: &names, totals: &totals, now: now)
            added += result.added
            results.append(result)
            if let span = source.dataset.span { latestEnd = max(latestEnd, span.end) }
            longest = max(longest, source.dataset.longestSession)
        }
        let count = (try Meta.get(tx, Meta.sessions) ?? 0) + Int64(added)
        try Meta.set(tx, Meta.sessions, count)
        if latestEnd > Int64.min { try Meta.set(tx, Meta.latestEnd, latestEnd) }
        try Meta.set(tx, Meta.longest, longest)
        try KeptTotals.apply(totals, tx)
        let forgotten = try Retention.apply(tx, now: now, zone: zone)
        return ImportSummary(
            path: path, sources: results, forgotten: forgotten,
            retentionDays: try Meta.get(tx, Meta.retentionDays).map(Int.init), sessions: Int(count) - forgotten)
    }

    private func importOne(
        _ source: ImportSource, db: Database, names: inout NameIDs, totals: inout TotalsDelta, now: Micros
    ) throws -> ImportResult {
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

        // The sessions' keys are made on the other threads while the stored ones are read here.
        let keys = Background { ImportKeys.distinct(dataset, apps: appIDs, categories: categoryIDs) }
        var stored = try Self.storedSessions(of: sourceID, db)
        let idOfRow = try db.makeStatement(sql: "SELECT ext_id FROM session WHERE id = ?")
        var plan = ImportPlan(count: dataset.sessionCount)
        let planned = try keys.value.map { keys in
            try plan.decideDistinct(dataset, keys: keys, apps: appIDs, categories: categoryIDs, stored: stored) { row, id in
                try Self.storedID(row: row, idOfRow, db, equals: id)
            }
        }
        if planned != true {
            plan = ImportPlan(count: dataset.sessionCount)
            try plan.decideEach(dataset, apps: appIDs, categories: categoryIDs, stored: &stored) { row, id in
                try Self.storedID(row: row, idOfRow, db, equals: id)
            }
        }

        var result = ImportResult(source: source.shown, skipped: dataset.skipped)
        (result.added, result.updated, result.unchanged) = (plan.added, plan.updated, plan.unchanged)
        try Self.carryOut(plan, dataset, source: sourceID, apps: appIDs, categories: categoryIDs, db)
        Self.addToTotals(plan, dataset, apps: appIDs, categories: categoryIDs, &totals)
        try db.execute(sql: "UPDATE source SET sessions = sessions + ? WHERE id = ?", arguments: [result.added, sourceID])

        // Each app's latest session's category.
        var latestOfApp = [(start: Int64, category: Int64)?](repeating: nil, count: dataset.apps.count)
        let sessions = dataset.sessions
        for k in sessions.indices {
            let (start, _, app, category) = sessions.core(k)
            if start >= latestOfApp[Int(app)]?.start ?? Int64.min { latestOfApp[Int(app)] = (start, categoryIDs[Int(category)]) }
        }
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

    /// What the plan changes in the kept totals: each new session added, each updated one's
    /// old row taken away and its new self added.
    private static func addToTotals(_ plan: ImportPlan, _ dataset: Dataset, apps: [Int64], categories: [Int64], _ totals: inout TotalsDelta) {
        let sessions = dataset.sessions
        for k in sessions.indices where plan.actions[k] != ImportPlan.unchanged {
            let (start, end, app, category) = sessions.core(k)
            totals.add(start: start, end: end, app: apps[Int(app)], category: categories[Int(category)])
            if let old = plan.replaced[k] {
                totals.add(start: old.start, end: old.start + old.length, app: old.app, category: old.category, sign: -1)
            }
        }
    }

    /// What the store holds of a source already, by key (integers only: reading every id's
    /// text would cost as much again; a key that matches with other content has its id read
    /// to tell an update from a collision). A source holding most of the store is read in one
    /// pass over the table rather than through its index, row by row.
    private static func storedSessions(of sourceID: Int64, _ db: Database) throws -> [Int64: StoredSession] {
        let had = try Int64.fetchOne(db, sql: "SELECT sessions FROM source WHERE id = ?", arguments: [sourceID]) ?? 0
        guard had > 0 else { return [:] }
        let total = try Meta.get(GRDBTransaction(db: db), Meta.sessions) ?? had
        var stored: [Int64: StoredSession] = [:]
        stored.reserveCapacity(Int(had))
        let table = had * 2 >= total ? "session NOT INDEXED" : "session"
        let statement = try db.makeStatement(sql: "SELECT key, id, app, category, start, length FROM \(table) WHERE source = ?")
        let s = statement.sqliteStatement
        sqlite3_bind_int64(s, 1, sourceID)
        while try step(s, db) {
            stored[sqlite3_column_int64(s, 0)] = StoredSession(
                row: sqlite3_column_int64(s, 1), app: sqlite3_column_int64(s, 2), category: sqlite3_column_int64(s, 3),
                start: sqlite3_column_int64(s, 4), length: sqlite3_column_int64(s, 5))
        }
        return stored
    }

    /// Carries out a plan: new sessions inserted (in the load's order, which is the start
    /// index's, so its entries are appended), changed ones updated in place.
    private static func carryOut(
        _ plan: ImportPlan, _ dataset: Dataset, source: Int64, apps: [Int64], categories: [Int64], _ db: Database
    ) throws {
        let sessions = dataset.sessions
        let columns = "INSERT INTO session (source, key, app, category, start, length, ext_id, start_offset, end_offset) VALUES "
        let tuple = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
        let one = try db.makeStatement(sql: columns + tuple)
        // Rows go in by batches: one statement step for many rows costs SQLite far less than one a row.
        let batchRows = 64
        let batch = try db.makeStatement(sql: columns + Array(repeating: tuple, count: batchRows).joined(separator: ", "))
        let update = try db.makeStatement(sql: "UPDATE session SET app = ?, category = ?, start = ?, length = ?, ext_id = ? WHERE id = ?")
        var pending: [Int] = []
        pending.reserveCapacity(batchRows)
        func flush(_ statement: Statement, _ rows: ArraySlice<Int>) throws {
            let s = statement.sqliteStatement
            sqlite3_reset(s)
            var index: Int32 = 1
            for k in rows {
                let (start, end, app, category) = sessions.core(k)
                let offsets = sessions.offsets(at: k)
                sqlite3_bind_int64(s, index, source)
                sqlite3_bind_int64(s, index + 1, plan.keys[k])
                sqlite3_bind_int64(s, index + 2, apps[Int(app)])
                sqlite3_bind_int64(s, index + 3, categories[Int(category)])
                sqlite3_bind_int64(s, index + 4, start)
                sqlite3_bind_int64(s, index + 5, end - start)
                sessions.withID(at: k) { id in
                    if let id { bindText(s, index + 6, id) } else { sqlite3_bind_null(s, index + 6) }
                }
                for (offset, minutes) in [(Int32(7), offsets.start), (8, offsets.end)] {
                    if let minutes { sqlite3_bind_int64(s, index + offset, Int64(minutes)) } else { sqlite3_bind_null(s, index + offset) }
                }
                index += 9
            }
            _ = try step(s, db)
        }
        for k in sessions.indices {
            switch plan.actions[k] {
            case ImportPlan.insert:
                pending.append(k)
                if pending.count == batchRows {
                    try flush(batch, pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
            case ImportPlan.update:
                let (start, end, app, category) = sessions.core(k)
                try sessions.withID(at: k) { id in
                    try Self.update(
                        update, db, row: plan.updates[k]!, app: apps[Int(app)], category: categories[Int(category)], start: start,
                        length: end - start, id: id)
                }
            default:
                break
            }
        }
        for k in pending { try flush(one, [k][...]) }
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

    private static func update(
        _ statement: Statement, _ db: Database, row: Int64, app: Int64, category: Int64, start: Int64, length: Int64,
        id: UnsafeBufferPointer<UInt8>?
    ) throws {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, app)
        sqlite3_bind_int64(s, 2, category)
        sqlite3_bind_int64(s, 3, start)
        sqlite3_bind_int64(s, 4, length)
        if let id { bindText(s, 5, id) } else { sqlite3_bind_null(s, 5) }
        sqlite3_bind_int64(s, 6, row)
        _ = try step(s, db)
    }
}

/// SQLite copies bound text at once (`SQLITE_TRANSIENT`), as the bytes do not outlive the call.
let SQLITE_TRANSIENT_VALUE = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The ids of app and category names in the store, made on first use (names are stored once).
struct NameIDs {
    private var apps: [ExactName: Int64] = [:]
    private var categories: [ExactName: Int64] = [:]

    init(_ db: Database) throws {
        for (id, name) in try SQLiteStore.names(db, table: "app") { apps[ExactName(name)] = id }
        for (id, name) in try SQLiteStore.names(db, table: "category") { categories[ExactName(name)] = id }
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
        text.withUTF8 { SQLiteStore.bindText(s, 1, $0) }
        _ = try SQLiteStore.step(s, db)
        return db.lastInsertedRowID
    }
}
