// DayReport.swift — the report of one day (docs/DATA.md §4), built in one pass over the day's sessions.

/// The length of a union of intervals fed in start order (screen time: overlaps count once).
struct UnionLength {
    private var open: Micros?
    private var openEnd: Micros = 0
    private var closed: Micros = 0

    /// Adds `[start, end)`; starts must not decrease from one call to the next.
    @inline(__always) mutating func add(_ start: Micros, _ end: Micros) {
        if open != nil, start <= openEnd {
            openEnd = max(openEnd, end)
        } else {
            if let open { closed += openEnd - open }
            open = start
            openEnd = end
        }
    }

    /// The union's length so far.
    var total: Micros { closed + (open.map { openEnd - $0 } ?? 0) }
}

/// Sums of time by a pair of small numbers (an app and a category of the day, an hour slot and
/// an app): a flat table when rows × columns is small, as it is for any real day; a dictionary
/// for the odd day with thousands of apps.
struct PairSums {
    private let columns: Int
    private var table: [Micros]
    private var sparse: [Int64: Micros] = [:]
    private let isTable: Bool

    init(rows: Int, columns: Int) {
        self.columns = columns
        isTable = rows * columns <= 1 << 16
        table = isTable ? [Micros](repeating: 0, count: rows * columns) : []
    }

    @inline(__always) mutating func add(_ row: Int, _ column: Int, _ micros: Micros) {
        if isTable {
            table[row * columns + column] += micros
        } else {
            sparse[Int64(row) << 32 | Int64(column), default: 0] += micros
        }
    }

    /// Each pair with time, in no particular order.
    func forEachNonZero(_ body: (Int, Int, Micros) -> Void) {
        if isTable {
            for k in table.indices where table[k] != 0 { body(k / columns, k % columns, table[k]) }
        } else {
            for (key, micros) in sparse where micros != 0 { body(Int(key >> 32), Int(key & 0xFFFF_FFFF), micros) }
        }
    }
}

/// One app's use during a day.
public struct AppUsage: Hashable, Sendable {
    public let name: String
    /// The category with most clipped time for this app that day (ties: first by scalar order).
    public let category: String
    public let micros: Micros
    /// Valid sessions with clipped time > 0.
    public let sessions: Int
    /// `micros / total` (0 when the day is empty).
    public let share: Double
}

/// One category's use during a day.
public struct CategoryUsage: Hashable, Sendable {
    public let name: String
    public let micros: Micros
    public let share: Double
}

/// One hour slot's use: per app, ordered like the apps of the report.
public struct HourUsage: Hashable, Sendable {
    public let slot: HourSlot
    /// App time: every app's time in the slot (two apps at once both count, so it may pass an hour).
    public let micros: Micros
    /// Screen time: the time in the slot with any session open (never more than the slot).
    public let screenMicros: Micros
    /// Apps with time in this slot, most first, then by name.
    public let apps: [(name: String, micros: Micros)]
    /// Categories with time in this slot (each session's own category), most first, then by name.
    public let categories: [(name: String, micros: Micros)]

    /// `screenMicros` nil: no two sessions overlap in the slot (screen time is its app time).
    public init(
        slot: HourSlot, micros: Micros, screenMicros: Micros? = nil, apps: [(name: String, micros: Micros)], categories: [(name: String, micros: Micros)]
    ) {
        self.slot = slot
        self.micros = micros
        self.screenMicros = screenMicros ?? micros
        self.apps = apps
        self.categories = categories
    }

    public static func == (a: HourUsage, b: HourUsage) -> Bool {
        a.slot == b.slot && a.micros == b.micros && a.screenMicros == b.screenMicros && a.apps.elementsEqual(b.apps, by: { $0 == $1 })
            && a.categories.elementsEqual(b.categories, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(slot)
        hasher.combine(micros)
    }
}

/// Everything the day screen shows: apps, categories, hour slots and totals.
public struct DayReport: Hashable, Sendable {
    public let window: DayWindow
    public let zone: String
    /// Sum of all clipped time ("app time": overlaps count twice).
    public let totalMicros: Micros
    /// Length of the union of the clipped intervals (overlaps once).
    public let screenTimeMicros: Micros
    public let apps: [AppUsage]
    public let categories: [CategoryUsage]
    public let hours: [HourUsage]

    public var day: LocalDate { window.date }
    public var isEmpty: Bool { totalMicros == 0 }

    /// Builds the report of `date` in `zone` from the day's window of `history`; `within`, a
    /// window already read that covers the day, is read instead (several days' reports). Two
    /// passes over the day's sessions: totals, and the apps and categories the day uses; then
    /// the sums by (app, category) and by (hour, app or category) in tables of those alone.
    public init(history: some SessionHistory, date: LocalDate, zone: Zone, within: SessionWindow? = nil) {
        let window = zone.window(for: date)
        self.window = window
        self.zone = zone.identifier
        let appNames = history.apps
        let categoryNames = history.categories
        let sessions = within?.narrowed(from: window.start, to: window.end) ?? history.window(window)

        var appMicros = [Micros](repeating: 0, count: appNames.count)
        var appSessions = [Int](repeating: 0, count: appNames.count)
        var categoryMicros = [Micros](repeating: 0, count: categoryNames.count)
        // The day's own numbering of the apps and categories it uses (-1: not used).
        var localApp = [Int32](repeating: -1, count: appNames.count)
        var localCategory = [Int32](repeating: -1, count: categoryNames.count)
        var usedApps: [Int32] = []
        var usedCategories: [Int32] = []
        var total: Micros = 0
        var union = UnionLength()
        sessions.forEachClipped { start, end, appID, categoryID in
            let length = end - start
            total += length
            let app = Int(appID)
            let category = Int(categoryID)
            appMicros[app] += length
            appSessions[app] += 1
            categoryMicros[category] += length
            if localApp[app] < 0 {
                localApp[app] = Int32(usedApps.count)
                usedApps.append(appID)
            }
            if localCategory[category] < 0 {
                localCategory[category] = Int32(usedCategories.count)
                usedCategories.append(categoryID)
            }
            // Sessions come sorted by start and clipping keeps that order, so the union merges in one pass.
            union.add(start, end)
        }
        self.totalMicros = total
        self.screenTimeMicros = union.total

        let slotCount = window.slots.count
        var appCategory = PairSums(rows: usedApps.count, columns: usedCategories.count)
        var slotApp = PairSums(rows: slotCount, columns: usedApps.count)
        var slotCategory = PairSums(rows: slotCount, columns: usedCategories.count)
        // Each slot's screen time: its pieces come in start order too (a piece starts at its
        // session's start or at the slot's, which grows with it).
        var slotUnion = [UnionLength](repeating: UnionLength(), count: slotCount)
        if total > 0 {
            let slots = window.slots
            sessions.forEachClipped { start, end, appID, categoryID in
                let app = Int(localApp[Int(appID)])
                let category = Int(localCategory[Int(categoryID)])
                appCategory.add(app, category, end - start)
                window.forEachSlot(overlapping: start, end) { k, overlap in
                    slotApp.add(k, app, overlap)
                    slotCategory.add(k, category, overlap)
                    slotUnion[k].add(max(start, slots[k].start), min(end, slots[k].end))
                }
            }
        }

        func share(_ m: Micros) -> Double { total > 0 ? Double(m) / Double(total) : 0 }

        // Each app's category with most time (ties: first by scalar order).
        var bestCategory = [(name: String, micros: Micros)?](repeating: nil, count: usedApps.count)
        appCategory.forEachNonZero { app, category, micros in
            let candidate = (name: categoryNames[Int(usedCategories[category])], micros: micros)
            if let best = bestCategory[app], !DayReport.mostFirst(candidate, best) { return }
            bestCategory[app] = candidate
        }
        self.apps = usedApps.indices.map { local -> AppUsage in
            let id = Int(usedApps[local])
            return AppUsage(
                name: appNames[id], category: bestCategory[local]!.name, micros: appMicros[id],
                sessions: appSessions[id], share: share(appMicros[id]))
        }.sorted { DayReport.mostFirst(($0.name, $0.micros), ($1.name, $1.micros)) }

        self.categories = usedCategories.map { id in
            CategoryUsage(name: categoryNames[Int(id)], micros: categoryMicros[Int(id)], share: share(categoryMicros[Int(id)]))
        }.sorted { DayReport.mostFirst(($0.name, $0.micros), ($1.name, $1.micros)) }

        var appsOfSlot = [[(name: String, micros: Micros)]](repeating: [], count: slotCount)
        slotApp.forEachNonZero { k, app, micros in appsOfSlot[k].append((appNames[Int(usedApps[app])], micros)) }
        var categoriesOfSlot = [[(name: String, micros: Micros)]](repeating: [], count: slotCount)
        slotCategory.forEachNonZero { k, category, micros in
            categoriesOfSlot[k].append((categoryNames[Int(usedCategories[category])], micros))
        }
        self.hours = window.slots.indices.map { k in
            let apps = appsOfSlot[k].sorted(by: DayReport.mostFirst)
            return HourUsage(
                slot: window.slots[k], micros: apps.reduce(0) { $0 + $1.micros }, screenMicros: slotUnion[k].total, apps: apps,
                categories: categoriesOfSlot[k].sorted(by: DayReport.mostFirst))
        }
    }

    /// The hour with the most app time (the first of equals; nil on an empty day): the hourly
    /// chart's tallest bar, which is app time (two apps at once both count, so it may pass the
    /// hour, and is said to be app time wherever it is shown).
    public var busiestHour: HourUsage? {
        hours.reduce(nil as HourUsage?) { best, h in h.micros > (best?.micros ?? 0) ? h : best }
    }

    /// Parts summed by name (names compared by scalars), in docs/DATA.md §4's order: the totals of
    /// several days' apps or categories.
    public static func ranked(_ parts: some Sequence<(name: String, micros: Micros)>) -> [(name: String, micros: Micros)] {
        var sums: [ExactName: (name: String, micros: Micros)] = [:]
        for p in parts { sums[ExactName(p.name), default: (p.name, 0)].micros += p.micros }
        return sums.values.sorted(by: mostFirst)
    }

    /// docs/DATA.md §4's order: most time first, then name by Unicode scalar values.
    public static func mostFirst(_ a: (name: String, micros: Micros), _ b: (name: String, micros: Micros)) -> Bool {
        a.micros != b.micros ? a.micros > b.micros : a.name.scalarsPrecede(b.name)
    }
}

/// One day of a multi-day summary (`week`): totals and time per category.
public struct DaySummary: Hashable, Sendable {
    public let day: LocalDate
    public let totalMicros: Micros
    public let screenTimeMicros: Micros
    /// Categories in report order.
    public let categories: [CategoryUsage]

    public init(day: LocalDate, totalMicros: Micros, screenTimeMicros: Micros, categories: [CategoryUsage]) {
        self.day = day
        self.totalMicros = totalMicros
        self.screenTimeMicros = screenTimeMicros
        self.categories = categories
    }

    public init(_ report: DayReport) {
        self.day = report.day
        self.totalMicros = report.totalMicros
        self.screenTimeMicros = report.screenTimeMicros
        self.categories = report.categories
    }
}

extension DaySummary {
    /// The daily average over the days that have data (any usage): days before the data began,
    /// after it ended, or without use count for nothing. 0 over no such day.
    public static func average(_ days: [DaySummary]) -> (micros: Micros, daysWithData: Int) {
        average(totals: days.map(\.totalMicros))
    }

    /// The same average, of the days' totals alone (what a range's totals give, `RangeTotals.days`).
    public static func average(totals: [Micros]) -> (micros: Micros, daysWithData: Int) {
        let used = totals.filter { $0 > 0 }
        return (used.reduce(0, +) / Micros(max(used.count, 1)), used.count)
    }

    /// The `count` days ending on `last` (oldest first), each summarised in `zone`: one lean
    /// pass per day over its sessions (totals, screen time, categories; no hours, no apps).
    /// The days are read as one window (a store reads their rows in one query), each day a part of it.
    public static func days(endingOn last: LocalDate, count: Int, history: some SessionHistory, zone: Zone) -> [DaySummary] {
        let first = last.adding(days: -(count - 1))
        let all = history.window(from: zone.startOfDay(first), to: zone.startOfDay(last.adding(days: 1)))
        return (0..<count).reversed().map { back in
            summary(of: last.adding(days: -back), categories: history.categories, within: all, zone: zone)
        }
    }

    /// The summaries of any days (in the order given), read as one window from the first to
    /// the last of them.
    public static func summaries(of dates: [LocalDate], history: some SessionHistory, zone: Zone) -> [DaySummary] {
        guard let first = dates.min(), let last = dates.max() else { return [] }
        let all = history.window(from: zone.startOfDay(first), to: zone.startOfDay(last.adding(days: 1)))
        return summaries(of: dates, categories: history.categories, within: all, zone: zone)
    }

    /// The summaries of days (in the order given) from a window that covers them all (read
    /// once; a caller may share its days out among threads, each calling this).
    public static func summaries(of dates: [LocalDate], categories: [String], within all: SessionWindow, zone: Zone) -> [DaySummary] {
        dates.map { summary(of: $0, categories: categories, within: all, zone: zone) }
    }

    /// One day's totals and categories (the same numbers `DayReport` gives), from a window that covers it.
    static func summary(of date: LocalDate, categories categoryNames: [String], within all: SessionWindow, zone: Zone) -> DaySummary {
        DayTotals.lean(of: date, apps: nil, categories: categoryNames, within: all, zone: zone).summary
    }
}

/// What `insights` reads of a day besides its hours: its summary and each app's time, the
/// numbers its `DayReport` gives, made in one lean pass when the report is not made already.
public struct DayTotals: Sendable {
    public let summary: DaySummary
    /// Each app's time that day (apps with time only), in no particular order.
    public let apps: [(name: String, micros: Micros)]

    public var day: LocalDate { summary.day }

    /// A report's totals.
    public init(_ report: DayReport) {
        summary = DaySummary(report)
        apps = report.apps.map { ($0.name, $0.micros) }
    }

    private init(summary: DaySummary, apps: [(name: String, micros: Micros)]) {
        self.summary = summary
        self.apps = apps
    }

    /// A day's totals from a window that covers it, in one pass over its sessions (no hours).
    public static func of(_ date: LocalDate, history: some SessionHistory, within all: SessionWindow, zone: Zone) -> DayTotals {
        lean(of: date, apps: history.apps, categories: history.categories, within: all, zone: zone)
    }

    /// The pass `of` and `DaySummary.summary` share; app times only when `appNames` are given.
    fileprivate static func lean(
        of date: LocalDate, apps appNames: [String]?, categories categoryNames: [String], within all: SessionWindow, zone: Zone
    ) -> DayTotals {
        var categoryMicros = [Micros](repeating: 0, count: categoryNames.count)
        var appMicros = [Micros](repeating: 0, count: appNames?.count ?? 0)
        let withApps = appNames != nil
        var total: Micros = 0
        var union = UnionLength()
        all.narrowed(from: zone.startOfDay(date), to: zone.startOfDay(date.adding(days: 1))).forEachClipped { start, end, app, category in
            total += end - start
            categoryMicros[Int(category)] += end - start
            if withApps { appMicros[Int(app)] += end - start }
            union.add(start, end)
        }
        let categories = categoryMicros.indices.filter { categoryMicros[$0] > 0 }.map {
            CategoryUsage(name: categoryNames[$0], micros: categoryMicros[$0], share: total > 0 ? Double(categoryMicros[$0]) / Double(total) : 0)
        }.sorted { DayReport.mostFirst(($0.name, $0.micros), ($1.name, $1.micros)) }
        let apps = appMicros.indices.filter { appMicros[$0] > 0 }.map { (name: appNames![$0], micros: appMicros[$0]) }
        return DayTotals(
            summary: DaySummary(day: date, totalMicros: total, screenTimeMicros: union.total, categories: categories), apps: apps)
    }
}
