// ImportLog.swift — every import kept as an entry, written once for every SQL backend: the session ids an import's new sessions take (one past the largest ever given, so an entry's range holds its sessions alone), the entry written in the import's transaction, `imports` read back, and `forget import N` (its sessions and the site visits it first brought) and `forget device NAME` taking exactly those back with their counts and kept totals.
import UsageCore

/// The imports a store keeps (`imports`, `forget import N`), in StoreTables' `import_entry`
/// (one per import or store copy) and `import_part` (each of its sources). An import's new
/// sessions take consecutive ids under the writer's lock (`SessionIDs`), so the entry keeps their
/// range rather than a column of every session.
enum ImportLog {
    /// The number the import under way will be entered under (`record`'s `id`): its site
    /// visits carry it before the entry is written, in the same transaction (the writer's lock
    /// keeps it the next one).
    static func nextEntry(_ tx: any SQLTransaction) throws -> Int64 {
        try tx.int("SELECT coalesce(max(id), 0) + 1 FROM import_entry") ?? 1
    }

    /// Writes the entry `id` (`nextEntry`, taken at the start of the transaction) of an import
    /// that ran at `at` and read `parts`, whose new sessions took the ids from `first` up to the
    /// next id now (none: no range); in the import's transaction.
    static func record(_ parts: [ImportEntry.Part], id: Int64, at: Micros, firstSession first: Int64, _ tx: any SQLTransaction) throws {
        let last = try SessionIDs.next(tx) - 1
        let range: [SQLValue] = last >= first ? [.integer(first), .integer(last)] : [.null, .null]
        try tx.execute("INSERT INTO import_entry (id, at, first_session, last_session) VALUES (?, ?, ?, ?)", [.integer(id), .integer(at)] + range)
        for (k, part) in parts.enumerated() {
            try tx.execute(
                "INSERT INTO import_part (entry, position, source, device, added, updated, unchanged, visits) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [.integer(id), .integer(Int64(k)), .text(part.source), .text(part.device), SQLValue(part.added), SQLValue(part.updated),
                 SQLValue(part.unchanged), SQLValue(part.visits)])
        }
    }

    /// Every entry, newest first.
    static func entries(_ tx: any SQLTransaction) throws -> [ImportEntry] {
        var parts: [Int64: [ImportEntry.Part]] = [:]
        for row in try tx.rows("SELECT entry, source, device, added, updated, unchanged, visits FROM import_part ORDER BY entry, position", []) {
            guard let entry = row.int("entry") else { continue }
            parts[entry, default: []].append(
                ImportEntry.Part(
                    source: row.text("source") ?? "", device: row.text("device") ?? "", added: Int(row.int("added") ?? 0),
                    updated: Int(row.int("updated") ?? 0), unchanged: Int(row.int("unchanged") ?? 0), visits: row.int("visits").map(Int.init)))
        }
        return try tx.rows("SELECT id, at, forgotten FROM import_entry ORDER BY id DESC", []).compactMap { row in
            guard let id = row.int("id") else { return nil }
            return ImportEntry(id: id, at: row.int("at") ?? 0, parts: parts[id] ?? [], forgotten: row.int("forgotten"))
        }
    }
}

/// The ids of new sessions: one past the largest ever given (kept in meta as `session_high`),
/// not merely past the largest there is, so that an import's range never holds a session a
/// later import added after a `forget` took the newest ones.
enum SessionIDs {
    static let high = "session_high"

    /// The id the next new session takes.
    static func next(_ tx: any SQLTransaction) throws -> Int64 {
        let largest = try tx.int("SELECT coalesce(max(id), 0) FROM session") ?? 0
        return max(largest, try Meta.get(tx, high) ?? 0) + 1
    }

    /// Notes that ids up to `last` were given.
    static func took(_ last: Int64, _ tx: any SQLTransaction) throws {
        if last > (try Meta.get(tx, high) ?? 0) { try Meta.set(tx, high, last) }
    }
}

/// What `forget import N` took back.
public struct ForgottenImport: Sendable, Equatable {
    /// The sessions it added that were still there.
    public var sessions: Int
    /// The site visits it first brought in that were still there (the browser extension's own,
    /// and those an earlier import brought, are never its).
    public var visits: Int

    public init(sessions: Int, visits: Int) {
        self.sessions = sessions
        self.visits = visits
    }
}

/// Why `forget import N` or `forget device NAME` changes nothing.
public enum ForgetRefusal: Error, Equatable, Sendable {
    case unknownImport(Int64)
    case importForgotten(Int64, at: Micros)
    case unknownDevice(String)
    case store(StoreError)
}

extension SQLStore {
    public func imports() throws(StoreError) -> [ImportEntry] {
        try read { tx in try ImportLog.entries(tx) }
    }

    /// Deletes the sessions import `id` added (those still there: retention may have taken some),
    /// with the counts, the kept totals and the sources and devices they leave empty, and the
    /// site visits it first brought in; marks the entry forgotten. Returns how many went.
    public func forget(import id: Int64, now: Micros) throws(ForgetRefusal) -> ForgottenImport {
        do {
            return try change { tx in
                guard let row = try tx.row("SELECT first_session, last_session, forgotten FROM import_entry WHERE id = ?", [.integer(id)]) else {
                    throw ForgetRefusal.unknownImport(id)
                }
                if let at = row.int("forgotten") { throw ForgetRefusal.importForgotten(id, at: at) }
                // Its visits first, so that a device they alone kept goes with its sessions.
                let devices = try tx.rows("SELECT DISTINCT device FROM site_visit WHERE import_entry = ?", [.integer(id)]).compactMap { $0[0].integer }
                let visits = try tx.execute("DELETE FROM site_visit WHERE import_entry = ?", [.integer(id)])
                var deleted = 0
                if let first = row.int("first_session"), let last = row.int("last_session") {
                    deleted = try Forgetting.sessions(where: "id BETWEEN ? AND ?", [.integer(first), .integer(last)], tx)
                }
                for device in devices {
                    try tx.execute(
                        """
                        DELETE FROM device WHERE id = ? AND sessions = 0 AND NOT EXISTS (SELECT 1 FROM source WHERE device = ?)
                            AND NOT EXISTS (SELECT 1 FROM site_visit WHERE device = ?)
                        """, [.integer(device), .integer(device), .integer(device)])
                }
                try tx.execute("UPDATE import_entry SET forgotten = ? WHERE id = ?", [.integer(now), .integer(id)])
                return ForgottenImport(sessions: deleted, visits: visits)
            }
        } catch let refusal as ForgetRefusal {
            throw refusal
        } catch {
            throw .store(mapped(error))
        }
    }

    /// Deletes every session of the device named `name` (exactly), its sources, its sites' visits,
    /// its row and its kept totals; the entries of imports that went to it alone are marked forgotten.
    /// Returns how many sessions went.
    public func forget(device name: String, now: Micros) throws(ForgetRefusal) -> Int {
        do {
            return try change { tx in
                guard let device = try tx.int("SELECT id FROM device WHERE name = ?", [.text(name)]) else { throw ForgetRefusal.unknownDevice(name) }
                let deleted = try Forgetting.sessions(where: "source IN (SELECT id FROM source WHERE device = ?)", [.integer(device)], tx)
                try tx.execute("DELETE FROM quarter_total WHERE device = ?", [.integer(device)])
                try tx.execute("DELETE FROM day_total WHERE device = ?", [.integer(device)])
                try tx.execute("DELETE FROM source WHERE device = ?", [.integer(device)])
                try tx.execute("DELETE FROM site_visit WHERE device = ?", [.integer(device)])
                try tx.execute("DELETE FROM meta WHERE key LIKE ?", [.text(SiteVisits.openKey(device: device, browser: "") + "%")])
                try tx.execute("DELETE FROM device WHERE id = ?", [.integer(device)])
                try tx.execute(
                    """
                    UPDATE import_entry SET forgotten = ? WHERE forgotten IS NULL
                        AND EXISTS (SELECT 1 FROM import_part WHERE entry = import_entry.id)
                        AND NOT EXISTS (SELECT 1 FROM import_part WHERE entry = import_entry.id AND device <> ?)
                    """, [.integer(now), .text(name)])
                return deleted
            }
        } catch let refusal as ForgetRefusal {
            throw refusal
        } catch {
            throw .store(mapped(error))
        }
    }
}

/// Sessions taken back by a condition, everything kept about them kept true.
enum Forgetting {
    /// Deletes the sessions `condition` picks: the kept totals lose them (each its own amount),
    /// their sources' and devices' counts and the store's go down, and a source or a device
    /// left with none goes. Returns how many went.
    static func sessions(where condition: String, _ arguments: [SQLValue], _ tx: any SQLTransaction) throws -> Int {
        var delta = TotalsDelta()
        var bySource: [Int64: Int64] = [:]
        var byDevice: [Int64: Int64] = [:]
        for row in try tx.rows("SELECT source, device, app, category, start, length FROM session WHERE \(condition)", arguments) {
            guard let source = row[0].integer, let device = row[1].integer, let app = row[2].integer, let category = row[3].integer,
                let start = row[4].integer, let length = row[5].integer
            else { continue }
            delta.add(start: start, end: start + length, device: device, app: app, category: category, sign: -1)
            bySource[source, default: 0] += 1
            byDevice[device, default: 0] += 1
        }
        guard !bySource.isEmpty else { return 0 }
        let deleted = try tx.execute("DELETE FROM session WHERE \(condition)", arguments)
        try KeptTotals.apply(delta, tx)
        for (source, n) in bySource {
            try tx.execute("UPDATE source SET sessions = sessions - ? WHERE id = ?", [.integer(n), .integer(source)])
            try tx.execute("DELETE FROM source WHERE id = ? AND sessions = 0", [.integer(source)])
        }
        for (device, n) in byDevice {
            try tx.execute("UPDATE device SET sessions = sessions - ? WHERE id = ?", [.integer(n), .integer(device)])
            try tx.execute(
                """
                DELETE FROM device WHERE id = ? AND sessions = 0 AND NOT EXISTS (SELECT 1 FROM source WHERE device = ?)
                    AND NOT EXISTS (SELECT 1 FROM site_visit WHERE device = ?)
                """, [.integer(device), .integer(device), .integer(device)])
        }
        let left = (try Meta.get(tx, Meta.sessions) ?? 0) - Int64(deleted)
        try Meta.set(tx, Meta.sessions, left)
        if left == 0 { try Meta.set(tx, Meta.latestEnd, nil) }
        return deleted
    }
}
