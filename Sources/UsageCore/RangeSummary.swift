// RangeSummary.swift — `summary RANGE`: what a stretch of days adds up to (total, days with data, daily average over them, busiest day, each app and category) and the change of its daily average against the range just before, built from a history's range totals.

/// The summary of a range of local days. Time is app time, as everywhere else (overlapping
/// sessions count twice): screen time, the union of the sessions, does not add up from one day
/// to the next, and is not shown for a range.
public struct RangeSummary: Sendable {
    public let range: DateRange
    public let zone: String
    /// App time in the range: the sum of its days' totals.
    public let totalMicros: Micros
    /// The days with any time, oldest first, with their time.
    public let days: [(day: LocalDate, micros: Micros)]
    /// `totalMicros` over the days with data (0 when none has).
    public let averageMicros: Micros
    /// The day with most time (the earliest of equal ones); nil without data.
    public let busiest: (day: LocalDate, micros: Micros)?
    /// Each app with its time, its category (the one with most of its time in the range), its
    /// sessions (each once, however many days it spans) and its share; most first.
    public let apps: [AppUsage]
    /// Each category with its time and share; most first.
    public let categories: [CategoryUsage]
    /// The range it is compared with, and its own facts; nil before 0000-01-01.
    public let previous: Previous?

    /// The range before: its days with data and daily average.
    public struct Previous: Sendable {
        public let range: DateRange
        public let totalMicros: Micros
        public let daysWithData: Int
        public let averageMicros: Micros
    }

    public var daysWithData: Int { days.count }

    /// The change of the daily average against the range before, as a fraction (0.12 is 12%
    /// more); nil when the range before has no data.
    public var change: Double? {
        guard let previous, previous.averageMicros > 0 else { return nil }
        return Double(averageMicros - previous.averageMicros) / Double(previous.averageMicros)
    }

    /// The summary of `range` in `zone`, from `history`'s totals: only the days where the data
    /// lies are asked for (the rest hold nothing), so a range of centuries costs what its data does.
    public init(history: some SessionHistory, range: DateRange, zone: Zone) {
        self.range = range
        self.zone = zone.identifier
        let dataDays = history.dayRange(in: zone)
        let totals = Self.totals(history, range, dataDays: dataDays, zone: zone, detail: true)
        var days: [(day: LocalDate, micros: Micros)] = []
        if let (first, totals) = totals {
            for (k, micros) in totals.days.enumerated() where micros > 0 { days.append((first.adding(days: k), micros)) }
        }
        self.days = days
        totalMicros = days.reduce(0) { $0 + $1.micros }
        averageMicros = days.isEmpty ? 0 : totalMicros / Micros(days.count)
        busiest = days.reduce(nil) { best, d in best.map { d.micros > $0.micros ? d : $0 } ?? d }
        let parts = totals?.1.parts ?? []
        let sessions = totals?.1.sessions ?? []
        (apps, categories) = Self.ranked(parts: parts, sessions: sessions, total: totalMicros)
        if let before = range.previous {
            let beforeTotals: [Micros] = Self.totals(history, before, dataDays: dataDays, zone: zone, detail: false)?.1.days ?? []
            let used = beforeTotals.filter { $0 > 0 }
            let total = used.reduce(0, +)
            previous = Previous(range: before, totalMicros: total, daysWithData: used.count, averageMicros: used.isEmpty ? 0 : total / Micros(used.count))
        } else {
            previous = nil
        }
    }

    /// The totals of the part of `range` where the data lies (with its first day); nil when
    /// the data has no day in it.
    private static func totals(
        _ history: some SessionHistory, _ range: DateRange, dataDays: ClosedRange<LocalDate>?, zone: Zone, detail: Bool
    ) -> (LocalDate, RangeTotals)? {
        guard let dataDays else { return nil }
        let first = max(range.from, dataDays.lowerBound)
        let last = min(range.to, dataDays.upperBound)
        guard first <= last else { return nil }
        return (first, history.rangeTotals(DayBounds(first...last, zone: zone), detail: detail))
    }

    /// Apps and categories in docs/DATA.md §4's order, each app in the category with most of
    /// its time (ties: the first by scalars), as a day's report files it.
    static func ranked(parts: [RangeTotals.Part], sessions: [RangeTotals.Sessions], total: Micros) -> ([AppUsage], [CategoryUsage]) {
        func share(_ m: Micros) -> Double { total > 0 ? Double(m) / Double(total) : 0 }
        var appMicros: [ExactName: Micros] = [:]
        var bestCategory: [ExactName: (name: String, micros: Micros)] = [:]
        var categoryMicros: [ExactName: Micros] = [:]
        for p in parts {
            let app = ExactName(p.app)
            appMicros[app, default: 0] += p.micros
            categoryMicros[ExactName(p.category), default: 0] += p.micros
            let candidate = (name: p.category, micros: p.micros)
            if let best = bestCategory[app], !DayReport.mostFirst(candidate, best) { continue }
            bestCategory[app] = candidate
        }
        let sessionCount = Dictionary(sessions.map { (ExactName($0.app), $0.count) }, uniquingKeysWith: +)
        let apps = appMicros.map { app, micros in
            AppUsage(
                name: app.text, category: bestCategory[app]!.name, micros: micros, sessions: sessionCount[app] ?? 0, share: share(micros))
        }.sorted { DayReport.mostFirst(($0.name, $0.micros), ($1.name, $1.micros)) }
        let categories = categoryMicros.map { CategoryUsage(name: $0.key.text, micros: $0.value, share: share($0.value)) }
            .sorted { DayReport.mostFirst(($0.name, $0.micros), ($1.name, $1.micros)) }
        return (apps, categories)
    }
}
