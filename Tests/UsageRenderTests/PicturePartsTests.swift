// PicturePartsTests.swift — the parts a picture names in its titles and tooltips (a day's categories, an hour's apps) add up to the whole it shows beside them, and a part shows the same minutes in the tooltip as in the legend (issue 51, item 5).
import Testing
@testable import UsageCore
@testable import UsageRender

@Suite struct PicturePartsTests {
    static let minute: Micros = 60_000_000
    static func hms(_ h: Int64, _ m: Int64, _ s: Int64) -> Micros { (h * 3600 + m * 60 + s) * 1_000_000 }

    /// Monday 23 February 2026 alone in its week: 7h 32m 20s of four categories whose minutes,
    /// each rounded alone, make 7h 33m (133 + 121 + 101 + 98).
    static let monday: [(String, Micros)] = [
        ("Entertainment", hms(2, 12, 40)), ("Productivity", hms(2, 0, 40)), ("Social", hms(1, 40, 40)), ("Navigation", hms(1, 38, 20)),
    ]
    static var week: [DaySummary] {
        let first = LocalDate(iso: "2026-02-23")!
        return (0..<7).map { k in
            let day = first.adding(days: k)
            guard k == 0 else { return DaySummary(day: day, totalMicros: 0, screenTimeMicros: 0, categories: []) }
            let total = monday.reduce(0) { $0 + $1.1 }
            return DaySummary(
                day: day, totalMicros: total, screenTimeMicros: total,
                categories: monday.map { CategoryUsage(name: $0.0, micros: $0.1, share: Double($0.1) / Double(total)) })
        }
    }

    static func columns(_ figure: Figure) -> ColumnChart? {
        for block in figure.blocks { if case .columns(let chart) = block { return chart } }
        return nil
    }

    /// Minutes of `2h 13m`, `45m`, `2h`.
    static func minutes(_ text: some StringProtocol) -> Int64 {
        var total: Int64 = 0
        for word in text.split(separator: " ") {
            if word.hasSuffix("h") { total += Int64(word.dropLast())! * 60 } else if word.hasSuffix("m") { total += Int64(word.dropLast())! }
        }
        return total
    }

    @Test func bugWeekTooltipsDidNotAddUpToTheDay() throws {
        let figure = Figure.days(Self.week, previous: [], selected: Self.week[0].day, title: "Week", labels: .weekdays, colors: nil)
        let chart = try #require(Self.columns(figure))
        #expect(chart.columns[0].description == "Mon 23 Feb: 7h 32m (Entertainment 2h 13m, Productivity 2h 1m, Social 1h 40m, Navigation 1h 38m)")
        // The parts add up to the day, and each part is what the legend says of it.
        let parts = chart.columns[0].description.split(separator: "(")[1].dropLast().split(separator: ",")
        var sum: Int64 = 0
        for part in parts {
            let words = part.split(separator: " ").dropFirst()
            sum += Self.minutes(words.joined(separator: " "))
        }
        #expect(sum == 452)
        #expect(chart.series.map { "\($0.name) \($0.value)" } == ["Entertainment 2h 13m", "Productivity 2h 1m", "Social 1h 40m", "Navigation 1h 38m"])
    }

    @Test func aDaysPartsAddUpToTheDayAsTheWeekRoundsIt() {
        // The day shown 1 minute below its own rounding (rounded down to add up with the week): the parts follow it.
        let values = [Self.hms(0, 10, 40), Self.hms(0, 10, 40), Self.hms(0, 10, 40)]  // 32m alone, 33m part by part
        #expect(TextFormat.minutes(adding: values) == [11, 11, 10])
        #expect(TextFormat.minutes(adding: values, shown: 31) == [11, 10, 10])
        #expect(TextFormat.minutes(adding: values, shown: 33) == [11, 11, 11])
        #expect(TextFormat.minutes(adding: values, shown: nil) == [11, 11, 10])
        // A part under half a minute stays `<1m` while another can take the minute.
        #expect(TextFormat.durations([Self.hms(0, 0, 20), Self.hms(0, 5, 10)], shown: 6) == ["<1m", "6m"])
    }
}
