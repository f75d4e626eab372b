// DayReportTests.swift — docs/DATA.md §3–4: day windows and hour slots in any zone, clipping, totals, order and the category rule.
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats

/// A dataset from (app, category, start, end) rows written as RFC 3339.
func dataset(_ rows: [(String?, String?, String, String)]) throws -> Dataset {
    let body = rows.map { r in
        row(
            app: r.0.map { "\"\($0)\"" } ?? "null", category: r.1.map { "\"\($0)\"" } ?? "null",
            start: "\"\(r.2)\"", end: "\"\(r.3)\"")
    }.joined(separator: ",\n")
    return try SessionsJSON.decode("[\(body)]")
}

func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }
let hour: Micros = 3_600_000_000
let minute: Micros = 60_000_000

struct DayWindowTests {
    @Test(arguments: [
        ("UTC", "2026-02-23", 24, "2026-02-23T00:00:00Z"),
        ("America/New_York", "2026-03-08", 23, "2026-03-08T05:00:00Z"),
        ("America/New_York", "2026-11-01", 25, "2026-11-01T04:00:00Z"),
        ("America/New_York", "2026-03-09", 24, "2026-03-09T04:00:00Z"),
        ("Europe/Paris", "2026-03-29", 23, "2026-03-28T23:00:00Z"),
        ("Europe/Paris", "2026-10-25", 25, "2026-10-24T22:00:00Z"),
        ("Asia/Kolkata", "2026-02-23", 24, "2026-02-22T18:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", 25, "2026-04-04T13:00:00Z"),
        ("America/Havana", "2026-03-08", 23, "2026-03-08T05:00:00Z"),
    ])
    func daysHaveTheirLengthAndStart(zoneName: String, date: String, slots: Int, start: String) throws {
        let zone = try #require(Zone(identifier: zoneName))
        let w = zone.window(for: day(date))
        #expect(w.slots.count == slots)
        #expect(w.start == instant(start))
        #expect(w.slots.first?.start == w.start)
        #expect(w.slots.last?.end == w.end)
        for (a, b) in zip(w.slots, w.slots.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test func springForwardHasNoHourTwo() throws {
        let w = try #require(Zone(identifier: "America/New_York")).window(for: day("2026-03-08"))
        #expect(w.slots.map(\.hour) == [0, 1] + Array(3...23))
        #expect(w.length == 23 * hour)
    }

    @Test func fallBackHasHourOneTwice() throws {
        let w = try #require(Zone(identifier: "America/New_York")).window(for: day("2026-11-01"))
        #expect(w.slots.map(\.hour) == [0, 1, 1] + Array(2...23))
        #expect(w.slots[1].utcOffsetSeconds == -4 * 3600)
        #expect(w.slots[2].utcOffsetSeconds == -5 * 3600)
        #expect(w.length == 25 * hour)
    }

    @Test(arguments: [
        ("UTC", "2026-02-23T23:59:59Z", "2026-02-23"),
        ("UTC", "2026-02-24T00:00:00Z", "2026-02-24"),
        ("America/Los_Angeles", "2026-02-24T07:59:59Z", "2026-02-23"),
        ("Asia/Kolkata", "2026-02-23T18:30:00Z", "2026-02-24"),
        ("UTC", "1969-12-31T23:00:00Z", "1969-12-31"),
    ])
    func localDateOfAnInstant(zoneName: String, time: String, expected: String) throws {
        #expect(try #require(Zone(identifier: zoneName)).localDate(of: instant(time)) == day(expected))
    }

    @Test(arguments: ["Mars/Base", "", "utc+1", "Not A Zone", "GMT+5", "UTC+3", "GMT-03:00", "EST+5", "america/new_york"])
    func unknownZonesAndOffsetSpellingsAreRejected(name: String) {
        #expect(Zone(identifier: name) == nil)
    }

    @Test(arguments: [("UTC", "UTC"), ("Etc/UTC", "UTC"), ("Etc/GMT+5", "Etc/GMT+5"), ("US/Eastern", "US/Eastern")])
    func ianaNamesAreAccepted(name: String, identifier: String) {
        #expect(Zone(identifier: name)?.identifier == identifier)
    }

    @Test func bugPosixOffsetZonesWereReadWithTheWrongSign() throws {
        // POSIX TZ=GMT+5 means UTC-5; Foundation reads it as UTC+5. Refused; Etc/GMT+5 is right.
        #expect(Zone(identifier: "GMT+5") == nil)
        #expect(try #require(Zone(identifier: "Etc/GMT+5")).offsetSeconds(at: 0) == -5 * 3600)
    }

    @Test func tzFromTheEnvironmentWinsOverTheSystem() {
        #expect(Zone.fromEnvironment(["TZ": "Asia/Kolkata"], systemIdentifier: "Europe/Paris").identifier == "Asia/Kolkata")
        #expect(Zone.fromEnvironment(["TZ": ":Europe/Paris"], systemIdentifier: nil).identifier == "Europe/Paris")
        #expect(Zone.fromEnvironment(["TZ": "EST+5"], systemIdentifier: "Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(Zone.fromEnvironment([:], systemIdentifier: "Etc/UTC").identifier == "UTC")
        #expect(Zone.fromEnvironment([:], systemIdentifier: nil).identifier == "UTC")
    }
}

struct DayReportTests {
    @Test func sessionsAreClippedToTheDay() throws {
        let d = try dataset([
            ("YouTube", "Entertainment", "2026-02-22T23:40:00Z", "2026-02-23T00:25:00Z"),
            ("Notes", "Productivity", "2026-02-23T23:50:00Z", "2026-02-24T00:10:00Z"),
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(r.totalMicros == 35 * minute)
        #expect(r.apps.map(\.name) == ["YouTube", "Notes"])
        #expect(r.apps.map(\.micros) == [25 * minute, 10 * minute])
        #expect(r.hours[0].micros == 25 * minute)
        #expect(r.hours[23].micros == 10 * minute)
    }

    @Test func appTimeCountsOverlapsTwiceAndScreenTimeOnce() throws {
        let d = try dataset([
            ("Maps", "Navigation", "2026-02-23T08:00:00Z", "2026-02-23T09:00:00Z"),
            ("Spotify", "Entertainment", "2026-02-23T08:30:00Z", "2026-02-23T09:30:00Z"),
            ("Mail", "Productivity", "2026-02-23T09:30:00Z", "2026-02-23T09:40:00Z"),
            ("Slack", "Productivity", "2026-02-23T12:00:00Z", "2026-02-23T12:05:00Z"),
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(r.totalMicros == 135 * minute)
        #expect(r.screenTimeMicros == 105 * minute)
    }

    @Test func screenTimeNeverExceedsTheDay() throws {
        let d = try dataset([
            ("A", nil, "2026-02-22T00:00:00Z", "2026-02-25T00:00:00Z"),
            ("B", nil, "2026-02-23T01:00:00Z", "2026-02-23T02:00:00Z"),
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(r.screenTimeMicros == 24 * hour)
        #expect(r.totalMicros == 25 * hour)
    }

    @Test func sessionsCountOnlyWithClippedTime() throws {
        let d = try dataset([
            ("Mail", "Productivity", "2026-02-22T23:00:00Z", "2026-02-23T00:00:00Z"),  // ends at midnight
            ("Mail", "Productivity", "2026-02-23T10:00:00Z", "2026-02-23T10:01:00Z"),
            ("Mail", "Productivity", "2026-02-24T00:00:00Z", "2026-02-24T00:01:00Z"),  // starts next day
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(r.apps.map(\.sessions) == [1])
    }

    @Test func theAppsCategoryIsTheOneWithMostTimeTiesAlphabetical() throws {
        let d = try dataset([
            ("Safari", "Productivity", "2026-02-23T10:00:00Z", "2026-02-23T10:10:00Z"),
            ("Safari", "Social", "2026-02-23T11:00:00Z", "2026-02-23T11:20:00Z"),
            ("Chrome", "Zeta", "2026-02-23T12:00:00Z", "2026-02-23T12:10:00Z"),
            ("Chrome", "Alpha", "2026-02-23T13:00:00Z", "2026-02-23T13:10:00Z"),
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        let category = Dictionary(uniqueKeysWithValues: r.apps.map { ($0.name, $0.category) })
        #expect(category["Safari"] == "Social")
        #expect(category["Chrome"] == "Alpha")
        // Categories still count each session under its own category.
        #expect(r.categories.map(\.name) == ["Social", "Alpha", "Productivity", "Zeta"])
    }

    @Test func orderIsSecondsDescendingThenNameByScalars() throws {
        let d = try dataset([
            ("b", nil, "2026-02-23T10:00:00Z", "2026-02-23T10:10:00Z"),
            ("B", nil, "2026-02-23T11:00:00Z", "2026-02-23T11:10:00Z"),
            ("é", nil, "2026-02-23T12:00:00Z", "2026-02-23T12:10:00Z"),
            ("e\u{301}", nil, "2026-02-23T13:00:00Z", "2026-02-23T13:10:00Z"),
            ("z", nil, "2026-02-23T14:00:00Z", "2026-02-23T14:30:00Z"),
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(r.apps.map(\.name) == ["z", "B", "b", "e\u{301}", "é"])
    }

    @Test func sharesAndHourAppsAddUp() throws {
        let d = try dataset([
            ("A", "X", "2026-02-23T10:30:00Z", "2026-02-23T11:30:00Z"),
            ("B", "Y", "2026-02-23T10:45:00Z", "2026-02-23T11:00:00Z"),
        ])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(abs(r.apps.map(\.share).reduce(0, +) - 1) < 1e-12)
        #expect(r.apps[0].share == 0.8)
        #expect(r.hours[10].micros == 45 * minute)
        #expect(r.hours[10].apps.map(\.name) == ["A", "B"])
        #expect(r.hours[11].apps.map(\.micros) == [30 * minute])
        #expect(r.hours.map(\.micros).reduce(0, +) == r.totalMicros)
    }

    @Test func fractionalSecondsAreKept() throws {
        let d = try dataset([("A", nil, "2026-02-23T10:00:00.25Z", "2026-02-23T10:00:01.500001Z")])
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        #expect(r.totalMicros == 1_250_001)
    }

    @Test func sessionsStraddlingSpringForwardSplitByRealHours() throws {
        // 01:30–03:30 EST/EDT on 2026-03-08 is one real hour: 30 min in slot "1", 30 in slot "3".
        let d = try dataset([("A", nil, "2026-03-08T01:30:00-05:00", "2026-03-08T03:30:00-04:00")])
        let zone = try #require(Zone(identifier: "America/New_York"))
        let r = DayReport(history: d, date: day("2026-03-08"), zone: zone)
        #expect(r.totalMicros == hour)
        let used = r.hours.filter { $0.micros > 0 }
        #expect(used.map(\.slot.hour) == [1, 3])
        #expect(used.map(\.micros) == [30 * minute, 30 * minute])
    }

    @Test func sessionsStraddlingFallBackFillBothHourOnes() throws {
        // 00:30 EDT → 01:30 EST is two real hours and a half... slots 0 (30m), 1 EDT (60m), 1 EST (30m).
        let d = try dataset([("A", nil, "2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-05:00")])
        let zone = try #require(Zone(identifier: "America/New_York"))
        let r = DayReport(history: d, date: day("2026-11-01"), zone: zone)
        #expect(r.totalMicros == 2 * hour)
        let used = r.hours.filter { $0.micros > 0 }
        #expect(used.map(\.slot.hour) == [0, 1, 1])
        #expect(used.map(\.micros) == [30 * minute, 60 * minute, 30 * minute])
    }

    @Test func anEmptyDayIsEmpty() throws {
        let d = try dataset([("A", nil, "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])
        let r = DayReport(history: d, date: day("2026-02-20"), zone: .utc)
        #expect(r.isEmpty)
        #expect(r.apps.isEmpty && r.categories.isEmpty)
        #expect(r.hours.count == 24)
    }

    @Test func weekSummaryCoversSevenDaysOldestFirst() throws {
        let d = try dataset([
            ("A", "X", "2026-02-17T10:00:00Z", "2026-02-17T11:00:00Z"),
            ("B", "Y", "2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z"),
            ("C", "X", "2026-02-16T10:00:00Z", "2026-02-16T10:30:00Z"),
        ])
        let days = DaySummary.days(endingOn: day("2026-02-23"), count: 7, history: d, zone: .utc)
        #expect(days.map(\.day.description) == (17...23).map { "2026-02-\($0)" })
        #expect(days.map(\.totalMicros) == [hour, 0, 0, 0, 0, 0, 30 * minute])
        #expect(days[0].categories.map(\.name) == ["X"])
    }
}

struct DefaultDayTests {
    @Test func theDefaultDayIsTheLastLocalDayOnWhichASessionStarts() throws {
        let d = try dataset([
            ("A", nil, "2026-02-20T10:00:00Z", "2026-02-20T11:00:00Z"),
            ("B", nil, "2026-02-23T22:00:00Z", "2026-02-24T00:00:00Z"),  // ends exactly at midnight UTC
        ])
        let now = instant("2026-11-22T12:00:00Z")
        #expect(d.defaultDay(in: .utc, now: now) == day("2026-02-23"))
        #expect(d.defaultDay(in: try #require(Zone(identifier: "Asia/Tokyo")), now: now) == day("2026-02-24"))  // starts at 07:00 there
        #expect(d.dayRange(in: .utc) == day("2026-02-20")...day("2026-02-23"))
    }

    /// Issue 35: a session running past the last midnight made its tail the default day (a
    /// day of a few minutes, and `insights` then reported a fall). The default day is the last
    /// day on which a session starts, or today when a session reaches into today.
    @Test(arguments: [
        // (the sessions, now, the default day in UTC)
        ([("2026-02-22T10:00:00Z", "2026-02-22T11:00:00Z"), ("2026-02-23T23:30:00Z", "2026-02-24T00:20:00Z")], "2026-11-22T12:00:00Z", "2026-02-23"),
        // A tail into today: today has data.
        ([("2026-11-21T10:00:00Z", "2026-11-21T11:00:00Z"), ("2026-11-21T23:30:00Z", "2026-11-22T00:20:00Z")], "2026-11-22T12:00:00Z", "2026-11-22"),
        // A session that starts today.
        ([("2026-11-21T10:00:00Z", "2026-11-21T11:00:00Z"), ("2026-11-22T08:00:00Z", "2026-11-22T08:20:00Z")], "2026-11-22T12:00:00Z", "2026-11-22"),
        // The latest start is not the latest session by end: a long one ends last.
        ([("2026-02-20T10:00:00Z", "2026-02-23T02:00:00Z"), ("2026-02-21T09:00:00Z", "2026-02-21T10:00:00Z")], "2026-11-22T12:00:00Z", "2026-02-21"),
        // Data in the future: its last start.
        ([("2027-01-05T10:00:00Z", "2027-01-05T11:00:00Z")], "2026-11-22T12:00:00Z", "2027-01-05"),
    ] as [([(String, String)], String, String)])
    func bugTheDefaultDayCouldBeATail(sessions: [(String, String)], now: String, expected: String) throws {
        let d = try dataset(sessions.enumerated().map { (n, s) -> (String?, String?, String, String) in ("App \(n)", nil, s.0, s.1) })
        #expect(d.defaultDay(in: .utc, now: instant(now)) == day(expected))
        #expect(d.latestStart == sessions.map { instant($0.0) }.max())
    }

    @Test func withNoDataTheDefaultDayIsToday() {
        #expect(Dataset.empty.defaultDay(in: .utc, now: instant("2026-11-22T12:00:00Z")) == day("2026-11-22"))
    }

    @Test(arguments: [
        ("2026-02-01", "2026-02-01"),
        ("today", "2026-11-22"),
        ("yesterday", "2026-11-21"),
        ("prev", "2026-02-22"),
        ("next", "2026-02-24"),
        ("+7", "2026-03-02"),
        ("-7", "2026-02-16"),
        ("first", "2026-02-17"),
        ("last", "2026-02-23"),
        ("monday", "2026-02-23"),
        ("sunday", "2026-02-22"),
        ("TUE", "2026-02-17"),
        // Any prefix that means one day (bug: `day p` and `day y` were refused).
        ("p", "2026-02-22"), ("y", "2026-11-21"), ("n", "2026-02-24"), ("l", "2026-02-23"), ("m", "2026-02-23"),
        ("tu", "2026-02-17"), ("previ", "2026-02-22"),
    ])
    func dayQueriesResolve(text: String, expected: String) throws {
        let query = try #require(DayQuery(text))
        let resolved = query.resolve(
            today: day("2026-11-22"), selected: day("2026-02-23"), dataRange: day("2026-02-17")...day("2026-02-23"))
        #expect(resolved == day(expected))
    }

    @Test(arguments: ["2026-02-30", "tomorrowish", "+", "+x", "t", "s", "f", "mx", ""])
    func badDayQueriesAreRejected(text: String) {
        #expect(DayQuery(text) == nil)
    }
}

struct DaySummaryTests {
    /// `week` takes a lean path (no hours, no apps); it must give the day report's numbers.
    @Test(arguments: ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"])
    func theLeanSummaryAgreesWithTheDayReport(zoneName: String) throws {
        let d = try dataset([
            ("Maps", "Navigation", "2026-03-07T23:30:00Z", "2026-03-08T08:15:00Z"),
            ("Spotify", nil, "2026-03-08T06:00:00Z", "2026-03-08T07:30:00Z"),
            ("Safari", "Productivity", "2026-03-08T12:00:00-04:00", "2026-03-09T01:00:00-04:00"),
            ("Mail", "Productivity", "2026-03-05T10:00:00Z", "2026-03-05T10:00:01Z"),
            (nil, "others", "2026-03-10T00:00:00Z", "2026-03-10T00:30:00Z"),
        ])
        let zone = try #require(Zone(identifier: zoneName))
        let lean = DaySummary.days(endingOn: day("2026-03-10"), count: 7, history: d, zone: zone)
        let full = (0..<7).reversed().map { DaySummary(DayReport(history: d, date: day("2026-03-10").adding(days: -$0), zone: zone)) }
        #expect(lean == full)
    }
}

struct ExactNameTests {
    @Test(arguments: [
        ("Safari", "Safari", true), ("e\u{301}", "é", false), ("é", "é", true), ("Safari", "Safar", false),
        ("", "", true), ("a", "A", false), ("微信", "微信", true),
    ])
    func namesAreTheSameOnlyScalarForScalar(a: String, b: String, same: Bool) {
        #expect(a.sameScalars(as: b) == same)
        #expect((ExactName(a) == ExactName(b)) == same)
        if same { #expect(ExactName(a).hashValue == ExactName(b).hashValue) }
    }

    @Test func bugRankingAHugeNameCopiedItIntoAnArrayOfScalars() {
        // `ranked` keyed its sums by `[Unicode.Scalar]`: 4 bytes a scalar, hashed one by one.
        let huge = String(repeating: "x", count: 2_000_000)
        let parts: [(name: String, micros: Micros)] = [(huge, 10), ("é", 5), (huge, 1), ("e\u{301}", 5)]
        let ranked = DayReport.ranked(parts)
        #expect(ranked.count == 3)
        #expect(ranked[0].name.sameScalars(as: huge) && ranked[0].micros == 11)
        #expect(ranked[1].name == "e\u{301}" && ranked[1].name.unicodeScalars.count == 2)  // scalar order: e < é
    }
}
