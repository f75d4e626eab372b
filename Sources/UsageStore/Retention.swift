// Retention.swift — what the store forgets, and only when asked: `forget before DATE`, `forget older-than 90d`, and the retention setting applied after each import; a session crossing the cut is kept whole, and the freed space goes back to the file system.
import Foundation
import GRDB
import UsageCore
import UsageData

extension Store {
    /// The retention setting: keep imported sessions of the last N days; nil keeps everything.
    public func retentionDays() throws(StoreError) -> Int? {
        try read { db in try Store.meta(db, MetaKey.retentionDays).map(Int.init) }
    }

    /// Sets the retention (nil: keep everything). It applies after each import, not now.
    public func setRetention(days: Int?) throws(StoreError) {
        try write { db in try Store.setMeta(db, MetaKey.retentionDays, days.map(Int64.init)) }
    }

    /// The cut of "older than `days` days": the start of the local day `days` days before today.
    public static func cut(olderThan days: Int, now: Micros, zone: Zone) -> Micros {
        zone.startOfDay(zone.localDate(of: now).adding(days: -days))
    }

    /// How many imported sessions end at or before `cut`, and how many there are in all.
    public func countEnding(before cut: Micros) throws(StoreError) -> (matching: Int, of: Int) {
        try read { db in
            let matching = try Int.fetchOne(db, sql: "SELECT count(*) FROM session WHERE start < ? AND start + length <= ?", arguments: [cut, cut]) ?? 0
            return (matching, Int(try Store.meta(db, MetaKey.sessions) ?? 0))
        }
    }

    /// Deletes the imported sessions that end at or before `cut` (one crossing it stays whole),
    /// then gives the freed pages back. Returns how many went.
    @discardableResult
    public func forget(endingBefore cut: Micros) throws(StoreError) -> Int {
        let deleted = try write { db in try Store.forget(db, endingBefore: cut) }
        if deleted > 0 { try giveSpaceBack() }
        return deleted
    }

    /// The retention cut applied inside an import's transaction (nothing when none is set).
    func applyRetention(_ db: Database, now: Micros, zone: Zone) throws -> Int {
        guard let days = try Store.meta(db, MetaKey.retentionDays) else { return 0 }
        return try Store.forget(db, endingBefore: Store.cut(olderThan: Int(days), now: now, zone: zone))
    }

    private static func forget(_ db: Database, endingBefore cut: Micros) throws -> Int {
        let bySource = try Row.fetchAll(
            db, sql: "SELECT source, count(*) FROM session WHERE start < ? AND start + length <= ? GROUP BY source", arguments: [cut, cut])
        guard !bySource.isEmpty else { return 0 }
        try db.execute(sql: "DELETE FROM session WHERE start < ? AND start + length <= ?", arguments: [cut, cut])
        let deleted = db.changesCount
        for row in bySource {
            try db.execute(sql: "UPDATE source SET sessions = sessions - ? WHERE id = ?", arguments: [row[1] as Int64, row[0] as Int64])
        }
        let left = (try meta(db, MetaKey.sessions) ?? 0) - Int64(deleted)
        try setMeta(db, MetaKey.sessions, left)
        if left == 0 { try setMeta(db, MetaKey.latestEnd, nil) }
        return deleted
    }

    /// Returns freed pages to the file system (the store was made with incremental auto-vacuum).
    func giveSpaceBack() throws(StoreError) {
        guard !isReadOnly else { return }
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA incremental_vacuum") }
        } catch {
            throw Store.mapped(error, path: path)
        }
    }
}

extension Store {
    /// What `store` shows, with days taken in `zone`.
    public func summary(zone: Zone) throws(StoreError) -> StoreSummary {
        let history = try StoreHistory(store: self, source: SourceRef.storeName)
        let (sources, retention, apps) = try read { db in
            let sources = try Row.fetchAll(
                db, sql: "SELECT name, shown, sessions, imports, first_import, last_import FROM source ORDER BY last_import DESC, id"
            ).map { row in
                StoreSummary.Source(
                    identity: row[0], shown: row[1], sessions: row[2], imports: row[3], firstImport: row[4], lastImport: row[5])
            }
            let apps = try Int.fetchOne(db, sql: "SELECT count(*) FROM app_latest") ?? 0
            return (sources, try Store.meta(db, MetaKey.retentionDays).map(Int.init), apps)
        }
        var bytes: Int64 = 0
        for file in [path, path + "-wal"] {
            var info = stat()
            if stat(file, &info) == 0 { bytes += Int64(info.st_size) }
        }
        return StoreSummary(
            path: path, bytes: bytes, readOnly: isReadOnly, sessions: history.sessionCount, apps: apps,
            days: history.dayRange(in: zone), sources: sources, retentionDays: retention)
    }
}
