// KeptRangeRead.swift — a range's totals read from the kept totals in shared SQL over one SQLTransaction (the PostgreSQL backend's way; SQLite reads the same parts with its C API): quarter hours, whole UTC days, the edges' and the long sessions, of one device or of all.
import UsageCore

extension KeptTotals {
    /// The totals of the days of `bounds`, of `device` (an id) or of every device, in the
    /// caller's snapshot; nil when the store holds sessions past `upToRow` (a history's
    /// snapshot, whose windows do not show them) or an id the names do not hold.
    static func range(_ bounds: DayBounds, detail: Bool, device: Int64?, upToRow: Int64?, _ tx: any SQLTransaction) throws -> RangeTotals? {
        if let upToRow, try tx.int("SELECT id FROM session WHERE id > ? LIMIT 1", [.integer(upToRow)]) != nil { return nil }
        let plan = RangeTotalsPlan(bounds, detail: detail)
        var sums = RangeTotalsPlan.Sums(plan)
        let long = StoreHistory.longSession
        let onDevice = device == nil ? "" : " AND device = ?"
        let deviceArgument: [SQLValue] = device.map { [.integer($0)] } ?? []
        /// The kept sessions touching `[from, to)` (a kept session is at most a day long).
        func keptSessions(_ from: Micros, _ to: Micros, _ body: (Micros, Micros, Int64, Int64) -> Void) throws {
            let rows = try tx.rows(
                "SELECT start, length, app, category FROM session WHERE start >= ? AND start < ? AND start + length > ? AND length <= \(long)\(onDevice)",
                [.integer(from - long), .integer(to), .integer(from)] + deviceArgument)
            for row in rows {
                guard let start = row[0].integer, let length = row[1].integer, let app = row[2].integer, let category = row[3].integer else { continue }
                body(start, start + length, app, category)
            }
        }
        for off in plan.offQuarter {
            try keptSessions(off.quarter * TotalsDelta.quarter, bounds.starts[off.index]) { start, end, _, _ in
                sums.addBoundarySession(index: off.index, start: start, end: end)
            }
        }
        let quarters = try tx.rows(
            "SELECT quarter, micros FROM quarter_total WHERE quarter >= ? AND quarter < ?\(onDevice) ORDER BY quarter",
            [.integer(plan.quarters.lowerBound), .integer(plan.quarters.upperBound)] + deviceArgument)
        for row in quarters {
            if let quarter = row[0].integer, let micros = row[1].integer { sums.addQuarter(quarter, micros: micros) }
        }
        if detail {
            if !plan.wholeDays.isEmpty {
                let days = try tx.rows(
                    "SELECT app, category, CAST(sum(micros) AS BIGINT), CAST(sum(starts) AS BIGINT) FROM day_total WHERE day >= ? AND day < ?\(onDevice) GROUP BY app, category",
                    [.integer(plan.wholeDays.lowerBound), .integer(plan.wholeDays.upperBound)] + deviceArgument)
                for row in days {
                    guard let app = row[0].integer, let category = row[1].integer, let micros = row[2].integer, let starts = row[3].integer else { continue }
                    sums.addDayRow(app: app, category: category, micros: micros, starts: starts)
                }
            }
            for (k, edge) in plan.edges.enumerated() {
                try keptSessions(edge.from, edge.to) { start, end, app, category in
                    sums.addEdgeSession(edge: k, start: start, end: end, app: app, category: category)
                }
            }
        }
        // Sessions longer than a day, through their own index.
        if try Meta.get(tx, Meta.longest) ?? 0 > long {
            let rows = try tx.rows(
                "SELECT start, length, app, category FROM session WHERE length > \(long) AND start < ? AND start + length > ?\(onDevice)",
                [.integer(bounds.to), .integer(bounds.from)] + deviceArgument)
            for row in rows {
                guard let start = row[0].integer, let length = row[1].integer, let app = row[2].integer, let category = row[3].integer else { continue }
                sums.addLongSession(start: start, end: start + length, app: app, category: category)
            }
        }
        guard detail else { return sums.totals(apps: [:], categories: [:]) }
        func names(_ table: String) throws -> [Int64: String] {
            var names: [Int64: String] = [:]
            for row in try tx.rows("SELECT id, name FROM \(table)", []) { if let id = row.int("id"), let name = row.text("name") { names[id] = name } }
            return names
        }
        return sums.totals(apps: try names("app"), categories: try names("category"))
    }

    /// The id of the device named `name` (nil: every device), or the store's refusal.
    static func deviceID(_ name: String?, location: StoreLocation, _ tx: any SQLTransaction) throws -> Int64? {
        guard let name else { return nil }
        guard let id = try tx.int("SELECT id FROM device WHERE name = ?", [.text(name)]) else {
            throw StoreError.unknownDevice(path: location.description, name: name)
        }
        return id
    }
}
