// StoreReportsTests.swift — every report read from the store equals the same report read from the file: random sessions over DST changes, across midnight, longer than a day, by day, week, days N, app, limits, insights and check; and a store merged with a file.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageStore
import TestSupport


/// Random sessions around both 2026 DST changes of New York: most short, some across
/// midnight, some longer than a day, a few with no id and a few sharing one.
/// `ids` begins each session's id (a device's sessions of the same id are one session: two
/// datasets meant as different sessions of one device take different beginnings).
func randomSessions(seed: UInt64, count: Int, ids: String = "") -> Dataset {
    var random = SplitMix64(seed)
    let apps = ["Safari", "Mail", "Slack", "Maps", "Spotify", "Notes", "Café", "終端"]
    let categories = ["Web", "Work", "Chat", nil, "Music"]
    let bases = [RFC3339.parse("2026-03-05T00:00:00Z")!, RFC3339.parse("2026-10-29T00:00:00Z")!]
    var list: [String] = []
    for k in 0..<count {
        let start = bases[k % 2] + Micros(random.below(7 * 86_400)) * 1_000_000 + Micros(random.below(1_000_000))
        let length: Micros
        switch random.below(100) {
        case 0..<2: length = Micros(86_400 + random.below(3 * 86_400)) * 1_000_000  // longer than a day
        case 2..<10: length = Micros(3600 + random.below(6 * 3600)) * 1_000_000
        default: length = Micros(1 + random.below(3600)) * 1_000_000 + Micros(random.below(1000))
        }
        let id: String? = random.below(20) == 0 ? nil : random.below(50) == 0 ? "\(ids)dup" : "\(ids)s\(k)"
        list.append(
            row(id, apps[random.below(apps.count)], categories[random.below(categories.count)], RFC3339.text(start), RFC3339.text(start + length)))
    }
    return dataset(rows(list))
}

struct StoreReportsTests {
    static let zones = [Zone.utc, Zone(identifier: "America/New_York")!, Zone(identifier: "Asia/Kolkata")!]

    func stored(_ d: Dataset) throws -> (TemporaryFolder, StoreHistory) {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, d)
        return (folder, try store.history(source: d.source))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyDaysReportFromTheStoreEqualsTheFilesReport(seed: UInt64) throws {
        let file = randomSessions(seed: seed, count: 3000)
        let (folder, store) = try stored(file)
        _ = folder
        #expect(store.sessionCount == file.sessionCount)
        for zone in Self.zones {
            let range = try #require(file.dayRange(in: zone))
            #expect(store.dayRange(in: zone) == range)
            var day = range.lowerBound.adding(days: -1)
            while day <= range.upperBound.adding(days: 1) {
                #expect(DayReport(history: store, date: day, zone: zone) == DayReport(history: file, date: day, zone: zone), "\(day) \(zone.identifier)")
                for app in ["Safari", "Café"] {
                    let a = Int32(file.apps.firstIndex(of: app)!)
                    let b = Int32(store.apps.firstIndex(of: app)!)
                    #expect(AppDayReport(history: store, app: b, date: day, zone: zone) == AppDayReport(history: file, app: a, date: day, zone: zone))
                }
                for limit in [UsageLimit(target: .app("Mail"), micros: 1_800_000_000), UsageLimit(target: .category("Work"), micros: 3_600_000_000)] {
                    #expect(LimitStatus(limit, history: store, date: day, zone: zone) == LimitStatus(limit, history: file, date: day, zone: zone))
                }
                day = day.adding(days: 1)
            }
            let last = range.upperBound
            #expect(DaySummary.days(endingOn: last, count: 10, history: store, zone: zone) == DaySummary.days(endingOn: last, count: 10, history: file, zone: zone))
            #expect(DaySummary.days(endingOn: last, count: 31, history: store, zone: zone) == DaySummary.days(endingOn: last, count: 31, history: file, zone: zone))
            let insightsStore = Insights(history: store, endingOn: last, zone: zone)
            let insightsFile = Insights(history: file, endingOn: last, zone: zone)
            #expect(insightsStore.days == insightsFile.days)
            #expect(insightsStore.longest?.micros == insightsFile.longest?.micros)
            #expect(insightsStore.longest?.app == insightsFile.longest?.app)
            var quality = DataQuality(history: store, zone: zone)
            let expected = DataQuality(history: file, zone: zone)
            #expect(quality.appTimeMicros == expected.appTimeMicros)
            #expect(quality.screenTimeMicros == expected.screenTimeMicros)
            #expect(quality.daysWithData == expected.daysWithData)
            #expect(quality.sessions == expected.sessions)
            quality = DataQuality(history: store, zone: zone)
            #expect(quality.apps == expected.apps)
        }
        #expect(store.takeReadFailure() == nil)
    }

    /// The colours of a session were handed out by reading `history.all`: on a store, the
    /// first coloured chart read every session of every year into one window, with its id, and
    /// kept it. The walk reads a stretch at a time, keeps nothing, and finds the same leaders as
    /// the file's, in every zone.
    @Test func bugTheFirstColouredChartReadTheWholeStoreIntoMemory() throws {
        let file = randomSessions(seed: 5, count: 3000)
        let (folder, store) = try stored(file)
        _ = folder
        for zone in Self.zones {
            let a = SeriesLeaders(history: store, zone: zone)
            let b = SeriesLeaders(history: file, zone: zone)
            func names(_ ids: [Int32], _ table: [String]) -> [String] { ids.map { table[Int($0)] } }
            #expect(names(a.apps, store.apps) == names(b.apps, file.apps), "\(zone.identifier)")
            #expect(names(a.categories, store.categories) == names(b.categories, file.categories), "\(zone.identifier)")
            #expect(a.appGroups.map { names($0, store.apps) } == b.appGroups.map { names($0, file.apps) }, "\(zone.identifier)")
            #expect(a.categoryGroups.map { names($0, store.categories) } == b.categoryGroups.map { names($0, file.categories) })
            #expect(a.stretchGroups.map { names($0, store.categories) } == b.stretchGroups.map { names($0, file.categories) })
        }
        #expect(store.cachedWindowCount == 0, "the walk kept windows")
        #expect(store.takeReadFailure() == nil)
    }

    /// Across the retention cut: what the store keeps shows every day from the cut on exactly
    /// as the file does (a session across the cut was kept whole), and nothing before it ends
    /// before the cut.
    @Test func theDaysFromTheRetentionCutOnEqualTheFiles() throws {
        let file = randomSessions(seed: 11, count: 2000)
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try store.setRetention(days: 3)
        let now = RFC3339.parse("2026-03-09T15:00:00Z")!
        let summary = try importInto(store, file, now: now)
        #expect(summary.forgotten > 0)
        let history = try store.history(source: "store")
        let cut = Retention.cutoff(olderThan: 3, now: now, zone: .utc)
        #expect(Array(history.all).allSatisfy { $0.sessionEnd > cut })
        var day = Zone.utc.localDate(of: cut)
        while day <= LocalDate(iso: "2026-03-13")! {
            #expect(DayReport(history: history, date: day, zone: .utc) == DayReport(history: file, date: day, zone: .utc), "\(day)")
            day = day.adding(days: 1)
        }
    }

    /// A session longer than a day, starting long before the window, is found through its own index.
    @Test func aSessionOfSeveralDaysIsInEveryDayItTouches() throws {
        let file = dataset(rows([
            row("long", "Tracker", "Work", "2026-02-01T08:00:00Z", "2026-02-10T08:00:00Z"),
            row("short", "Mail", "Work", "2026-02-05T10:00:00Z", "2026-02-05T10:30:00Z"),
        ]))
        let (folder, store) = try stored(file)
        _ = folder
        for day in 1...10 {
            let date = LocalDate(year: 2026, month: 2, day: day)!
            let report = DayReport(history: store, date: date, zone: .utc)
            #expect(report.apps.contains { $0.name == "Tracker" }, "\(date)")
            #expect(report == DayReport(history: file, date: date, zone: .utc))
        }
    }

    /// `load store activitywatch`: a store merged with a file reads by window and equals the
    /// two merged in memory.
    @Test func aStoreMergedWithAFileEqualsBothMergedInMemory() throws {
        let a = randomSessions(seed: 7, count: 800)
        let b = dataset(rows([
            row("w1", "Safari", "Web", "2026-03-08T06:00:00Z", "2026-03-08T09:00:00Z"),
            row("w2", "Terminal", nil, "2026-03-09T10:00:00Z", "2026-03-09T10:30:00Z"),
        ]), source: "laptop.json")
        let (folder, store) = try stored(a)
        _ = folder
        let merged = MergedHistory([store, b], source: "store + laptop.json")
        let expected = Dataset.merging([a, b], source: "store + laptop.json")
        #expect(merged.sessionCount == expected.sessionCount)
        let ny = Zone(identifier: "America/New_York")!
        for day in 4...12 {
            let date = LocalDate(year: 2026, month: 3, day: day)!
            #expect(DayReport(history: merged, date: date, zone: ny) == DayReport(history: expected, date: date, zone: ny))
        }
    }

    /// The store is a snapshot: sessions another writer adds later are not shown until the
    /// next load (and names it added are never out of range).
    @Test func aSnapshotDoesNotSeeLaterImports() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(rows([row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])))
        let snapshot = try store.history(source: "store")
        try importInto(store, dataset(rows([row("b", "NewApp", "NewCat", "2026-02-23T12:00:00Z", "2026-02-23T13:00:00Z")]), source: "b.json"), identity: "/b.json")
        let day = DayReport(history: snapshot, date: LocalDate(iso: "2026-02-23")!, zone: .utc)
        #expect(day.apps.map(\.name) == ["Safari"])
        #expect(DayReport(history: try store.history(source: "store"), date: LocalDate(iso: "2026-02-23")!, zone: .utc).apps.count == 2)
    }
}
