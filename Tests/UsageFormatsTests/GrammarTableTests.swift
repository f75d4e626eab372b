// GrammarTableTests.swift — the readers' grammars as accept/refuse tables (RFC 8259 numbers and strings, RFC 3339 offsets, RFC 4180 quoting), each case once per reader that takes it (the sessions JSON, NDJSON, ActivityWatch, Timewarrior, CSV).
import Testing
@testable import UsageFormats
@testable import UsageCore

struct GrammarTableTests {
    static let fields = "\"session_id\": \"s1\", \"app_name\": \"Mail\", \"start_timestamp\": \"2026-02-23T09:00:00Z\", \"end_timestamp\": \"2026-02-23T10:00:00Z\""

    static func sessionsJSON(_ text: String) throws(IngestError) -> Dataset { try SessionsJSON.decode(text, source: "t") }
    static func ndjson(_ text: String) throws(IngestError) -> Dataset {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.decodeNDJSON(b, source: "t") }
    }
    static func csv(_ text: String) throws(IngestError) -> Dataset {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { b throws(IngestError) in
            try CSVFormat.decode(b, source: "t", options: ReadOptions(), cancellation: nil, chunking: .standard)
        }
    }

    static func activityWatch(_ text: String) throws(IngestError) -> Dataset {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { b throws(IngestError) in try ActivityWatchRead.read(b, document: .export).dataset(source: "t") }
    }
    static func timewarrior(_ text: String, now: Micros? = nil) throws(IngestError) -> Dataset {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { b throws(IngestError) in try TimewarriorJSON.decode(b, source: "t", now: now) }
    }
    /// An export of one window event with `data.app` and `timestamp` as given, and `extra` members.
    static func awEvent(app: String = "\"Mail\"", timestamp: String = "2026-02-23T09:00:00Z", extra: String = "") -> String {
        "{\"buckets\": {\"w\": {\"type\": \"currentwindow\", \"events\": [{\(extra)\"timestamp\": \"\(timestamp)\", \"duration\": 60, \"data\": {\"app\": \(app)}}]}}}"
    }
    /// An export of one interval with one tag and `start` as given, and `extra` members.
    static func interval(tag: String = "\"Mail\"", start: String = "20260223T090000Z", extra: String = "") -> String {
        "[{\(extra)\"start\": \"\(start)\", \"end\": \"20260224T000000Z\", \"tags\": [\(tag)]}]"
    }

    // RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
    @Test(arguments: ["0", "-0", "7", "-12", "10", "1.5", "-0.25", "0.0", "1e5", "1E5", "1e+5", "1e-5", "1.5E-3", "0e0", "123456789012345678901234567890"])
    func aValidNumberIsSkippedByEveryJSONReader(number: String) throws {
        let json = try Self.sessionsJSON("[\(number), {\(Self.fields), \"x\": \(number)}]")
        #expect(json.sessions.count == 1)
        #expect(json.apps == ["Mail"])
        let nd = try Self.ndjson("{\"x\": \(number), \(Self.fields)}\n")
        #expect(nd.sessions.count == 1)
        #expect(try Self.activityWatch(Self.awEvent(extra: "\"x\": \(number), ")).sessions.count == 1)
        #expect(try Self.timewarrior(Self.interval(extra: "\"x\": \(number), ")).sessions.count == 1)
    }

    /// The text, then the column (of the `[…]` sessions JSON) and the message where it is refused.
    @Test(arguments: [
        ("1.", 4, "expected a digit after '.'"),  // bug: `1.` was once accepted
        ("1.e5", 4, "expected a digit after '.'"),
        ("-", 3, "expected a digit"),
        ("-.5", 3, "expected a digit"),
        ("1e", 4, "expected a digit in the exponent"),
        ("1e+", 5, "expected a digit in the exponent"),
        ("1E-", 5, "expected a digit in the exponent"),
        ("01", 3, "expected ',' or ']' after an array element"),
        ("-01", 4, "expected ',' or ']' after an array element"),
        (".5", 2, "expected a value"),
        ("+1", 2, "expected a value"),
        ("NaN", 2, "expected a value"),
        ("Infinity", 2, "expected a value"),
        ("0x1", 3, "expected ',' or ']' after an array element"),
    ] as [(String, Int, String)])
    func anInvalidNumberIsRefusedWhereItGoesWrong(number: String, column: Int, message: String) {
        #expect(throws: IngestError.syntax(line: 1, column: column, message: message)) { try Self.sessionsJSON("[\(number)]") }
        // NDJSON: the same number as a member's value (`{"x": N}`, the value at column 7), refused with the same words.
        let inObject = message.replacingOccurrences(of: "',' or ']' after an array element", with: "',' or '}' after an object member")
        #expect(throws: IngestError.syntax(line: 1, column: column + 5, message: inObject)) { try Self.ndjson("{\"x\": \(number)}\n") }
        // ActivityWatch: a member of the top object after `buckets` (its value at column 22).
        #expect(throws: IngestError.syntax(line: 1, column: column + 20, message: inObject)) {
            try Self.activityWatch("{\"buckets\": {}, \"x\": \(number)}")
        }
        // Timewarrior: a member of an interval (its value at column 8).
        #expect(throws: IngestError.syntax(line: 1, column: column + 6, message: inObject)) { try Self.timewarrior("[{\"x\": \(number)}]") }
    }

    // RFC 8259 §7: strings — escapes, \u with surrogate pairs, no raw control characters.
    @Test(arguments: [
        (#""Mail""#, "Mail"),
        (#""a\"b""#, "a\"b"),
        (#""a\\b""#, "a\\b"),
        (#""a\/b""#, "a/b"),
        (#""a\u0041""#, "aA"),
        (#""\u00e9t\u00C9""#, "étÉ"),
        (#""\ud83d\ude00""#, "😀"),
        ("\"日本\"", "日本"),
    ] as [(String, String)])
    func aValidStringKeepsItsExactValue(literal: String, value: String) throws {
        let row = "{\"session_id\": \"s1\", \"app_name\": \(literal), \"start_timestamp\": \"2026-02-23T09:00:00Z\", \"end_timestamp\": \"2026-02-23T10:00:00Z\"}"
        #expect(try Self.sessionsJSON("[\(row)]").apps == [value])
        #expect(try Self.ndjson("\(row)\n").apps == [value])
        #expect(try Self.activityWatch(Self.awEvent(app: literal)).apps == [value])
        #expect(try Self.timewarrior(Self.interval(tag: literal)).apps == [value])
    }

    @Test(arguments: [
        (#"["a\x"]"#, 4, #"invalid escape '\x' in a string"#),
        (#"["a\u12"]"#, 8, #"expected four hex digits after '\u'"#),
        (#"["a\u12G4"]"#, 8, #"expected four hex digits after '\u'"#),
        ("[\"a\u{1}b\"]", 4, "control character U+0001 inside a string"),
        ("[\"a\tb\"]", 4, "control character U+0009 inside a string"),
        ("[\"ab]", 6, "unterminated string"),
    ] as [(String, Int, String)])
    func anInvalidStringIsRefusedWhereItGoesWrong(text: String, column: Int, message: String) {
        #expect(throws: IngestError.syntax(line: 1, column: column, message: message)) { try Self.sessionsJSON(text) }
        // The same string as a Timewarrior tag (`[{"tags": […]}]`, 10 columns further; a string
        // the input ends inside ends further on, at the input's end).
        if message != "unterminated string" {
            #expect(throws: IngestError.syntax(line: 1, column: column + 10, message: message)) { try Self.timewarrior("[{\"tags\": \(text)}]") }
        }
    }

    // RFC 3339 §5.6 as every reader of instants takes it: both offset signs, Z, fractions; no leap second.
    @Test(arguments: [
        ("2026-02-23T09:00:00Z", "2026-02-23T09:00:00Z"),
        ("2026-02-23T09:00:00z", "2026-02-23T09:00:00Z"),
        ("2026-02-23T10:30:00+01:30", "2026-02-23T09:00:00Z"),
        ("2026-02-23T04:00:00-05:00", "2026-02-23T09:00:00Z"),
        ("2026-02-23T09:00:00+00:00", "2026-02-23T09:00:00Z"),
        ("2026-02-23T09:00:00-00:00", "2026-02-23T09:00:00Z"),
        ("2026-02-23T09:00:00.25Z", "2026-02-23T09:00:00.25Z"),
        ("2026-02-23T09:00:00.000001+00:00", "2026-02-23T09:00:00.000001Z"),
    ] as [(String, String)])
    func anRFC3339InstantReadsTheSameInEveryReader(text: String, utc: String) throws {
        let expected = try #require(Self.instant(utc))
        let json = try Self.sessionsJSON("[{\"session_id\": \"s1\", \"app_name\": \"Mail\", \"start_timestamp\": \"\(text)\", \"end_timestamp\": \"2026-02-24T00:00:00Z\"}]")
        // A missing session ends the case here rather than indexing past the end (a crash ends
        // the whole run, and every later failure goes unreported).
        try #require(json.sessions.count == 1)
        #expect(json.sessions[0].start == expected)
        let nd = try Self.ndjson("{\"session_id\": \"s1\", \"app_name\": \"Mail\", \"start_timestamp\": \"\(text)\", \"end_timestamp\": \"2026-02-24T00:00:00Z\"}\n")
        try #require(nd.sessions.count == 1)
        #expect(nd.sessions[0].start == expected)
        let csv = try Self.csv("app_name,start_timestamp,end_timestamp\r\nMail,\(text),2026-02-24T00:00:00Z\r\n")
        try #require(csv.sessions.count == 1)
        #expect(csv.sessions[0].start == expected)
        let aw = try Self.activityWatch(Self.awEvent(timestamp: text))
        #expect(aw.sessions.count == 1 && aw.sessions[0].start == expected)
        let timew = try Self.timewarrior(Self.interval(start: text))
        #expect(timew.sessions.count == 1 && timew.sessions[0].start == expected)
    }

    @Test(arguments: [
        "2026-02-23T23:59:60Z",  // a leap second
        "2026-06-30T23:59:60+00:00",
        "2026-02-23T09:00:00+24:00",
        "2026-02-23T09:00:00+01",
        "2026-02-23T09:00:00.Z",
        "2026-02-23T09:00:00",
    ])
    func aMalformedInstantIsNoSessionInEveryReader(text: String) throws {
        let row = "{\"session_id\": \"s1\", \"app_name\": \"Mail\", \"start_timestamp\": \"\(text)\", \"end_timestamp\": \"2026-02-24T00:00:00Z\"}"
        #expect(try Self.sessionsJSON("[\(row)]").sessions.count == 0)
        #expect(try Self.ndjson("\(row)\n").sessions.count == 0)
        #expect(try Self.activityWatch(Self.awEvent(timestamp: text)).skipped.count(.badTimestamp) == 1)
        #expect(try Self.timewarrior(Self.interval(start: text)).skipped.count(.badTimestamp) == 1)
        #expect(RFC3339.parse(text) == nil)
    }

    // RFC 4180 §2: quoted fields hold commas, doubled quotes and line breaks.
    @Test(arguments: [
        ("Mail", "Mail"),
        ("\"Mail\"", "Mail"),
        ("\"Mail, Calendar\"", "Mail, Calendar"),
        ("\"say \"\"hi\"\"\"", "say \"hi\""),
        ("\"\"\"\"", "\""),
        ("\"two\r\nlines\"", "two\r\nlines"),
        ("\"two\nlines\"", "two\nlines"),
        ("\"a;b\tc\"", "a;b\tc"),
    ] as [(String, String)])
    func aQuotedCSVFieldKeepsItsExactValue(cell: String, value: String) throws {
        let d = try Self.csv("app_name,start_timestamp,end_timestamp\r\n\(cell),2026-02-23T09:00:00Z,2026-02-23T10:00:00Z\r\n")
        #expect(d.sessions.count == 1)
        #expect(d.apps == [value])
    }

    /// A quoted field ends at its closing quote before any separator a header may use (a comma,
    /// or the semicolon or tab of spreadsheets in many locales), the next field read as its own.
    @Test(arguments: [",", ";", "\t"])
    func aQuotedCSVFieldEndsAtEverySeparator(separator: String) throws {
        let header = ["app_name", "category", "start_timestamp", "end_timestamp"].joined(separator: separator)
        let row = ["\"Mail\(separator) \"\"Pro\"\"\"", "\"Work\"", "2026-02-23T09:00:00Z", "\"2026-02-23T10:00:00Z\""].joined(separator: separator)
        let d = try Self.csv("\(header)\r\n\(row)\r\n")
        #expect(d.sessions.count == 1)
        #expect(d.apps == ["Mail\(separator) \"Pro\""])
        #expect(d.sessions.count == 1 && d.categories[Int(d.sessions[0].category)] == "Work")
    }

    static func instant(_ utc: String) -> Micros? {
        // An independent reading of the plain `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` form (days from civil, Howard Hinnant's algorithm).
        let c = Array(utc.utf8)
        func n(_ r: Range<Int>) -> Int64 { c[r].reduce(0) { $0 * 10 + Int64($1 - 48) } }
        var y = n(0..<4), m = n(5..<7)
        let d = n(8..<10)
        y -= m <= 2 ? 1 : 0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        m = m > 2 ? m - 3 : m + 9
        let doy = (153 * m + 2) / 5 + d - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        var micros = (days * 86_400 + n(11..<13) * 3600 + n(14..<16) * 60 + n(17..<19)) * 1_000_000
        if c[19] == UInt8(ascii: ".") {
            var k = 20, scale: Int64 = 100_000
            while c[k] != UInt8(ascii: "Z") { micros += Int64(c[k] - 48) * scale; scale /= 10; k += 1 }
        }
        return micros
    }
}
