// SQLStore+Retention.swift — what the store forgets, and only when asked, written once for every SQL backend: `forget before DATE`, `forget older-than 90d`, and the retention setting applied inside each import; a session crossing the cut is kept whole. Also what `store` shows.
import UsageCore
import UsageData

/// Where "older than N days" cuts.
public enum Retention {
    /// The cut of "older than `days` days": the start of the local day `days` days before today.
    public static func cutoff(olderThan days: Int, now: Micros, zone: Zone) -> Micros {
        zone.startOfDay(zone.localDate(of: now).adding(days: -days))
    }

    /// The retention cut applied inside an import's transaction (nothing when none is set).
    static func apply(_ tx: any SQLTransaction, now: Micros, zone: Zone) throws -> Int {
        guard let days = try Meta.get(tx, Meta.retentionDays) else { return 0 }
        return try forget(tx, endingBefore: cutoff(olderThan: Int(days), now: now, zone: zone))
    }

    /// Deletes the imported sessions that end at or before `cut` (and the sites' visits), keeping each source's count,
    /// the store's facts and its kept totals true. Returns how many went.
    static func forget(_ tx: any SQLTransaction, endingBefore cut: Micros) throws -> Int {
        // The sites' visits go by the same cut (not counted: they are no sessions).
        try tx.execute("DELETE FROM site_visit WHERE start < ? AND start + length <= ? AND length > 0", [.integer(cut), .integer(cut)])
        let bySource = try tx.rows(
            "SELECT source, count(*) FROM session WHERE start < ? AND start + length <= ? GROUP BY source", [.integer(cut), .integer(cut)])
        guard !bySource.isEmpty else { return 0 }
        let deleted = try tx.execute("DELETE FROM session WHERE start < ? AND start + length <= ?", [.integer(cut), .integer(cut)])
        try KeptTotals.rebuild(before: cut, tx)
        for row in bySource {
            try tx.execute("UPDATE source SET sessions = sessions - ? WHERE id = ?", [row[1], row[0]])
            try tx.execute("UPDATE device SET sessions = sessions - ? WHERE id = (SELECT device FROM source WHERE id = ?)", [row[1], row[0]])
        }
        let left = (try Meta.get(tx, Meta.sessions) ?? 0) - Int64(deleted)
        try Meta.set(tx, Meta.sessions, left)
        if left == 0 { try Meta.set(tx, Meta.latestEnd, nil) }
        return deleted
    }
}

extension SQLStore {
    public func retentionDays() throws(StoreError) -> Int? {
        try read { tx in try Meta.get(tx, Meta.retentionDays).map(Int.init) }
    }

    public func setRetention(days: Int?) throws(StoreError) {
        try write { tx in try Meta.set(tx, Meta.retentionDays, days.map(Int64.init)) }
    }

    public func countEnding(before cut: Micros) throws(StoreError) -> (matching: Int, total: Int) {
        try read { tx in
            let matching = try tx.int("SELECT count(*) FROM session WHERE start < ? AND start + length <= ?", [.integer(cut), .integer(cut)]) ?? 0
            return (Int(matching), Int(try Meta.get(tx, Meta.sessions) ?? 0))
        }
    }

    /// What `store` shows: the facts of one snapshot of the history, the sources, the retention,
    /// and `bytes` (what the backend says it takes) and whether it may only be read.
    func summary(zone: Zone, bytes: Int64, readOnly: Bool) throws(StoreError) -> StoreSummary {
        let history = try history(source: SourceRef.storeName)
        let (sources, retention, apps) = try read { tx in
            let sources = try tx.rows(
                """
                SELECT source.name, source.shown, source.sessions, source.imports, source.first_import, source.last_import,
                    device.name AS device
                FROM source JOIN device ON device.id = source.device ORDER BY source.last_import DESC, source.id
                """, []
            ).map { row in
                StoreSummary.Source(
                    identity: row.text("name") ?? "", shown: row.text("shown") ?? "", device: row.text("device") ?? "",
                    sessions: Int(row.int("sessions") ?? 0), imports: Int(row.int("imports") ?? 0),
                    firstImport: row.int("first_import") ?? 0, lastImport: row.int("last_import") ?? 0)
            }
            // The apps that still have sessions (their kept day totals), not every app ever seen:
            // after `forget` of everything, `0 sessions from 0 apps`.
            let apps = try tx.int("SELECT count(DISTINCT app) FROM day_total") ?? 0
            return (sources, try Meta.get(tx, Meta.retentionDays).map(Int.init), Int(apps))
        }
        return StoreSummary(
            path: location.description, bytes: bytes, readOnly: readOnly, sessions: history.sessionCount, apps: apps,
            days: history.dayRange(in: zone), sources: sources, retentionDays: retention)
    }
}
