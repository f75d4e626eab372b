// RangeOracleTests.swift — `summary FROM..TO` against the independent oracle of OracleTests (Foundation dates and calendars, Double seconds) on the days of the oracle's fixtures, which the range code was never written against: every day's total, the days with data, the busiest day, each app's time, category and sessions, each category's time; DST weeks in New York, half-hour Kolkata, the dirty fixture.
import Foundation
import Testing

/// What the oracle says of a range: its day reports summed, its sessions counted once.
enum RangeOracle {
    struct Summary {
        var daily: [(day: String, seconds: Double)] = []
        var apps: [String: (seconds: Double, category: String, sessions: Int)] = [:]
        var categories: [String: Double] = [:]
        var total: Double { daily.reduce(0) { $0 + $1.seconds } }
    }

    static func summary(_ loaded: Oracle.Loaded, from: String, to: String, zone: String) -> Summary {
        var s = Summary()
        let calendar = Oracle.zonedCalendar(zone)
        var formatter = DateComponents()
        let parts = from.split(separator: "-").map { Int($0)! }
        formatter.year = parts[0]
        formatter.month = parts[1]
        formatter.day = parts[2]
        formatter.hour = 12
        var noon = calendar.date(from: formatter)!
        while true {
            let c = calendar.dateComponents([.year, .month, .day], from: noon)
            let day = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            if day > to { break }
            let report = Oracle.report(loaded, day: day, zone: zone)
            if report.total > 0 { s.daily.append((day, report.total)) }
            noon = calendar.date(byAdding: .day, value: 1, to: noon)!
        }
        let lo = Oracle.window(day: from, zone: zone).start.timeIntervalSince1970
        let hi = Oracle.window(day: to, zone: zone).end.timeIntervalSince1970
        var byCategory: [String: [String: Double]] = [:]
        var sessions: [String: Int] = [:]
        for session in loaded.sessions {
            let seconds = Oracle.overlap(session, lo, hi)
            guard seconds > 0 else { continue }
            byCategory[session.app, default: [:]][session.category, default: 0] += seconds
            s.categories[session.category, default: 0] += seconds
            sessions[session.app, default: 0] += 1
        }
        for (app, categories) in byCategory {
            let best = categories.sorted { $0.value != $1.value ? $0.value > $1.value : Oracle.scalarLess($0.key, $1.key) }.first!
            s.apps[app] = (categories.values.reduce(0, +), best.key, sessions[app]!)
        }
        return s
    }
}

struct RangeOracleTests {
    @Test(arguments: [
        ("oracle-dst.json", "2026-03-05", "2026-03-11", "America/New_York"),
        ("oracle-dst.json", "2026-03-05", "2026-03-11", "UTC"),
        ("oracle-dst.json", "2026-10-28", "2026-11-04", "America/New_York"),
        ("oracle-dst.json", "2026-03-01", "2026-11-30", "Asia/Kolkata"),
        ("oracle-dirty.json", "2026-02-20", "2026-02-26", "UTC"),
        ("oracle-dirty.json", "2026-02-22", "2026-02-25", "America/Los_Angeles"),
        ("oracle-dirty.json", "2026-02-23", "2026-02-24", "Asia/Kolkata"),
    ])
    func theSummaryOfARangeIsTheOraclesDaysSummed(fixture: String, from: String, to: String, zone: String) throws {
        let path = Binary.fixture(fixture)
        let expected = RangeOracle.summary(try Oracle.load(path), from: from, to: to, zone: zone)
        #expect(expected.daily.count >= 2, "the case should have data on several days")
        let doc = try Binary.json([path, "--tz", zone, "-c", "summary \(from)..\(to)"])
        func number(_ any: Any?) -> Double { (any as? NSNumber)?.doubleValue ?? -1 }
        #expect(doc["from"] as? String == from && doc["to"] as? String == to && doc["time_zone"] as? String == zone)
        #expect(abs(number(doc["total_seconds"]) - expected.total) < 0.01, "total \(number(doc["total_seconds"])) vs \(expected.total)")
        let daily = try #require(doc["daily"] as? [[String: Any]])
        #expect(daily.map { $0["day"] as? String ?? "" } == expected.daily.map(\.day))
        for (got, want) in zip(daily, expected.daily) { #expect(abs(number(got["seconds"]) - want.seconds) < 0.01, "\(want.day)") }
        #expect(doc["days_with_data"] as? Int == expected.daily.count)
        let busiest = expected.daily.reduce(expected.daily[0]) { $1.seconds > $0.seconds + 0.005 ? $1 : $0 }
        #expect((doc["busiest_day"] as? [String: Any])?["day"] as? String == busiest.day)
        #expect(abs(number(doc["daily_average_seconds"]) - expected.total / Double(expected.daily.count)) < 0.01)
        let apps = try #require(doc["apps"] as? [[String: Any]])
        #expect(Set(apps.map { $0["name"] as? String ?? "" }) == Set(expected.apps.keys))
        for app in apps {
            let name = app["name"] as? String ?? ""
            guard let want = expected.apps[name] else { continue }
            #expect(abs(number(app["seconds"]) - want.seconds) < 0.01, "\(name) seconds")
            #expect(app["sessions"] as? Int == want.sessions, "\(name) sessions")
            #expect(app["category"] as? String == want.category, "\(name) category")
        }
        let categories = try #require(doc["categories"] as? [[String: Any]])
        #expect(Set(categories.map { $0["name"] as? String ?? "" }) == Set(expected.categories.keys))
        for c in categories {
            #expect(abs(number(c["seconds"]) - (expected.categories[c["name"] as? String ?? ""] ?? -1)) < 0.01)
        }
    }
}
