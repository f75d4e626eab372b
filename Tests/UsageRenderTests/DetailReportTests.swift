// DetailReportTests.swift — text and JSON of `app NAME`, `hour H` and `check`: exact lines, width, terminal safety.
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
import UsageRender

/// Small hand-made datasets for the detail renderers.
private enum Fixture {
    /// One row of the sessions format; `id`, `app` and `category` are JSON literals.
    static func row(_ id: String, _ app: String, _ category: String, _ start: String, _ end: String) -> String {
        "{\"session_id\": \(id), \"app_name\": \(app), \"category\": \(category), \"start_timestamp\": \"\(start)\", \"end_timestamp\": \"\(end)\"}"
    }

    /// 2026-02-23 (UTC): Chrome over both midnights and overlapping Mail at 09:00; two skipped rows.
    static let json = """
        [
        \(row("\"c1\"", "\"Chrome\"", "\"Productivity\"", "2026-02-22T23:30:00Z", "2026-02-23T00:40:00Z")),
        \(row("\"c2\"", "\"Chrome\"", "\"Productivity\"", "2026-02-23T09:35:00Z", "2026-02-23T10:10:00Z")),
        \(row("null", "\"Chrome\"", "\"Social\"", "2026-02-23T09:50:00Z", "2026-02-23T10:00:00Z")),
        \(row("\"m1\"", "\"Mail\"", "\"Productivity\"", "2026-02-23T09:00:00Z", "2026-02-23T09:45:00Z")),
        \(row("\"c3\"", "\"Chrome\"", "\"Productivity\"", "2026-02-23T23:10:00Z", "2026-02-24T00:30:00Z")),
        {"session_id": "s17", "start_timestamp": "2026-02-23T09:00:00", "end_timestamp": "2026-02-23T10:00:00Z"},
        42
        ]
        """

    /// Names, ids and a source that try to drive the terminal, plus wide characters.
    static let hostileApp = "\u{1B}]0;pwned\u{07}Evil\u{202E}txt"
    static let hostileJSON = """
        [
        \(row("\"\\u001b[2Jid\"", "\"\\u001b]0;pwned\\u0007Evil\\u202etxt\"", "\"Cat\\u001b[31m\\u2066x\"", "2026-02-23T08:00:00Z", "2026-02-23T09:30:00Z")),
        \(row("\"w1\"", "\"微信微信微信微信微信微信微信微信微信微信微信微信微信微信微信 🎵\"", "\"Social\"", "2026-02-23T08:15:00Z", "2026-02-23T08:20:00Z")),
        \(row("\"w2\"", "\"An app with a very long name that goes on and on past any sensible column width\"", "\"Produc\\ud800tivity\"", "2026-02-22T23:00:00Z", "2026-02-23T08:45:00Z")),
        {"session_id": "\\u001b[31mbad\\u009b", "start_timestamp": "nope", "end_timestamp": "2026-02-23T10:00:00Z"},
        {"session_id": "x1", "start_timestamp": "nope", "end_timestamp": "2026-02-23T10:00:00Z"},
        {"session_id": "x2", "start_timestamp": "nope", "end_timestamp": "2026-02-23T10:00:00Z"},
        {"session_id": "x3", "start_timestamp": "nope", "end_timestamp": "2026-02-23T10:00:00Z"},
        {"app_name": 7, "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"},
        {"session_id": "m", "start_timestamp": null, "end_timestamp": "2026-02-23T10:00:00Z"},
        {"session_id": "e", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T09:00:00Z"},
        "\\ud800"
        ]
        """

    /// A fall-back day in New York: Night runs 00:30 EDT → 01:30 EST (both hour ones).
    static let fallBackJSON = """
        [
        \(row("\"n1\"", "\"Night\"", "\"Other\"", "2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-05:00")),
        \(row("\"n2\"", "\"Radio\"", "\"Music\"", "2026-11-01T01:15:00-05:00", "2026-11-01T01:45:00-05:00"))
        ]
        """

    static func dataset(_ text: String = json, source: String = "fixture.json") throws -> Dataset {
        try SessionsJSON.decode(text, source: source)
    }
    static func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }
    static func app(_ d: Dataset, _ name: String, _ date: String, zone: Zone = .utc) throws -> AppDayReport {
        AppDayReport(history: d, app: Int32(try #require(d.apps.firstIndex(of: name))), date: day(date), zone: zone)
    }
    static func report(_ d: Dataset, _ date: String, zone: Zone = .utc) -> DayReport {
        DayReport(history: d, date: day(date), zone: zone)
    }
    static func slots(_ r: DayReport, hour: Int) -> [HourUsage] { r.hours.filter { $0.slot.hour == hour } }
    static var newYork: Zone { Zone(identifier: "America/New_York")! }

    /// Every text rendering of a dataset's day at a width, for the width and safety checks.
    static func everything(_ d: Dataset, date: String, width: Int, theme: Theme = .plain) -> [String] {
        let r = report(d, date)
        var lines = TextReport.check(DataQuality(history: d, zone: .utc), width: width, theme: theme)
        for id in d.apps.indices {
            let a = AppDayReport(history: d, app: Int32(id), date: day(date), zone: .utc)
            lines += TextReport.app(a, width: width, theme: theme)
        }
        for hour in 0..<24 { lines += TextReport.hour(r, slots: slots(r, hour: hour), width: width, theme: theme) }
        return lines
    }
}

struct AppTextTests {
    /// Accessible mode lists the hours (the chart form is in the golden files).
    static let listing = Theme(color: false, accessible: true)

    @Test func sessionsShowClockTimesIdsAndMidnightMarks() throws {
        let d = try Fixture.dataset()
        #expect(
            TextReport.app(try Fixture.app(d, "Chrome", "2026-02-23"), width: 80, theme: Self.listing) == [
                "Chrome · Productivity · Mon 2026-02-23",
                "2h 15m · 75% of the day · 4 sessions",
                "",
                "Sessions",
                "  …00:00–00:40   40m  #c1",
                "  09:35–10:10    35m  #c2",
                "  09:50–10:00    10m",
                "  23:10–24:00…   50m  #c3",
                "",
                "Hours",
                "  00:00   40m",
                "  09:00   35m",
                "  10:00   10m",
                "  23:00   50m",
            ])
    }

    @Test func oneSessionIsSingular() throws {
        let d = try Fixture.dataset()
        let lines = TextReport.app(try Fixture.app(d, "Mail", "2026-02-23"), width: 80)
        #expect(lines[1] == "45m · 25% of the day · 1 session")
        #expect(lines[4] == "  09:00–09:45   45m  #m1")
    }

    @Test func anEmptyDaySaysSo() throws {
        let d = try Fixture.dataset()
        #expect(
            TextReport.app(try Fixture.app(d, "Chrome", "2026-02-25"), width: 80) == [
                "Chrome · Productivity · Wed 2026-02-25", "no usage of Chrome on Wednesday, February 25, 2026",
            ])
    }

    @Test func aFallBackDayTellsTheTwoHourOnesApart() throws {
        let d = try Fixture.dataset(Fixture.fallBackJSON)
        let lines = TextReport.app(try Fixture.app(d, "Night", "2026-11-01", zone: Fixture.newYork), width: 80, theme: Self.listing)
        #expect(lines[1] == "2h · 80% of the day · 1 session")
        // The session ends in the second 01:00 hour: its end says so (bug: both 01:30s looked alike).
        #expect(lines[4] == "  00:30–01:30-05    2h  #n1")
        #expect(Array(lines.suffix(3)) == ["  00:00      30m", "  01:00-04    1h", "  01:00-05   30m"])
    }

    @Test func colourOnlyStylesTheHeadings() throws {
        let d = try Fixture.dataset()
        let lines = TextReport.app(try Fixture.app(d, "Chrome", "2026-02-23"), width: 80, theme: Theme(color: true))
        #expect(lines[0] == "\u{1B}[1mChrome · Productivity · Mon 2026-02-23\u{1B}[0m")
        #expect(lines[3] == "\u{1B}[1mSessions\u{1B}[0m")
        #expect(lines[4] == "  …00:00–00:40   40m  #c1")
    }
}

struct HourTextTests {
    @Test func anHourListsItsAppsRankedWithShareOfTheSlot() throws {
        let r = Fixture.report(try Fixture.dataset(), "2026-02-23")
        #expect(
            TextReport.hour(r, slots: Fixture.slots(r, hour: 9), width: 80) == [
                "09:00–10:00  1h 20m",
                "  1. Mail    ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓   45m  56%",
                "  2. Chrome  ███████████████████████▍         35m  44%",
            ])
    }

    @Test(arguments: [(5, "05:00–06:00  no usage"), (23, "23:00–24:00  50m")])
    func hourLabels(hour: Int, first: String) throws {
        let r = Fixture.report(try Fixture.dataset(), "2026-02-23")
        #expect(TextReport.hour(r, slots: Fixture.slots(r, hour: hour), width: 80).first == first)
    }

    @Test func theFallBackHourIsShownTwiceWithItsOffsets() throws {
        let r = Fixture.report(try Fixture.dataset(Fixture.fallBackJSON), "2026-11-01", zone: Fixture.newYork)
        #expect(
            TextReport.hour(r, slots: Fixture.slots(r, hour: 1), width: 80) == [
                "01:00-04  1h",
                "  1. Night  ██████████████████████████████    1h  100%",
                "",
                "01:00-05  1h",
                "  1. Night  ██████████████████████████████   30m  50%",
                "  2. Radio  ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓   30m  50%",
            ])
    }

    @Test func anHourTheClocksSkipSaysSo() throws {
        let r = Fixture.report(try Fixture.dataset(Fixture.fallBackJSON), "2026-03-08", zone: Fixture.newYork)
        #expect(Fixture.slots(r, hour: 2).isEmpty)
        #expect(TextReport.hour(r, slots: [], width: 80) == ["no such hour on Sunday, March 8, 2026: the clocks skip it"])
    }
}

struct CheckTextTests {
    @Test func checkShowsCountsDaysOverlapAndSkippedExamples() throws {
        let q = DataQuality(history: try Fixture.dataset(), zone: .utc)
        #expect(
            TextReport.check(q, width: 80) == [
                "source: fixture.json",
                "sessions: 5 · 2 apps · 2 categories",
                "days: 2026-02-22 … 2026-02-24: 3 days, 3 with data",
                "app time: 4h",
                "screen time: 3h 40m",
                "overlap: 20m counted twice",
                "skipped 2 rows",
                "  bad_timestamp  1   e.g. id \"s17\" (line 7)",
                "  not_an_object  1   e.g. line 8",
            ])
    }

    @Test func moreRowsThanExamplesEndInAnEllipsisAndIdsAreSanitised() throws {
        let q = DataQuality(history: try Fixture.dataset(Fixture.hostileJSON, source: "dirty\u{1B}[2J.json"), zone: .utc)
        let lines = TextReport.check(q, width: 100)
        #expect(lines[0] == "source: dirty\\e[2J.json")
        #expect(lines.contains("repaired strings: 1 (invalid UTF-8 or lone surrogates became U+FFFD)"))
        #expect(lines.contains("skipped 8 rows"))
        #expect(lines.contains("  bad_timestamp        4   e.g. id \"\\e[31mbad\\u{9B}\" (line 5), id \"x1\" (line 6), id \"x2\" (line 7), …"))
        #expect(lines.contains("  bad_field_type       1   e.g. line 9"))
        #expect(lines.contains("  end_not_after_start  1   e.g. id \"e\" (line 11)"))
        #expect(lines.contains("  missing_timestamp    1   e.g. id \"m\" (line 10)"))
        #expect(lines.contains("  not_an_object        1   e.g. line 12"))
    }

    @Test func narrowWidthsPutExamplesBelowTheirReason() throws {
        let q = DataQuality(history: try Fixture.dataset(), zone: .utc)
        let lines = TextReport.check(q, width: 40)
        #expect(lines.suffix(3) == ["  bad_timestamp  1", "    e.g. id \"s17\" (line 7)", "  not_an_object  1   e.g. line 8"])
    }

    @Test func aCleanLoadSaysNoRowsSkipped() throws {
        let d = try Fixture.dataset("[\(Fixture.row("\"a\"", "\"A\"", "null", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"))]")
        let lines = TextReport.check(DataQuality(history: d, zone: .utc), width: 80)
        #expect(lines.suffix(5) == ["days: 2026-02-23: 1 day, 1 with data", "app time: 1h", "screen time: 1h", "overlap: none", "no rows skipped"])
        #expect(lines[1] == "sessions: 1 · 1 app · 1 category")
    }

    @Test func anEmptyDatasetHasNoDays() {
        let lines = TextReport.check(DataQuality(history: Dataset.empty, zone: .utc), width: 80)
        #expect(lines == [
            "source: (none)", "sessions: 0 · 0 apps · 0 categories", "days: none", "app time: 0m", "screen time: 0m",
            "overlap: none", "no rows skipped",
        ])
    }
}

struct DetailWidthAndSafetyTests {
    @Test(arguments: [12, 20, 40, 80])
    func everyLineFitsTheWidth(width: Int) throws {
        for (json, date) in [(Fixture.json, "2026-02-23"), (Fixture.hostileJSON, "2026-02-23")] {
            let d = try Fixture.dataset(json)
            for theme in [Theme.plain, Theme(color: true)] {
                for line in Fixture.everything(d, date: date, width: width, theme: theme) {
                    #expect(TerminalText.cells(line) <= width, "\(line)")
                }
            }
        }
        let fallBack = Fixture.report(try Fixture.dataset(Fixture.fallBackJSON), "2026-11-01", zone: Fixture.newYork)
        for line in TextReport.hour(fallBack, slots: Fixture.slots(fallBack, hour: 1), width: width) {
            #expect(TerminalText.cells(line) <= width, "\(line)")
        }
    }

    @Test(arguments: [5, 40, 80, 200])
    func hostileNamesNeverReachTheTerminalRaw(width: Int) throws {
        let d = try Fixture.dataset(Fixture.hostileJSON, source: "src\u{1B}]8;;x\u{07}")
        let plain = Fixture.everything(d, date: "2026-02-23", width: width)
        for line in plain {
            #expect(!line.unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(line.debugDescription)")
        }
        for line in Fixture.everything(d, date: "2026-02-23", width: width, theme: Theme(color: true)) {
            #expect(!TerminalText.withoutSGR(line).unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(line.debugDescription)")
            #expect(!line.contains("\\e[1m") && !line.contains("\\e[0m"), "a heading's style was cut: \(line.debugDescription)")
        }
        let app = try Fixture.app(d, Fixture.hostileApp, "2026-02-23")
        #expect(TextReport.app(app, width: 200).first == "\\e]0;pwned\\u{7}Evil\\u{202E}txt · Cat\\e[31m\\u{2066}x · Mon 2026-02-23")
        #expect(TextReport.app(app, width: 200)[4] == "  08:00–09:30  1h 30m  #\\e[2Jid")
    }
}

struct DetailJSONTests {
    @Test func appJSONHasEveryKeyInOrder() throws {
        let d = try Fixture.dataset()
        let json = ReportJSON.app(try Fixture.app(d, "Chrome", "2026-02-23")).serialized
        let hours = (0..<24).map { h -> String in
            let seconds = [0: 2400, 9: 2100, 10: 600, 23: 3000][h] ?? 0
            let hh = h < 10 ? "0\(h)" : "\(h)"
            return #"{"start":"2026-02-23T\#(hh):00:00Z","hour":\#(h),"seconds":\#(seconds)}"#
        }
        #expect(
            json
                == #"{"day":"2026-02-23","time_zone":"UTC","app":"Chrome","category":"Productivity","seconds":8100,"share":0.75,"sessions":["#
                + #"{"id":"c1","start":"2026-02-23T00:00:00Z","end":"2026-02-23T00:40:00Z","seconds":2400,"running":false},"#
                + #"{"id":"c2","start":"2026-02-23T09:35:00Z","end":"2026-02-23T10:10:00Z","seconds":2100,"running":false},"#
                + #"{"id":null,"start":"2026-02-23T09:50:00Z","end":"2026-02-23T10:00:00Z","seconds":600,"running":false},"#
                + #"{"id":"c3","start":"2026-02-23T23:10:00Z","end":"2026-02-24T00:00:00Z","seconds":3000,"running":false}],"#
                + #""hours":[\#(hours.joined(separator: ","))]}"#)
    }

    @Test func appJSONOfAnEmptyDay() throws {
        let d = try Fixture.dataset()
        let json = ReportJSON.app(try Fixture.app(d, "Mail", "2026-02-24")).serialized
        #expect(json.hasPrefix(#"{"day":"2026-02-24","time_zone":"UTC","app":"Mail","category":"Productivity","seconds":0,"share":0,"sessions":[],"hours":[{"start":"2026-02-24T00:00:00Z","hour":0,"seconds":0},"#))
    }

    @Test func appJSONOnAFallBackDayUsesEachInstantsOffset() throws {
        let d = try Fixture.dataset(Fixture.fallBackJSON)
        let json = ReportJSON.app(try Fixture.app(d, "Night", "2026-11-01", zone: Fixture.newYork)).serialized
        #expect(json.contains(#""sessions":[{"id":"n1","start":"2026-11-01T00:30:00-04:00","end":"2026-11-01T01:30:00-05:00","seconds":7200,"running":false}]"#))
        #expect(json.contains(#"{"start":"2026-11-01T01:00:00-04:00","hour":1,"seconds":3600},{"start":"2026-11-01T01:00:00-05:00","hour":1,"seconds":1800}"#))
        #expect(json.hasPrefix(#"{"day":"2026-11-01","time_zone":"America/New_York","app":"Night","category":"Other","seconds":7200,"share":0.8,"#))
    }

    @Test func hourJSONHasTheSlotsOfTheHour() throws {
        let r = Fixture.report(try Fixture.dataset(), "2026-02-23")
        #expect(
            ReportJSON.hour(r, hour: 9, slots: Fixture.slots(r, hour: 9)).serialized
                == #"{"day":"2026-02-23","time_zone":"UTC","hour":9,"slots":[{"start":"2026-02-23T09:00:00Z","hour":9,"seconds":4800,"apps":{"Mail":2700,"Chrome":2100}}]}"#)
        let fallBack = Fixture.report(try Fixture.dataset(Fixture.fallBackJSON), "2026-11-01", zone: Fixture.newYork)
        #expect(
            ReportJSON.hour(fallBack, hour: 1, slots: Fixture.slots(fallBack, hour: 1)).serialized
                == #"{"day":"2026-11-01","time_zone":"America/New_York","hour":1,"slots":[{"start":"2026-11-01T01:00:00-04:00","hour":1,"seconds":3600,"apps":{"Night":3600}},"#
                + #"{"start":"2026-11-01T01:00:00-05:00","hour":1,"seconds":3600,"apps":{"Night":1800,"Radio":1800}}]}"#)
        let spring = Fixture.report(try Fixture.dataset(Fixture.fallBackJSON), "2026-03-08", zone: Fixture.newYork)
        #expect(ReportJSON.hour(spring, hour: 2, slots: []).serialized == #"{"day":"2026-03-08","time_zone":"America/New_York","hour":2,"slots":[]}"#)
    }

    @Test func checkJSONHasEveryKeyInOrder() throws {
        let q = DataQuality(history: try Fixture.dataset(), zone: .utc)
        #expect(
            ReportJSON.check(q).serialized
                == #"{"source":"fixture.json","sessions":5,"apps":2,"categories":2,"first_day":"2026-02-22","last_day":"2026-02-24","#
                + #""days_covered":3,"days_with_data":3,"app_time_seconds":14400,"screen_time_seconds":13200,"overlap_seconds":1200,"#
                + #""repaired_strings":0,"skipped":{"total":2,"reasons":{"missing_timestamp":0,"bad_timestamp":1,"end_not_after_start":0,"#
                + #""bad_field_type":0,"not_an_object":1}},"examples":{"bad_timestamp":[{"session_id":"s17","line":7,"source":"fixture.json"}],"#
                + #""not_an_object":[{"session_id":null,"line":8,"source":"fixture.json"}]},"#
                + #""sources":[{"source":"fixture.json","sessions":5,"skipped":{"total":2,"reasons":{"missing_timestamp":0,"bad_timestamp":1,"#
                + #""end_not_after_start":0,"bad_field_type":0,"not_an_object":1}},"examples":{"bad_timestamp":"#
                + #"[{"session_id":"s17","line":7,"source":"fixture.json"}],"not_an_object":[{"session_id":null,"line":8,"source":"fixture.json"}]}}],"#
                + #""running":[],"local_times":[]}"#)
    }

    @Test func checkJSONOfNothingLoaded() {
        #expect(
            ReportJSON.check(DataQuality(history: Dataset.empty, zone: .utc)).serialized
                == #"{"source":"","sessions":0,"apps":0,"categories":0,"first_day":null,"last_day":null,"days_covered":0,"#
                + #""days_with_data":0,"app_time_seconds":0,"screen_time_seconds":0,"overlap_seconds":0,"repaired_strings":0,"#
                + #""skipped":{"total":0,"reasons":{"missing_timestamp":0,"bad_timestamp":0,"end_not_after_start":0,"#
                + #""bad_field_type":0,"not_an_object":0}},"examples":{},"sources":[{"source":"","sessions":0,"skipped":{"total":0,"#
                + #""reasons":{"missing_timestamp":0,"bad_timestamp":0,"end_not_after_start":0,"bad_field_type":0,"not_an_object":0}},"#
                + #""examples":{}}],"running":[],"local_times":[]}"#)
    }

    @Test func jsonKeepsHostileNamesExactAndEscaped() throws {
        let d = try Fixture.dataset(Fixture.hostileJSON)
        let json = ReportJSON.app(try Fixture.app(d, Fixture.hostileApp, "2026-02-23")).serialized
        #expect(json.contains(#""app":"\u001b]0;pwned\u0007Evil\u202etxt","category":"Cat\u001b[31m\u2066x""#))
        #expect(json.contains(#"{"id":"\u001b[2Jid","start":"2026-02-23T08:00:00Z""#))
        #expect(!json.unicodeScalars.contains { TerminalText.needsEscape($0) })
        let check = ReportJSON.check(DataQuality(history: d, zone: .utc)).serialized
        #expect(check.contains(#""bad_timestamp":[{"session_id":"\u001b[31mbad\u009b","line":5,"source":"fixture.json"},"#))
    }
}
