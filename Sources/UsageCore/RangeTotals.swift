// RangeTotals.swift — the sums a stretch of days is summarised from (time per local day, time per app and category, sessions per app), made by summing a history's window; a store answers the same from the totals it keeps (SessionHistory.rangeTotals).

/// Local days as instants: day `k` is `[starts[k], starts[k + 1])`, cut in one zone (23-, 24-
/// or 25-hour days where the clocks change).
public struct DayBounds: Sendable, Equatable {
    /// The first day.
    public let first: LocalDate
    /// Each day's first instant, then the end of the last day: one more than the days.
    public let starts: [Micros]

    /// The days of `days` in `zone`.
    public init(_ days: ClosedRange<LocalDate>, zone: Zone) {
        first = days.lowerBound
        starts = (0...days.lowerBound.days(to: days.upperBound) + 1).map { zone.startOfDay(days.lowerBound.adding(days: $0)) }
    }

    /// Days given by their boundaries (tests, and a store's own cut).
    public init(first: LocalDate, starts: [Micros]) {
        precondition(starts.count >= 2 && zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }, "days in order")
        self.first = first
        self.starts = starts
    }

    /// How many days.
    public var count: Int { starts.count - 1 }
    /// The first instant.
    public var from: Micros { starts[0] }
    /// The end of the last day (exclusive).
    public var to: Micros { starts[starts.count - 1] }
    /// The date of day `k`.
    public func day(_ k: Int) -> LocalDate { first.adding(days: k) }

    /// The index of the day holding `t` (which must lie in `[from, to)`).
    public func index(of t: Micros) -> Int {
        var lo = 0
        var hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// What a stretch of days adds up to: app time per day (the sum of the day reports' totals),
/// and over the whole stretch the time of each app in each category and how many sessions each
/// app had there (a session counted once, however many days it spans). Names are kept, not a
/// history's ids, so that the totals of several histories add up by name.
public struct RangeTotals: Sendable, Equatable {
    /// One app's time in one category over the range.
    public struct Part: Sendable, Equatable {
        public let app: String
        public let category: String
        public let micros: Micros

        public init(app: String, category: String, micros: Micros) {
            self.app = app
            self.category = category
            self.micros = micros
        }

        public static func == (a: Part, b: Part) -> Bool {
            a.app.sameScalars(as: b.app) && a.category.sameScalars(as: b.category) && a.micros == b.micros
        }
    }

    /// One app's sessions that touch the range.
    public struct Sessions: Sendable, Equatable {
        public let app: String
        public let count: Int

        public init(app: String, count: Int) {
            self.app = app
            self.count = count
        }

        public static func == (a: Sessions, b: Sessions) -> Bool { a.app.sameScalars(as: b.app) && a.count == b.count }
    }

    /// App time per day of the range, in order.
    public let days: [Micros]
    /// Every app's time per category, apps and then categories in scalar order; no zeros.
    public let parts: [Part]
    /// Every app's sessions, in scalar order of the apps; no zeros.
    public let sessions: [Sessions]

    /// Totals with their parts in canonical order: equal names (by scalars) summed, zeros left out.
    public init(days: [Micros], parts: [Part], sessions: [Sessions]) {
        self.days = days
        var partSums: [PairKey: Micros] = [:]
        for p in parts { partSums[PairKey(app: ExactName(p.app), category: ExactName(p.category)), default: 0] += p.micros }
        self.parts = partSums.compactMap { key, micros in micros == 0 ? nil : Part(app: key.app.text, category: key.category.text, micros: micros) }
            .sorted { a, b in
                a.app.sameScalars(as: b.app) ? a.category.scalarsPrecede(b.category) : a.app.scalarsPrecede(b.app)
            }
        var counts: [ExactName: Int] = [:]
        for s in sessions { counts[ExactName(s.app), default: 0] += s.count }
        self.sessions = counts.compactMap { $0.value == 0 ? nil : Sessions(app: $0.key.text, count: $0.value) }
            .sorted { $0.app.scalarsPrecede($1.app) }
    }

    private struct PairKey: Hashable {
        let app: ExactName
        let category: ExactName
    }

    /// No time on any day.
    public static func empty(days: Int) -> RangeTotals {
        RangeTotals(days: [Micros](repeating: 0, count: days), parts: [], sessions: [])
    }

    /// The range's app time.
    public var total: Micros { days.reduce(0, +) }

    /// The totals of several histories over the same days, added by name.
    public static func adding(_ all: [RangeTotals]) -> RangeTotals {
        guard let first = all.first else { return .empty(days: 0) }
        var days = first.days
        for other in all.dropFirst() { for k in days.indices { days[k] += other.days[k] } }
        return RangeTotals(days: days, parts: all.flatMap(\.parts), sessions: all.flatMap(\.sessions))
    }

    /// The totals of the sessions `window` yields over `bounds` (the window must cover them):
    /// each session's clipped time split exactly among the days it touches; with `detail`, also
    /// the time per app and category and the sessions per app (else those are left empty).
    public static func summing(
        _ window: SessionWindow, bounds: DayBounds, apps: [String], categories: [String], detail: Bool
    ) -> RangeTotals {
        var days = [Micros](repeating: 0, count: bounds.count)
        var pairs: [Int64: Micros] = [:]
        var sessionCounts = [Int](repeating: 0, count: detail ? apps.count : 0)
        let (from, to) = (bounds.from, bounds.to)
        window.narrowed(from: from, to: to).forEachClipped { start, end, app, category in
            var k = bounds.index(of: start)
            var at = start
            while at < end {
                let dayEnd = bounds.starts[k + 1]
                let until = Swift.min(end, dayEnd)
                days[k] += until - at
                at = until
                k += 1
            }
            if detail {
                pairs[Int64(app) << 32 | Int64(category), default: 0] += end - start
                sessionCounts[Int(app)] += 1
            }
        }
        let parts = pairs.map { key, micros in
            Part(app: apps[Int(key >> 32)], category: categories[Int(key & 0xFFFF_FFFF)], micros: micros)
        }
        let sessions = sessionCounts.indices.compactMap { k in sessionCounts[k] > 0 ? Sessions(app: apps[k], count: sessionCounts[k]) : nil }
        return RangeTotals(days: days, parts: parts, sessions: sessions)
    }
}

extension SessionHistory {
    /// The totals of the days of `bounds`, summed from the history's window: what a history
    /// without totals of its own answers (a file, the sample, tracked time).
    public func summingRangeTotals(_ bounds: DayBounds, detail: Bool) -> RangeTotals {
        RangeTotals.summing(
            uncachedWindow(from: bounds.from, to: bounds.to), bounds: bounds, apps: apps, categories: categories, detail: detail)
    }
}
