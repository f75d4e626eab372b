// SeriesLeadersTests.swift — the names that lead a chart, read in one walk of a whole history, are exactly the day reports' top five (six when there are six), across midnight, DST and long sessions.
import Foundation
import Testing
@testable import UsageCore

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
}
