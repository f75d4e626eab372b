// TotalsExplainedTests.swift — issue 44, item 7, through the built binary: the first screen's two totals said in one sentence each (`help show`, the README), and the busiest hour saying its time is app time (the chart's title, accessible mode, insights with the hour's screen time beside it, and its JSON).
import Foundation
import Testing

struct TotalsExplainedTests {
    /// `7h 32m total · 6h 22m screen time` and `busiest 18:00 (1h 18m)` went unexplained: more
    /// than an hour in an hour, because two apps at once both count.
    @Test func item7TheTwoTotalsAreExplainedAndTheBusiestHourSaysItIsAppTime() throws {
        let sentence =
            "Its two totals: app time adds up every app's time, so two apps open at once (music under a map) both count; screen time is the time any app was in use, counted once."
        let help = try Binary.run(["--width", "1000", "-c", "help show"])
        #expect(help.stdout.contains(sentence), "\(help.stdout)")
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            readme.contains(
                "Its first line gives two totals, `7h 32m total · 6h 22m screen time`: **app time** (the total) adds up every app's time, so two apps open at once, music under a map, both count, and **screen time** is the time any app was in use, counted once."
            ))
        let chart = try Binary.run(["-c", "chart hourly", "-c", "insights"])
        #expect(chart.stderr == "")
        #expect(chart.stdout.hasPrefix("Apps by hour · busiest 18:00 (1h 18m app time)\n"))
        #expect(chart.stdout.contains("\n  busiest hour on Mon 23  18:00 · 1h 18m app time, 41m screen time\n"))
        let accessible = try Binary.run(["--accessible", "--width", "200", "-c", "chart hourly"])
        #expect(accessible.stdout.contains("\nThe busiest hour is 18:00–18:59 with 1h 18m of app time; 19 of 24 hours have usage.\n"))
        let insights = try Binary.json(["-c", "insights"])
        let busiest = try #require(insights["busiest_hour"] as? [String: Any])
        #expect(busiest["hour"] as? Int == 18)
        #expect(busiest["seconds"] as? Double == 4683)
        #expect(busiest["screen_seconds"] as? Double == 2488)
    }
}
