// HonestAxesTests.swift — honest axes (issue 21): an axis tops out at the first step at or above the largest bar, the average line never hides a grid line or its label and carries its value, and averages count only the days with data.
import Testing
@testable import UsageCore
@testable import UsageRender
import TestSupport

struct HonestAxesTests {
    static let hour: Micros = 3_600_000_000
    static let minute: Micros = 60_000_000

    @Test func bugTheWeeksAxisRoseTo12hForABusiestDayOf8h45m() {
        let axis = BarAxis(quartersUpTo: 8 * Self.hour + 45 * Self.minute)
        #expect(axis.maximum == 9 * Self.hour)
        #expect(axis.steps == 3 && axis.rows == 9)
    }

    @Test(arguments: [
        (Int64(10), 15), (14, 15), (16, 30), (50, 60), (61, 90), (100, 120), (179, 180), (181, 240), (8 * 60 + 45, 9 * 60),
        (9 * 60 + 1, 12 * 60), (13 * 60, 16 * 60), (30 * 60, 32 * 60), (47 * 60, 48 * 60), (49 * 60, 72 * 60), (100 * 60, 144 * 60),
    ] as [(Int64, Int64)])
    func anAxisTopIsTheFirstStepAtOrAboveTheLargestBar(busiestMinutes: Int64, topMinutes: Int64) {
        let busiest = busiestMinutes * Self.minute
        let axis = BarAxis(quartersUpTo: busiest)
        #expect(axis.maximum == topMinutes * Self.minute, "\(busiestMinutes)m")
        #expect(axis.maximum >= busiest && axis.maximum - axis.stepMicros < busiest)
        #expect((1...4).contains(axis.steps) && (8...9).contains(axis.rows))
        // The hourly axis keeps the same rule.
        let hourly = BarAxis(quarterHoursUpTo: busiest)
        #expect(hourly.maximum >= busiest && hourly.maximum - hourly.stepMicros < busiest)
    }

    /// The mark's row and level for averages across a 9-row axis of 1h rows whose grid rows are
    /// 2, 5 and 8 (3h, 6h, 9h at their top edges).
    @Test(arguments: [
        (Int64(30), 0, BarMarker.Level.middle),  // 0h30: the bottom row, no grid
        (4 * 60 + 46, 4, .middle),  // 4h46: row 4 is no grid row
        (5 * 60 + 10, 4, .top),  // 5h10, in grid row 5's lower half: on its bottom edge, from row 4
        (5 * 60 + 50, 6, .bottom),  // 5h50, upper half: on the grid line at 6h, from row 6
        (2 * 60 + 40, 3, .bottom),  // 2h40: just over the 3h line
        (8 * 60 + 59, 7, .top),  // 8h59, the top row (a grid row) has no row above: its bottom edge
    ] as [(Int64, Int, BarMarker.Level)])
    func theAverageIsPlacedToHalfARowAndNeverOnAGridRow(minutes: Int64, row: Int, level: BarMarker.Level) throws {
        let axis = BarAxis(quartersUpTo: 9 * Self.hour)
        #expect(axis.rows == 9 && axis.rowsPerStep == 3)
        let placement = try #require(BarMarker(micros: minutes * Self.minute, label: "").placement(on: axis))
        #expect(placement.row == row && placement.level == level, "\(minutes)m → \(placement)")
        #expect((placement.row + 1) % axis.rowsPerStep != 0, "a grid row")
    }

    /// Many weeks of random days: every labelled grid row keeps its label and its grid marks,
    /// the average line is drawn on an unlabelled row with its value after the bars.
    @Test func bugTheAverageLineHidTheGridLineAndItsLabel() {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<300 {
            let days: [DaySummary] = (0..<7).map { k in
                let micros = Micros(rng.next() % 600) * Self.minute + Self.minute
                return DaySummary(
                    day: LocalDate(iso: "2026-02-17")!.adding(days: k), totalMicros: micros, screenTimeMicros: micros,
                    categories: [CategoryUsage(name: "A", micros: micros, share: 1)])
            }
            let lines = TextReport.dayBars(
                days, previous: [], selected: days[6].day, title: "Week", labels: .weekdays, width: 80, theme: .plain)
            let average = DaySummary.average(days).micros
            let axis = BarAxis(quartersUpTo: days.map { $0.totalMicros }.max()!)
            let rows = Array(lines[1...axis.rows])
            let marked = rows.filter { $0.contains("avg ") }
            #expect(marked.count == 1, "\(lines)")
            #expect(marked.first?.hasSuffix("avg " + TextFormat.duration(average)) == true)
            for (k, row) in rows.enumerated() {
                let fromTop = axis.rows - 1 - k
                let isGrid = (fromTop + 1) % axis.rowsPerStep == 0
                let label = isGrid ? axis.label(step: (fromTop + 1) / axis.rowsPerStep) : ""
                #expect(row.hasPrefix(String(repeating: " ", count: 4 - label.count) + label + (isGrid ? "│" : "│")), "\(row)")
                if isGrid {
                    #expect(!row.contains("avg") && !row.contains("╌"), "the average on a grid row: \(row)")
                    // Grid marks in every gap (without colour the grid stays in the gaps).
                    #expect(row.contains("▔▔▔"), "\(row)")
                }
            }
        }
    }

    @Test func bugTheTenDayAverageCountedTheDaysBeforeTheDataAsZeros() {
        // DaysFixture starts on 2026-02-10 and has no data on the 15th: 10 days ending on the
        // 14th hold 5 days with data.
        let days = DaysFixture.days(10, endingOn: "2026-02-14")
        let withData = days.filter { $0.totalMicros > 0 }
        #expect(withData.count == 5)
        let total = days.reduce(0) { $0 + $1.totalMicros }
        let (average, count) = DaySummary.average(days)
        #expect(count == 5 && average == total / 5)
        let sentence = TextReport.daysSentence(days, previous: [], theme: .plain)
        #expect(sentence.contains("\(TextFormat.duration(average)) a day on average over the 5 days with data"), "\(sentence)")
        // When every day has data the sentence needs no such words.
        #expect(!TextReport.daysSentence(DaysFixture.days(7), previous: [], theme: .plain).contains("with data"))
    }

    @Test func theChangeComparesAveragesSoAStretchBeforeTheDataIsNoDrop() {
        func day(_ k: Int, _ hours: Int64) -> DaySummary {
            DaySummary(day: LocalDate(iso: "2026-02-01")!.adding(days: k), totalMicros: hours * Self.hour, screenTimeMicros: hours * Self.hour, categories: [])
        }
        // The week before has data on 2 days only, at the same 4h a day.
        let previous = (0..<7).map { day($0, $0 >= 5 ? 4 : 0) }
        let current = (7..<14).map { day($0, 4) }
        #expect(TextReport.daysSentence(current, previous: previous.map(\.totalMicros), theme: .plain).hasSuffix("the same as the previous week"))
    }

    @Test func tooNarrowForTheLabelTheLegendNamesTheAverage() {
        // 31 bars of 1 cell with gaps take 66 cells: at 70 there is no room for `avg 4h 26m`.
        let lines = DaysFixture.render(31, labels: .narrow, width: 70, theme: .plain)
        #expect(!lines.contains { $0.contains(" avg ") })
        #expect(lines.contains { $0.contains("╌╌ average ") })
    }
}

