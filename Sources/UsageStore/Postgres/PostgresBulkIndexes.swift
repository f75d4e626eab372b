// PostgresBulkIndexes.swift — a large import's session indexes built after its rows instead of entry by entry (as pg_restore loads a table): taken out and made again inside the import's transaction, only when the import is at least as large as the table, the role owns it and its lock is had within a second; otherwise the rows go in past the indexes as before.
import UsageCore

/// The session table's indexes, taken out for a bulk load and made again after it. Everything
/// happens in the import's transaction: a failure or a lost connection leaves the indexes as they
/// were, and no other connection ever sees the table without them (the table is locked until
/// the import commits; readers wait for it rather than read without an index).
struct PostgresBulkIndexes {
    /// The fewest rows an import must add before its indexes are built after them: below this
    /// the entries cost less than the lock (a tenth of a second at 50,000 rows).
    static let leastRows = 50_000
    /// How long the import waits for the table's lock (other readers' open transactions) before
    /// it adds the rows past the indexes instead, as a smaller import does.
    static let lockWait = "1s"

    /// The statements that make the indexes again, in the catalog's own words.
    let remake: [String]

    /// Takes the session table's indexes out when `rows` new ones are worth building them anew
    /// for: at least `leastRows`, and at least as many as the table holds (building an index
    /// from sorted rows costs about a third of adding the entries one by one, for every row the
    /// table holds: measured on 1,000,000 sessions, 2.0 s against 3.7 s). Nil when not taken:
    /// too few rows, a role that does not own the table, a lock not had within `lockWait`.
    static func takeOut(inserting rows: Int, _ held: PostgresConnection.Held) throws -> PostgresBulkIndexes? {
        guard rows >= leastRows else { return nil }
        // The table's rows: the store's count as the import began, or the planner's, which the
        // indexes made for an earlier source of the same import bring up to date.
        let size = try held.execute(
            """
            SELECT greatest(coalesce((SELECT value FROM meta WHERE key = '\(Meta.sessions)'), 0), c.reltuples::bigint),
                   pg_has_role(c.relowner, 'USAGE')
            FROM pg_class c WHERE c.oid = 'session'::regclass
            """)
        guard size.rows == 1, let tableRows = Int64(size.text(0, 0)), Int64(rows) >= tableRows, size.text(0, 1) == "t" else { return nil }
        _ = try held.execute("SAVEPOINT bulk_indexes")
        do {
            _ = try held.execute("SET LOCAL lock_timeout = '\(lockWait)'")
            _ = try held.execute("LOCK TABLE session IN ACCESS EXCLUSIVE MODE")
            _ = try held.execute("SET LOCAL lock_timeout TO DEFAULT")
            let indexes = try held.execute(
                """
                SELECT quote_ident(i.relname), quote_ident(con.conname), pg_get_indexdef(i.oid), pg_get_constraintdef(con.oid)
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                LEFT JOIN pg_constraint con ON con.conindid = x.indexrelid AND con.conrelid = x.indrelid
                WHERE x.indrelid = 'session'::regclass
                ORDER BY i.relname
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
            _ = try held.execute("RELEASE SAVEPOINT bulk_indexes")
            return PostgresBulkIndexes(remake: remake)
        } catch {
            // Not taken (the lock not had, the catalog not as expected): the import goes on with
            // the indexes it has. A connection lost meanwhile fails here, with its own error.
            do {
                _ = try held.execute("ROLLBACK TO SAVEPOINT bulk_indexes")
                _ = try held.execute("RELEASE SAVEPOINT bulk_indexes")
            } catch {
                throw error
            }
            if error.connectionLost { throw error }
            return nil
        }
    }

    /// Makes the indexes again, from the rows now in the table.
    func makeAgain(_ held: PostgresConnection.Held) throws {
        for statement in remake { _ = try held.execute(statement) }
    }
}
