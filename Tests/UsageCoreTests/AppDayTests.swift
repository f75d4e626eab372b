// AppDayTests.swift — one app's day (`app NAME`): clipping at midnight, share of the day, category rule, hours and DST.
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats

/// The id of an app in a dataset, by exact name.
private func appID(_ d: Dataset, _ name: String) throws -> Int32 {
    Int32(try #require(d.apps.firstIndex(of: name)))
}

struct AppDayTests {
    /// Chrome crosses both midnights of 2026-02-23 (UTC); Mail is the rest of the day.
    static let json = """
        [
        \(row(id: "\"c1\"", app: "\"Chrome\"", start: "\"2026-02-22T23:30:00Z\"", end: "\"2026-02-23T00:40:00Z\"")),
        \(row(id: "\"c2\"", app: "\"Chrome\"", start: "\"2026-02-23T09:35:00Z\"", end: "\"2026-02-23T10:10:00Z\"")),
        \(row(id: "null", app: "\"Chrome\"", category: "\"Social\"", start: "\"2026-02-23T09:50:00Z\"", end: "\"2026-02-23T10:00:00Z\"")),
        \(row(id: "\"m1\"", app: "\"Mail\"", start: "\"2026-02-23T09:00:00Z\"", end: "\"2026-02-23T09:45:00Z\"")),
        \(row(id: "\"c3\"", app: "\"Chrome\"", start: "\"2026-02-23T23:10:00Z\"", end: "\"2026-02-24T00:30:00Z\""))
        ]
        """

    @Test func sessionsAreClippedToTheDayAndFlagged() throws {
        let d = try SessionsJSON.decode(Self.json)
        let a = AppDayReport(history: d, app: try appID(d, "Chrome"), date: day("2026-02-23"), zone: .utc)
        #expect(a.name == "Chrome")
        #expect(a.zone == "UTC")
        #expect(a.sessions.map(\.id) == ["c1", "c2", nil, "c3"])
        #expect(a.sessions.map(\.start) == ["2026-02-23T00:00:00Z", "2026-02-23T09:35:00Z", "2026-02-23T09:50:00Z", "2026-02-23T23:10:00Z"].map(instant))
        #expect(a.sessions.map(\.end) == ["2026-02-23T00:40:00Z", "2026-02-23T10:10:00Z", "2026-02-23T10:00:00Z", "2026-02-24T00:00:00Z"].map(instant))
        #expect(a.sessions.map(\.micros) == [40, 35, 10, 50].map { $0 * minute })
        #expect(a.sessions.map(\.startsBeforeDay) == [true, false, false, false])
        #expect(a.sessions.map(\.endsAfterDay) == [false, false, false, true])
        #expect(a.sessions.map(\.category) == ["Productivity", "Productivity", "Social", "Productivity"])
        #expect(a.micros == 135 * minute)
        #expect(a.dayTotalMicros == 180 * minute)
        #expect(a.share == 0.75)
        #expect(a.category == "Productivity")
    }

    @Test(arguments: [
        // (day, Chrome's clipped minutes, sessions, day total minutes)
        ("2026-02-22", 30, 1, 30),
        ("2026-02-23", 135, 4, 180),
        ("2026-02-24", 30, 1, 30),
        ("2026-02-25", 0, 0, 0),
    ] as [(String, Int64, Int, Int64)])
    func aSessionOverMidnightCountsOnBothDays(date: String, minutes: Int64, sessions: Int, total: Int64) throws {
        let d = try SessionsJSON.decode(Self.json)
        let a = AppDayReport(history: d, app: try appID(d, "Chrome"), date: day(date), zone: .utc)
        #expect(a.micros == minutes * minute)
        #expect(a.sessions.count == sessions)
        #expect(a.dayTotalMicros == total * minute)
        #expect(a.hours.count == 24)
        #expect(a.hours.map(\.micros).reduce(0, +) == a.micros)
    }

    @Test func hoursHoldOnlyThisAppsTime() throws {
        let d = try SessionsJSON.decode(Self.json)
        let a = AppDayReport(history: d, app: try appID(d, "Chrome"), date: day("2026-02-23"), zone: .utc)
        let used = a.hours.filter { $0.micros > 0 }
        #expect(used.map(\.slot.hour) == [0, 9, 10, 23])
        #expect(used.map(\.micros) == [40, 35, 10, 50].map { $0 * minute })
        #expect(a.hours.map(\.slot) == Zone.utc.window(for: day("2026-02-23")).slots)
    }

    @Test func itAgreesWithTheDayReport() throws {
        let d = try SessionsJSON.decode(Self.json)
        let r = DayReport(history: d, date: day("2026-02-23"), zone: .utc)
        for usage in r.apps {
            let a = AppDayReport(history: d, app: try appID(d, usage.name), date: r.day, zone: .utc)
            #expect(a.micros == usage.micros)
            #expect(a.sessions.count == usage.sessions)
            #expect(a.category == usage.category)
            #expect(a.share == usage.share)
            #expect(a.dayTotalMicros == r.totalMicros)
        }
    }

    @Test func aSessionLongerThanTheDayIsClippedAtBothEnds() throws {
        let d = try dataset([
            ("Kiosk", "Other", "2026-02-20T12:00:00Z", "2026-02-26T00:00:00Z"),
            ("Mail", "Productivity", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
        ])
        let a = AppDayReport(history: d, app: try appID(d, "Kiosk"), date: day("2026-02-23"), zone: .utc)
        #expect(a.micros == 24 * hour)
        #expect(a.sessions.count == 1)
        #expect(a.sessions[0].startsBeforeDay && a.sessions[0].endsAfterDay)
        #expect(a.hours.allSatisfy { $0.micros == hour })
        #expect(a.dayTotalMicros == 25 * hour)
    }

    @Test func overlappingSessionsOfTheAppBothCount() throws {
        let d = try dataset([
            ("A", nil, "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            ("A", nil, "2026-02-23T10:30:00Z", "2026-02-23T11:30:00Z"),
        ])
        let a = AppDayReport(history: d, app: 0, date: day("2026-02-23"), zone: .utc)
        #expect(a.micros == 2 * hour)
        #expect(a.share == 1)
        #expect(a.hours[10].micros == 90 * minute)
        #expect(a.hours[11].micros == 30 * minute)
    }

    @Test func theCategoryIsTheOneWithMostTimeTiesByScalars() throws {
        let d = try dataset([
            ("A", "Zeta", "2026-02-23T10:00:00Z", "2026-02-23T10:10:00Z"),
            ("A", "Alpha", "2026-02-23T11:00:00Z", "2026-02-23T11:10:00Z"),
            ("A", "Beta", "2026-02-24T11:00:00Z", "2026-02-24T11:30:00Z"),
        ])
        #expect(AppDayReport(history: d, app: 0, date: day("2026-02-23"), zone: .utc).category == "Alpha")
        #expect(AppDayReport(history: d, app: 0, date: day("2026-02-24"), zone: .utc).category == "Beta")
    }

    @Test func anEmptyDayKeepsTheLatestCategoryAndHasNoShare() throws {
        let d = try dataset([
            ("A", "Old", "2026-02-20T10:00:00Z", "2026-02-20T10:10:00Z"),
            ("A", "New", "2026-02-21T10:00:00Z", "2026-02-21T10:10:00Z"),
            ("B", "X", "2026-02-23T10:00:00Z", "2026-02-23T10:10:00Z"),
        ])
        let a = AppDayReport(history: d, app: try appID(d, "A"), date: day("2026-02-23"), zone: .utc)
        #expect(a.isEmpty)
        #expect(a.category == "New")
        #expect(a.sessions.isEmpty)
        #expect(a.share == 0)
        #expect(a.dayTotalMicros == 10 * minute)
        #expect(a.hours.count == 24 && a.hours.allSatisfy { $0.micros == 0 })
        let nothing = AppDayReport(history: d, app: 0, date: day("2026-01-01"), zone: .utc)
        #expect(nothing.share == 0 && nothing.dayTotalMicros == 0)
    }

    @Test func anAppWithNoSessionsAtAllIsOther() {
        let d = Dataset(
            source: "t", apps: ["A", "Ghost"], categories: ["X"],
            sessions: [Session(start: instant("2026-02-23T10:00:00Z"), end: instant("2026-02-23T11:00:00Z"), app: 0, category: 0, id: nil)],
            skipped: SkipSummary(), repairedStrings: 0)
        let a = AppDayReport(history: d, app: 1, date: day("2026-02-23"), zone: .utc)
        #expect(a.name == "Ghost")
        #expect(a.category == "Other")
        #expect(a.isEmpty)
    }

    @Test func fallBackDayHasTwentyFiveSlotsAndOffsetsPerEnd() throws {
        // 00:30 EDT → 01:30 EST: slot 0 30m, the first 1 (EDT) 60m, the second 1 (EST) 30m.
        let d = try dataset([("A", nil, "2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-05:00")])
        let zone = try #require(Zone(identifier: "America/New_York"))
        let a = AppDayReport(history: d, app: 0, date: day("2026-11-01"), zone: zone)
        #expect(a.zone == "America/New_York")
        #expect(a.hours.count == 25)
        let used = a.hours.filter { $0.micros > 0 }
        #expect(used.map(\.slot.hour) == [0, 1, 1])
        #expect(used.map(\.slot.utcOffsetSeconds) == [-4, -4, -5].map { $0 * 3600 })
        #expect(used.map(\.micros) == [30 * minute, 60 * minute, 30 * minute])
        #expect(a.sessions[0].startUTCOffsetSeconds == -4 * 3600)
        #expect(a.sessions[0].endUTCOffsetSeconds == -5 * 3600)
        #expect(!a.sessions[0].startsBeforeDay && !a.sessions[0].endsAfterDay)
    }

    @Test func springForwardDayHasTwentyThreeSlots() throws {
        let d = try dataset([("A", nil, "2026-03-07T23:00:00-05:00", "2026-03-08T04:00:00-04:00")])
        let zone = try #require(Zone(identifier: "America/New_York"))
        let a = AppDayReport(history: d, app: 0, date: day("2026-03-08"), zone: zone)
        #expect(a.hours.count == 23)
        #expect(a.micros == 3 * hour)
        #expect(a.hours.filter { $0.micros > 0 }.map(\.slot.hour) == [0, 1, 3])
        #expect(a.sessions[0].startsBeforeDay)
        #expect(a.sessions[0].start == zone.startOfDay(day("2026-03-08")))
    }
}
