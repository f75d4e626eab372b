// InsightsTests.swift — `insights`' facts: the trend rule (20% either way), top app and category, the longest session, the advice.
import Testing
@testable import UsageCore
@testable import UsageFormats

struct InsightsTests {
    static let h: Micros = 3_600_000_000

    @Test(arguments: [
        (Micros(100), Micros(121), Trend.increasing), (100, 120, .stable), (100, 80, .stable), (100, 79, .decreasing),
        (0, 1, .increasing), (0, 0, .stable), (100, 0, .decreasing),
    ] as [(Micros, Micros, Trend)])
    func theTrendCountsTwentyPercentEitherWay(first: Micros, last: Micros, trend: Trend) {
        #expect(Trend(first: first, last: last) == trend)
    }

    static func dataset(_ rows: [(String, String, String, String)]) throws -> Dataset {
        let json = rows.map { app, category, start, end in
            "{\"app_name\": \"\(app)\", \"category\": \"\(category)\", \"start_timestamp\": \"\(start)\", \"end_timestamp\": \"\(end)\"}"
        }
        return try SessionsJSON.decode("[" + json.joined(separator: ",") + "]", source: "insights.json")
    }

    @Test func factsAndAdviceOverTheWeek() throws {
        let d = try Self.dataset([
            // Before the week: a long session whose last hour falls on its first day (02-17).
            ("Film", "Video", "2026-02-16T20:00:00Z", "2026-02-17T01:00:00Z"),
            ("Mail", "Work", "2026-02-21T09:00:00Z", "2026-02-21T10:00:00Z"),  // 1h on the 21st
            ("Game", "Play", "2026-02-22T09:00:00Z", "2026-02-22T11:00:00Z"),
            ("Game", "Play", "2026-02-23T08:00:00Z", "2026-02-23T11:00:00Z"),  // 3h on the 23rd: rising
            ("Mail", "Work", "2026-02-23T14:00:00Z", "2026-02-23T14:30:00Z"),
        ])
        let i = Insights(history: d, endingOn: LocalDate(iso: "2026-02-23")!, zone: .utc)
        #expect(i.days.map(\.day.description) == (17...23).map { "2026-02-\($0)" })
        #expect(i.totalMicros == 1 * Self.h + 1 * Self.h + 2 * Self.h + 3 * Self.h + Self.h / 2)
        #expect(i.topApp?.name == "Game" && i.topApp?.micros == 5 * Self.h)
        #expect(i.topCategory?.name == "Play")
        // The film's part inside the week is 1h; the longest is the 3h game.
        #expect(i.longest?.app == "Game" && i.longest?.micros == 3 * Self.h)
        #expect(i.busiestHour?.slot.hour == 8)
        #expect(i.trend == .increasing)
        #expect(i.advice == [.limit(app: "Game")])
    }

    @Test func aHeavyWeekGetsTheAdviceToTakeBreaks() throws {
        let rows = (17...23).map { ("Work", "Work", "2026-02-\($0)T08:00:00Z", "2026-02-\($0)T12:00:00Z") }
        let i = Insights(history: try Self.dataset(rows), endingOn: LocalDate(iso: "2026-02-23")!, zone: .utc)
        #expect(i.averageMicros == 4 * Self.h)
        #expect(i.trend == .stable)
        #expect(i.advice == [.breaks])
    }

    /// A day's lean totals (what `insights` makes for a day whose report is not made) are the
    /// numbers of its full report, in any zone, with sessions across midnight and overlaps.
    @Test(arguments: ["UTC", "Europe/Paris", "America/St_Johns"])
    func aDaysLeanTotalsAreItsReportsNumbers(zoneName: String) throws {
        var rows: [(String, String, String, String)] = []
        for day in 15...23 {
            for (k, app) in ["Mail", "Game", "Film", "Café", "Mail"].enumerated() {
                let hour = (day * 7 + k * 5) % 24
                let end = hour + 1 + k % 3
                rows.append((app, k % 2 == 0 ? "Work" : "Play", "2026-02-\(day)T\(hour < 10 ? "0" : "")\(hour):10:00Z",
                    end < 24 ? "2026-02-\(day)T\(end < 10 ? "0" : "")\(end):40:00Z" : "2026-02-\(day + 1)T0\(end - 24):05:00Z"))
            }
        }
        let d = try Self.dataset(rows)
        let zone = try #require(Zone(identifier: zoneName))
        let last = LocalDate(iso: "2026-02-23")!
        let week = Insights.week(endingOn: last, history: d, zone: zone)
        for back in 0..<7 {
            let day = last.adding(days: -back)
            let lean = DayTotals.of(day, history: d, within: week, zone: zone)
            let full = DayTotals(DayReport(history: d, date: day, zone: zone))
            #expect(lean.summary == full.summary, "\(day) in \(zoneName)")
            #expect(lean.apps.sorted { $0.name < $1.name }.elementsEqual(full.apps.sorted { $0.name < $1.name }, by: ==), "\(day) in \(zoneName)")
        }
        let fromReports = Insights(
            history: d, week: week, days: (0..<7).reversed().map { DayTotals(DayReport(history: d, date: last.adding(days: -$0), zone: zone)) },
            lastReport: DayReport(history: d, date: last, zone: zone))
        let lean = Insights(history: d, endingOn: last, zone: zone)
        #expect(lean.days == fromReports.days)
        #expect(lean.topApp?.name == fromReports.topApp?.name && lean.topApp?.micros == fromReports.topApp?.micros)
        #expect(lean.topCategory?.name == fromReports.topCategory?.name && lean.topCategory?.micros == fromReports.topCategory?.micros)
        #expect(lean.busiestHour == fromReports.busiestHour && lean.trend == fromReports.trend && lean.advice == fromReports.advice)
    }
}
