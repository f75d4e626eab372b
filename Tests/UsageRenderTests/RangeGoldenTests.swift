// RangeGoldenTests.swift — golden files of `summary`, `month` and `timesheet` at 40, 80 and 120 columns in every look (colour, monochrome, ASCII, accessible); the timesheet's rounding adds up on random sheets, and its CSV is a sheet in decimal hours.
import Foundation
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageRender

/// Two weeks and a day (2026-02-09 … 2026-02-23, UTC) of fourteen apps — CJK, emoji and
/// combining names among them — in six categories, busier in the second week.
enum RangeGoldenFixture {
    static let apps: [(String, String)] = [
        ("Safari", "Productivity"), ("微信", "Social"), ("Spotify", "Music"), ("Visual Studio Code", "Developer Tools"),
        ("👨‍👩‍👧 Family", "Social"), ("原神 Genshin", "游戏 Games"), ("Mail", "Productivity"), ("Maps", "Navigation"),
        ("Café Finder", "Food & Drink"), ("Slack", "Productivity"), ("Notes", "Productivity"), ("カメラ", "Music"),
        ("Terminal", "Developer Tools"), ("Clock", "Navigation"),
    ]

    static let categories: [String] = apps.map(\.1).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }

    static let dataset: Dataset = {
        var sessions: [Session] = []
        let base = instant("2026-02-09T00:00:00Z")
        for day in 0..<15 {
            for (k, _) in apps.enumerated() where (day + k) % 4 != 0 {
                let minutes = Micros((day * 41 + k * 67) % (k < 6 ? 130 : 25) + 5 + (day >= 7 ? 20 : 0))
                let start = base + Micros(day) * 86_400_000_000 + Micros(6 + k) * 3_600_000_000
                let category = Int32(categories.firstIndex(of: apps[k].1)!)
                sessions.append(Session(start: start, end: start + minutes * 60_000_000, app: Int32(k), category: category, id: nil))
            }
        }
        return Dataset(source: "range.json", apps: apps.map(\.0), categories: categories, sessions: sessions, skipped: SkipSummary(), repairedStrings: 0)
    }()

    static let last = LocalDate(iso: "2026-02-23")!
    static let summary = RangeSummary(history: dataset, range: DateRange(from: last.adding(days: -6), to: last, kind: .lastDays), zone: .utc)

    /// Tracked time of one week: three categories, a task across midnight, one with a name to sanitise.
    static let snapshot: TrackerSnapshot = {
        func task(_ id: Int64, _ name: String, _ category: String?) -> TrackerTask {
            TrackerTask(id: id, name: name, category: category, due: nil, priority: .medium, estimate: nil, created: 0, done: nil, deleted: nil)
        }
        let tasks = [
            task(1, "Write report", "Client A"), task(2, "Email", "Client A"), task(3, "Code review", "Client B"),
            task(4, "Design 設計", "Client B"), task(5, "Invoices", nil), task(6, "Standup", "Client A"),
        ]
        var intervals: [TrackedInterval] = []
        var id: Int64 = 0
        func add(_ task: Int64, _ start: String, minutes: Int, seconds: Int = 0) {
            id += 1
            let s = instant(start)
            let e = s + Micros(minutes * 60 + seconds) * 1_000_000
            intervals.append(TrackedInterval(id: id, task: task, start: s, end: e, startOffsetMinutes: 0, endOffsetMinutes: 0))
        }
        for d in 16...20 {
            add(6, "2026-02-\(d)T09:00:00Z", minutes: 15, seconds: 20)
            add(2, "2026-02-\(d)T09:20:00Z", minutes: 20 + d % 3 * 7, seconds: 40)
        }
        add(1, "2026-02-16T10:00:00Z", minutes: 150, seconds: 29)
        add(1, "2026-02-17T13:00:00Z", minutes: 95, seconds: 31)
        add(3, "2026-02-18T10:00:00Z", minutes: 200, seconds: 10)
        add(4, "2026-02-19T22:30:00Z", minutes: 120)  // across midnight
        add(5, "2026-02-21T10:00:00Z", minutes: 45, seconds: 50)
        add(3, "2026-02-22T16:00:00Z", minutes: 0, seconds: 20)  // rounds to none
        return TrackerSnapshot(tasks: tasks, intervals: intervals, categories: ["Client A", "Client B"], stopwatch: .idle)
    }()

    static let week = Timesheet(snapshot: snapshot, range: .week(of: LocalDate(iso: "2026-02-18")!), zone: .utc, now: 0)
    static let month = Timesheet(snapshot: snapshot, range: .month(year: 2026, month: 2), zone: .utc, now: 0)
    static let quarter = Timesheet(
        snapshot: snapshot, range: DateRange(from: LocalDate(iso: "2026-01-01")!, to: LocalDate(iso: "2026-03-31")!, kind: .span), zone: .utc,
        now: 0)
}

struct RangeGoldenTests {
    static let widths = [40, 80, 120]

    static let views: [(String, @Sendable (Int, Theme) -> [String])] = [
        ("summary", { w, t in TextReport.summary(RangeGoldenFixture.summary, width: w, theme: t) }),
        (
            "month",
            { w, t in
                let range = DateRange.month(year: 2026, month: 2)
                let days = DaySummary.days(endingOn: range.to, count: range.dayCount, history: RangeGoldenFixture.dataset, zone: .utc)
                let before = DaySummary.days(endingOn: range.previous!.to, count: range.previous!.dayCount, history: RangeGoldenFixture.dataset, zone: .utc).map(\.totalMicros)
                return TextReport.dayBars(
                    days, previous: before, selected: RangeGoldenFixture.last, title: TextFormat.rangeTitle(range), labels: .narrow, width: w,
                    theme: t, span: TextFormat.previousName(range))
            }
        ),
        ("timesheet", { w, t in TextReport.timesheet(RangeGoldenFixture.week, width: w, theme: t) }),
    ]

    @Test(arguments: views.map(\.0))
    func everyRangeViewAtEveryWidthAndLook(view: String) {
        let render = Self.views.first { $0.0 == view }!.1
        for width in Self.widths {
            for look in Look.allCases {
                let lines = render(width, look.theme)
                Golden.invariants(lines, width: width, theme: look.theme)
                Golden.check(lines, name: "\(view)_w\(width)_\(look.rawValue)")
            }
        }
    }

    @Test func aMonthsSheetIsCutIntoBlocksThatFitAndAQuartersIsInWeeks() {
        for width in Self.widths {
            let month = TextReport.timesheet(RangeGoldenFixture.month, width: width, theme: .plain)
            Golden.invariants(month, width: width, theme: .plain)
            Golden.check(month, name: "timesheet_month_w\(width)_mono")
            let quarter = TextReport.timesheet(RangeGoldenFixture.quarter, width: width, theme: .plain)
            Golden.invariants(quarter, width: width, theme: .plain)
            Golden.check(quarter, name: "timesheet_quarter_w\(width)_mono")
        }
    }

    @Test(arguments: [20, 24, 29, 33, 59, 60, 77, 100, 200])
    func everyRangeViewFitsOddWidths(width: Int) {
        for (_, render) in Self.views {
            for look in Look.allCases { Golden.invariants(render(width, look.theme), width: width, theme: look.theme) }
        }
        Golden.invariants(TextReport.timesheet(RangeGoldenFixture.month, width: width, theme: .plain), width: width, theme: .plain)
    }

    @Test func aRangeWithoutDataSaysSo() {
        let s = RangeSummary(history: RangeGoldenFixture.dataset, range: .year(2020), zone: .utc)
        #expect(TextReport.summary(s, width: 80) == ["2020", "  no usage recorded in these 366 days"])
        let sheet = Timesheet(snapshot: RangeGoldenFixture.snapshot, range: .year(2020), zone: .utc, now: 0)
        #expect(TextReport.timesheet(sheet, width: 80) == ["Timesheet · 2020", "  no time tracked in these 366 days"])
    }

    @Test func theSummarysMinutesAddUpToItsTotal() {
        let lines = TextReport.summary(RangeGoldenFixture.summary, width: 120, theme: .plain)
        func minutes(_ text: Substring) -> Int {
            let h = text.firstMatch(of: /(\d+)h/).map { Int($0.1)! } ?? 0
            let m = text.firstMatch(of: /(\d+)m/).map { Int($0.1)! } ?? 0
            return h * 60 + m
        }
        let appRows = lines.compactMap { line in
            line.firstMatch(of: /^ +\d+\.\s/) == nil ? nil : line.firstMatch(of: /(\d+h(?: \d+m)?|\d+m) +\d+%$/).map { minutes($0.1) }
        }
        let rest = lines.compactMap { $0.firstMatch(of: /more apps? (.*)$/).map { minutes($0.1) } }
        let total = lines.compactMap { $0.firstMatch(of: /^  (.*) total$/).map { minutes($0.1) } }
        #expect(appRows.count == TextReport.summaryApps)
        #expect(appRows.reduce(0, +) + rest.reduce(0, +) == total.first)
    }
}

struct SheetRoundingTests {
    /// Random sheets: every number is its exact value rounded down or up, and every sum is the
    /// sum of its rounded parts.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func everyNumberIsWithinAUnitAndEverySumAddsUp(seed: UInt64) {
        var random = SplitMix64(seed)
        let unit: Micros = seed % 2 == 0 ? 60_000_000 : 36_000_000
        let columns = 1 + random.below(12)
        let values: [[[Micros]]] = (0..<(1 + random.below(4))).map { _ in
            (0..<(1 + random.below(5))).map { _ in
                (0..<columns).map { _ in random.below(3) == 0 ? 0 : Micros(random.below(4 * 3600)) * 1_000_000 + Micros(random.below(1_000_000)) }
            }
        }
        let r = SheetRounding(values, columns: columns, unit: unit)
        func near(_ rounded: Int64, _ exact: Micros) -> Bool { rounded == exact / unit || rounded == (exact + unit - 1) / unit }
        var columnExact = [Micros](repeating: 0, count: columns)
        var grand: Micros = 0
        for (g, group) in values.enumerated() {
            var groupExact = [Micros](repeating: 0, count: columns)
            for (k, row) in group.enumerated() {
                for c in 0..<columns {
                    #expect(near(r.cells[g][k][c], row[c]))
                    groupExact[c] += row[c]
                }
                #expect(near(r.rowTotals[g][k], row.reduce(0, +)))
                #expect(r.rowTotals[g][k] == r.cells[g][k].reduce(0, +))
            }
            for c in 0..<columns {
                #expect(near(r.groupCells[g][c], groupExact[c]))
                #expect(r.groupCells[g][c] == (0..<group.count).reduce(0) { $0 + r.cells[g][$1][c] })
                columnExact[c] += groupExact[c]
            }
            #expect(near(r.groupTotals[g], groupExact.reduce(0, +)))
            #expect(r.groupTotals[g] == r.rowTotals[g].reduce(0, +))
            #expect(r.groupTotals[g] == r.groupCells[g].reduce(0, +))
            grand += groupExact.reduce(0, +)
        }
        for c in 0..<columns {
            #expect(near(r.columnTotals[c], columnExact[c]))
            #expect(r.columnTotals[c] == r.groupCells.reduce(0) { $0 + $1[c] })
        }
        #expect(near(r.total, grand))
        #expect(r.total == r.columnTotals.reduce(0, +))
        #expect(r.total == r.groupTotals.reduce(0, +))
    }

    @Test func sevenHalfMinutesMakeThreeOrFourNotSeven() {
        let r = SheetRounding([[[Micros](repeating: 30_000_000, count: 7)]], columns: 7, unit: 60_000_000)
        #expect([3, 4].contains(r.total))
        #expect(r.cells[0][0].reduce(0, +) == r.total)
    }

    @Test func theCSVIsASheetInDecimalHoursThatAddsUp() {
        let table = TimesheetCSV.table(RangeGoldenFixture.week)
        #expect(table.header == ["category", "task", "2026-02-16", "2026-02-17", "2026-02-18", "2026-02-19", "2026-02-20", "2026-02-21", "2026-02-22", "total_hours"])
        let records = table.records(CSVCellPolicy())
        Golden.check(records, name: "timesheet_week_csv")
        func hundredths(_ cell: CSVTable.Cell) -> Int {
            guard case .number(let text) = cell else { return 0 }
            return Int(text.replacingOccurrences(of: ".", with: ""))!
        }
        let body = table.rows.dropLast()
        let totals = table.rows.last!
        #expect(totals.first == .text("Total"))
        for c in 2..<table.header.count {
            #expect(body.reduce(0) { $0 + hundredths($1[c]) } == hundredths(totals[c]), "column \(table.header[c])")
        }
        for row in table.rows { #expect(row[2..<(row.count - 1)].reduce(0) { $0 + hundredths($1) } == hundredths(row.last!)) }
        let quarter = TimesheetCSV.table(RangeGoldenFixture.quarter)
        #expect(quarter.header[2] == "2026-01-01..2026-01-04")
    }
}
