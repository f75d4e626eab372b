// LimitsReportTests.swift — `limits` text: category limits named first, crossing times in a repeated hour and at midnight.
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport
@testable import UsageRender

struct LimitsReportTests {
    @Test func bugTheCategoryMarkerWasCutAwayAtNarrowWidths() throws {
        let d = try dataset([("A Very Long Application Name Indeed", "A Very Long Category Name Too", "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z")])
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
        let d = try dataset([
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

    /// At 40 columns `category Social` read `catego…` beside its numbers: too narrow for the
    /// names beside them, each name stands on a line of its own over its bar, amount and note,
    /// and neither a name nor a note is cut.
    @Test func bugAt40ColumnsACategoryLimitsNameWasCutToCatego() throws {
        let d = try dataset([
            ("Safari", "Productivity", "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
            ("Instagram", "Social", "2026-02-23T11:00:00Z", "2026-02-23T12:05:00Z"),
        ])
        let day = LocalDate(iso: "2026-02-23")!
        let statuses = [
            LimitStatus(UsageLimit(target: .app("Safari"), micros: 1_800_000_000), history: d, date: day, zone: .utc),
            LimitStatus(UsageLimit(target: .category("Social"), micros: 3_600_000_000), history: d, date: day, zone: .utc),
        ]
        #expect(TextReport.limits(statuses, day: day, zone: .utc, width: 60)[2].hasPrefix("  category Social  ██"))
        let forty = TextReport.limits(statuses, day: day, zone: .utc, width: 40)
        #expect(forty == [
            "Limits · Mon 2026-02-23",
            "  Safari",
            "    1h of 30m    crossed at 09:30",
            "  category Social",
            "    1h 5m of 1h  crossed at 12:00",
        ], "\(forty)")
        for width in 20...60 {
            let lines = TextReport.limits(statuses, day: day, zone: .utc, width: width)
            #expect(lines.allSatisfy { TerminalText.cells($0) <= width && !$0.contains("…") }, "\(width): \(lines)")
            #expect(lines.contains { $0.contains("category Social") } && lines.contains { $0.contains("crossed at 12:00") }, "\(width): \(lines)")
        }
        let none = TextReport.limits([], day: day, zone: .utc, width: 40)
        // The hint's words, wrapped and indented, all there (an app's, a site's and a category's limit).
        let words = none.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(none.allSatisfy { !$0.hasSuffix("…") } && words.contains("'limit youtube.com 1h' or 'limit category NAME 1h'"), "\(none)")
    }
}
