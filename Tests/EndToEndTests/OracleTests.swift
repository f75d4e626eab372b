// OracleTests.swift — checks `show`'s JSON day report, and `week`'s day by day, against the independent oracle of Oracle.swift.
import Foundation
import Testing

// MARK: - Reading the binary's JSON

private func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

private func integer(_ any: Any?) -> Int? {
    guard let n = any as? NSNumber, n.doubleValue == n.doubleValue.rounded() else { return nil }
    return n.intValue
}

private func scalars(_ text: String?) -> [UInt32] { (text ?? "").unicodeScalars.map(\.value) }

/// Exact name comparison (Unicode scalars, not canonical equivalence).
private func sameName(_ a: String?, _ b: String) -> Bool { scalars(a) == scalars(b) }

private func close(_ actual: Double?, _ expected: Double, _ tolerance: Double) -> Bool {
    guard let actual else { return false }
    return abs(actual - expected) <= tolerance
}

// MARK: - Cases

struct OracleCase: Sendable, CustomTestStringConvertible {
    let fixture: String
    let day: String
    let zone: String
    var testDescription: String { "\(fixture) \(day) \(zone)" }
}

private let dirtyCases: [OracleCase] = ["2026-02-23", "2026-02-24"].flatMap { day in
    ["UTC", "America/Los_Angeles", "Asia/Kolkata"].map { OracleCase(fixture: "oracle-dirty.json", day: day, zone: $0) }
}

private let dstCases: [OracleCase] = ["2026-03-08", "2026-03-09", "2026-11-01"].flatMap { day in
    ["America/New_York", "UTC"].map { OracleCase(fixture: "oracle-dst.json", day: day, zone: $0) }
}

// MARK: - Tests

@Suite("Oracle: `show` JSON against an independent computation")
struct OracleTests {
    private static let secondsTolerance = 0.01
    private static let shareTolerance = 1e-6

    @Test("day report matches the oracle field by field", arguments: dirtyCases + dstCases)
    func dayReportMatchesOracle(_ c: OracleCase) throws {
        let path = Binary.fixture(c.fixture)
        let expected = Oracle.report(try Oracle.load(path), day: c.day, zone: c.zone)
        #expect(expected.total > 0, "the oracle case should have data")
        let actual = try Binary.json([path, "--day", c.day, "--tz", c.zone, "-c", "show"])

        #expect(actual["day"] as? String == expected.day)
        #expect(actual["time_zone"] as? String == expected.timeZone)
        #expect(close(number(actual["total_seconds"]), expected.total, Self.secondsTolerance),
                "total_seconds \(String(describing: actual["total_seconds"])) vs \(expected.total)")
        #expect(close(number(actual["screen_time_seconds"]), expected.screen, Self.secondsTolerance),
                "screen_time_seconds \(String(describing: actual["screen_time_seconds"])) vs \(expected.screen)")

        // Apps, in order.
        let apps = try #require(actual["apps"] as? [[String: Any]], "apps is an array of objects")
        #expect(apps.map { $0["name"] as? String ?? "?" } == expected.apps.map(\.name), "app order")
        #expect(apps.count == expected.apps.count)
        for (line, want) in zip(apps, expected.apps) {
            let name = line["name"] as? String
            #expect(sameName(name, want.name), "app name \(String(describing: name)) vs \(want.name)")
            #expect(sameName(line["category"] as? String, want.category),
                    "\(want.name): category \(String(describing: line["category"])) vs \(want.category)")
            #expect(close(number(line["seconds"]), want.seconds, Self.secondsTolerance),
                    "\(want.name): seconds \(String(describing: line["seconds"])) vs \(want.seconds)")
            #expect(integer(line["sessions"]) == want.sessions,
                    "\(want.name): sessions \(String(describing: line["sessions"])) vs \(want.sessions)")
            #expect(close(number(line["share"]), want.share, Self.shareTolerance),
                    "\(want.name): share \(String(describing: line["share"])) vs \(want.share)")
        }

        // Categories, in order.
        let categories = try #require(actual["categories"] as? [[String: Any]], "categories is an array of objects")
        #expect(categories.map { $0["name"] as? String ?? "?" } == expected.categories.map(\.name), "category order")
        #expect(categories.count == expected.categories.count)
        for (line, want) in zip(categories, expected.categories) {
            #expect(sameName(line["name"] as? String, want.name))
            #expect(close(number(line["seconds"]), want.seconds, Self.secondsTolerance),
                    "category \(want.name): seconds \(String(describing: line["seconds"])) vs \(want.seconds)")
            #expect(close(number(line["share"]), want.share, Self.shareTolerance),
                    "category \(want.name): share \(String(describing: line["share"])) vs \(want.share)")
        }

        // Hour slots.
        let hours = try #require(actual["hours"] as? [[String: Any]], "hours is an array of objects")
        #expect(hours.count == expected.hours.count, "hour slot count")
        for (index, (slot, want)) in zip(hours, expected.hours).enumerated() {
            #expect(slot["start"] as? String == want.start, "slot \(index): start")
            #expect(integer(slot["hour"]) == want.hour, "slot \(index): hour \(String(describing: slot["hour"])) vs \(want.hour)")
            #expect(close(number(slot["seconds"]), want.seconds, Self.secondsTolerance),
                    "slot \(index) (\(want.start)): seconds \(String(describing: slot["seconds"])) vs \(want.seconds)")
            let perApp = try #require(slot["apps"] as? [String: Any], "slot \(index): apps is an object")
            #expect(Set(perApp.keys.map(scalars)) == Set(want.apps.keys.map(scalars)),
                    "slot \(index) (\(want.start)): apps \(perApp.keys.sorted()) vs \(want.apps.keys.sorted())")
            for (name, seconds) in want.apps {
                let got = perApp.first { sameName($0.key, name) }?.value
                #expect(close(number(got), seconds, Self.secondsTolerance),
                        "slot \(index) (\(want.start)) app \(name): \(String(describing: got)) vs \(seconds)")
            }
        }

        // Skipped rows (of the whole file).
        let skipped = try #require(actual["skipped"] as? [String: Any], "skipped is an object")
        #expect(integer(skipped["total"]) == expected.skippedTotal, "skipped total")
        let reasons = try #require(skipped["reasons"] as? [String: Any], "skipped.reasons is an object")
        for reason in Set(reasons.keys).union(expected.skipped.keys) {
            #expect((integer(reasons[reason]) ?? 0) == (expected.skipped[reason] ?? 0),
                    "skipped.\(reason): \(String(describing: reasons[reason])) vs \(expected.skipped[reason] ?? 0)")
        }
    }

    @Test("New York 2026-03-08 has 23 hour slots and no hour 2")
    func springForwardSlots() throws {
        let path = Binary.fixture("oracle-dst.json")
        let actual = try Binary.json([path, "--day", "2026-03-08", "--tz", "America/New_York", "-c", "show"])
        let hours = try #require(actual["hours"] as? [[String: Any]])
        let labels = hours.compactMap { integer($0["hour"]) }
        #expect(labels == [0, 1] + Array(3...23))
        #expect(hours.count == 23)
        #expect(hours.first?["start"] as? String == "2026-03-08T00:00:00-05:00")
        #expect(hours.dropFirst(2).first?["start"] as? String == "2026-03-08T03:00:00-04:00")
        #expect(Oracle.slotStarts(day: "2026-03-08", zone: "America/New_York").count == 23)
        // Hand-computed: Safari 01:45 EST .. 03:15 EDT is 30 minutes, split 15 + 15 across the gap;
        // music 06:30Z .. 08:10:00.250Z is 30 + 60 + 10 minutes and a quarter second.
        let slot1 = try #require(hours[1]["apps"] as? [String: Any])
        let slot3 = try #require(hours[2]["apps"] as? [String: Any])
        let slot4 = try #require(hours[3]["apps"] as? [String: Any])
        #expect(close(number(slot1["Safari"]), 900, 0.01))
        #expect(close(number(slot3["Safari"]), 900, 0.01))
        #expect(close(number(slot1["🎵 Tunes"]), 1800, 0.01))
        #expect(close(number(slot3["🎵 Tunes"]), 3600, 0.01))
        #expect(close(number(slot4["🎵 Tunes"]), 600.25, 0.01))
        #expect(close(number(slot3["Slack"]), 1200, 0.01))
    }

    @Test("New York 2026-11-01 has 25 hour slots with hour 1 twice")
    func fallBackSlots() throws {
        let path = Binary.fixture("oracle-dst.json")
        let actual = try Binary.json([path, "--day", "2026-11-01", "--tz", "America/New_York", "-c", "show"])
        let hours = try #require(actual["hours"] as? [[String: Any]])
        let labels = hours.compactMap { integer($0["hour"]) }
        #expect(labels == [0, 1, 1] + Array(2...23))
        #expect(hours.count == 25)
        #expect(hours.map { $0["start"] as? String }.prefix(4) == [
            "2026-11-01T00:00:00-04:00", "2026-11-01T01:00:00-04:00",
            "2026-11-01T01:00:00-05:00", "2026-11-01T02:00:00-05:00",
        ])
        #expect(Oracle.slotStarts(day: "2026-11-01", zone: "America/New_York").count == 25)
        // Hand-computed: Safari 01:30 EDT .. 01:30 EST is one hour, 30 min in each hour 1;
        // 微信 only in the first hour 1, Slack only in the second; the unnamed minute straddles them.
        let first = try #require(hours[1]["apps"] as? [String: Any])
        let second = try #require(hours[2]["apps"] as? [String: Any])
        #expect(close(number(first["Safari"]), 1800, 0.01))
        #expect(close(number(second["Safari"]), 1800, 0.01))
        #expect(close(number(first["微信"]), 1200, 0.01))
        #expect(first["Slack"] == nil)
        #expect(close(number(second["Slack"]), 1200, 0.01))
        #expect(second["微信"] == nil)
        #expect(close(number(first["(unknown)"]), 30, 0.01))
        #expect(close(number(second["(unknown)"]), 30, 0.01))
        #expect(close(number(first["🎵 Tunes"]), 3600, 0.01))
        #expect(close(number(second["🎵 Tunes"]), 3600, 0.01))
    }

    @Test("the oracle itself counts the fixtures' deliberate dirt")
    func oracleSelfCheck() throws {
        let dirty = try Oracle.load(Binary.fixture("oracle-dirty.json"))
        #expect(dirty.skipped == [
            "missing_timestamp": 5, "bad_timestamp": 14, "bad_field_type": 5,
            "end_not_after_start": 4, "not_an_object": 5,
        ])
        #expect(dirty.sessions.count + dirty.skippedTotal >= 290)
        let dst = try Oracle.load(Binary.fixture("oracle-dst.json"))
        #expect(dst.skipped == ["bad_timestamp": 1, "end_not_after_start": 1])

        // Ties: "Tie App" splits 300 s + 300 s, so the alphabetically first category wins;
        // equal-second apps order by scalars, so "Zebra Notes" < "alarm" < "Ärzte".
        let report = Oracle.report(dirty, day: "2026-02-24", zone: "UTC")
        #expect(report.apps.first { $0.name == "Tie App" }?.category == "Productivity")
        let tied = report.apps.map(\.name).filter { ["Ärzte", "alarm", "Zebra Notes"].contains($0) }
        #expect(tied == ["Zebra Notes", "alarm", "Ärzte"])
        // The stuck session covers all of UTC 2026-02-23: screen time is the whole day.
        #expect(Oracle.report(dirty, day: "2026-02-23", zone: "UTC").screen == 86400)
        #expect(Oracle.categoryName(" OTHERS ") == "Other")
        #expect(Oracle.appName("\n ") == "(unknown)")
    }
}

@Suite("Oracle: `week` JSON against an independent computation, day by day")
struct WeekOracleTests {
    @Test(
        "every day of days 7 (the 7 days ending on a day) agrees with the oracle",
        arguments: [("2026-03-10", "America/New_York"), ("2026-03-10", "UTC"), ("2026-11-03", "America/New_York"), ("2026-11-03", "UTC")])
    func weekMatchesOracle(last: String, zone: String) throws {
        let path = Binary.fixture("oracle-dst.json")
        let loaded = try Oracle.load(path)
        // The 7 days ending on `last` (what `week` showed until it became the calendar week).
        let actual = try Binary.json([path, "--day", last, "--tz", zone, "-c", "days 7"])
        let days = try #require(actual["days"] as? [[String: Any]])
        #expect(days.count == 7)
        var withData = 0
        for day in days {
            let name = try #require(day["day"] as? String)
            let expected = Oracle.report(loaded, day: name, zone: zone)
            if expected.total > 0 { withData += 1 }
            #expect(abs((day["total_seconds"] as? Double ?? -1) - expected.total) < 0.01, "\(name) \(zone) total")
            #expect(abs((day["screen_time_seconds"] as? Double ?? -1) - expected.screen) < 0.01, "\(name) \(zone) screen time")
            let categories = try #require(day["categories"] as? [String: Any])
            #expect(categories.count == expected.categories.count, "\(name) \(zone) categories")
            for c in expected.categories {
                #expect(abs(((categories[c.name] as? NSNumber)?.doubleValue ?? -1) - c.seconds) < 0.01, "\(name) \(zone) \(c.name)")
            }
        }
        #expect(withData >= 2, "the week should cross the DST change with data on both sides")
    }
}
