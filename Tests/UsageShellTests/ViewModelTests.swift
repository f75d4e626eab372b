// ViewModelTests.swift — the view model's load states, retry, superseded loads, day selection and report cache.
import Testing
@testable import UsageFormats
import UsageCore
import UsageData
@testable import UsageShell

/// A repository that returns what it is told to, counting calls.
final class StubRepository: SessionRepository, @unchecked Sendable {
    var result: Result<Dataset, LoadError>
    var calls = 0
    let name = "stub"
    init(_ result: Result<Dataset, LoadError>) { self.result = result }
    func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        calls += 1
        return try result.get()
    }
}

let fixedNow = RFC3339.parse("2026-11-22T12:00:00Z")!

func sampleDataset(_ json: String = """
    [{"app_name": "Safari", "category": "Productivity", "start_timestamp": "2026-02-20T10:00:00Z", "end_timestamp": "2026-02-20T11:00:00Z"},
     {"app_name": "Maps", "category": "Navigation", "start_timestamp": "2026-02-23T08:00:00Z", "end_timestamp": "2026-02-23T08:30:00Z"}]
    """, source: String = "data.json") -> Dataset {
    try! SessionsJSON.decode(Array(json.utf8), source: source)
}

struct ViewModelTests {
    @Test func startsIdleWithNoDataAndTodayAsTheDay() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        #expect(vm.state == .idle)
        #expect(!vm.hasData)
        #expect(vm.selectedDay.description == "2026-11-22")
    }

    @Test func aSuccessfulLoadSelectsTheLatestDay() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        #expect(vm.state == .loaded)
        #expect(vm.selectedDay.description == "2026-02-23")
        #expect(vm.report.totalMicros == 30 * 60_000_000)
    }

    @Test func aFailedLoadKeepsTheDataAndRetryLoadsTheSameSource() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        let failure = LoadError.notFound(source: "nosuch.json")
        vm.load(.file("nosuch.json"), repository: StubRepository(.failure(failure)))
        #expect(vm.state == .failed(failure))
        #expect(vm.history.sessionCount == 2)
        #expect(vm.loadedSource == .file("data.json"))
        #expect(vm.retrySource == .file("nosuch.json"))
        vm.load(vm.retrySource!, repository: StubRepository(.success(sampleDataset(source: "nosuch.json"))))
        #expect(vm.state == .loaded)
        #expect(vm.retrySource == nil)
        #expect(vm.loadedSource == .file("nosuch.json"))
    }

    @Test func aNewerLoadSupersedesAnOlderOne() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        let first = vm.beginLoad(.file("old.json"))
        let second = vm.beginLoad(.file("new.json"))
        #expect(first.cancellation.isCancelled)
        #expect(!second.cancellation.isCancelled)
        #expect(!vm.finishLoad(first, with: .success(sampleDataset(source: "old.json"))))
        #expect(vm.state == .loading(.file("new.json")))
        #expect(vm.finishLoad(second, with: .success(sampleDataset(source: "new.json"))))
        #expect(vm.history.source == "new.json")
        #expect(!vm.finishLoad(second, with: .failure(.cancelled(source: "new.json"))))
        #expect(vm.state == .loaded)
    }

    @Test func cancellingALoadStopsTheFileReaderAndKeepsTheData() throws {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        let ticket = vm.beginLoad(.file("/dev/zero"))
        vm.cancelLoad()
        let result = Result { () throws(LoadError) in
            try FileRepository(path: "/dev/zero").load(cancellation: ticket.cancellation, progress: { _ in })
        }
        #expect(throws: LoadError.cancelled(source: "/dev/zero")) { try result.get() }
        vm.finishLoad(ticket, with: result.map { $0 })
        #expect(vm.history.sessionCount == 2)
    }

    @Test func theReportIsCachedPerDatasetDayAndZone() throws {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        let first = vm.report
        #expect(vm.reportsComputed == 1)
        #expect(vm.report == first)
        #expect(vm.reportsComputed == 1, "a second read of the same day is the cached report, not computed again")
        vm.select(.date(LocalDate(iso: "2026-02-20")!))
        #expect(vm.report.totalMicros == 3_600_000_000)
        #expect(vm.report.totalMicros == 3_600_000_000)
        #expect(vm.reportsComputed == 2, "another day is computed once")
        vm.zone = try #require(Zone(identifier: "Pacific/Kiritimati"))  // UTC+14
        #expect(vm.report.zone == "Pacific/Kiritimati")
        #expect(vm.report.totalMicros == 0)
        #expect(vm.reportsComputed == 3, "another zone computes the day afresh, once")
    }

    @Test func reloadingKeepsASelectedDayThatTheNewDataCovers() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        vm.select(.date(LocalDate(iso: "2026-02-20")!))
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        #expect(vm.selectedDay.description == "2026-02-20")
        vm.select(.date(LocalDate(iso: "2025-01-01")!))
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        #expect(vm.selectedDay.description == "2026-02-23")
    }
}

/// The view model keeps the day reports, summaries and insights it made (issue 19): what it
/// hands out must always be what a fresh computation gives, as the day, the zone, the rules
/// and the data change.
struct ViewModelReportCacheTests {
    static func data(seed: UInt64) -> Dataset {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let base = RFC3339.parse("2026-02-01T00:00:00Z")!
        let rows = (0..<600).map { k -> String in
            let start = base + Micros(next(30 * 86_400)) * 1_000_000
            let end = start + Micros(1 + next(20_000)) * 1_000_000
            let app = ["Safari", "Maps", "Mail", "Xcode", "Slack"][next(5)]
            let category = next(4) == 0 ? "null" : "\"\(["Web", "Travel", "Work"][next(3)])\""
            func text(_ t: Micros) -> String {
                let s = t / 1_000_000
                let day = LocalDate(daysSinceEpoch: Int(s / 86_400))
                let r = Int(s % 86_400)
                return "\(day)T\(String(100 + r / 3600).dropFirst()):\(String(100 + r / 60 % 60).dropFirst()):\(String(100 + r % 60).dropFirst())Z"
            }
            return "{\"session_id\":\"\(k)\",\"app_name\":\"\(app)\",\"category\":\(category),\"start_timestamp\":\"\(text(start))\",\"end_timestamp\":\"\(text(end))\"}"
        }
        return try! SessionsJSON.decode("[" + rows.joined(separator: ",") + "]")
    }

    /// What the model says against a fresh computation on its current history, zone and day.
    static func check(_ vm: UsageViewModel, _ note: String) {
        let day = vm.selectedDay
        let fresh = DayReport(history: vm.history, date: day, zone: vm.zone)
        #expect(vm.report == fresh, "\(note): report")
        for count in [7, 10, 31] {
            let expected = DaySummary.days(endingOn: day, count: count, history: vm.history, zone: vm.zone)
            #expect(vm.summaries(endingOn: day, count: count) == expected, "\(note): \(count) summaries")
        }
        let insights = vm.insights(endingOn: day)
        let freshInsights = Insights(history: vm.history, endingOn: day, zone: vm.zone)
        #expect(insights.days == freshInsights.days, "\(note): insights days")
        #expect(insights.topApp?.name == freshInsights.topApp?.name && insights.topApp?.micros == freshInsights.topApp?.micros, "\(note)")
        #expect(insights.topCategory?.name == freshInsights.topCategory?.name, "\(note)")
        #expect(insights.longest?.app == freshInsights.longest?.app && insights.longest?.micros == freshInsights.longest?.micros, "\(note)")
        #expect(insights.busiestHour == freshInsights.busiestHour && insights.trend == freshInsights.trend, "\(note)")
        #expect(insights.advice == freshInsights.advice && insights.totalMicros == freshInsights.totalMicros, "\(note)")
    }

    @Test func whatTheModelKeepsIsAlwaysWhatAFreshComputationGives() throws {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("a.json"), repository: StubRepository(.success(Self.data(seed: 1))))
        Self.check(vm, "loaded")
        for step in ["-1", "-1", "+3", "-7", "-7", "+14"] {
            vm.select(DayQuery(step)!)
            Self.check(vm, "day \(step)")
            Self.check(vm, "day \(step), again")
        }
        vm.zone = try #require(Zone(identifier: "America/New_York"))
        Self.check(vm, "another zone")
        vm.setRules { $0 == "Maps" ? "Travel" : nil }
        Self.check(vm, "rules")
        vm.setRules(nil)
        Self.check(vm, "rules off")
        vm.load(.file("b.json"), repository: StubRepository(.success(Self.data(seed: 2))))
        Self.check(vm, "another load")
        vm.forgetReports()
        Self.check(vm, "forgotten")
    }

    @Test func theSecondAskIsTheKeptAnswer() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("a.json"), repository: StubRepository(.success(Self.data(seed: 3))))
        let day = vm.selectedDay
        _ = vm.insights(endingOn: day)
        // The last day's report is kept (the selected day's here), and the seven days' summaries.
        #expect(vm.reports(for: [day]) == [DayReport(history: vm.history, date: day, zone: vm.zone)])
        #expect(vm.summaries(endingOn: day, count: 7) == DaySummary.days(endingOn: day, count: 7, history: vm.history, zone: .utc))
    }
}
