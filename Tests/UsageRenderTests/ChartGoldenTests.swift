// ChartGoldenTests.swift — golden files of every chart at widths 40, 80, 120: colour and monochrome, Unicode and ASCII, accessible; re-record with RECORD_GOLDEN=1.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageRender

/// A day (2026-02-23, UTC) with CJK, emoji, ZWJ and combining names, eight categories (three
/// fold into the donut's last slice), overlapping music (screen time < app time, an hour over
/// 60 minutes) and a session from the previous evening.
enum ChartFixture {
    static func row(_ app: String, _ category: String, _ start: String, _ end: String) -> String {
        "{\"app_name\": \"\(app)\", \"category\": \"\(category)\", \"start_timestamp\": \"2026-02-\(start)Z\", \"end_timestamp\": \"2026-02-\(end)Z\"}"
    }

    static let json = "[\n" + [
        row("Visual Studio Code — Insiders", "Developer Tools", "22T22:40:00", "23T00:50:00"),
        row("微信", "Social", "23T07:05:00", "23T07:31:00"),
        row("Google Chrome", "Productivity", "23T08:00:00", "23T09:10:00"),
        row("Spotify", "Music", "23T08:00:00", "23T10:30:00"),
        row("Visual Studio Code — Insiders", "Developer Tools", "23T09:10:00", "23T11:55:00"),
        row("微信", "Social", "23T10:02:00", "23T10:09:30"),
        row("👨‍👩‍👧 Family", "Social", "23T12:10:00", "23T12:40:00"),
        row("原神 Genshin", "游戏 Games", "23T12:40:00", "23T13:20:00"),
        row("Google Chrome", "Productivity", "23T13:30:00", "23T15:05:00"),
        row("Café Finder", "Food & Drink", "23T15:10:00", "23T15:22:00"),
        row("Maps", "Navigation", "23T17:20:00", "23T17:58:00"),
        row("カメラ", "Photo & Video", "23T18:05:00", "23T18:09:00"),
        row("微信", "Social", "23T19:00:00", "23T19:45:00"),
        row("原神 Genshin", "游戏 Games", "23T20:00:00", "23T21:35:00"),
        row("Spotify", "Music", "23T20:30:00", "23T22:00:00"),
        row("Cafe\u{0301} Finder", "Food & Drink", "23T22:10:00", "23T22:13:00"),
        row("Utilities", "Utilities", "23T23:58:00", "23T23:59:30"),
    ].joined(separator: ",\n") + "\n]"

    static let dataset = try! SessionsJSON.decode(json, source: "charts.json")
    static let report = DayReport(history: dataset, date: LocalDate(iso: "2026-02-23")!, zone: .utc)
    static let empty = DayReport(history: dataset, date: LocalDate(iso: "2026-02-25")!, zone: .utc)
    static let fallBack: DayReport = {
        let json = "[" + [
            "{\"app_name\": \"Night\", \"category\": \"Other\", \"start_timestamp\": \"2026-11-01T00:30:00-04:00\", \"end_timestamp\": \"2026-11-01T01:50:00-05:00\"}",
            "{\"app_name\": \"Radio\", \"category\": \"Music\", \"start_timestamp\": \"2026-11-01T01:15:00-05:00\", \"end_timestamp\": \"2026-11-01T02:45:00-05:00\"}",
        ].joined(separator: ",") + "]"
        let d = try! SessionsJSON.decode(json, source: "fallback.json")
        return DayReport(history: d, date: LocalDate(iso: "2026-11-01")!, zone: Zone(identifier: "America/New_York")!)
    }()
}

/// The looks of every chart: 16 and 256 colours and none, Unicode and ASCII, accessible.
enum Look: String, CaseIterable {
    case color16
    case color256
    case mono
    case color16ASCII = "color16_ascii"
    case monoASCII = "mono_ascii"
    case accessible

    var theme: Theme {
        switch self {
        case .color16: return Theme(depth: .ansi16)
        case .color256: return Theme(depth: .ansi256)
        case .mono: return Theme(color: false)
        case .color16ASCII: return Theme(depth: .ansi16, glyphs: .ascii)
        case .monoASCII: return Theme(color: false, glyphs: .ascii)
        case .accessible: return Theme(color: false, accessible: true)
        }
    }
}

/// Compares rendered lines with `Tests/UsageRenderTests/Golden/NAME.txt`; `RECORD_GOLDEN=1`
/// writes the file instead (a missing file is written and fails the test, so it gets looked at).
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ lines: [String], name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        check(text: lines.joined(separator: "\n") + "\n", file: name + ".txt", sourceLocation: sourceLocation)
    }

    /// Whether this run records golden files (`RECORD_GOLDEN=1`) instead of comparing with them.
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"].map { !$0.isEmpty && $0 != "0" } ?? false }

    /// Compares `text` with `Golden/FILE` (`picture/week.svg`); while recording, writes it (a
    /// missing file is written and fails the test, so it gets looked at).
    static func check(text: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(file)
        guard !recording, let stored = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? text.write(to: url, atomically: true, encoding: .utf8)
            if !recording { Issue.record("recorded \(file): look at it, then run again", sourceLocation: sourceLocation) }
            return
        }
        #expect(stored == text, "\(file) differs (RECORD_GOLDEN=1 re-records)", sourceLocation: sourceLocation)
    }

    /// The invariants every rendering keeps, whatever its golden file says: no line wider than
    /// the width; only the program's SGR sequences, and none without colour; no raw control or
    /// bidi character; every styled line ends reset.
    static func invariants(_ lines: [String], width: Int, theme: Theme, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in lines {
            #expect(TerminalText.cells(line) <= width, "wider than \(width): \(line)", sourceLocation: sourceLocation)
            let plain = TerminalText.withoutSGR(line)
            #expect(!plain.unicodeScalars.contains(where: TerminalText.needsEscape), "raw control: \(line)", sourceLocation: sourceLocation)
            if !theme.color {
                #expect(!line.contains("\u{1B}"), "ESC without colour: \(line)", sourceLocation: sourceLocation)
            } else if let last = line.ranges(of: /\x1B\[[0-9;]*m/).last {
                #expect(line[last] == "\u{1B}[0m", "colour left open: \(line)", sourceLocation: sourceLocation)
            }
            if theme.glyphs.isASCII && !theme.accessible {
                // Art is ASCII; only data names and docs/DATA.md §5's separators (`·`, `…`, `–`) may not be.
                let art = plain.unicodeScalars.filter { (0x2500...0x259F).contains($0.value) }
                #expect(art.isEmpty, "block or box glyph in ASCII: \(line)", sourceLocation: sourceLocation)
            }
        }
        // A number is never cut: no duration is wrapped into `9h` and `15m` on two lines.
        for (line, next) in zip(lines, lines.dropFirst()) {
            let (a, b) = (TerminalText.withoutSGR(line), TerminalText.withoutSGR(next))
            let split = a.firstMatch(of: #/\d+h$/#) != nil && b.firstMatch(of: #/^ *\d+m/#) != nil
            #expect(!split, "a duration wrapped across two lines: \(a) / \(b)", sourceLocation: sourceLocation)
        }
    }
}

struct ChartGoldenTests {
    static let widths = [40, 60, 80, 120]

    /// Every chart, by name, as the commands draw it.
    static let charts: [(String, @Sendable (DayReport, Int, Theme) -> [String])] = [
        ("header", { r, w, t in TextReport.header(r, width: w, theme: t) }),
        ("category", { r, w, t in TextReport.categories(r, width: w, theme: t) }),
        ("hourly", { r, w, t in TextReport.hourly(r, width: w, theme: t) }),
        ("hourly_by_category", { r, w, t in TextReport.hourly(r, by: .category, width: w, theme: t) }),
        ("apps", { r, w, t in TextReport.apps(r, apps: r.apps, width: w, theme: t) }),
        ("show", { r, w, t in TextReport.show(r, hourlyFirst: false, width: w, theme: t) }),
        ("show_compact", { r, w, t in TextReport.showCompact(r, hourlyFirst: false, width: w, theme: t) }),
        ("hour", { r, w, t in TextReport.hour(r, slots: r.hours.filter { $0.slot.hour == 8 }, width: w, theme: t) }),
        (
            "app",
            { r, w, t in
                let d = ChartFixture.dataset
                let id = Int32(d.apps.firstIndex(of: "原神 Genshin")!)
                let a = AppDayReport(history: d, app: id, date: r.day, zone: .utc)
                return TextReport.app(a, width: w, theme: t, palette: Palette(r))
            }
        ),
    ]

    @Test(arguments: charts.map(\.0))
    func everyChartAtEveryWidthAndLook(chart: String) {
        let render = Self.charts.first { $0.0 == chart }!.1
        for width in Self.widths {
            for look in Look.allCases {
                let lines = render(ChartFixture.report, width, look.theme)
                Golden.invariants(lines, width: width, theme: look.theme)
                Golden.check(lines, name: "\(chart)_w\(width)_\(look.rawValue)")
            }
        }
    }

    @Test func anEmptyDaySaysNoUsageRecorded() {
        for look in [Look.color16, .color256, .mono] {
            let lines = TextReport.show(ChartFixture.empty, hourlyFirst: false, width: 80, theme: look.theme)
            Golden.invariants(lines, width: 80, theme: look.theme)
            Golden.check(lines, name: "show_empty_w80_\(look.rawValue)")
        }
    }

    @Test func aFallBackDayHas25BarsAndStillFits80() {
        for look in [Look.color16, .color256, .mono, .accessible] {
            let lines = TextReport.hourly(ChartFixture.fallBack, width: 80, theme: look.theme)
            Golden.invariants(lines, width: 80, theme: look.theme)
            Golden.check(lines, name: "hourly_fallback_w80_\(look.rawValue)")
        }
    }

    /// Below the widths of the golden files every chart still keeps the invariants.
    @Test(arguments: [20, 24, 28, 29, 33, 59, 60, 76, 77, 100, 101, 200])
    func everyChartFitsOddWidths(width: Int) {
        for (_, render) in Self.charts {
            for look in Look.allCases {
                Golden.invariants(render(ChartFixture.report, width, look.theme), width: width, theme: look.theme)
            }
        }
    }
}

/// Fourteen days (2026-02-10 … 2026-02-23, UTC) of five categories plus two small ones, with a
/// quiet weekend and an empty day, for `week` and `days N`.
enum DaysFixture {
    static let categories = ["Productivity", "Social", "娱乐 Entertainment", "Navigation", "Health", "Other", "System"]

    static let dataset: Dataset = {
        var rows: [String] = []
        for day in 10...23 where day != 15 {
            for (k, category) in categories.enumerated() {
                // Minutes vary by day and category; deterministic.
                let minutes = (day * 37 + k * 53) % (k < 5 ? 150 : 20) + (k < 5 ? 10 : 1)
                let start = 6 + k * 2
                let end = start * 60 + minutes
                rows.append(
                    "{\"app_name\": \"App \(k)\", \"category\": \"\(category)\", \"start_timestamp\": \"2026-02-\(day)T\(String(format: "%02d", start)):00:00Z\", \"end_timestamp\": \"2026-02-\(day)T\(String(format: "%02d", end / 60)):\(String(format: "%02d", end % 60)):00Z\"}")
            }
        }
        return try! SessionsJSON.decode("[" + rows.joined(separator: ",") + "]", source: "days.json")
    }()

    static func days(_ count: Int, endingOn last: String = "2026-02-23") -> [DaySummary] {
        DaySummary.days(endingOn: LocalDate(iso: last)!, count: count, history: dataset, zone: .utc)
    }

    /// `week`: the calendar week holding `day` (Wednesday 2026-02-18: Monday 16 to Sunday 22),
    /// against the week before, as the shell draws it.
    static func renderWeek(holding day: String = "2026-02-18", start: WeekStart = .monday, width: Int, theme: Theme) -> [String] {
        let selected = LocalDate(iso: day)!
        let range = DateRange.week(of: selected, start: start)
        let previous = DaySummary.days(endingOn: range.from.adding(days: -1), count: 7, history: dataset, zone: .utc).map(\.totalMicros)
        return TextReport.dayBars(
            DaySummary.days(endingOn: range.to, count: 7, history: dataset, zone: .utc), previous: previous, selected: selected,
            title: "Week · " + TextFormat.rangeTitle(range), labels: .weekdays, width: width, theme: theme)
    }

    static func render(_ count: Int, labels: DayLabels, width: Int, theme: Theme) -> [String] {
        let last = LocalDate(iso: "2026-02-23")!
        let previous = DaySummary.days(endingOn: last.adding(days: -count), count: count, history: dataset, zone: .utc).map(\.totalMicros)
        return TextReport.dayBars(
            days(count), previous: previous, selected: last, title: "Days ending \(TextFormat.longDate(last))",
            labels: labels, width: width, theme: theme)
    }
}

struct DayBarsGoldenTests {
    /// `days 7` draws what `week` drew before it became the calendar week (issue 44): its
    /// golden files are the former `week_*` files, unchanged.
    @Test(arguments: [("days7", 7, DayLabels.weekdays), ("days10", 10, .narrow), ("days31", 31, .narrow)])
    func daysAtEveryWidthAndLook(name: String, count: Int, labels: DayLabels) {
        for width in ChartGoldenTests.widths {
            for look in Look.allCases {
                let lines = DaysFixture.render(count, labels: labels, width: width, theme: look.theme)
                Golden.invariants(lines, width: width, theme: look.theme)
                Golden.check(lines, name: "\(name)_w\(width)_\(look.rawValue)")
            }
        }
    }

    /// `week`: the calendar week of the selected day, Monday to Sunday.
    @Test func weekAtEveryWidthAndLook() {
        for width in ChartGoldenTests.widths {
            for look in Look.allCases {
                let lines = DaysFixture.renderWeek(width: width, theme: look.theme)
                Golden.invariants(lines, width: width, theme: look.theme)
                Golden.check(lines, name: "week_w\(width)_\(look.rawValue)")
            }
        }
    }

    @Test func theSentenceComparesWithThePreviousDays() {
        // Daily averages over the days with data are compared (the 15th has none).
        var changes: [Int] = []
        for count in [3, 4, 5, 7] {
            let lines = DaysFixture.render(count, labels: .weekdays, width: 300, theme: .plain)
            let days = DaysFixture.days(count)
            let total = days.reduce(0) { $0 + $1.totalMicros }
            let average = DaySummary.average(days).micros
            let before = DaySummary.average(DaysFixture.days(count, endingOn: LocalDate(iso: "2026-02-23")!.adding(days: -count).description)).micros
            let change = Int((Double(average - before) / Double(before) * 100).rounded())
            changes.append(change)
            let span = count == 7 ? "the previous week" : "the previous \(count) days"
            let said = change == 0 ? "the same as \(span)" : (change > 0 ? "▲\u{A0}\(change)%" : "▼\u{A0}\(-change)%") + " vs \(span)"
            #expect(lines.last?.hasSuffix(said) == true, "\(lines.last ?? "")")
            #expect(lines.last?.hasPrefix("  \(TextFormat.duration(total)) in \(count) days · \(TextFormat.duration(average)) a day on average") == true)
        }
        #expect(changes.contains { $0 != 0 })
    }

    @Test func aRangeWithoutDataSaysSo() {
        let empty = DaySummary.days(endingOn: LocalDate(iso: "2025-01-07")!, count: 7, history: DaysFixture.dataset, zone: .utc)
        let lines = TextReport.dayBars(
            empty, previous: empty.map(\.totalMicros), selected: LocalDate(iso: "2025-01-07")!, title: "Week", labels: .weekdays, width: 80)
        #expect(lines == ["Week", "  no usage recorded in these 7 days"])
    }
}

/// Bugs found by the reviews of the charts, each pinned by a test named after it.
struct ChartBugTests {
    @Test func bugAppRowsAndTotalsAt20CellsLostNamesOrReadAsWrongNumbers() {
        let r = ChartFixture.report
        let lines = TextReport.apps(r, apps: Array(r.apps.prefix(3)), width: 20)
        #expect(lines[1].contains("Spotify"), "\(lines)")
        #expect(!lines.joined().contains("…   "), "\(lines)")
        // The totals line wraps instead of ending in `6h 2…`.
        #expect(lines.suffix(2).allSatisfy { !$0.hasSuffix("…") }, "\(lines)")
        for line in TextReport.header(r, width: 20) + TextReport.categories(r, width: 20, theme: Theme(color: false)) {
            #expect(!line.hasSuffix("…"), "\(line)")
        }
    }

    @Test func bugATinyMonochromeBarLookedAsBigAsHalfAnHour() {
        // 54 seconds on a 15-minute axis: 3.8 eighths of the bottom cell; a patterned cell
        // would read as 1m 52s. It is a stub, as 47 seconds is.
        let axis = BarAxis(quarterHoursUpTo: 54_000_000)
        let rows = TextReport.stackedBars(
            [[0, 54_000_000], [0, 47_000_000]], styles: [Series(rank: 0, kind: .app), .other], axis: axis,
            layout: BarLayout(count: 2, width: 80, choices: [(3, 1)])!, theme: Theme(color: false))
        let bottom = rows[rows.count - 2]
        #expect(bottom.hasSuffix("▁▁▁ ▁▁▁"), "\(bottom)")
    }

    @Test func bugTheHourlyTitleWasCutMidDuration() {
        let title = TextReport.hourly(ChartFixture.report, width: 33)[0]
        #expect(title == "Apps per 2 hours · busiest 08:00")
    }

    @Test func bugASpringForwardDayLostIts03LabelWithOneCellBars() throws {
        let json = "[{\"app_name\": \"A\", \"category\": \"C\", \"start_timestamp\": \"2026-03-08T12:00:00Z\", \"end_timestamp\": \"2026-03-08T13:00:00Z\"}]"
        let d = try SessionsJSON.decode(json, source: "spring.json")
        let r = DayReport(history: d, date: LocalDate(iso: "2026-03-08")!, zone: Zone(identifier: "America/New_York")!)
        #expect(r.hours.count == 23)
        // Two-hour bars at 29 cells: the bars after the skipped 02:00 pair 03 with 04.
        let labels = try #require(TextReport.hourly(r, width: 29).first { $0.hasPrefix("     00") })
        #expect(labels == "     00 04 08  12  16  20", "\(labels)")
        // Hourly bars: every label, each at most one column late.
        let hourly = try #require(TextReport.hourly(r, width: 52).first { $0.hasPrefix("     00") })
        #expect(hourly == "     00  03    06    09    12    15    18    21", "\(hourly)")
    }
}

/// `show compact` (issue 21): a day screen that fits 24 rows with its prompt.
struct CompactShowTests {
    @Test func showCompactFitsTwentyThreeLinesFromFortyColumns() {
        let sample = DaysFixture.dataset
        let reports = [ChartFixture.report, ChartFixture.fallBack] + [10, 16, 22].map {
            DayReport(history: sample, date: LocalDate(iso: "2026-02-\($0)")!, zone: .utc)
        }
        // The widths where a layout changes (bars, two-hour bars, legends, the one-line header).
        for r in reports {
            for width in [40, 41, 44, 47, 51, 52, 53, 54, 59, 60, 61, 66, 75, 76, 79, 80, 99, 100, 120, 200] {
                for look in Look.allCases {
                    for (hourlyFirst, stack) in [(false, HourlyStack.app), (true, .category)] {
                        let lines = TextReport.showCompact(r, hourlyFirst: hourlyFirst, hourlyBy: stack, width: width, theme: look.theme)
                        #expect(lines.count <= TextReport.compactLines, "\(r.day) at \(width), \(look): \(lines.count) lines")
                        Golden.invariants(lines, width: width, theme: look.theme)
                    }
                }
            }
        }
    }

    @Test func theCompactFormShowsTheTopAppsAndWhatTheRestAddUpTo() {
        let r = ChartFixture.report
        let lines = TextReport.showCompact(r, hourlyFirst: false, width: 80)
        let minutes = TextFormat.minutes(adding: r.apps.map(\.micros))
        let rest = minutes.dropFirst(5).reduce(0, +)
        #expect(lines.last == "  ░░ \(r.apps.count - 5) more apps \(TextFormat.duration(minutes: rest, of: 1))")
        #expect(lines.filter { $0.hasPrefix("  1. ") || $0.hasPrefix("  5. ") }.count == 2)
        #expect(!lines.contains { $0.hasPrefix("  6. ") })
        #expect(minutes.reduce(0, +) == TextFormat.minutes(r.totalMicros))
    }
}

