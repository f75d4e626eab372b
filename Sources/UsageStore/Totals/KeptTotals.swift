// KeptTotals.swift — the totals the store keeps beside its sessions, per device, written once for every SQL backend: a change's delta added in the change's own transaction, the totals before a cut made again from the sessions left (forget, retention), and the totals of a store made before them (its migration).
import UsageCore

/// The kept totals' tables and the SQL that keeps them exact. Every statement is plain SQL
/// both SQLite and PostgreSQL speak (`ON CONFLICT … DO UPDATE`), but for the rows a change adds,
/// which each backend writes its fastest way (`SQLTransaction.addRows`).
///
/// The tables (StoreTables' `quarter_total` and `day_total`): time per UTC quarter hour and
/// device (all apps), and time and starting sessions per UTC day, device, app and category.
/// Only sessions up to a day long are in them. Per device, so that one device's view reads its
/// own rows and the merged view adds every device's (app time adds up across devices; screen
/// time is not kept).
enum KeptTotals {
    /// Adds `delta` to the tables, in the caller's transaction: what grows is added by
    /// `addRows` (made when new); what shrinks is taken from the row it was added to (a CHECK
    /// refuses a total below zero, so a change that took away more than was there fails whole);
    /// rows that reach nothing go.
    static func apply(_ delta: TotalsDelta, _ tx: any SQLTransaction) throws {
        guard !delta.isEmpty else { return }
        let quarters = delta.quarters.filter { $0.value > 0 }.sorted { ($0.key.quarter, $0.key.device) < ($1.key.quarter, $1.key.device) }
        try tx.addRows("quarter_total", columns: ["quarter", "device", "micros"], key: ["quarter", "device"],
                       rows: quarters.map { [$0.key.quarter, $0.key.device, $0.value] })
        let days = delta.days.filter { $0.value.micros >= 0 && $0.value.starts >= 0 && ($0.value.micros > 0 || $0.value.starts > 0) }
            .sorted { ($0.key.day, $0.key.device, $0.key.app, $0.key.category) < ($1.key.day, $1.key.device, $1.key.app, $1.key.category) }
        try tx.addRows("day_total", columns: ["day", "device", "app", "category", "micros", "starts"], key: ["day", "device", "app", "category"],
                       rows: days.map { [$0.key.day, $0.key.device, $0.key.app, $0.key.category, $0.value.micros, $0.value.starts] })
        var shrank = false
        for (key, micros) in delta.quarters where micros < 0 {
            try tx.execute(
                "UPDATE quarter_total SET micros = micros + ? WHERE quarter = ? AND device = ?",
                [.integer(micros), .integer(key.quarter), .integer(key.device)])
            shrank = true
        }
        for (key, amount) in delta.days where amount.micros < 0 || amount.starts < 0 {
            try tx.execute(
                "UPDATE day_total SET micros = micros + ?, starts = starts + ? WHERE day = ? AND device = ? AND app = ? AND category = ?",
                [.integer(amount.micros), .integer(amount.starts), .integer(key.day), .integer(key.device), .integer(key.app), .integer(key.category)])
            shrank = true
        }
        if shrank {
            try tx.execute("DELETE FROM quarter_total WHERE micros = 0", [])
            try tx.execute("DELETE FROM day_total WHERE micros = 0 AND starts = 0", [])
        }
    }

    /// What a plan changes in the kept totals (an import's or a copy's, before it is written):
    /// each new session added as `device`'s, each updated one's old row taken away and its new
    /// self added.
    static func add(_ plan: ImportPlan, _ dataset: Dataset, device: Int64, apps: [Int64], categories: [Int64], to totals: inout TotalsDelta) {
        let sessions = dataset.sessions
        for k in sessions.indices where plan.actions[k] != ImportPlan.unchanged {
            let (start, end, app, category) = sessions.core(k)
            totals.add(start: start, end: end, device: device, app: apps[Int(app)], category: categories[Int(category)])
            if let old = plan.replaced[k] {
                totals.add(start: old.start, end: old.start + old.length, device: device, app: old.app, category: old.category, sign: -1)
            }
        }
    }

    /// The totals of every session, for a store made before they were kept (the migration),
    /// read 50,000 rows at a time in the migration's transaction.
    static func fill(_ tx: any SQLTransaction) throws {
        var delta = TotalsDelta()
        var after = Int64.min
        while true {
            let rows = try tx.rows(
                "SELECT id, start, length, device, app, category FROM session WHERE id > ? ORDER BY id LIMIT 50000", [.integer(after)])
            for row in rows {
                guard let id = row[0].integer, let start = row[1].integer, let length = row[2].integer, let device = row[3].integer,
                    let app = row[4].integer, let category = row[5].integer
                else { continue }
                after = id
                delta.add(start: start, end: start + length, device: device, app: app, category: category)
            }
            if rows.count < 50000 { break }
        }
        try apply(delta, tx)
    }

    /// Whether the store holds recorded sessions: before the recorder added its sessions to
    /// the kept totals (migration "recorded time in the kept totals"), such a store's totals
    /// left them out and must be made again (`refill`).
    static func missesRecordedTime(_ tx: any SQLTransaction) throws -> Bool {
        try tx.int("SELECT count(*) FROM source WHERE name = ? AND sessions > 0", [.text(RecorderSource.identity)]) ?? 0 > 0
    }

    /// Both tables made again from every session, when `missesRecordedTime`; a store without
    /// recorded sessions is left as it is (its totals are right).
    static func refillIfRecorded(_ tx: any SQLTransaction, fill: () throws -> Void) throws {
        guard try missesRecordedTime(tx) else { return }
        try tx.execute("DELETE FROM quarter_total", [])
        try tx.execute("DELETE FROM day_total", [])
        try fill()
    }

    /// The totals before `cut` made again from the sessions left, after a forget deleted those
    /// ending before it: the totals of every UTC day before the one holding `cut` go, and the
    /// sessions still touching them (those across the cut, and the rest of its day) are added
    /// back. They are few: every session ending before the cut is gone.
    static func rebuild(before cut: Micros, _ tx: any SQLTransaction) throws {
        let end = cut.ceilDivided(by: TotalsDelta.day) * TotalsDelta.day
        try tx.execute("DELETE FROM quarter_total WHERE quarter < ?", [.integer(end / TotalsDelta.quarter)])
        try tx.execute("DELETE FROM day_total WHERE day < ?", [.integer(end / TotalsDelta.day)])
        var delta = TotalsDelta()
        for row in try tx.rows("SELECT start, length, device, app, category FROM session WHERE start < ?", [.integer(end)]) {
            guard let start = row[0].integer, let length = row[1].integer, let device = row[2].integer, let app = row[3].integer,
                let category = row[4].integer
            else { continue }
            // Only the part before the day's end: what lies after it is kept as it was.
            addPart(&delta, start: start, end: start + length, before: end, device: device, app: app, category: category)
        }
        try apply(delta, tx)
    }

    /// Adds the part of a kept session that lies before `limit` (its day rows and quarters),
    /// counting its start when it starts there.
    private static func addPart(
        _ delta: inout TotalsDelta, start: Micros, end: Micros, before limit: Micros, device: Int64, app: Int64, category: Int64
    ) {
        guard TotalsDelta.keeps(length: end - start) else { return }
        var whole = TotalsDelta()
        whole.add(start: start, end: end, device: device, app: app, category: category)
        for (key, micros) in whole.quarters where key.quarter * TotalsDelta.quarter < limit { delta.quarters[key, default: 0] += micros }
        for (key, amount) in whole.days where key.day * TotalsDelta.day < limit {
            var sum = delta.days[key, default: TotalsDelta.DayAmount()]
            sum.micros += amount.micros
            sum.starts += amount.starts
            delta.days[key] = sum
        }
    }
}
