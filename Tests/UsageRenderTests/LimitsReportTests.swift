// LimitsReportTests.swift — `limits` text: category limits named first, crossing times in a repeated hour and at midnight.
import Testing
import UsageCore
@testable import UsageRender

struct LimitsReportTests {
    static func dataset(_ rows: [(String, String, String, String)]) throws -> Dataset {
        let json = rows.map { app, category, start, end in
            "{\"app_name\": \"\(app)\", \"category\": \"\(category)\", \"start_timestamp\": \"\(start)\", \"end_timestamp\": \"\(end)\"}"
        }
        return try SessionsJSON.decode("[" + json.joined(separator: ",") + "]", source: "limits.json")
    }

    @Test func bugTheCategoryMarkerWasCutAwayAtNarrowWidths() throws {
        let d = try Self.dataset([("A Very Long Application Name Indeed", "A Very Long Category Name Too", "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z")])
        let day = LocalDate(iso: "2026-02-23")!
        let statuses = [
            LimitStatus(UsageLimit(target: .category("A Very Long Category Name Too"), micros: 1_800_000_000), history: d, date: day, zone: .utc)
        ]
        for width in [60, 80] {
            let lines = TextReport.limits(statuses, day: day, zone: .utc, width: width)
            #expect(lines[1].hasPrefix("  category A"), "\(width): \(lines[1])")
        }
    }

    @Test func bugCrossingsInTheRepeatedHourLookedAlikeAndMidnightLookedLikeTheDaysStart() throws {
        let ny = Zone(identifier: "America/New_York")!
        let fallBack = LocalDate(iso: "2026-11-01")!
        let d = try Self.dataset([
            ("Safari", "Web", "2026-11-01T00:40:00-04:00", "2026-11-01T01:45:00-05:00"),
            ("Late", "Web", "2026-11-01T23:50:00-05:00", "2026-11-02T00:30:00-05:00"),
        ])
        func note(_ app: String, _ minutes: Int64) -> String {
            let s = LimitStatus(UsageLimit(target: .app(app), micros: minutes * 60_000_000), history: d, date: fallBack, zone: ny)
            return TextReport.limitNote(s, zone: ny, day: fallBack)
        }
        #expect(note("Safari", 40) == "crossed at 01:20-04")  // 00:40 EDT + 40m
        #expect(note("Safari", 100) == "crossed at 01:20-05")  // an hour later, in the second 01:00
        #expect(note("Late", 10) == "crossed at 24:00")  // the day's last instant, not the next day's start
    }
}
