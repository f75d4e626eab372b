// IngestTests.swift — docs/DATA.md §1–2: validity rules, every skip reason, normalisation, and whole-load failures.
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore

struct SkipReasonTests {
    @Test(arguments: [
        (row(start: "null"), SkipReason.missingTimestamp),
        (row(end: "null"), .missingTimestamp),
        ("{\"app_name\": \"Safari\", \"end_timestamp\": \"2026-02-23T09:30:00Z\"}", .missingTimestamp),
        ("{}", .missingTimestamp),
        (row(start: "\"2026-02-23T09:00:00\""), .badTimestamp),
        (row(start: "\"2026-02-30T09:00:00Z\""), .badTimestamp),
        (row(end: "1771837200"), .badTimestamp),
        (row(end: "true"), .badTimestamp),
        (row(start: "{\"t\": 1}"), .badTimestamp),
        (row(app: "42"), .badFieldType),
        (row(app: "[\"Safari\"]"), .badFieldType),
        (row(category: "false"), .badFieldType),
        (row(category: "{}"), .badFieldType),
        (row(end: "\"2026-02-23T08:45:00Z\""), .endNotAfterStart),
        (row(end: "\"2026-02-23T09:00:00Z\""), .endNotAfterStart),
        (row(end: "\"2026-02-23T10:00:00+01:00\""), .endNotAfterStart),
        ("42", .notAnObject),
        ("\"S-1\"", .notAnObject),
        ("null", .notAnObject),
        ("[1, 2]", .notAnObject),
    ] as [(String, SkipReason)])
    func eachRuleNamesItsReason(json: String, reason: SkipReason) throws {
        let dataset = try SessionsJSON.decode("[\(row()),\n\(json)]")
        #expect(dataset.sessions.count == 1)
        #expect(dataset.skipped.total == 1)
        #expect(dataset.skipped.count(reason) == 1)
        #expect(dataset.skipped.examples[reason]?.first?.line == 2)
    }

    @Test func theFirstFailingCheckNamesTheReason() throws {
        // Missing start beats a bad app type; a bad timestamp beats end-before-start.
        let d = try SessionsJSON.decode("[\(row(app: "1", start: "null")), \(row(start: "\"x\"", end: "\"2000-01-01T00:00:00Z\""))]")
        #expect(d.skipped.count(.missingTimestamp) == 1)
        #expect(d.skipped.count(.badTimestamp) == 1)
    }

    @Test func examplesKeepThreeIdsAndLinesPerReason() throws {
        let rows = (1...5).map { row(id: "\"S-\($0)\"", start: "null") }.joined(separator: ",\n")
        let d = try SessionsJSON.decode("[\n\(rows)\n]")
        #expect(d.skipped.count(.missingTimestamp) == 5)
        let examples = try #require(d.skipped.examples[.missingTimestamp])
        #expect(examples.map(\.sessionID) == ["S-1", "S-2", "S-3"])
        #expect(examples.map(\.line) == [2, 3, 4])
    }

    @Test func skippingNeverAbortsTheLoad() throws {
        let d = try SessionsJSON.decode("[1, \(row()), {}, \(row(end: "null")), \(row(id: "\"S-2\""))]")
        #expect(d.sessions.count == 2)
        #expect(d.skipped.total == 3)
    }

    @Test func validRowsWithNullNamesAndUnknownFieldsLoad() throws {
        let d = try SessionsJSON.decode(
            "[{\"app_name\": null, \"category\": null, \"extra\": {\"deep\": [1, {\"x\": null}]}, \"n\": -1.5e3, "
                + "\"start_timestamp\": \"2026-02-23T09:00:00Z\", \"end_timestamp\": \"2026-02-23T09:30:00Z\"}]")
        #expect(d.sessions.count == 1)
        #expect(d.apps == ["(unknown)"])
        #expect(d.categories == ["Other"])
        #expect(d.sessions[0].id == nil)
    }

    @Test func numericSessionIDsKeepTheirText() throws {
        let d = try SessionsJSON.decode("[\(row(id: "1024"))]")
        #expect(d.sessions[0].id == "1024")
    }
}

struct NormalisationTests {
    @Test(arguments: [
        ("\"Safari\"", "Safari"),
        ("\"  Safari \\t\"", "Safari"),
        ("null", "(unknown)"),
        ("\"\"", "(unknown)"),
        ("\"   \"", "(unknown)"),
        ("\"safari\"", "safari"),
        ("\"微信\"", "微信"),
        ("\"Tab\\tName\"", "Tab\tName"),
        ("\"\\u001b[31mRed\"", "\u{1B}[31mRed"),
    ])
    func appNames(json: String, expected: String) throws {
        let d = try SessionsJSON.decode("[\(row(app: json))]")
        #expect(d.apps == [expected])
    }

    @Test(arguments: [
        ("\"Social\"", "Social"),
        ("\" Social \"", "Social"),
        ("null", "Other"),
        ("\"\"", "Other"),
        ("\" \"", "Other"),
        ("\"other\"", "Other"),
        ("\"OTHERS\"", "Other"),
        ("\"Others\"", "Other"),
        ("\"Otherwise\"", "Otherwise"),
        ("\"social\"", "social"),
    ])
    func categories(json: String, expected: String) throws {
        let d = try SessionsJSON.decode("[\(row(category: json))]")
        #expect(d.categories == [expected])
    }

    @Test func namesThatNormaliseAlikeShareOneApp() throws {
        let d = try SessionsJSON.decode("[\(row(app: "\"Safari\"")), \(row(app: "\" Safari\"")), \(row(app: "null")), \(row(app: "\"\""))]")
        #expect(d.apps.sorted() == ["(unknown)", "Safari"])
    }
}

struct StringDecodingTests {
    @Test func escapesDecode() throws {
        let d = try SessionsJSON.decode("[\(row(app: #""\"\\\/\b\f\n\r\t\u00e9\ud83c\udfb5""#))]")
        #expect(d.apps == ["\"\\/\u{08}\u{0C}\n\r\té🎵"])
        #expect(d.repairedStrings == 0)
    }

    @Test(arguments: [#""a\ud800b""#, #""a\udc00b""#, #""a\ud800\u0041b""#])
    func loneSurrogatesBecomeReplacementCharacters(json: String) throws {
        let d = try SessionsJSON.decode("[\(row(app: json))]")
        #expect(d.sessions.count == 1)
        #expect(d.apps[0].unicodeScalars.contains("\u{FFFD}"))
        #expect(d.repairedStrings == 1)
    }

    @Test func invalidUTF8InsideAStringBecomesReplacementCharacter() throws {
        var bytes = Array("[\(row(app: "\"Caf@@\""))]".utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "@"))!
        bytes[at] = 0xC3
        bytes[at + 1] = 0x28  // invalid continuation
        let d = try SessionsJSON.decode(bytes, source: "t")
        #expect(d.sessions.count == 1)
        #expect(d.apps[0] == "Caf\u{FFFD}(")
        #expect(d.repairedStrings == 1)
    }
}

struct WholeLoadFailureTests {
    @Test(arguments: [
        ("", IngestError.empty),
        ("  \n\t", .empty),
        ("{}", .notAnArray(found: "an object")),
        ("{\"a\": [1]}", .notAnArray(found: "an object")),
        ("\"text\"", .notAnArray(found: "a string")),
        ("42", .notAnArray(found: "a number")),
        ("null", .notAnArray(found: "null")),
    ] as [(String, IngestError)])
    func notASessionsArray(text: String, expected: IngestError) {
        #expect(throws: expected) { try SessionsJSON.decode(text) }
    }

    @Test(arguments: [
        ("[", 1, 2),
        ("[\n  {\"a\": 1,}\n]", 2, 11),
        ("[1,]", 1, 4),
        ("[1] x", 1, 5),
        ("[01]", 1, 3),
        ("[\"tab\there\"]", 1, 6),
        ("[\n\"é\" x]", 2, 5),
        ("[tru]", 1, 2),
        ("[\"\\x\"]", 1, 3),
        ("{\"a\" 1}", 1, 6),
        ("hello", 1, 1),
    ])
    func syntaxErrorsReportLineAndColumn(text: String, line: Int, column: Int) {
        #expect {
            try SessionsJSON.decode(text)
        } throws: { error in
            guard case .syntax(let l, let c, _) = error as? IngestError else { return false }
            return l == line && c == column
        }
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let d = try SessionsJSON.decode([0xEF, 0xBB, 0xBF] + Array("[\(row())]".utf8), source: "t")
        #expect(d.sessions.count == 1)
    }

    @Test func deepNestingNeitherRecursesNorFails() throws {
        let depth = 100_000
        let closed = "[" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]"
        let d = try SessionsJSON.decode(closed)
        #expect(d.skipped.count(.notAnObject) == 1)
        let unclosed = "[" + String(repeating: "[", count: depth)
        #expect(throws: IngestError.self) { try SessionsJSON.decode(unclosed) }
    }

    @Test func anEmptyArrayIsAnEmptyDataset() throws {
        let d = try SessionsJSON.decode(" [ ] ")
        #expect(d.sessions.isEmpty)
        #expect(d.skipped.total == 0)
    }
}
