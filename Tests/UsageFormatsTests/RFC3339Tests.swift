// RFC3339Tests.swift — docs/DATA.md §1's timestamp rules, table-driven.
import Testing
@testable import UsageFormats
@testable import UsageCore

struct RFC3339Tests {
    /// 2026-02-23T00:00:00Z in microseconds.
    static let monday: Micros = 1_771_804_800_000_000

    @Test(arguments: [
        ("2026-02-23T00:00:00Z", monday),
        ("2026-02-23t00:00:00z", monday),
        ("2026-02-23T05:30:00+05:30", monday),
        ("2026-02-22T16:00:00-08:00", monday),
        ("2026-02-23T00:00:00-00:00", monday),
        ("2026-02-23T00:00:00.5Z", monday + 500_000),
        ("2026-02-23T00:00:00.123456Z", monday + 123_456),
        ("2026-02-23T00:00:00.123456789Z", monday + 123_456),
        ("2026-02-23T00:00:00.000001Z", monday + 1),
        ("2024-02-29T12:00:00Z", 1_709_208_000_000_000),
        ("1969-12-31T23:59:59Z", -1_000_000),
        ("2000-01-01T00:00:00Z", 946_684_800_000_000),
    ] as [(String, Micros)])
    func validTimestamps(text: String, expected: Micros) {
        #expect(RFC3339.parse(text) == expected)
    }

    @Test(arguments: [
        "",
        "2026-02-23",
        "2026-02-23T00:00:00",  // no offset
        "2026-02-23 00:00:00Z",  // space separator
        "2026-02-30T00:00:00Z",  // impossible date
        "2025-02-29T00:00:00Z",  // not a leap year
        "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z",
        "2026-02-00T00:00:00Z",
        "2026-02-23T24:00:00Z",
        "2026-02-23T23:60:00Z",
        "2026-02-23T23:59:60Z",  // leap seconds are not accepted
        "2026-02-23T00:00:00.Z",  // empty fraction
        "2026-02-23T00:00:00.1234567890Z",  // ten fraction digits
        "2026-02-23T00:00:00+0530",
        "2026-02-23T00:00:00+24:00",
        "2026-02-23T00:00:00+05:60",
        "2026-02-23T00:00:00Z ",
        " 2026-02-23T00:00:00Z",
        "2026-2-23T00:00:00Z",
        "26-02-23T00:00:00Z",
        "2026-02-23T00:00:00UTC",
        "２026-02-23T00:00:00Z",
    ])
    func invalidTimestamps(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }
}

struct LocalDateTests {
    @Test(arguments: [
        ("2026-02-23", 1),  // Monday
        ("2026-02-22", 7),
        ("1970-01-01", 4),
        ("2000-02-29", 2),
        ("2026-03-08", 7),
    ])
    func weekdays(text: String, isoWeekday: Int) throws {
        let d = try #require(LocalDate(iso: text))
        #expect(d.isoWeekday == isoWeekday)
        #expect(d.description == text)
        #expect(LocalDate(daysSinceEpoch: d.daysSinceEpoch) == d)
    }

    @Test(arguments: ["2026-02-30", "2026-2-3", "2026/02/23", "x", "2026-02-23T00:00:00Z", "2100-02-29"])
    func invalidDates(text: String) {
        #expect(LocalDate(iso: text) == nil)
    }

    @Test func arithmeticCrossesMonthsAndYears() throws {
        let d = try #require(LocalDate(iso: "2024-12-31"))
        #expect(d.adding(days: 1).description == "2025-01-01")
        #expect(d.adding(days: 60).description == "2025-03-01")
        #expect(try #require(LocalDate(iso: "2024-03-01")).adding(days: -1).description == "2024-02-29")
    }
}

struct RFC3339DateCacheTests {
    /// The cache may only skip the date checks for the very same ten bytes.
    @Test func theDateCacheNeverLetsABadTimestampThrough() {
        var cache = RFC3339.DateCache()
        func parse(_ text: String) -> Micros? {
            var copy = text
            return copy.withUTF8 { RFC3339.parse($0, cache: &cache) }
        }
        #expect(parse("2026-02-28T10:00:00Z") == RFC3339.parse("2026-02-28T10:00:00Z"))
        #expect(parse("2026-02-28T23:59:59.5+05:30") == RFC3339.parse("2026-02-28T23:59:59.5+05:30"))
        #expect(parse("2026-02-28T24:00:00Z") == nil)  // same date, bad time
        #expect(parse("2026-02-28 10:00:00Z") == nil)  // same date, bad separator
        #expect(parse("2026-02-29T10:00:00Z") == nil)  // not a leap year
        #expect(parse("2026-02-28T10:00:00Z") != nil)
        #expect(parse("2024-02-29T10:00:00Z") == RFC3339.parse("2024-02-29T10:00:00Z"))
        #expect(parse("2026-02-28T10:00:00") == nil)  // cached date, no offset
    }
}
