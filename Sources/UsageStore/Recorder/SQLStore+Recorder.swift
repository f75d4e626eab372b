// SQLStore+Recorder.swift — the desktop recorder's writes, once for every backend: each session upserted by its start under the recorder's source (a heartbeat grows the open one in place), the store's and the device's facts and the kept totals moved with them, and the recorder's mark (PID, last write) in the meta table for `status`.
import UsageCore

extension SQLStore {
    /// Writes `sessions` (closed ones and the open one as it stands) as `device`'s, and marks
    /// the recorder as alive at `now` (or, with `mark` nil, as gone): one transaction.
    func record(_ sessions: [RecordedSession], device: String, now: Micros, mark: RecorderMark?) throws(StoreError) {
        try write { tx in
            let deviceID = try Devices.id(device, now: now, tx)
            if !sessions.isEmpty {
                let sourceID = try tx.insert(
                    """
                    INSERT INTO source (id, device, name, shown, first_import, last_import, imports) VALUES (\(SQLIDs.next("source")), ?, ?, ?, ?, ?, 1)
                    ON CONFLICT (device, name) DO UPDATE SET last_import = excluded.last_import
                    RETURNING id
                    """,
                    [.integer(deviceID), .text(RecorderSource.identity), .text("record"), .integer(now), .integer(now)])
                var added = 0
                var totals = TotalsDelta()
                for session in sessions where session.end > session.start {
                    added += try Self.upsert(session, source: sourceID, device: deviceID, totals: &totals, tx)
                }
                try Self.noteRecorded(sessions, added: added, source: sourceID, device: deviceID, now: now, tx)
                try KeptTotals.apply(totals, tx)
            }
            try Self.mark(mark, device: device, tx)
        }
    }

    /// The recorders the store knows of, with their last writes (`status` tells a live one by it).
    func recorders() throws(StoreError) -> [RecorderMark] {
        try read { tx in
            let pids = try tx.rows("SELECT key, value FROM meta WHERE key LIKE 'recorder.pid:%' ORDER BY key", [])
            return try pids.compactMap { row -> RecorderMark? in
                guard let key = row.text("key"), let pid = row.int("value") else { return nil }
                let device = String(key.dropFirst("recorder.pid:".count))
                let seen = try Meta.get(tx, "recorder.seen:" + device) ?? 0
                return RecorderMark(device: device, pid: Int(pid), seen: seen)
            }
        }
    }

    /// Inserts the session, or grows the stored one of the same start (its old self taken out
    /// of `totals`, its new one added); 1 when it was new.
    private static func upsert(
        _ session: RecordedSession, source: Int64, device: Int64, totals: inout TotalsDelta, _ tx: any SQLTransaction
    ) throws -> Int {
        let app = try nameID(session.app, table: "app", tx)
        let category = try nameID(session.category, table: "category", tx)
        var hash = IdentityHash()
        hash.add(session.start)
        let key = hash.key(kind: 2, occurrence: 0, probe: 0)
        let length = session.end - session.start
        totals.add(start: session.start, end: session.end, device: device, app: app, category: category)
        if let old = try tx.row(
            "SELECT id, app, category, length FROM session WHERE start = ? AND source = ? AND key = ?",
            [.integer(session.start), .integer(source), .integer(key)]),
            let row = old.int("id"), let oldApp = old.int("app"), let oldCategory = old.int("category"), let oldLength = old.int("length")
        {
            totals.add(start: session.start, end: session.start + oldLength, device: device, app: oldApp, category: oldCategory, sign: -1)
            try tx.execute(
                "UPDATE session SET app = ?, category = ?, length = ?, end_offset = ? WHERE id = ?",
                [.integer(app), .integer(category), .integer(length), SQLValue(session.endOffset), .integer(row)])
            return 0
        }
        // As an import's: one past the largest id ever given, never a forgotten session's.
        let id = try SessionIDs.next(tx)
        let written = SessionRows.store.written
        let row = NewSessionRow(
            id: id, source: source, key: key, app: app, category: category, start: session.start, length: length,
            startOffset: Int32(clamping: session.startOffset), endOffset: Int32(clamping: session.endOffset), device: device)
        try tx.execute(written.insert(), row.values(NewSessionRow.fields(written)))
        try SessionIDs.took(id, tx)
        try tx.execute(
            """
            INSERT INTO app_latest (app, category, start) VALUES (?, ?, ?)
            ON CONFLICT (app) DO UPDATE SET category = excluded.category, start = excluded.start WHERE excluded.start >= app_latest.start
            """,
            [.integer(app), .integer(category), .integer(session.start)])
        return 1
    }

    /// The id of a name (stored once), made when new.
    private static func nameID(_ name: String, table: String, _ tx: any SQLTransaction) throws -> Int64 {
        if let id = try tx.int("SELECT id FROM \(table) WHERE name = ?", [.text(name)]) { return id }
        return try tx.insert("INSERT INTO \(table) (id, name) VALUES (\(SQLIDs.next(table)), ?) RETURNING id", [.text(name)])
    }

    /// The counts and spans every reader of the store's facts relies on.
    private static func noteRecorded(
        _ sessions: [RecordedSession], added: Int, source: Int64, device: Int64, now: Micros, _ tx: any SQLTransaction
    ) throws {
        let latestEnd = sessions.map(\.end).max() ?? now
        let longest = sessions.map { $0.end - $0.start }.max() ?? 0
        try tx.execute("UPDATE source SET sessions = sessions + ? WHERE id = ?", [SQLValue(added), .integer(source)])
        try Meta.set(tx, Meta.sessions, (try Meta.get(tx, Meta.sessions) ?? 0) + Int64(added))
        try Meta.set(tx, Meta.latestEnd, max(try Meta.get(tx, Meta.latestEnd) ?? latestEnd, latestEnd))
        try Meta.set(tx, Meta.longest, max(try Meta.get(tx, Meta.longest) ?? 0, longest))
        let row = try tx.row("SELECT latest_end, longest FROM device WHERE id = ?", [.integer(device)])
        try tx.execute(
            "UPDATE device SET sessions = sessions + ?, last_import = ?, latest_end = ?, longest = ? WHERE id = ?",
            [SQLValue(added), .integer(now), .integer(max(row?.int("latest_end") ?? latestEnd, latestEnd)),
             .integer(max(row?.int("longest") ?? 0, longest)), .integer(device)])
    }

    /// The recorder's mark: its PID and last write, or none (it stopped).
    private static func mark(_ mark: RecorderMark?, device: String, _ tx: any SQLTransaction) throws {
        try Meta.set(tx, "recorder.pid:" + device, mark.map { Int64($0.pid) })
        try Meta.set(tx, "recorder.seen:" + device, mark.map(\.seen))
    }
}
