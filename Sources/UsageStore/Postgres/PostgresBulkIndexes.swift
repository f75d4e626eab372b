// PostgresBulkIndexes.swift — a large import's session indexes built after its rows instead of entry by entry (as pg_restore loads a table): taken out once the import's new rows reach 50,000 and the store's size, made again once, before anything looks rows up by them and at the import's end, all in its transaction; only when the role owns the table, its indexes are the plain ones a store has (no tablespace, replica identity, clustering, comment, nor one left invalid) and its lock is had within a second; otherwise the rows go in past the indexes.
import UsageCore

/// The session table's indexes through one import (every source of it, or a store's copy).
/// Everything happens in the import's transaction: a failure or a lost connection leaves the
/// indexes as they were, and no other connection ever sees the table without them (it is
/// locked until the import commits; readers wait for it rather than read without an index).
final class PostgresBulkIndexes {
    /// The fewest new rows before the indexes are built after them: below this the entries
    /// cost less than the lock (a tenth of a second at 50,000 rows).
    static let leastRows = 50_000
    /// How long the import waits for the table's lock (other readers' open transactions) before
    /// it adds the rows past the indexes instead, for the rest of the import.
    static let lockWait = "1s"

    private let held: PostgresConnection.Held
    /// The store's sessions as the import began (its own count).
    private var storeRows: Int64?
    /// The new rows of the import so far.
    private var added = 0
    /// The statements that make the indexes again, while they are out.
    private var remake: [String]?
    /// Decided for the rest of the import: refused (the lock, the role, the indexes), or made
    /// again already.
    private var settled = false

    init(_ held: PostgresConnection.Held) {
        self.held = held
    }

    /// Before `rows` new rows are sent: takes the indexes out when the import's new rows, these
    /// included, are worth building them anew for: at least `leastRows`, and at least as many
    /// as the store held (building an index from sorted rows costs about a third of adding its
    /// entries one by one, for every row the table holds: measured on 1,000,000 sessions, 2.0 s
    /// against 3.7 s).
    func beforeRows(_ rows: Int) throws {
        added += rows
        guard remake == nil, !settled, added >= Self.leastRows else { return }
        if storeRows == nil {
            storeRows = try Meta.get(PostgresTransaction(held: held), Meta.sessions) ?? 0
        }
        guard Int64(added) >= storeRows! else { return }
        remake = try takeOut()
        if remake == nil { settled = true }
    }

    /// Before a statement that finds rows by an index (an update by id, a source's stored
    /// rows): the indexes made again, and kept for the rest of the import.
    func needed() throws {
        guard remake != nil else { return }
        try makeAgain()
    }

    /// At the import's end (before its retention deletes): the indexes made again.
    func finish() throws {
        try makeAgain()
    }

    private func makeAgain() throws {
        guard let statements = remake else { return }
        for statement in statements { _ = try held.execute(statement) }
        remake = nil
        settled = true
    }

    /// The indexes taken out, and the statements that make them again; nil when they stay.
    private func takeOut() throws -> [String]? {
        let owner = try held.execute("SELECT pg_has_role(relowner, 'USAGE') FROM pg_class WHERE oid = 'session'::regclass")
        guard owner.rows == 1, owner.text(0, 0) == "t" else { return nil }
        _ = try held.execute("SAVEPOINT bulk_indexes")
        do {
            _ = try held.execute("SET LOCAL lock_timeout = '\(Self.lockWait)'")
            _ = try held.execute("LOCK TABLE session IN ACCESS EXCLUSIVE MODE")
            _ = try held.execute("SET LOCAL lock_timeout TO DEFAULT")
            // Only the plain indexes a store has are made again from their definitions, which
            // say nothing of a tablespace, a replica identity, a clustering or a comment; an
            // index left invalid (a failed CREATE … CONCURRENTLY) would come back as a real one.
            let unusual = try held.execute(
                """
                SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                WHERE x.indrelid = 'session'::regclass
                  AND (NOT x.indisvalid OR NOT x.indisready OR x.indisreplident OR x.indisclustered
                       OR i.reltablespace <> 0 OR obj_description(i.oid, 'pg_class') IS NOT NULL)
                """)
            guard unusual.text(0, 0) == "0" else {
                try release(rolledBack: true)
                return nil
            }
            let indexes = try held.execute(
                """
                SELECT quote_ident(i.relname), quote_ident(con.conname), pg_get_indexdef(i.oid), pg_get_constraintdef(con.oid)
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                LEFT JOIN pg_constraint con ON con.conindid = x.indexrelid AND con.conrelid = x.indrelid AND con.contype IN ('p', 'u', 'x')
                WHERE x.indrelid = 'session'::regclass
                ORDER BY i.relname, i.oid
                """)
            var remake: [String] = []
            for r in 0..<indexes.rows {
                if indexes.isNull(r, 1) {
                    _ = try held.execute("DROP INDEX \(PostgresSchema.namespace).\(indexes.text(r, 0))")
                    remake.append(indexes.text(r, 2))
                } else {
                    _ = try held.execute("ALTER TABLE session DROP CONSTRAINT \(indexes.text(r, 1))")
                    remake.append("ALTER TABLE session ADD CONSTRAINT \(indexes.text(r, 1)) \(indexes.text(r, 3))")
                }
            }
            try release(rolledBack: false)
            return remake
        } catch let failure {
            // Not taken (the lock not had, an index another object depends on): the import goes
            // on with the indexes it has. A connection lost meanwhile fails here, with its own error.
            try release(rolledBack: true)
            if failure.connectionLost { throw failure }
            return nil
        }
    }

    /// Ends the savepoint: its changes kept, or undone (the lock and `lock_timeout` with them).
    private func release(rolledBack: Bool) throws(PostgresFailure) {
        if rolledBack { _ = try held.execute("ROLLBACK TO SAVEPOINT bulk_indexes") }
        _ = try held.execute("RELEASE SAVEPOINT bulk_indexes")
    }
}
