// SiteLimitWatchTests.swift — a limit on a site while recording: its time today read from the store's sites after a write, the crossing foreseen while the site's browser stays in front and said once when it comes, nothing foreseen while another app is in front.
import Foundation
import Testing
import UsageCore
import UsageData
@testable import UsageRecorder
import UsageStore

struct SiteLimitWatchTests {
    /// 2026-03-02 09:00 UTC.
    static let t0 = Micros(1_772_442_000) * 1_000_000
    static func at(_ seconds: Int64) -> Micros { t0 + seconds * 1_000_000 }

    /// A store where Chromium was in front from t0 for 50 s showing a.org (the host's writes
    /// every 5 s), and a limits file with a limit of a minute on a.org.
    static func setUp() throws -> (folder: URL, store: any StoreWriter, file: LimitsFile) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-site-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try OpenStores().writer(.sqlite(path: folder.appendingPathComponent("usage.sqlite").path))
        try store.record(
            [RecordedSession(app: "Chromium", category: "Other", start: at(0), end: at(50), startOffset: 0, endOffset: 0)], device: "laptop", now: at(50),
            mark: nil)
        for second in stride(from: Int64(0), through: 50, by: 5) { try store.siteSeen("a.org", browser: "chromium", device: "laptop", at: at(second)) }
        let file = LimitsFile(path: folder.appendingPathComponent("limits.json").path)
        try file.save([UsageLimit(target: .site("a.org"), micros: 60_000_000)])
        return (folder, store, file)
    }

    @Test func aSiteLimitIsForeseenWhileItsBrowserIsInFrontAndSaidOnceWhenCrossed() throws {
        let (folder, store, file) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        var said: [String] = []
        let watch = LimitWatch(file: file, zone: .utc, notifier: Notifier(command: nil, environment: [:], warn: { _ in }), say: { said.append($0) })
        var tracker = SessionTracker(zone: .utc) { _ in nil }
        tracker.focus("Chromium", at: Self.at(0))
        watch.start(store: store, tracker: tracker, now: Self.at(50), monotonic: 1_000)
        // 50 s seen: the minute is reached 10 s on, if Chromium stays in front.
        let deadline = try #require(watch.deadline)
        #expect(deadline == 10_001_000)
        #expect(said == [])
        watch.check(tracker: tracker, now: Self.at(61), monotonic: 1_000 + 11_000_000)
        #expect(said == ["limit reached: a.org (site): 1m today, limit 1m"])
        watch.check(tracker: tracker, now: Self.at(70), monotonic: 1_000 + 20_000_000)
        #expect(said.count == 1, "said once")
    }

    @Test func nothingIsForeseenWhileAnotherAppIsInFront() throws {
        let (folder, store, file) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        var said: [String] = []
        let watch = LimitWatch(file: file, zone: .utc, notifier: Notifier(command: nil, environment: [:], warn: { _ in }), say: { said.append($0) })
        var tracker = SessionTracker(zone: .utc) { _ in nil }
        tracker.focus("xterm", at: Self.at(50))
        watch.start(store: store, tracker: tracker, now: Self.at(50), monotonic: 1_000)
        #expect(watch.deadline == nil)
        watch.check(tracker: tracker, now: Self.at(120), monotonic: 1_000 + 70_000_000)
        #expect(said == [])
    }
}
