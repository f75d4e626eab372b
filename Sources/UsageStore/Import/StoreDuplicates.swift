// StoreDuplicates.swift — the sessions a store holds twice (two of one device under one key: the same id, or the same app and start, brought by two files before a session was its device's), counted when the v11 re-keying found some, for `check`, and removed by `check fix`, one of each kept, with every count and kept total moved.
import UsageCore

/// How many sessions a store holds more than once: beyond the first (the lowest id) of each
/// device and key, by what makes them the same.
public struct StoredTwice: Equatable, Sendable {
    /// Those of the same device and own id (or start, for a source known by its starts).
    public var sameID = 0
    /// Those of the same device, app and start.
    public var sameAppAndStart = 0
    public var total: Int { sameID + sameAppAndStart }

    public init(sameID: Int = 0, sameAppAndStart: Int = 0) {
        (self.sameID, self.sameAppAndStart) = (sameID, sameAppAndStart)
    }
}

enum StoreDuplicates {
    /// The sessions after the first of each device and key, as a condition on `session`.
    static let extra = "id NOT IN (SELECT min(id) FROM session GROUP BY device, key)"

    static func count(_ tx: any SQLTransaction) throws -> StoredTwice {
        var twice = StoredTwice()
        let byContent = "CASE WHEN key >= \(SessionRekey.contentKeys) THEN 1 ELSE 0 END"
        for row in try tx.rows(
            "SELECT \(byContent) AS by_content, count(*) - count(DISTINCT key) AS extra FROM session GROUP BY device, \(byContent)", [])
        {
            let extra = Int(row.int("extra") ?? 0)
            if row.int("by_content") == 1 { twice.sameAppAndStart += extra } else { twice.sameID += extra }
        }
        return twice
    }
}

extension SQLStore {
    /// Counted only in a store whose re-keying (v11) found some (`Meta.storedTwice`): an import
    /// stores no session twice, and counting reads every key (seconds on a large store), which
    /// `check` must not pay every time.
    public func storedTwice() throws(StoreError) -> StoredTwice {
        try read { tx in try Meta.get(tx, Meta.storedTwice) == nil ? StoredTwice() : StoreDuplicates.count(tx) }
    }

    /// Deletes every session but the first of each device and key (the kept totals, the
    /// sources' and devices' counts moved with them); returns how many went.
    public func removeStoredTwice() throws(StoreError) -> Int {
        do {
            return try change { tx in
                let removed = try Forgetting.sessions(where: StoreDuplicates.extra, [], tx)
                try Meta.set(tx, Meta.storedTwice, nil)
                return removed
            }
        } catch {
            throw mapped(error)
        }
    }
}
