// SeriesLeaders.swift — which names ever stand as a series of their own on one chart, read once from a whole history: each day's top five apps and top five categories, the top five categories of every 7- and 10-day stretch, and every name's total (what the colours are handed out from).

/// The names that lead some chart of a history, in a zone. A chart draws the top five apps or
/// categories of what it shows as series of their own and folds the rest into "other"; two
/// names in one such group can be on one chart together, so they must not share a colour.
public struct SeriesLeaders: Sendable {
    /// How many names of a chart are series of their own.
    public static let count = 5

    /// The names a chart draws as series of their own, of `ranked` (most first): the first five,
    /// or all six when there are six (folding one into "other" would only rename it).
    public static func shown<T>(_ ranked: [T]) -> [T] {
        ranked.count == count + 1 ? ranked : Array(ranked.prefix(count))
    }
    /// The longest a single session is followed across days (a session of years counts in its
    /// first year's days only, so a hostile file cannot make the walk endless).
    static let maxDaysPerSession = 366

    /// App ids by total time, most first (ties by name).
    public let apps: [Int32]
    /// Category ids by total time, most first (ties by name).
    public let categories: [Int32]
    /// For each day with data, its top apps (ids, in report order; `shown`).
    public let appGroups: [[Int32]]
    /// For each day with data, its top categories.
    public let categoryGroups: [[Int32]]
    /// For every 7- and 10-day stretch that holds data (`week`, `days`), its top categories.
    public let stretchGroups: [[Int32]]

    /// Walks the history once: each session's time is split at the local midnights of `zone`,
    /// as the day reports split it, so a day's top five here are the report's.
    public init(history: some SessionHistory, zone: Zone) {
        let appNames = history.apps
        let categoryNames = history.categories
        var appTotals = [Micros](repeating: 0, count: appNames.count)
        var categoryTotals = [Micros](repeating: 0, count: categoryNames.count)
        var dayApps = Tally(count: appNames.count)
        var dayCategories = Tally(count: categoryNames.count)
        var appGroups: [[Int32]] = []
        var dayCategoryTimes: [(day: Int, times: [(Int32, Micros)])] = []
        // Pieces of sessions that run past the current day, by the day (since the epoch) they fall in.
        var later: [Int: [(app: Int32, category: Int32, micros: Micros)]] = [:]
        var current: (day: Int, start: Micros, end: Micros)?

        func rank(_ ids: [Int32], _ times: (Int32) -> Micros, _ names: [String]) -> [Int32] {
            ids.sorted { DayReport.mostFirst((names[Int($0)], times($0)), (names[Int($1)], times($1))) }
        }
        func add(_ app: Int32, _ category: Int32, _ micros: Micros) {
            dayApps.add(app, micros)
            dayCategories.add(category, micros)
            appTotals[Int(app)] += micros
            categoryTotals[Int(category)] += micros
        }
        func finishDay(_ day: Int) {
            guard !dayApps.touched.isEmpty else { return }
            appGroups.append(Self.shown(rank(dayApps.touched, { dayApps.micros[Int($0)] }, appNames)))
            dayCategoryTimes.append((day, dayCategories.touched.map { ($0, dayCategories.micros[Int($0)]) }))
            dayApps.reset()
            dayCategories.reset()
        }
        func pieces(of day: Int) {
            for p in later.removeValue(forKey: day) ?? [] { add(p.app, p.category, p.micros) }
        }

        history.forEachSession { clipped in
            let s = (start: clipped.sessionStart, end: clipped.sessionEnd, app: clipped.app, category: clipped.category)
            if current == nil || s.start >= current!.end {
                if let day = current?.day { finishDay(day) }
                let date = zone.localDate(of: s.start)
                // Days before this one that only later pieces reach.
                for day in later.keys.sorted() where day < date.daysSinceEpoch {
                    pieces(of: day)
                    finishDay(day)
                }
                current = (date.daysSinceEpoch, zone.startOfDay(date), zone.startOfDay(date.adding(days: 1)))
                pieces(of: date.daysSinceEpoch)
            }
            let day = current!
            add(s.app, s.category, min(s.end, day.end) - s.start)
            var from = day.end
            var next = day.day + 1
            while s.end > from, next - day.day <= Self.maxDaysPerSession {
                let to = zone.startOfDay(LocalDate(daysSinceEpoch: next + 1))
                later[next, default: []].append((s.app, s.category, min(s.end, to) - from))
                (from, next) = (to, next + 1)
            }
        }
        if let day = current?.day { finishDay(day) }
        for day in later.keys.sorted() {
            pieces(of: day)
            finishDay(day)
        }

        // The categories of each day, and of every 7- and 10-day stretch ending on a day with
        // data or in the days after one (a stretch holding any data).
        let categoryGroups: [[Int32]] = dayCategoryTimes.map { entry in
            Self.shown(rank(entry.times.map(\.0), { id in entry.times.first { $0.0 == id }!.1 }, categoryNames))
        }
        let byDay = Dictionary(uniqueKeysWithValues: dayCategoryTimes.map { ($0.day, $0.times) })
        var stretchGroups: [[Int32]] = []
        for length in [7, 10] {
            var ends = Set<Int>()
            for entry in dayCategoryTimes { for k in 0..<length { ends.insert(entry.day + k) } }
            for end in ends.sorted() {
                var sums = [Micros](repeating: 0, count: categoryNames.count)
                var ids: [Int32] = []
                for day in (end - length + 1)...end {
                    for (id, micros) in byDay[day] ?? [] {
                        if sums[Int(id)] == 0 { ids.append(id) }
                        sums[Int(id)] += micros
                    }
                }
                stretchGroups.append(Self.shown(rank(ids, { sums[Int($0)] }, categoryNames)))
            }
        }

        self.apps = rank(appTotals.indices.filter { appTotals[$0] > 0 }.map(Int32.init), { appTotals[Int($0)] }, appNames)
        self.categories = rank(
            categoryTotals.indices.filter { categoryTotals[$0] > 0 }.map(Int32.init), { categoryTotals[Int($0)] }, categoryNames)
        self.appGroups = appGroups
        self.categoryGroups = categoryGroups
        self.stretchGroups = stretchGroups
    }
}

/// Time per id for one day, with the ids touched, so that a day costs what its sessions do.
private struct Tally {
    var micros: [Micros]
    var touched: [Int32] = []

    init(count: Int) { micros = [Micros](repeating: 0, count: count) }

    mutating func add(_ id: Int32, _ m: Micros) {
        guard m > 0 else { return }
        if micros[Int(id)] == 0 { touched.append(id) }
        micros[Int(id)] += m
    }

    mutating func reset() {
        for id in touched { micros[Int(id)] = 0 }
        touched.removeAll(keepingCapacity: true)
    }
}
