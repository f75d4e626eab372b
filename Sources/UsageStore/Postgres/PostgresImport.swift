// PostgresImport.swift — an import's bulk reads and writes on PostgreSQL (the rules are StoreImporter's): its transaction under the writer lock (a cancelled import's COPY ended with an error), left ready for reads after (PostgresAfterImport); the device's stored keys within the load's starts read in binary, new rows sent by COPY in start order (a large import's indexes built after them; binary format, a megabyte at a time, each encoded on another thread while the last is sent; ids max + 1 as every insert's), changed ones updated in place.
import UsageCore

extension PostgresStore {
    /// An import or a copy in one transaction under the writer lock: a failure (or a lost
    /// connection) leaves the store as it was.
    /// Once `cancellation` is cancelled, a COPY under way is ended with an error (libpq's
    /// PQputCopyEnd with a message: the server drops the rows), any other statement under way
    /// is cancelled by the server (PQcancel, from a watching thread), and the transaction is
    /// rolled back.
    func bulkChange<T>(cancellation: CancellationToken?, _ body: (PostgresImportBackend) throws -> T) throws -> T {
        try changeHeld { held in
            guard let cancellation else { return try body(PostgresImportBackend(held: held)) }
            return try held.cancellable(cancellation) { try body(PostgresImportBackend(held: held, cancellation: cancellation)) }
        }
    }

    /// Once it committed: a large one leaves the store ready for its reads.
    func afterBulkChange(rows: Int) {
        leaveReady(afterWriting: rows)
    }
}

/// An import's bulk work on the writer's connection, inside its transaction.
struct PostgresImportBackend: ImportBackend {
    let held: PostgresConnection.Held
    /// The session indexes through the import: out for a large one, made again once.
    let indexes: PostgresBulkIndexes
    /// Looked at before each chunk a COPY sends: cancelled, the COPY is ended with an error.
    let cancellation: CancellationToken
    var tx: any SQLTransaction { PostgresTransaction(held: held) }

    init(held: PostgresConnection.Held, cancellation: CancellationToken = CancellationToken()) {
        self.held = held
        self.cancellation = cancellation
        indexes = PostgresBulkIndexes(held)
    }

    func finish() throws {
        try indexes.finish()
    }

    func names(_ table: String) throws -> [(id: Int64, name: String)] {
        try tx.rows("SELECT id, name FROM \(table) ORDER BY id", []).compactMap { row in
            guard let id = row.int("id"), let name = row.text("name") else { return nil }
            return (id, name)
        }
    }

    func insertName(_ name: String, into table: String) throws -> Int64 {
        try tx.insert("INSERT INTO \(table) (id, name) VALUES (\(SQLIDs.next(table)), ?) RETURNING id", [.text(name)])
    }

    func storedSessions(of device: Int64, starts: ClosedRange<Int64>, within: Int64, total: Int64) throws -> [Int64: StoredSession] {
        try indexes.needed()
        let result = try held.execute(
            SessionRows.store.stored.select("WHERE start BETWEEN $1 AND $2 AND device = $3"),
            [String(starts.lowerBound), String(starts.upperBound), String(device)], binary: true)
        var stored: [Int64: StoredSession] = [:]
        stored.reserveCapacity(result.rows)
        for r in 0..<result.rows {
            stored[result.int64(r, 0)] = StoredSession(
                row: result.int64(r, 1), app: result.int64(r, 2), category: result.int64(r, 3), start: result.int64(r, 4),
                length: result.int64(r, 5))
        }
        return stored
    }

    func storedID(row: Int64, equals id: UnsafeBufferPointer<UInt8>) throws -> Bool {
        try indexes.needed()
        guard let stored = try tx.row("SELECT ext_id FROM session WHERE id = ?", [.integer(row)])?.text("ext_id") else { return false }
        return Array(stored.utf8).elementsEqual(id)
    }

    /// New sessions by COPY, in the load's order (the start index's), their ids from one more
    /// than the largest ever given (SessionIDs; the writer lock is held), not from the table's identity sequence, which those inserts do not move (and
    /// which would cost the server a step of it for every row), the sequence then set past
    /// them for an older usage-shell that still takes its ids there; changed ones updated.
    /// The rows are encoded a chunk ahead on another thread while this one sends the last: the
    /// server, not the encoding, sets the pace. A large import builds the table's indexes after
    /// its rows (PostgresBulkIndexes: taken out here, made again before an update by id).
    func carryOut(_ plan: ImportPlan, _ dataset: Dataset, source: Int64, device: Int64, apps: [Int64], categories: [Int64]) throws {
        let sessions = dataset.sessions
        let inserts = sessions.indices.filter { plan.actions[$0] == ImportPlan.insert }
        if !inserts.isEmpty {
            let rows = PostgresNewRows(
                dataset: dataset, keys: plan.keys, inserts: inserts, source: source, device: device, apps: apps, categories: categories,
                firstID: try SessionIDs.next(tx))
            try indexes.beforeRows(inserts.count)
            try held.copy(rows.layout.copyIn) { send in
                var from = 0
                var next = Background { rows.encode(0..<min(PostgresNewRows.chunk, inserts.count)) }
                while from < inserts.count {
                    let copy = next.value
                    try ImportCancelled.check(cancellation)
                    from = min(from + PostgresNewRows.chunk, inserts.count)
                    if from < inserts.count {
                        let part = from..<min(from + PostgresNewRows.chunk, inserts.count)
                        next = Background { rows.encode(part) }
                    }
                    try copy.withBytes { (bytes) throws(PostgresFailure) in try send(bytes) }
                    // A test's hold (ImportHold), with the COPY under way.
                    ImportHold.wait(at: .writing, cancellation)
                    try ImportCancelled.check(cancellation)
                }
            }
            // An older usage-shell importing here takes ids from the sequence: it goes on after
            // these, where the role may move it (the usual grant of a table's rows leaves out its
            // sequence, and this version never takes an id there).
            _ = try tx.rows(
                "SELECT setval(s, ?) FROM pg_get_serial_sequence('session', 'id') AS s WHERE has_sequence_privilege(s, 'UPDATE')",
                [.integer(rows.firstID + Int64(inserts.count) - 1)])
            try SessionIDs.took(rows.firstID + Int64(inserts.count) - 1, tx)
        }
        if plan.updated > 0 { try indexes.needed() }
        let updated = SessionRows.store.updated
        let fields = NewSessionRow.fields(updated)
        try sessions.withIDs { ids in
            for k in sessions.indices where plan.actions[k] == ImportPlan.update {
                let row = NewSessionRow.imported(
                    sessions, ids, k, id: plan.updates[k]!, key: plan.keys[k], source: source, device: device, apps: apps, categories: categories)
                try tx.execute(updated.update(key: "id"), row.values(fields) + [.integer(row.id)])
            }
        }
    }
}

/// An import's new sessions as COPY rows (binary), any chunk of them encoded on any thread, each
/// row the fields of its layout in their order.
struct PostgresNewRows: @unchecked Sendable {
    /// Rows a chunk (about a megabyte).
    static let chunk = 8192

    /// The columns each row gives (the COPY's column list), in order.
    let layout: RowLayout
    let fields: [NewSessionRow.Field]
    let dataset: Dataset
    let keys: [Int64]
    /// The sessions to insert (positions in the load's order); the n-th takes id firstID + n.
    let inserts: [Int]
    let source: Int64
    let device: Int64
    let apps: [Int64]
    let categories: [Int64]
    let firstID: Int64

    init(
        layout: RowLayout = SessionRows.store.written, dataset: Dataset, keys: [Int64], inserts: [Int], source: Int64, device: Int64,
        apps: [Int64], categories: [Int64], firstID: Int64
    ) {
        (self.layout, fields) = (layout, NewSessionRow.fields(layout))
        (self.dataset, self.keys, self.inserts, self.source, self.device) = (dataset, keys, inserts, source, device)
        (self.apps, self.categories, self.firstID) = (apps, categories, firstID)
    }

    /// Rows `part` of the inserts, with the data's header before the first and its trailer after
    /// the last.
    func encode(_ part: Range<Int>) -> PostgresBinaryCopy {
        var copy = PostgresBinaryCopy(capacity: part.count * 160 + 64)
        if part.lowerBound == 0 { copy.header() }
        let sessions = dataset.sessions
        let width = Int16(fields.count)
        fields.withUnsafeBufferPointer { fields in
            sessions.withIDs { ids in
                for n in part {
                    let k = inserts[n]
                    let row = NewSessionRow.imported(
                        sessions, ids, k, id: firstID + Int64(n), key: keys[k], source: source, device: device, apps: apps, categories: categories)
                    copy.row(fields: width)
                    row.write(fields, to: &copy)
                }
            }
        }
        if part.upperBound == inserts.count { copy.finish() }
        return copy
    }
}

extension PostgresBinaryCopy: SessionRowSink {}
