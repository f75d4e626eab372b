// LimitsTests.swift — daily limits: use on a day, the exact moment a limit is crossed (overlaps, during and after them; midnight), names matched scalar for scalar, and duration text.
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats

struct LimitsTests {
    static let day = LocalDate(iso: "2026-02-23")!
    static func at(_ text: String) -> Micros { RFC3339.parse(text)! }

    @Test func theCrossingIsTheMinuteTheRunningTotalReachesTheLimit() throws {
        let d = try dataset([
            ("Safari", "Web", "2026-02-23T09:00:00Z", "2026-02-23T09:20:00Z"),  // 20m
            ("Mail", "Work", "2026-02-23T09:30:00Z", "2026-02-23T10:30:00Z"),
            ("Safari", "Web", "2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z"),  // 10 more at 11:10
        ])
        let s = LimitStatus(UsageLimit(target: .app("Safari"), micros: 30 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(s.usedMicros == 50 * 60_000_000)
        #expect(s.crossedAt == Self.at("2026-02-23T11:10:00Z"))
    }

    @Test func aCrossingInsideASessionThatBeganBeforeMidnightCountsOnlyTheDaysPart() throws {
        // 23:00 → 00:40: only 40 minutes belong to the 23rd; a 30m limit is crossed at 00:30.
        let d = try dataset([("Night", "Games", "2026-02-22T23:00:00Z", "2026-02-23T00:40:00Z")])
        let s = LimitStatus(UsageLimit(target: .app("Night"), micros: 30 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(s.usedMicros == 40 * 60_000_000)
        #expect(s.crossedAt == Self.at("2026-02-23T00:30:00Z"))
        // In New York the same session is the evening of the 22nd.
        let ny = Zone(identifier: "America/New_York")!
        let evening = LimitStatus(
            UsageLimit(target: .app("Night"), micros: 30 * 60_000_000), history: d, date: LocalDate(iso: "2026-02-22")!, zone: ny)
        #expect(evening.crossedAt == Self.at("2026-02-22T23:30:00Z"))
    }

    @Test func overlappingSessionsOfOneCategoryCountTwiceWhileBothAreOpen() throws {
        let d = try dataset([
            ("Slack", "Social", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            ("Messages", "Social", "2026-02-23T10:30:00Z", "2026-02-23T10:50:00Z"),
        ])
        // 30m by 10:30, then two open: 40m at 10:35.
        let s = LimitStatus(UsageLimit(target: .category("Social"), micros: 40 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(s.usedMicros == 80 * 60_000_000)
        #expect(s.crossedAt == Self.at("2026-02-23T10:35:00Z"))
    }

    /// Overlapping time counts twice in the running total after the overlap too: 30m alone,
    /// then 20m of two at once (40m), so 70m by 10:50, and 5m more of Slack alone cross 75m.
    @Test func aCrossingAfterAnOverlapCountsTheOverlapTwice() throws {
        let d = try dataset([
            ("Slack", "Social", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            ("Messages", "Social", "2026-02-23T10:30:00Z", "2026-02-23T10:50:00Z"),
        ])
        let s = LimitStatus(UsageLimit(target: .category("Social"), micros: 75 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(s.usedMicros == 80 * 60_000_000)
        #expect(s.crossedAt == Self.at("2026-02-23T10:55:00Z"))
        let all = LimitStatus(UsageLimit(target: .category("Social"), micros: 80 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(all.crossedAt == Self.at("2026-02-23T11:00:00Z"))
    }

    @Test func aLimitNotReachedOrOnAnUnknownNameIsNotCrossed() throws {
        let d = try dataset([("Safari", "Web", "2026-02-23T09:00:00Z", "2026-02-23T09:20:00Z")])
        let under = LimitStatus(UsageLimit(target: .app("Safari"), micros: 20 * 60_000_000 + 1), history: d, date: Self.day, zone: .utc)
        #expect(under.crossedAt == nil)
        let exact = LimitStatus(UsageLimit(target: .app("Safari"), micros: 20 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(exact.crossedAt == Self.at("2026-02-23T09:20:00Z"))
        let unknown = LimitStatus(UsageLimit(target: .app("Nope"), micros: 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(unknown.usedMicros == 0 && unknown.crossedAt == nil)
        let category = LimitStatus(UsageLimit(target: .category("Safari"), micros: 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(category.usedMicros == 0, "an app's name is not a category")
    }

    /// Names compare by Unicode scalars, as everywhere: a limit on `Café` written with a
    /// combining accent counts only the app spelled so, not the `Café` written with `é`.
    @Test func aLimitCountsOnlyTheNameSpelledScalarForScalar() throws {
        let d = try dataset([
            ("Caf\u{E9}", "Web", "2026-02-23T09:00:00Z", "2026-02-23T09:20:00Z"),  // 20m
            ("Cafe\u{301}", "Web", "2026-02-23T10:00:00Z", "2026-02-23T10:05:00Z"),  // 5m
        ])
        let decomposed = LimitStatus(UsageLimit(target: .app("Cafe\u{301}"), micros: 10 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(decomposed.usedMicros == 5 * 60_000_000)
        #expect(decomposed.crossedAt == nil)
        let composed = LimitStatus(UsageLimit(target: .app("Caf\u{E9}"), micros: 10 * 60_000_000), history: d, date: Self.day, zone: .utc)
        #expect(composed.usedMicros == 20 * 60_000_000)
        #expect(composed.crossedAt == Self.at("2026-02-23T09:10:00Z"))
    }

    @Test(arguments: [
        ("30m", Micros(30 * 60_000_000)), ("1h30m", 90 * 60_000_000), ("2h", 7_200_000_000), ("90m", 90 * 60_000_000),
        ("45s", 45_000_000), ("1H5M", 65 * 60_000_000), ("1h0m", 3_600_000_000),
    ] as [(String, Micros)])
    func durationsAsPeopleTypeThem(text: String, micros: Micros) {
        #expect(DurationText.parse(text) == micros)
    }

    @Test(arguments: ["", "0m", "m", "30", "30x", "1m1h", "1h1h", "-5m", "1.5h", "1h 30m", "9999999h"])
    func notDurations(text: String) {
        #expect(DurationText.parse(text) == nil, "\(text)")
    }
}
