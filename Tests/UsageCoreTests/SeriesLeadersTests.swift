// SeriesLeadersTests.swift — the names that lead a chart, read in one walk of a whole history, are exactly the day reports' top five (six when there are six), across midnight, DST and long sessions.
import Foundation
import Testing
@testable import UsageCore
@testable import UsageFormats
import TestSupport

struct SeriesLeadersTests {
    /// Random sessions over `days` days from 2026-10-28 (a fall-back in New York on 11-01),
    /// some across midnight, a few days long, many overlapping; up to 14 apps and 8 categories.
    static func randomHistory(seed: UInt64, sessions: Int = 600, days: Int = 12) throws -> Dataset {
        var rng = SplitMix64(seed: seed)
        let start: Int64 = 1_761_609_600  // 2026-10-28T00:00:00Z
        var rows: [String] = []
        for k in 0..<sessions {
            let from = start + rng.int64(0...Int64(days * 86_400))
            let length = rng.chance(0.02) ? rng.int64(86_400...(4 * 86_400)) : rng.int64(30...(3 * 3600))
            let app = "App \(rng.below(14))"
            let category = "Cat \(rng.below(8))"
            func stamp(_ t: Int64) -> String {
                ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(t)))
            }
            rows.append(
                #"{"session_id":"s\#(k)","app_name":"\#(app)","category":"\#(category)","start_timestamp":"\#(stamp(from))","end_timestamp":"\#(stamp(from + length))"}"#
            )
        }
        return try SessionsJSON.decode(Array(("[" + rows.joined(separator: ",") + "]").utf8), source: "random.json")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func eachDaysGroupIsThatDaysReportTopFive(seed: UInt64) throws {
        let history = try Self.randomHistory(seed: seed)
        for zone in [Zone.utc, Zone(identifier: "America/New_York")!, Zone(identifier: "Asia/Kolkata")!] {
            let leaders = SeriesLeaders(history: history, zone: zone)
            let range = try #require(history.dayRange(in: zone))
            var appGroups: [[String]] = []
            var categoryGroups: [[String]] = []
            var day = range.lowerBound
            while day <= range.upperBound {
                let r = DayReport(history: history, date: day, zone: zone)
                if !r.isEmpty {
                    appGroups.append(SeriesLeaders.shown(r.apps.map(\.name)))
                    categoryGroups.append(SeriesLeaders.shown(r.categories.map(\.name)))
                }
                day = day.adding(days: 1)
            }
            #expect(leaders.appGroups.map { $0.map { history.apps[Int($0)] } } == appGroups, "\(zone.identifier)")
            #expect(leaders.categoryGroups.map { $0.map { history.categories[Int($0)] } } == categoryGroups)
            // Every week the `week` command can show has its group.
            var end = range.lowerBound
            while end <= range.upperBound.adding(days: 6) {
                let week = DaySummary.days(endingOn: end, count: 7, history: history, zone: zone)
                let ranked = DayReport.ranked(week.flatMap { $0.categories.map { ($0.name, $0.micros) } }).map(\.name)
                if !ranked.isEmpty {
                    let group = SeriesLeaders.shown(ranked)
                    #expect(leaders.stretchGroups.contains { $0.map { history.categories[Int($0)] } == group }, "week ending \(end)")
                }
                end = end.adding(days: 1)
            }
            // Totals order the names.
            #expect(Set(leaders.apps.map { history.apps[Int($0)] }) == Set(history.apps))
        }
    }

    @Test func sixNamesAreAllShownFiveOfMoreAndFewerAsTheyAre() {
        #expect(SeriesLeaders.shown([1, 2, 3]) == [1, 2, 3])
        #expect(SeriesLeaders.shown([1, 2, 3, 4, 5, 6]) == [1, 2, 3, 4, 5, 6])
        #expect(SeriesLeaders.shown([1, 2, 3, 4, 5, 6, 7]) == [1, 2, 3, 4, 5])
    }

    @Test func aSessionOfYearsIsFollowedForAYearOnly() throws {
        let json = #"[{"app_name":"Forever","category":"C","start_timestamp":"2000-01-01T00:00:00Z","end_timestamp":"2100-01-01T00:00:00Z"}]"#
        let history = try SessionsJSON.decode(Array(json.utf8), source: "long.json")
        // Its first day and the 366 after it, not 36,525 days.
        let leaders = SeriesLeaders(history: history, zone: .utc)
        #expect(leaders.appGroups.count == SeriesLeaders.maxDaysPerSession + 1)
    }

    /// The walk reads a history a stretch at a time: every session once, in start order, and a
    /// history of sessions millennia apart costs a few reads of its gaps, not one per month.
    @Test func theWalkVisitsEverySessionOnceInOrderAndCrossesGapsInFewReads() throws {
        final class Counting: @unchecked Sendable {
            var reads = 0
        }
        struct Counted: SessionHistory {
            let base: Dataset
            let counter: Counting
            var source: String { base.source }
            var apps: [String] { base.apps }
            var categories: [String] { base.categories }
            var sessionCount: Int { base.sessionCount }
            var span: (start: Micros, end: Micros)? { base.span }
            var latestStart: Micros? { base.latestStart }
            var skipped: SkipSummary { base.skipped }
            var repairedStrings: Int { base.repairedStrings }
            var parts: [SourcePart] { base.parts }
            func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow { base.window(from: from, to: to, ids: ids) }
            func uncachedWindow(from: Micros, to: Micros) -> SessionWindow {
                counter.reads += 1
                return base.window(from: from, to: to, ids: false)
            }
            func latestCategory(ofApp app: Int32) -> Int32? { base.latestCategory(ofApp: app) }
            func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory { self }
            func takeReadFailure() -> String? { nil }
        }
        let json = """
            [{"app_name":"A","start_timestamp":"0001-01-01T00:00:00Z","end_timestamp":"0001-01-03T00:00:00Z"},
             {"app_name":"B","start_timestamp":"2026-02-23T23:00:00Z","end_timestamp":"2026-02-24T01:00:00Z"},
             {"app_name":"C","start_timestamp":"2026-02-24T00:30:00Z","end_timestamp":"2026-02-24T00:40:00Z"},
             {"app_name":"D","start_timestamp":"9999-12-31T23:00:00Z","end_timestamp":"9999-12-31T23:59:00Z"}]
            """
        let history = Counted(base: try SessionsJSON.decode(Array(json.utf8), source: "far.json"), counter: Counting())
        var seen: [String] = []
        history.forEachSession { seen.append(history.apps[Int($0.app)]) }
        #expect(seen == ["A", "B", "C", "D"])
        #expect(history.counter.reads < 200, "\(history.counter.reads) reads")
        let leaders = SeriesLeaders(history: history, zone: .utc)
        #expect(leaders.apps.map { history.apps[Int($0)] } == ["A", "B", "D", "C"])
    }
}
