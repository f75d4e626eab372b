// DataQualityTests.swift — `check`'s numbers: overlap as app time minus screen time, days covered and with data, counts.
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats

struct DataQualityTests {
    @Test(arguments: [
        // (sessions as (start, end) minutes after 2026-02-23T00:00Z, app time, screen time)
        ([(0, 60)], 60, 60),
        ([(0, 60), (60, 90)], 90, 90),  // touching: no overlap
        ([(0, 60), (30, 90)], 120, 90),
        ([(0, 120), (10, 20), (30, 40)], 140, 120),  // nested
        ([(0, 60), (30, 90), (200, 210)], 130, 100),
        ([(0, 60), (0, 60), (0, 60)], 180, 60),  // duplicates
    ] as [([(Int64, Int64)], Int64, Int64)])
    func overlapIsAppTimeMinusScreenTime(spans: [(Int64, Int64)], appTime: Int64, screenTime: Int64) {
        let base = instant("2026-02-23T00:00:00Z")
        let d = Dataset(
            source: "t", apps: ["A"], categories: ["X"],
            sessions: spans.map { Session(start: base + $0.0 * minute, end: base + $0.1 * minute, app: 0, category: 0, id: nil) },
            skipped: SkipSummary(), repairedStrings: 0)
        let q = DataQuality(history: d, zone: .utc)
        #expect(q.appTimeMicros == appTime * minute)
        #expect(q.screenTimeMicros == screenTime * minute)
        #expect(q.overlapMicros == (appTime - screenTime) * minute)
    }

    @Test(arguments: [
        // (zone, first, last, covered, with data)
        ("UTC", "2026-02-17", "2026-02-24", 8, 4),
        ("Asia/Tokyo", "2026-02-17", "2026-02-24", 8, 3),
        ("America/New_York", "2026-02-16", "2026-02-23", 8, 3),
    ])
    func daysCoveredAndWithDataDependOnTheZone(zoneName: String, first: String, last: String, covered: Int, withData: Int) throws {
        let d = try dataset([
            ("A", nil, "2026-02-17T03:00:00Z", "2026-02-17T04:00:00Z"),
            ("A", nil, "2026-02-20T10:00:00Z", "2026-02-20T11:00:00Z"),
            ("B", nil, "2026-02-20T12:00:00Z", "2026-02-20T13:00:00Z"),
            ("A", nil, "2026-02-23T23:30:00Z", "2026-02-24T00:30:00Z"),  // over midnight in UTC
        ])
        let q = DataQuality(history: d, zone: try #require(Zone(identifier: zoneName)))
        #expect(q.firstDay == day(first))
        #expect(q.lastDay == day(last))
        #expect(q.daysCovered == covered)
        #expect(q.daysWithData == withData)
    }

    @Test func aLongSessionMarksEveryDayItTouchesOnce() throws {
        let d = try dataset([
            ("A", nil, "2026-02-10T22:00:00Z", "2026-02-14T02:00:00Z"),  // 10, 11, 12, 13, 14
            ("B", nil, "2026-02-11T10:00:00Z", "2026-02-11T11:00:00Z"),  // inside it
            ("B", nil, "2026-02-13T23:00:00Z", "2026-02-15T00:00:00Z"),  // adds 14 (again) and ends at midnight: not 15
            ("C", nil, "2026-02-20T00:00:00Z", "2026-02-20T00:00:01Z"),
        ])
        let q = DataQuality(history: d, zone: .utc)
        #expect(q.daysWithData == 6)
        #expect(q.daysCovered == 11)
        #expect(q.lastDay == day("2026-02-20"))
    }

    @Test func daysWithDataMatchesANaiveCountOnRandomData() throws {
        // A deterministic generator; sessions of up to 3 days, in a zone with DST changes.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int64) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64((state >> 33) % UInt64(bound))
        }
        let zone = try #require(Zone(identifier: "America/New_York"))
        let base = instant("2026-01-01T00:00:00Z")
        var sessions: [Session] = []
        for _ in 0..<400 {
            let start = base + next(300 * 24) * hour + next(3600) * 1_000_000
            let length = next(10) == 0 ? next(72 * 60) * minute + 1 : next(90 * 60) * 1_000_000 + 1
            sessions.append(Session(start: start, end: start + length, app: 0, category: 0, id: nil))
        }
        let d = Dataset(source: "r", apps: ["A"], categories: ["X"], sessions: sessions, skipped: SkipSummary(), repairedStrings: 0)
        var naive = Set<LocalDate>()
        for s in d.sessions {
            var date = zone.localDate(of: s.start)
            while date <= zone.localDate(of: s.end - 1) {
                naive.insert(date)
                date = date.adding(days: 1)
            }
        }
        let q = DataQuality(history: d, zone: zone)
        #expect(q.daysWithData == naive.count)
        #expect(q.firstDay == naive.min())
        #expect(q.lastDay == naive.max())
    }

    @Test func countsComeFromTheDataset() throws {
        let json = """
            [
            \(row(id: "\"a\"", app: "\"Safari\"", category: "\"Productivity\"")),
            \(row(id: "\"b\"", app: "\"  Safari \"", category: "\"other\"")),
            \(row(id: "\"c\"", app: "null", category: "\"Social\"")),
            \(row(id: "\"s17\"", start: "\"yesterday\"")),
            42,
            \(row(id: "\"e\"", app: "\"Bad\\ud800\"", start: "null"))
            ]
            """
        let d = try SessionsJSON.decode(json, source: "dirty.json")
        let q = DataQuality(history: d, zone: .utc)
        #expect(q.source == "dirty.json")
        #expect(q.sessions == 3)
        #expect(q.apps == 2)  // Safari, (unknown)
        #expect(q.categories == 3)  // Productivity, Other, Social
        #expect(q.skipped.total == 3)
        #expect(q.skipped.count(.badTimestamp) == 1)
        #expect(q.skipped.examples[.badTimestamp]?.first == SkippedRow(reason: .badTimestamp, sessionID: "s17", line: 5))
        #expect(q.skipped.examples[.notAnObject]?.first?.line == 6)
        #expect(q.repairedStrings == d.repairedStrings)
        #expect(q.appTimeMicros == 90 * minute)
        #expect(q.screenTimeMicros == 30 * minute)
        #expect(q.overlapMicros == 60 * minute)
        #expect(q.daysCovered == 1 && q.daysWithData == 1)
    }

    @Test func namesWithoutSessionsAreNotCounted() {
        let d = Dataset(
            source: "t", apps: ["A", "Ghost"], categories: ["X", "Y"],
            sessions: [Session(start: 0, end: hour, app: 0, category: 1, id: nil)],
            skipped: SkipSummary(), repairedStrings: 0)
        let q = DataQuality(history: d, zone: .utc)
        #expect(q.apps == 1)
        #expect(q.categories == 1)
    }

    @Test func anEmptyDatasetHasNoDays() {
        let q = DataQuality(history: Dataset.empty, zone: .utc)
        #expect(q.sessions == 0)
        #expect(q.firstDay == nil && q.lastDay == nil)
        #expect(q.daysCovered == 0 && q.daysWithData == 0)
        #expect(q.appTimeMicros == 0 && q.screenTimeMicros == 0 && q.overlapMicros == 0)
        #expect(q.apps == 0 && q.categories == 0)
    }
}
