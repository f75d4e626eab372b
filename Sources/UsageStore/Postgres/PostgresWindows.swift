// PostgresWindows.swift — what a StoreHistory reads of a PostgreSQL store, on the reader connection: the names and facts of a snapshot, a window's rows through the start index (binary COPY, a long window in two halves at once), a range's kept totals, and a screen's reads kept in one repeatable-read transaction.
import UsageCore

extension PostgresStore {
    func facts(device: String?) throws(StoreError) -> StoreHistory.Facts {
        try readerSnapshot { held in
            let tx = PostgresTransaction(held: held)
            func names(_ table: String) throws -> [String] {
                var names: [String] = []
                for row in try tx.rows("SELECT id, name FROM \(table) ORDER BY id", []) {
                    guard let id = row.int("id"), let name = row.text("name") else { continue }
                    while names.count < Int(id) - 1 { names.append(Normalise.unknownApp) }
                    names.append(name)
                }
                return names
            }
            let apps = try names("app")
            let categories = try names("category")
            let count = try Meta.get(tx, Meta.sessions) ?? 0
            let latestEnd = try Meta.get(tx, Meta.latestEnd)
            let longest = try Meta.get(tx, Meta.longest) ?? 0
            let lastRow = try tx.int("SELECT max(id) FROM session") ?? 0
            let version = try Meta.get(tx, Meta.changes) ?? 0
            let first = try tx.int("SELECT min(start) FROM session")
            let latestStart = try tx.int("SELECT max(start) FROM session")
            let all = StoreHistory.Facts(
                apps: apps, categories: categories, sessionCount: Int(count), span: first.flatMap { f in latestEnd.map { (f, $0) } },
                latestStart: latestStart, longest: longest, lastRow: lastRow, version: version)
            return try StoreHistory.narrowed(all, to: device, location: location, tx)
        }
    }

    /// The rows touching `[from, to)`: those starting from a day before `from` (through the
    /// start index), and the longer ones starting earlier (through their own index). While the
    /// store is as the snapshot saw it, no session is longer than its longest, so the rows read
    /// start that much before `from` rather than a whole day. The rows come by binary `COPY`
    /// (no result set built a value at a time); a window of more than a day and a half is read
    /// in two halves at once, the later on a third connection (the side reader) in the same
    /// snapshot (two of the server's cores).
    func columns(from: Micros, to: Micros, ids: Bool, facts: StoreHistory.Facts) throws(StoreError) -> (SessionColumns, version: Int64) {
        let long = StoreHistory.longSession
        let (lastRow, longest) = (facts.lastRow, facts.longest)
        let rows = PostgresWindowRows(apps: facts.apps.count, categories: facts.categories.count, ids: ids)
        return try readerSnapshot { held -> (SessionColumns, version: Int64) in
            let version = try Meta.get(PostgresTransaction(held: held), Meta.changes) ?? 0
            let unchanged = facts.version == version
            let (earliest, overflow) = from.subtractingReportingOverflow(unchanged ? min(max(longest, 0), long) : long)
            let recentFrom = overflow ? Int64.min : earliest
            // COPY takes no parameters: only integers this program formats are written into it.
            // Rows past the snapshot's last exist only if the store changed since: then they
            // are left out by id, else no filter names a column the start index does not hold,
            // and PostgreSQL answers from the index alone, already in order.
            var filter = unchanged ? "" : " AND id <= \(lastRow)"
            if let device = facts.device { filter += " AND device = \(device)" }
            // Room for the rows a stretch of this length holds on average (one allocation, not
            // one per doubling).
            let perMicro = facts.span.map { Double(facts.sessionCount) / max(Double($0.1) - Double($0.0), 1) } ?? 0
            func expected(_ first: Micros, _ end: Micros) -> Int {
                let earliest: Double = max(Double(first), Double(from) - Double(long))
                let rows: Double = (Double(end) - earliest) * perMicro * 1.1
                return Int(min(max(rows, 0), Double(1 << 21)))
            }
            func recent(_ first: Micros, _ end: Micros) -> String {
                rows.copy("WHERE start >= \(first) AND start < \(end) AND start + length > \(from)\(filter) ORDER BY start")
            }
            let (span, spanOverflow) = to.subtractingReportingOverflow(recentFrom)
            var columns: SessionColumns
            if !spanOverflow, span > Self.splitSpan, let snapshot = try exportSnapshot(held) {
                let middle = recentFrom + span / 2
                let later = sideRead(recent(middle, to), rows: rows, snapshot: snapshot, expected: expected(middle, to))
                columns = try rows.read(recent(recentFrom, middle), on: held, expected: expected(recentFrom, to))
                let second = try later.value ?? rows.read(recent(middle, to), on: held, expected: expected(middle, to))
                columns.append(contentsOf: second, appMap: rows.appMap, categoryMap: rows.categoryMap)
            } else {
                columns = try rows.read(recent(recentFrom, to), on: held, expected: expected(recentFrom, to))
            }
            if longest > long, !overflow {
                let older = try rows.read(rows.copy("WHERE length > \(long) AND start < \(recentFrom) AND start + length > \(from)\(filter)"), on: held)
                columns.append(contentsOf: older, appMap: rows.appMap, categoryMap: rows.categoryMap)
            }
            columns.putInStartOrder()
            return (columns, version)
        }
    }

    func keptRangeTotals(_ bounds: DayBounds, detail: Bool, device: Int64?, upToRow: Int64?) throws(StoreError) -> RangeTotals? {
        try readerSnapshot { held in
            try KeptTotals.range(bounds, detail: detail, device: device, upToRow: upToRow, PostgresTransaction(held: held))
        }
    }

    func readVersion() throws(StoreError) -> Int64 {
        try readerSnapshot { held in try Meta.get(PostgresTransaction(held: held), Meta.changes) ?? 0 }
    }

    func latestCategory(ofApp app: Int32) throws(StoreError) -> Int32? {
        try readerSnapshot { held in
            try PostgresTransaction(held: held).int("SELECT category FROM app_latest WHERE app = ?", [.integer(Int64(app) + 1)])
        }.map { Int32($0 - 1) }
    }

    // MARK: One screen, one transaction

    /// Runs `body` as one screen: the reader's repeatable-read transaction begins at its first
    /// read and ends with it (or when this store commits a change meanwhile).
    func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try screens.run(body, end: endScreenTransaction)
    }

    /// A read on the reader: inside a screen, in the screen's transaction (begun by the first
    /// read); else in a transaction of its own. Errors as the store's.
    func readerSnapshot<T>(_ body: (PostgresConnection.Held) throws -> T) throws(StoreError) -> T {
        let inScreen = screens.inScreen
        do {
            return try reader.exclusive { held in
                if held.inTransaction { return try body(held) }
                _ = try held.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                if inScreen { return try body(held) }
                do {
                    let result = try body(held)
                    _ = try held.execute("COMMIT")
                    return result
                } catch {
                    _ = try? held.execute("ROLLBACK")
                    throw error
                }
            }
        } catch {
            throw mapped(error)
        }
    }

    /// Ends the screen's transaction on the reader, if one is open.
    func endScreenTransaction() {
        _ = try? reader.exclusive { held in
            if held.inTransaction { _ = try held.execute("COMMIT") }
        }
    }
}
