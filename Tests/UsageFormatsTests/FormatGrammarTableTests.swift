// FormatGrammarTableTests.swift — each reader's own rules from docs/DATA.md as accept/refuse tables: CSV duration cells (§9.2), ActivityWatch events and export shapes (§9.3), Timewarrior intervals (§9.4); each case once per reader that takes it.
import Testing
@testable import UsageCore
@testable import UsageFormats

struct FormatGrammarTableTests {
    // The readers are called as GrammarTableTests calls them.

    static let nine = RefRFC3339.parse("2026-02-23T09:00:00Z")!

    /// The one skip reason of a load that skipped one row (nil when it skipped none).
    static func skipped(_ d: Dataset) -> SkipReason? {
        SkipReason.allCases.first { d.skipped.count($0) > 0 }
    }

    // MARK: CSV duration cells (§9.2)

    /// Seconds, a clock `H:MM:SS` (hours past 24, a fraction), units largest first, each once,
    /// any case and spaces; truncated to the microsecond.
    @Test(arguments: [
        ("3900", 3_900_000_000), ("12.5", 12_500_000), ("0.0000019", 1), (" 600 ", 600_000_000),
        ("1:05:00", 3_900_000_000), ("01:05:00", 3_900_000_000), ("26:00:00.5", 93_600_500_000),
        ("1h 5m", 3_900_000_000), ("1h5m30s", 3_930_000_000), ("90m", 5_400_000_000), ("2.5h", 9_000_000_000),
        ("45 min", 2_700_000_000), ("1 hour 5 minutes", 3_900_000_000), ("1H 5M", 3_900_000_000), ("2 hrs 1 sec", 7_201_000_000),
        ("30 secs", 30_000_000), ("100000h", 360_000_000_000_000),
    ] as [(String, Int64)])
    func aDurationCellGivesItsLength(cell: String, micros: Int64) throws {
        let d = try GrammarTableTests.csv("App,Start,Duration\nMail,2026-02-23T09:00:00Z,\"\(cell)\"\n")
        #expect(d.sessions.count == 1, "\(cell)")
        if d.sessions.count == 1 { #expect(d.sessions[0].end - d.sessions[0].start == micros, "\(cell)") }
    }

    /// Two-part clocks, negatives, units out of order or twice, unknown units, more than 100,000
    /// hours: the end cannot be known, so the row is a `bad_timestamp`.
    @Test(arguments: [
        "12:34", "-5", "-1:00:00", "5m 1h", "1h 1h", "1 day", "x", "1:5:00", "1:05:60", "1:60:00", "1.", "1e3", "100001h",
        "360000001", "1,5", "h", "1h -5m", "1234567:00:00",
    ])
    func aMalformedDurationCellIsABadTimestamp(cell: String) throws {
        let d = try GrammarTableTests.csv("App,Start,Duration\nMail,2026-02-23T09:00:00Z,\"\(cell)\"\n")
        #expect(d.sessions.count == 0, "\(cell)")
        #expect(Self.skipped(d) == .badTimestamp, "\(cell)")
    }

    /// A zero duration ends where it starts; an empty end cell falls back on the duration.
    @Test func aZeroDurationEndsNotAfterItsStartAndAnEmptyEndUsesTheDuration() throws {
        #expect(Self.skipped(try GrammarTableTests.csv("App,Start,Duration\nMail,2026-02-23T09:00:00Z,0\n")) == .endNotAfterStart)
        let d = try GrammarTableTests.csv("App,Start,End,Duration\nMail,2026-02-23T09:00:00Z,,60\nMail,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z,60\n")
        #expect(d.sessions.count == 2)
        #expect(d.sessions[0].end - d.sessions[0].start == 60_000_000)
        #expect(d.sessions[1].end - d.sessions[1].start == 1_800_000_000)
    }

    // MARK: ActivityWatch (§9.3)

    static func export(_ event: String, type: String = "currentwindow") -> String {
        "{\"buckets\": {\"w\": {\"type\": \"\(type)\", \"hostname\": \"h\", \"events\": [\(event)]}}}"
    }

    /// An event becomes a session of `data.app` from `timestamp` to `timestamp + duration`.
    @Test(arguments: [
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": 600, "data": {"app": "Code"}}"#, 600_000_000, "Code"),
        (#"{"timestamp": "2026-02-23T10:00:00+01:00", "duration": 600.5, "data": {"app": "Code"}}"#, 600_500_000, "Code"),
        (#"{"timestamp": "2026-02-23T04:00:00-05:00", "duration": 1e2, "data": {"app": " Code "}}"#, 100_000_000, "Code"),
        (#"{"timestamp": "2026-02-23T09:00:00.000000+00:00", "duration": 999999999, "data": {"app": null}}"#, 999_999_999_000_000, "(unknown)"),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": 0.000002, "data": {}}"#, 2, "(unknown)"),
        (#"{"duration": 60, "timestamp": "2026-02-23t09:00:00z", "data": {"app": "A", "title": "x"}, "id": 7}"#, 60_000_000, "A"),
    ] as [(String, Int64, String)])
    func anActivityWatchEventIsASession(event: String, micros: Int64, app: String) throws {
        let d = try GrammarTableTests.activityWatch(Self.export(event))
        #expect(d.sessions.count == 1)
        #expect(d.sessions[0].start == Self.nine)
        #expect(d.sessions[0].end - d.sessions[0].start == micros)
        #expect(d.apps[Int(d.sessions[0].app)] == app)
    }

    /// An event that is no session, and the reason it is counted under (nil: dropped uncounted).
    @Test(arguments: [
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": 0, "data": {"app": "A"}}"#, nil),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": -0.0, "data": {"app": "A"}}"#, nil),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": -5, "data": {"app": "A"}}"#, .endNotAfterStart),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": "5", "data": {"app": "A"}}"#, .badFieldType),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": true, "data": {"app": "A"}}"#, .badFieldType),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": 1e9, "data": {"app": "A"}}"#, .badFieldType),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": 42}}"#, .badFieldType),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": ["A"]}}"#, .badFieldType),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": null, "data": {"app": "A"}}"#, .missingTimestamp),
        (#"{"timestamp": "2026-02-23T09:00:00Z", "data": {"app": "A"}}"#, .missingTimestamp),
        (#"{"duration": 60, "data": {"app": "A"}}"#, .missingTimestamp),
        (#"{"timestamp": "2026-02-23T09:00:00", "duration": 60, "data": {"app": "A"}}"#, .badTimestamp),
        (#"{"timestamp": "2026-02-23T23:59:60Z", "duration": 60, "data": {"app": "A"}}"#, .badTimestamp),
        (#"{"timestamp": 1771837200, "duration": 60, "data": {"app": "A"}}"#, .badTimestamp),
        (#""junk""#, .notAnObject),
        ("[1]", .notAnObject),
    ] as [(String, SkipReason?)])
    func anActivityWatchEventThatIsNoSession(event: String, reason: SkipReason?) throws {
        let d = try GrammarTableTests.activityWatch(Self.export(event))
        #expect(d.sessions.count == 0)
        #expect(Self.skipped(d) == reason)
        #expect(d.skipped.total == (reason == nil ? 0 : 1))
    }

    /// Valid JSON of the wrong shape is refused as a whole; other buckets and unknown fields are not read.
    @Test(arguments: [
        ("{}", false), (#"{"buckets": []}"#, false), (#"{"buckets": null}"#, false), ("[]", false),
        (#"{"buckets": {"w": []}}"#, false), (#"{"buckets": {"w": {"type": 1}}}"#, false),
        (#"{"buckets": {"w": {"hostname": {}}}}"#, false), (#"{"buckets": {"w": {"events": {}}}}"#, false),
        (#"{"buckets": {}}"#, true), (#"{"buckets": {"w": {"type": null, "events": null}}}"#, true),
        (#"{"buckets": {"w": {"type": "web.tab.current", "events": [1]}}, "x": [1, {"y": null}]}"#, true),
    ] as [(String, Bool)])
    func anActivityWatchExportOfTheWrongShapeIsRefused(text: String, accepted: Bool) {
        let result = Result { () throws(IngestError) in try GrammarTableTests.activityWatch(text) }
        switch result {
        case .success(let d): #expect(accepted && d.sessions.count == 0 && d.skipped.total == 0, "\(text)")
        case .failure(let e):
            guard case .malformed(let format, _) = e else { return #expect(Bool(false), "\(text): \(e)") }
            #expect(!accepted && format == "ActivityWatch export", "\(text)")
        }
    }

    /// Where the host has an AFK bucket, only the parts of window events inside `not-afk` time count.
    @Test func anActivityWatchWindowEventIsCutToItsHostsNotAFKTime() throws {
        let text = #"{"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 3600, "data": {"app": "A"}}]}, "a": {"type": "afkstatus", "hostname": "h", "events": [{"timestamp": "2026-02-23T09:10:00Z", "duration": 600, "data": {"status": "not-afk"}}, {"timestamp": "2026-02-23T09:30:00Z", "duration": 600, "data": {"status": "afk"}}, {"timestamp": "2026-02-23T09:50:00Z", "duration": 1200, "data": {"status": "not-afk"}}]}}}"#
        let d = try GrammarTableTests.activityWatch(text)
        #expect(d.sessions.indices.map { (d.sessions[$0].start - Self.nine) / 60_000_000 } == [10, 50])
        #expect(d.sessions.indices.map { (d.sessions[$0].end - Self.nine) / 60_000_000 } == [20, 60])
    }

    // MARK: Bugs the strict differential tests found

    /// NDJSON is one JSON text a line (§9.1), but the reader read a line as the elements of
    /// `[` + line + `]`, so `{…}, {…}` on one line was two sessions and `{…},` one: found by
    /// `ReaderDifferentialTests` against the tests' own reader. The line is now refused where it
    /// goes on after its value.
    @Test(arguments: [
        (#"{"x": 1}, {"x": 2}"#, 9), (#"{"x": 1},"#, 9), (#"{"x": 1} {"x": 2}"#, 10), (#"1, 2"#, 2), (#"{"x": 1} x"#, 10),
    ] as [(String, Int)])
    func bugNDJSONLineOfSeveralValuesWasReadAsSeveralRows(line: String, column: Int) {
        let text = "{\(Self.sessionFields)}\n\(line)\n"
        #expect(throws: IngestError.syntax(line: 2, column: column, message: "unexpected data after the end of the JSON value")) {
            let bytes = Array(text.utf8)
            return try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.decodeNDJSON(b, source: "t") }
        }
    }

    static let sessionFields = #""session_id": "s1", "app_name": "Mail", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z""#

    /// docs/DATA.md §1 counts a row under the first reason in its order — a missing time, a bad
    /// one, then a field of the wrong type — but the Timewarrior reader counted tags that are not
    /// strings first, so an interval with no end (and no clock) or a bad start and `"tags": [1]`
    /// was a `bad_field_type`: found by `ReaderDifferentialTests` against the tests' own reader.
    @Test func bugTimewarriorWrongTagsWereCountedBeforeAMissingOrBadTime() throws {
        let d = try GrammarTableTests.timewarrior(#"[{"id": 1, "start": "20260223T090000Z", "tags": [1]}, {"id": 2, "start": "x", "end": "20260223T100000Z", "tags": "fun"}, {"id": 3, "start": "20260223T090000Z", "end": "20260223T100000Z", "tags": [null]}]"#)
        #expect(d.skipped.count(.missingTimestamp) == 1)
        #expect(d.skipped.count(.badTimestamp) == 1)
        #expect(d.skipped.count(.badFieldType) == 1)
        #expect(d.skipped.examples[.missingTimestamp]?.map(\.sessionID) == ["1"])
        #expect(d.skipped.examples[.badTimestamp]?.map(\.sessionID) == ["2"])
        #expect(d.skipped.examples[.badFieldType]?.map(\.sessionID) == ["3"])
    }

    /// `text` read as NDJSON fails with this syntax error, where the reader says.
    private static func expectNDJSONRefused(_ text: String, line: Int, column: Int, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: IngestError.syntax(line: line, column: column, message: message), "\(text.debugDescription)", sourceLocation: sourceLocation) {
            try GrammarTableTests.ndjson(text)
        }
    }

    /// Columns count the characters of the file's own line (§9.1), and every other reader counts
    /// a byte order mark as line 1's first character; the NDJSON reader left it out, so an error
    /// on line 1 of a file with one was a column short. Found by the ndjson fuzz target against
    /// `RefNDJSON`; the input is in Fuzz/corpus/ndjson.
    @Test(arguments: [
        ("\u{FEFF}{\"app_name\": \"a\",}\n", 1, 19, "expected a string key in the object"),
        ("{\"app_name\": \"a\",}\n", 1, 18, "expected a string key in the object"),
        ("\u{FEFF}{\"a\": 1} x\n", 1, 11, "unexpected data after the end of the JSON value"),
        ("\u{FEFF}{\"a\": \n", 1, 8, "the line ends before its JSON value does"),
        ("\u{FEFF}{\"a\": \"\u{1}\"}", 1, 9, "control character U+0001 inside a string"),
        ("\u{FEFF}{\"a\": 1}\n{\"a\": 1} x\n", 2, 10, "unexpected data after the end of the JSON value"),
    ] as [(String, Int, Int, String)])
    func bugNDJSONFirstLineColumnsLeftOutTheByteOrderMark(text: String, line: Int, column: Int, message: String) {
        Self.expectNDJSONRefused(text, line: line, column: column, message: message)
    }

    /// A line break inside an NDJSON value is "the line ends before its JSON value does", at the
    /// line's end (§9.1), but a string whose last byte on the line was an escape's backslash was
    /// an invalid escape at the backslash, one column early. Found by the ndjson fuzz target
    /// against `RefNDJSON`; the input is in Fuzz/corpus/ndjson.
    @Test(arguments: [
        ("{\"app_name\": \"a\\\n", 1, 17, "the line ends before its JSON value does"),
        ("{\"app_name\": \"a\\", 1, 17, "the line ends before its JSON value does"),
        ("{\"app_name\": \"a\\x\"}\n", 1, 16, "invalid escape '\\x' in a string"),
        ("{\"app_name\": \"a\"} \\\n", 1, 19, "unexpected data after the end of the JSON value"),
    ] as [(String, Int, Int, String)])
    func bugNDJSONEscapeCutByTheLineEndWasAnInvalidEscape(text: String, line: Int, column: Int, message: String) {
        Self.expectNDJSONRefused(text, line: line, column: column, message: message)
    }

    /// §9.3 takes any number below 10⁹ seconds as a duration, but the reader asked Foundation's
    /// JSONDecoder for the numbers its fast path leaves, which refuses one too small for a
    /// Double: `1e-999` (a zero-length event, dropped) was a `bad_field_type`. Found by the
    /// activitywatch fuzz target against `RefActivityWatch`; the input is in Fuzz/corpus/activitywatch.
    @Test(arguments: [
        ("1e-999", nil, nil), ("-1e-999", nil, nil), ("0e5", nil, nil), ("2.5e1", 25, nil), ("1e400", nil, .badFieldType),
        ("1e9", nil, .badFieldType), ("-1e-3", nil, .endNotAfterStart),
    ] as [(String, Int64?, SkipReason?)])
    func bugActivityWatchDurationTooSmallForADoubleWasABadFieldType(duration: String, seconds: Int64?, reason: SkipReason?) throws {
        let text = #"{"buckets": {"w": {"type": "currentwindow", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": "#
            + duration + #", "data": {"app": "A"}}]}}}"#
        let d = try GrammarTableTests.activityWatch(text)
        #expect(d.sessions.indices.map { (d.sessions[$0].end - d.sessions[$0].start) / 1_000_000 } == (seconds.map { [$0] } ?? []), "\(duration)")
        #expect(Self.skipped(d) == reason, "\(duration)")
        #expect(d.skipped.total == (reason == nil ? 0 : 1), "\(duration)")
    }

    // MARK: Timewarrior (§9.4)

    /// An interval is a session of its tag set, from compact UTC times or RFC 3339 ones.
    @Test(arguments: [
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": ["gaming", "fun"]}"#, "fun, gaming"),
        (#"{"start": "2026-02-23T10:00:00+01:00", "end": "20260223T100000Z", "tags": ["Beta", "alpha"]}"#, "Beta, alpha"),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": [" work ", "work", ""]}"#, "work"),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": []}"#, "(unknown)"),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": null}"#, "(unknown)"),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z"}"#, "(unknown)"),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": ["é", "e\u0301"]}"#, "e\u{301}, é"),
    ] as [(String, String)])
    func aTimewarriorIntervalIsASessionOfItsTagSet(interval: String, app: String) throws {
        let d = try GrammarTableTests.timewarrior("[\(interval)]")
        #expect(d.sessions.count == 1)
        #expect(d.sessions[0].start == Self.nine)
        #expect(d.sessions[0].end - d.sessions[0].start == 3_600_000_000)
        #expect(d.apps[Int(d.sessions[0].app)].unicodeScalars.elementsEqual(app.unicodeScalars), "\(d.apps)")
    }

    /// An interval that is no session, and the reason, without a clock and with one.
    @Test(arguments: [
        (#"{"start": "20260223T090000Z", "tags": ["a"]}"#, SkipReason.missingTimestamp, nil as SkipReason?),
        (#"{"start": "20260223T090000Z", "end": null}"#, .missingTimestamp, nil),
        (#"{"start": "20260223T130000Z"}"#, .missingTimestamp, .endNotAfterStart),
        (#"{"end": "20260223T100000Z"}"#, .missingTimestamp, .missingTimestamp),
        (#"{"start": "20260223T0900Z", "end": "20260223T100000Z"}"#, .badTimestamp, .badTimestamp),
        (#"{"start": "20260223t090000z", "end": "20260223T100000Z"}"#, .badTimestamp, .badTimestamp),
        (#"{"start": "20260230T090000Z", "end": "20260223T100000Z"}"#, .badTimestamp, .badTimestamp),
        (#"{"start": 1, "end": "20260223T100000Z"}"#, .badTimestamp, .badTimestamp),
        (#"{"start": "20260223T100000Z", "end": "20260223T100000Z"}"#, .endNotAfterStart, .endNotAfterStart),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": [1]}"#, .badFieldType, .badFieldType),
        (#"{"start": "20260223T090000Z", "end": "20260223T100000Z", "tags": "fun"}"#, .badFieldType, .badFieldType),
        (#"{"start": "20260223T090000Z", "tags": [null]}"#, .missingTimestamp, .badFieldType),
        ("1", .notAnObject, .notAnObject),
        (#"["x"]"#, .notAnObject, .notAnObject),
    ] as [(String, SkipReason, SkipReason?)])
    func aTimewarriorIntervalThatIsNoSession(interval: String, reason: SkipReason, withClock: SkipReason?) throws {
        let d = try GrammarTableTests.timewarrior("[\(interval)]")
        #expect(d.sessions.count == 0)
        #expect(Self.skipped(d) == reason)
        let noon = RefRFC3339.parse("2026-02-23T12:00:00Z")!
        let clocked = try GrammarTableTests.timewarrior("[\(interval)]", now: noon)
        #expect(Self.skipped(clocked) == withClock)
        if withClock == nil {
            #expect(clocked.sessions.count == 1)
            #expect(clocked.sessions[0].running)
            #expect(clocked.sessions[0].end == noon)
        }
    }

    /// The export is an array: anything else is refused as a whole.
    @Test(arguments: ["{}", "1", "\"x\"", "null"])
    func aTimewarriorExportThatIsNoArrayIsRefused(text: String) {
        #expect(throws: IngestError.malformed(format: "Timewarrior export", problem: "the top level is not what it should be")) {
            try GrammarTableTests.timewarrior(text)
        }
    }
}
