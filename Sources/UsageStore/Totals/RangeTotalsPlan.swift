// RangeTotalsPlan.swift — how a store answers a range's totals from what it keeps, for every backend: which quarter hours and whole UTC days to add, which edges and odd boundaries to read from sessions, and the sum of those parts, exact to the microsecond.
import UsageCore

/// A range's totals from the kept totals. Local days end on quarter hours in every real zone
/// (their offsets are whole quarter hours), so a day's time is the sum of its quarter hours;
/// a boundary off a quarter hour (a zone's old local mean time) splits its quarter with the
/// sessions read there. Apps and categories add the range's whole UTC days (`day_total`) and the
/// sessions of its two edges, each less than two days; sessions longer than a day are not in
/// the totals and are read whole from their own index. A session is counted once: where it
/// starts (a whole day's `starts`, an edge), or at the first edge when it began before the range.
struct RangeTotalsPlan {
    let bounds: DayBounds
    let detail: Bool
    /// The quarter hours to read: `[quarters.lowerBound, quarters.upperBound)`.
    let quarters: Range<Int64>
    /// The whole UTC days whose rows are added (empty when the range holds none apart from its edges).
    let wholeDays: Range<Int64>
    /// The parts read from the kept sessions: the first counts every session touching it (those
    /// that began before the range too), the others those that start inside them.
    let edges: [(from: Micros, to: Micros)]
    /// Day boundaries off a quarter hour: the boundary's index and its quarter.
    let offQuarter: [(index: Int, quarter: Int64)]
    /// The same by quarter.
    let offQuarterIndex: [Int64: Int]

    init(_ bounds: DayBounds, detail: Bool) {
        self.bounds = bounds
        self.detail = detail
        let q = TotalsDelta.quarter
        let d = TotalsDelta.day
        quarters = bounds.from.floorDivided(by: q)..<bounds.to.ceilDivided(by: q)
        // The first edge runs to the first UTC midnight after the start (a whole day when the
        // range starts at one), so it holds every session begun before the range.
        let firstWhole = bounds.from.floorDivided(by: d) + 1
        let lastWhole = bounds.to.floorDivided(by: d)
        if firstWhole < lastWhole {
            wholeDays = firstWhole..<lastWhole
            edges = [(bounds.from, firstWhole * d), (lastWhole * d, bounds.to)].filter { $0.0 < $0.1 }
        } else {
            wholeDays = 0..<0
            edges = [(bounds.from, bounds.to)]
        }
        offQuarter = bounds.starts.indices.compactMap { k in
            bounds.starts[k] % q == 0 ? nil : (k, bounds.starts[k].floorDivided(by: q))
        }
        offQuarterIndex = Dictionary(offQuarter.map { ($0.quarter, $0.index) }, uniquingKeysWith: { a, _ in a })
    }

    /// The sums as the parts are read.
    struct Sums {
        let plan: RangeTotalsPlan
        var days: [Micros]
        var pairs: [Int64: Micros] = [:]
        var sessions: [Int64: Int] = [:]
        /// The time of each off-quarter boundary's quarter before the boundary.
        var beforeBoundary: [Int: Micros] = [:]
        /// The time of each off-quarter boundary's quarter (of every device read), shared out
        /// among the days on either side when the totals are made.
        var boundaryQuarter: [Int: Micros] = [:]
        /// The day of the last quarter added.
        private var cursor = 0

        init(_ plan: RangeTotalsPlan) {
            self.plan = plan
            days = [Micros](repeating: 0, count: plan.bounds.count)
        }

        /// A pair's key: app and category ids (store ids, both below 2^31).
        private static func key(_ app: Int64, _ category: Int64) -> Int64 { app << 32 | category }

        /// A quarter hour's time among the days (split at an off-quarter boundary inside it).
        mutating func addQuarter(_ q: Int64, micros: Micros) {
            let bounds = plan.bounds
            let start = q * TotalsDelta.quarter
            if let index = plan.offQuarterIndex[q] {
                // A row per device: added up here, shared out once in `totals`.
                boundaryQuarter[index, default: 0] += micros
                return
            }
            guard start >= bounds.from, start < bounds.to else { return }
            // Quarters come in order: the day moves on from the last one's.
            if cursor >= bounds.count || bounds.starts[cursor] > start { cursor = bounds.index(of: start) }
            while bounds.starts[cursor + 1] <= start { cursor += 1 }
            days[cursor] += micros
        }

        /// A whole UTC day's row.
        mutating func addDayRow(app: Int64, category: Int64, micros: Micros, starts: Int64) {
            pairs[Self.key(app, category), default: 0] += micros
            sessions[app, default: 0] += Int(starts)
        }

        /// A kept session read at edge `edge` (clipped to it).
        mutating func addEdgeSession(edge: Int, start: Micros, end: Micros, app: Int64, category: Int64) {
            let (from, to) = plan.edges[edge]
            let clipped = min(end, to) - max(start, from)
            guard clipped > 0 else { return }
            pairs[Self.key(app, category), default: 0] += clipped
            if edge == 0 || start >= from { sessions[app, default: 0] += 1 }
        }

        /// A kept session read at an off-quarter boundary: its time in the boundary's quarter before it.
        mutating func addBoundarySession(index: Int, start: Micros, end: Micros) {
            let boundary = plan.bounds.starts[index]
            let quarterStart = boundary.floorDivided(by: TotalsDelta.quarter) * TotalsDelta.quarter
            let clipped = min(end, boundary) - max(start, quarterStart)
            if clipped > 0 { beforeBoundary[index, default: 0] += clipped }
        }

        /// A session the totals do not keep (longer than a day), read whole: its time among the
        /// days and, clipped to the range, its app and category, counted once.
        mutating func addLongSession(start: Micros, end: Micros, app: Int64, category: Int64) {
            let bounds = plan.bounds
            let from = max(start, bounds.from)
            let to = min(end, bounds.to)
            guard to > from else { return }
            var k = bounds.index(of: from)
            var at = from
            while at < to {
                let until = min(to, bounds.starts[k + 1])
                days[k] += until - at
                at = until
                k += 1
            }
            pairs[Self.key(app, category), default: 0] += to - from
            sessions[app, default: 0] += 1
        }

        /// The totals, with the store's names (`apps[id]`, `categories[id]`); nil when an id
        /// has no name (a snapshot that does not know it).
        func totals(apps: [Int64: String], categories: [Int64: String]) -> RangeTotals? {
            var days = days
            for (index, micros) in boundaryQuarter {
                let before = beforeBoundary[index] ?? 0
                if index > 0 { days[index - 1] += before }
                if index < plan.bounds.count { days[index] += micros - before }
            }
            guard plan.detail else { return RangeTotals(days: days, parts: [], sessions: []) }
            var parts: [RangeTotals.Part] = []
            for (key, micros) in pairs where micros != 0 {
                guard let app = apps[key >> 32], let category = categories[key & 0xFFFF_FFFF] else { return nil }
                parts.append(RangeTotals.Part(app: app, category: category, micros: micros))
            }
            var counts: [RangeTotals.Sessions] = []
            for (app, count) in sessions where count != 0 {
                guard let name = apps[app] else { return nil }
                counts.append(RangeTotals.Sessions(app: name, count: count))
            }
            return RangeTotals(days: days, parts: parts, sessions: counts)
        }
    }
}
