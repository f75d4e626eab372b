// SessionRekey.swift — the v11 migration's computation: every session keyed by its content (its app, category, start and length within its file) given the key of its app and start within its device, as an import now makes it; the sessions a store holds twice keep their rows.

/// Re-keys the stored sessions whose key was made from their content (kind 1): the key of
/// their app and start (`ImportKeys.identity`), the n-th session of the same app and start
/// in its source (in start, length and id order, as a load orders them) its n-th occurrence,
/// as an import of that source gives. Keys of an id (kind 0) and of a start (kind 2) never
/// held the source and stay. Sessions two files brought then share their key; the migration
/// deletes nothing but notes how many there are (`Meta.storedTwice`), which `check` says and
/// `check fix` removes (`StoreDuplicates`).
enum SessionRekey {
    /// The smallest key of kind 1 (its top two bits 01).
    static let contentKeys: Int64 = 1 << 62
    /// Rows changed a statement.
    static let batch = 500

    static func run(_ tx: any SQLTransaction) throws {
        var changes: [(id: Int64, key: Int64)] = []
        var source: Int64 = -1
        var occurrences: [UInt64: Int] = [:]
        let rows = try tx.rows(
            "SELECT id, source, app, start, key FROM session WHERE key >= ? ORDER BY source, start, length, id", [.integer(contentKeys)])
        for row in rows {
            guard let id = row[0].integer, let from = row[1].integer, let app = row[2].integer, let start = row[3].integer,
                let old = row[4].integer
            else { continue }
            if from != source { (source, occurrences) = (from, [:]) }
            var hash = IdentityHash()
            hash.add(app)
            hash.add(start)
            let occurrence = occurrences[hash.value, default: 0]
            occurrences[hash.value] = occurrence + 1
            let key = hash.key(kind: 1, occurrence: occurrence, probe: 0)
            if key != old { changes.append((id, key)) }
        }
        var from = 0
        while from < changes.count {
            let part = changes[from..<min(from + batch, changes.count)]
            let values = Array(repeating: "(CAST(? AS BIGINT), CAST(? AS BIGINT))", count: part.count).joined(separator: ", ")
            try tx.execute(
                "UPDATE session SET key = v.column2 FROM (VALUES \(values)) AS v WHERE session.id = v.column1",
                part.flatMap { [SQLValue.integer($0.id), .integer($0.key)] })
            from += part.count
        }
        let twice = try StoreDuplicates.count(tx).total
        if twice > 0 { try Meta.set(tx, Meta.storedTwice, Int64(twice)) }
    }
}
