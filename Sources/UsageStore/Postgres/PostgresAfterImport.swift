// PostgresAfterImport.swift — the store left ready for its reads once a large import (or a copy into it) has committed: VACUUM (ANALYZE) of the tables the reads use, outside the import's transaction, from 50,000 rows written, tables another session holds skipped; a VACUUM refused or failed never fails nor holds up the import.
import UsageCore

extension PostgresStore {
    /// The fewest rows an import writes (added, updated, forgotten by the retention) before the
    /// store vacuums what it wrote. Below this the pages the import left not all-visible are few
    /// enough that the reads' index-only scans barely notice them, and a VACUUM (ANALYZE), whose
    /// ANALYZE samples the whole table, would cost more than the import itself (measured: see
    /// docs/PERFORMANCE.md, "Ready after an import").
    static let readyAfterRows = 50_000

    /// The tables a large import writes that the reads use: the sessions (their start index is
    /// read index-only, which reads the heap for every page the visibility map does not mark
    /// all-visible: every page the import wrote, until a VACUUM) and the kept totals.
    static let readyTables = ["session", "day_total", "quarter_total"]

    /// After an import (its transaction committed): when it wrote at least `readyAfterRows`
    /// rows, VACUUM (ANALYZE) of `readyTables`, which marks the new pages all-visible, summarises
    /// the block ranges of the source index and gives the planner the new rows' statistics —
    /// what autovacuum would do some minutes later (or, for a table of millions, only after
    /// another fifth of it is added). Both halves count: the new rows' statistics are most of it
    /// (never analysed, a week of 10M backfilled sessions reads in 1.3 s even all-visible), and the
    /// VACUUM then cuts it by another 40% (211 → 128 ms) for about a second per million rows on a
    /// durable server (docs/PERFORMANCE.md, "Measured again, apart"). VACUUM cannot run in a
    /// transaction block: it is sent alone on the writer's connection, which holds none now. Whatever happens is the import's
    /// success still: a role that does not own the tables gets the server's warning (which this
    /// connection does not show) and nothing done, autovacuum's turn then; a table another
    /// session holds (autovacuum, another import's VACUUM, an owner's maintenance) is skipped
    /// rather than waited for (SKIP_LOCKED, PostgreSQL 12 and later: an older server refuses the
    /// statement, and nothing is done); an error or a lost connection is dropped (the next
    /// statement on the connection reports a lost one itself).
    func leaveReady(afterWriting rows: Int) {
        guard rows >= Self.readyAfterRows else { return }
        let tables = Self.readyTables.map { "\(PostgresSchema.namespace).\($0)" }.joined(separator: ", ")
        _ = try? writer.exclusive { held in try held.execute("VACUUM (ANALYZE, SKIP_LOCKED) \(tables)") }
    }
}
