// SQLiteKeptTotals.swift — the kept totals on SQLite in bulk: made from every session once (the v6 migration), and a range's totals, of one device or of all, read with SQLite's C API (quarter hours, whole days, the edges' and long sessions) in one snapshot of the reader.
import GRDB
import GRDBSQLite
import UsageCore

extension SQLiteStore {
    /// The totals of every session of a store made before they were kept: one pass over the
    /// sessions, summed in memory, written in the migration's transaction.
    static func fillKeptTotals(_ db: Database) throws {
        var delta = TotalsDelta()
        let statement = try db.makeStatement(sql: "SELECT start, length, device, app, category FROM session")
        let s = statement.sqliteStatement
        while try step(s, db) {
            let start = sqlite3_column_int64(s, 0)
            delta.add(
                start: start, end: start + sqlite3_column_int64(s, 1), device: sqlite3_column_int64(s, 2), app: sqlite3_column_int64(s, 3),
                category: sqlite3_column_int64(s, 4))
        }
        try KeptTotals.apply(delta, GRDBTransaction(db: db))
    }

    /// The totals of the days of `bounds` from what the store keeps, of `device` (an id) or of
    /// every device, in one snapshot of the reader (a screen's, inside one). With `upToRow`, nil
    /// when the store holds sessions past that row (added since a history was opened: that
    /// history's windows do not show them).
    func keptRangeTotals(_ bounds: DayBounds, detail: Bool, device: Int64?, upToRow: Int64?) throws(StoreError) -> RangeTotals? {
        let plan = RangeTotalsPlan(bounds, detail: detail)
        let onDevice = device == nil ? "" : " AND device = ?"
        return try readerSnapshot { db -> RangeTotals? in
            if let upToRow, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM session WHERE id > ?)", arguments: [upToRow]) == true {
                return nil
            }
            var sums = RangeTotalsPlan.Sums(plan)
            let long = StoreHistory.longSession
            /// The kept sessions touching `[from, to)` (a kept session is at most a day long).
            func keptSessions(_ from: Micros, _ to: Micros, _ body: (Micros, Micros, Int64, Int64) -> Void) throws {
                let statement = try db.cachedStatement(
                    sql: "SELECT start, length, app, category FROM session WHERE start >= ? AND start < ? AND start + length > ? AND length <= \(long)\(onDevice)")
                let s = statement.sqliteStatement
                sqlite3_reset(s)
                sqlite3_bind_int64(s, 1, from - long)
                sqlite3_bind_int64(s, 2, to)
                sqlite3_bind_int64(s, 3, from)
                if let device { sqlite3_bind_int64(s, 4, device) }
                while try Self.step(s, db) {
                    let start = sqlite3_column_int64(s, 0)
                    body(start, start + sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3))
                }
            }
            // Off-quarter boundaries first: their quarters are split as the quarters are added.
            for off in plan.offQuarter {
                let quarterStart = off.quarter * TotalsDelta.quarter
                try keptSessions(quarterStart, bounds.starts[off.index]) { start, end, _, _ in
                    sums.addBoundarySession(index: off.index, start: start, end: end)
                }
            }
            let quarters = try db.makeStatement(sql: "SELECT quarter, micros FROM quarter_total WHERE quarter >= ? AND quarter < ?\(onDevice)")
            let q = quarters.sqliteStatement
            sqlite3_bind_int64(q, 1, plan.quarters.lowerBound)
            sqlite3_bind_int64(q, 2, plan.quarters.upperBound)
            if let device { sqlite3_bind_int64(q, 3, device) }
            while try Self.step(q, db) { sums.addQuarter(sqlite3_column_int64(q, 0), micros: sqlite3_column_int64(q, 1)) }
            if detail {
                if !plan.wholeDays.isEmpty {
                    // Summed here: SQLite's GROUP BY would sort the rows first (the key begins with the day).
                    let days = try db.makeStatement(sql: "SELECT app, category, micros, starts FROM day_total WHERE day >= ? AND day < ?\(onDevice)")
                    let d = days.sqliteStatement
                    sqlite3_bind_int64(d, 1, plan.wholeDays.lowerBound)
                    sqlite3_bind_int64(d, 2, plan.wholeDays.upperBound)
                    if let device { sqlite3_bind_int64(d, 3, device) }
                    while try Self.step(d, db) {
                        sums.addDayRow(
                            app: sqlite3_column_int64(d, 0), category: sqlite3_column_int64(d, 1), micros: sqlite3_column_int64(d, 2),
                            starts: sqlite3_column_int64(d, 3))
                    }
                }
                for (k, edge) in plan.edges.enumerated() {
                    try keptSessions(edge.from, edge.to) { start, end, app, category in
                        sums.addEdgeSession(edge: k, start: start, end: end, app: app, category: category)
                    }
                }
            }
            // Sessions longer than a day, through their own index.
            if try Meta.get(GRDBTransaction(db: db), Meta.longest) ?? 0 > long {
                let statement = try db.makeStatement(
                    sql: "SELECT start, length, app, category FROM session WHERE length > \(long) AND start < ? AND start + length > ?\(onDevice)")
                let s = statement.sqliteStatement
                sqlite3_bind_int64(s, 1, bounds.to)
                sqlite3_bind_int64(s, 2, bounds.from)
                if let device { sqlite3_bind_int64(s, 3, device) }
                while try Self.step(s, db) {
                    let start = sqlite3_column_int64(s, 0)
                    sums.addLongSession(
                        start: start, end: start + sqlite3_column_int64(s, 1), app: sqlite3_column_int64(s, 2),
                        category: sqlite3_column_int64(s, 3))
                }
            }
            guard detail else { return sums.totals(apps: [:], categories: [:]) }
            // Names by id, as the rows give them.
            let apps = Dictionary(try Self.names(db, table: "app").map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            let categories = Dictionary(try Self.names(db, table: "category").map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            return sums.totals(apps: apps, categories: categories)
        }
    }
}
