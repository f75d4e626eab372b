// ViewModelTests.swift — the view model's load states, retry, superseded loads, day selection and report cache.
import Testing
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
        #expect(vm.report == vm.report)
        vm.select(.date(LocalDate(iso: "2026-02-20")!))
        #expect(vm.report.totalMicros == 3_600_000_000)
        vm.zone = try #require(Zone(identifier: "Pacific/Kiritimati"))  // UTC+14
        #expect(vm.report.zone == "Pacific/Kiritimati")
        #expect(vm.report.totalMicros == 0)
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
