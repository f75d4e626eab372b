// TextFormatTests.swift — docs/DATA.md §5's text formats, table-driven: durations (rounded to the minute, lists that add up), shares, dates, clock times, terminal safety.
import Foundation
import Testing
import TestSupport
import UsageCore
@testable import UsageRender

struct TextFormatTests {
    static let s: Int64 = 1_000_000

    @Test(arguments: [
        (Int64(0), "0m"),
        (1, "<1m"),
        (29 * s + 999_999, "<1m"),
        (30 * s, "1m"),
        (59 * s + 999_999, "1m"),
        (60 * s, "1m"),
        (45 * 60 * s + 29 * s, "45m"),
        (45 * 60 * s + 30 * s, "46m"),
        (59 * 60 * s + 30 * s, "1h"),
        (2 * 3600 * s, "2h"),
        (2 * 3600 * s + 29 * s, "2h"),
        (4 * 3600 * s + 15 * 60 * s + 30 * s, "4h 16m"),
        (126_855 * s, "35h 14m"),
        (-5 * s, "0m"),
    ] as [(Int64, String)])
    func durationsRoundToTheNearestMinuteAndWholeHoursAreJustHours(micros: Int64, expected: String) {
        #expect(TextFormat.duration(micros) == expected)
    }

    /// Largest remainder: rows floored, the minutes left over to the largest remainders; never
    /// to a row under half a minute, which stays `<1m` (the minute it makes with others stays
    /// with those `<1m` rows).
    @Test(arguments: [
        ([Int64](), [Int64]()),
        ([90 * s, 90 * s], [2, 1]),  // 3m in all: the first of equal remainders gets the minute
        ([36 * 60 * s + 30 * s, 46 * 60 * s + 30 * s], [37, 46]),  // 1h 23m: 83 minutes
        ([20 * s, 20 * s, 20 * s], [0, 0, 0]),  // 1m in all, but each is <1m
        ([40 * s, 40 * s], [1, 0]),  // 1m in all: both round to 1m alone, one takes it
        ([20 * s, 50 * s], [0, 1]),  // 1m 10 s: 1m in all, to the row of 50 s
        ([25 * s, 25 * s, 100 * s], [0, 0, 2]),  // 2m 30 s: 3m in all; the two <1m rows keep one
        ([10 * s, 10 * s], [0, 0]),  // <1m in all
        ([60 * s, 120 * s, 59 * s + 999_999], [1, 2, 1]),
        ([3599 * s, 1 * s], [60, 0]),  // 1h: the larger remainder (59 s) takes the minute
        ([0, 45 * s], [0, 1]),
    ] as [([Int64], [Int64])])
    func rowsOfAListAddUpToTheRoundedTotal(values: [Int64], expected: [Int64]) {
        let minutes = TextFormat.minutes(adding: values)
        #expect(minutes == expected)
        Self.expectAddingUp(minutes, values)
    }

    /// The rows add up to the rounded total, each `<1m` row counting as 0 or 1.
    static func expectAddingUp(_ minutes: [Int64], _ values: [Int64]) {
        let sum = minutes.reduce(0, +)
        let lessThanOne = zip(minutes, values).filter { $0 == 0 && $1 > 0 }.count
        let total = TextFormat.minutes(values.reduce(0, +))
        #expect(sum <= total && total <= sum + Int64(lessThanOne), "\(values) → \(minutes)")
    }

    @Test func rowsOfRandomListsAddUpAndAreNeverMoreThanAMinuteOff() {
        var rng = SplitMix64(seed: 0x7E57_F0A7)  // seeded: the same lists, and the same verdict, every run
        for _ in 0..<500 {
            let values = (0..<Int.random(in: 1...30, using: &rng)).map { _ in Int64.random(in: 0...(3 * 3600 * Self.s), using: &rng) }
            let minutes = TextFormat.minutes(adding: values)
            Self.expectAddingUp(minutes, values)
            for (m, v) in zip(minutes, values) {
                #expect(m == v / (60 * Self.s) || m == v / (60 * Self.s) + 1, "\(v) → \(m)")
                #expect(v >= 30 * Self.s || m == 0, "\(v) → \(m): under half a minute is <1m")
            }
        }
    }

    @Test func bugAWholeHourRead1h0m() throws {
        #expect(TextFormat.duration(3600 * Self.s) == "1h")
        #expect(TextFormat.duration(7 * 3600 * Self.s + 10 * Self.s) == "7h")
        // No rendering the golden files pin says it either.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
        // Every file of it, the saved pictures' in picture/ too.
        let files = (FileManager.default.subpaths(atPath: folder.path) ?? []).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(files.count > 100)
        #expect(files.contains("picture/week.svg"))
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.firstMatch(of: /\dh 0m/) == nil, "\(file)")
        }
    }

    @Test func bugSessionsOfOneAppDidNotAddUpToItsTotal() {
        // 07:58:40–08:35:10 and 17:54:50–18:41:20 (UTC): 36m 30s and 46m 30s, 1h 23m in all;
        // floored they read 36m + 46m under a total of 1h 23m.
        let day: Int64 = 1_771_804_800 * Self.s
        let seconds: [(Int64, Int64)] = [(28_720, 30_910), (64_490, 67_280)]
        let sessions: [(Int64, Int64)] = seconds.map { (day + $0.0 * Self.s, day + $0.1 * Self.s) }
        let minutes = TextFormat.minutes(adding: sessions.map { $1 - $0 })
        #expect(minutes.reduce(0, +) == 83)
        for ((start, end), m) in zip(sessions, minutes) {
            let shown = SessionClock.shown(start: start, end: end, minutes: m)
            #expect(shown.end - shown.start == m * 60 * Self.s)
            #expect(abs(shown.start - start) < 60 * Self.s && abs(shown.end - end) < 60 * Self.s)
        }
    }

    @Test func bugASessionsDurationDisagreedWithItsClockTimes() {
        // `07:58–08:35 36m`: 07:58:40–08:35:10 floored both ways reads as 37 minutes.
        let day: Int64 = 1_771_804_800 * Self.s
        let start = day + Int64(7 * 3600 + 58 * 60 + 40) * Self.s
        let end = day + Int64(8 * 3600 + 35 * 60 + 10) * Self.s
        for minutes in [Int64(36), 37] {
            let shown = SessionClock.shown(start: start, end: end, minutes: minutes)
            #expect((shown.end - shown.start) / (60 * Self.s) == minutes)
        }
        // 36 minutes: 07:59–08:35, the nearest pair that is 36 minutes apart.
        let shown = SessionClock.shown(start: start, end: end, minutes: 36)
        #expect(TextFormat.clock(shown.start, offsetSeconds: 0) == "07:59")
        #expect(TextFormat.clock(shown.end, offsetSeconds: 0) == "08:35")
        // Whole minutes stay as they are.
        let exact = SessionClock.shown(start: day, end: day + 60 * 60 * Self.s, minutes: 60)
        #expect(exact.start == day && exact.end == day + 60 * 60 * Self.s)
    }

    @Test(arguments: [
        (0.0, "0%"),
        (0.004, "0.4%"),
        (0.0042, "0.4%"),
        (0.0001, "<0.1%"),
        (0.0096, "1%"),
        (0.01, "1%"),
        (0.0149, "1%"),
        (0.015, "2%"),
        (0.19865, "20%"),
        (1.0, "100%"),
    ])
    func sharesAreWholePercentOrOneDecimalBelowOne(fraction: Double, expected: String) {
        #expect(TextFormat.share(fraction) == expected)
    }

    @Test(arguments: [
        ("2026-02-23", "Monday, February 23, 2026"),
        ("2026-03-08", "Sunday, March 8, 2026"),
        ("2024-12-31", "Tuesday, December 31, 2024"),
    ])
    func dateHeaderIsEnglish(date: String, expected: String) {
        #expect(TextFormat.longDate(LocalDate(iso: date)!) == expected)
    }

    @Test func totalsLineShowsScreenTimeOnlyWhenItDiffers() {
        #expect(TextFormat.totals(total: 126_855 * Self.s, screenTime: 61_155 * Self.s) == "35h 14m total · 16h 59m screen time")
        #expect(TextFormat.totals(total: 3600 * Self.s, screenTime: 3600 * Self.s) == "1h total")
    }

    @Test(arguments: [
        (Int64(1_771_804_800) * 1_000_000, 0, "2026-02-23T00:00:00Z"),
        (Int64(1_772_953_200) * 1_000_000, -4 * 3600, "2026-03-08T03:00:00-04:00"),
        (Int64(1_771_804_800) * 1_000_000 - 19_800_000_000 + 5 * 3_600_000_000, 19_800, "2026-02-23T05:00:00+05:30"),
    ])
    func slotStartsAreLocalTimeWithOffset(t: Int64, offset: Int, expected: String) {
        #expect(TextFormat.localTimestamp(t, offsetSeconds: offset) == expected)
    }
}

struct TerminalSafetyTests {
    @Test(arguments: [
        ("Safari", "Safari"),
        ("\u{1B}]0;pwned\u{07}", "\\e]0;pwned\\u{7}"),
        ("\u{1B}[31mRed", "\\e[31mRed"),
        ("Tab\tName", "Tab\\tName"),
        ("line\nbreak\r", "line\\nbreak\\r"),
        ("evil\u{202E}txt", "evil\\u{202E}txt"),
        ("bug: line\u{2028}separator", "bug: line\\u{2028}separator"),  // U+2028/9 were passed through raw
        ("\u{2066}iso\u{2069}", "\\u{2066}iso\\u{2069}"),
        ("nul\u{0}", "nul\\u{0}"),
        ("del\u{7F}c1\u{9B}", "del\\u{7F}c1\\u{9B}"),
        ("微信 🎵 Café", "微信 🎵 Café"),
    ])
    func controlAndBidiCharactersBecomeVisibleEscapes(raw: String, expected: String) {
        let safe = TerminalText.sanitize(raw)
        #expect(safe == expected)
        #expect(!safe.unicodeScalars.contains { TerminalText.needsEscape($0) })
    }

    // Bug (fixed): the argument parser's errors were sanitised line by line, so a newline inside
    // an echoed argument (`--day $'x\ny'`) started a line of its own, raw (docs/DATA.md §6).
    @Test func bugArgumentParserErrorsSplitAnArgumentAtItsNewline() {
        let argument = "2026\u{1B}]0;x\u{07}\nforged\u{202E}"
        let message = "error: '\(argument)' is not a day\nUsage: usage-shell [--day <day>]"
        let safe = TerminalText.sanitize(lines: message, echoing: ["--day", argument])
        #expect(safe == "error: '2026\\e]0;x\\u{7}\\nforged\\u{202E}' is not a day\nUsage: usage-shell [--day <day>]")
        // Controls outside any argument are escaped too, and the message's own lines stay, even
        // when an argument is a bare newline.
        #expect(TerminalText.sanitize(lines: "a\u{1B}b\nc", echoing: []) == "a\\eb\nc")
        #expect(TerminalText.sanitize(lines: "error: '\n' is invalid\nUsage: x", echoing: ["\n"]) == "error: '\\n' is invalid\nUsage: x")
    }

    @Test(arguments: [
        ("Safari", 6), ("微信", 4), ("🎵 Tunes", 8), ("Café", 4), ("e\u{301}", 1), ("Ｆｕｌｌ", 8),
        ("☺\u{FE0F}", 2), ("👨\u{200D}👩\u{200D}👧", 2), ("🇫🇷", 2), ("☺", 1),
    ])
    func widthsAreCountedInCells(text: String, cells: Int) {
        #expect(TerminalText.cells(text) == cells)
    }

    @Test func truncationNeverSplitsAWideCharacter() {
        #expect(TerminalText.fit("微信微信", width: 4) == "微…")
        #expect(TerminalText.fit("微信微信", width: 5) == "微信…")
        #expect(TerminalText.cells(TerminalText.pad("微信微信", width: 6)) == 6)
        #expect(TerminalText.fit("Safari", width: 6) == "Safari")
    }

    @Test func bugA200MBNameTookMinutesToShow() {
        // Every renderer sanitised and measured whole names: now at most `longestShown` scalars are.
        let long = String(repeating: "a\u{1B}", count: 3000)
        let safe = TerminalText.sanitize(long)
        #expect(safe.hasSuffix("…"))
        #expect(safe.unicodeScalars.filter { $0 == "a" }.count == TerminalText.longestShown / 2)
        #expect(!safe.unicodeScalars.contains { TerminalText.needsEscape($0) })
        #expect(TerminalText.sanitize(String(repeating: "b", count: TerminalText.longestShown)).count == TerminalText.longestShown)
        #expect(TerminalText.fit(String(repeating: "c", count: 50_000_000), width: 10) == "ccccccccc…")
    }
}

struct JSONTextTests {
    @Test(arguments: [
        (Int64(25_200_000_000), "25200"),
        (12_500_000, "12.5"),
        (1, "0.000001"),
        (0, "0"),
        (1_250_001, "1.250001"),
    ] as [(Int64, String)])
    func secondsAreExactDecimals(micros: Int64, expected: String) {
        #expect(JSONText.seconds(micros).serialized == expected)
    }

    @Test func stringsEscapeWhatJSONRequiresAndTerminalControls() {
        let text = JSONText.string("a\"b\\c\n\u{1B}[31m\u{202E}é微").serialized
        #expect(text == #""a\"b\\c\n\u001b[31m\u202eé微""#)
    }

    @Test func objectsKeepTheirKeyOrder() {
        let v = JSONText.object([("z", .int(1)), ("a", .array([.null, .bool(true), .double(0.25)]))])
        #expect(v.serialized == #"{"z":1,"a":[null,true,0.25]}"#)
    }
}
