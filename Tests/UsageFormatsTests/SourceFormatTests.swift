// SourceFormatTests.swift — the format layer: detection by content, decode dispatch and error wrapping, and each format (NDJSON, CSV, Timewarrior, ActivityWatch) under docs/DATA.md §1–2.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

// MARK: - Helpers

fileprivate func detectFormat(_ bytes: [UInt8]) -> SourceFormat {
    bytes.withUnsafeBufferPointer { SourceFormat.detect($0) }
}

fileprivate func detectFormat(_ text: String) -> SourceFormat { detectFormat(Array(text.utf8)) }

/// Decodes through the one public entry point, as a load does.
fileprivate func decodeSource(_ bytes: [UInt8], source: String = "src") throws(LoadError) -> Dataset {
    try bytes.withUnsafeBufferPointer { buffer throws(LoadError) in
        try SourceFormat.load(buffer, source: source, cancellation: CancellationToken())
    }
}

fileprivate func decodeSource(_ text: String, source: String = "src") throws(LoadError) -> Dataset {
    try decodeSource(Array(text.utf8), source: source)
}

/// The ingest error a decode fails with (nil when it succeeds or fails otherwise).
fileprivate func ingestError(_ bytes: [UInt8], source: String = "src") -> IngestError? {
    do {
        _ = try decodeSource(bytes, source: source)
        return nil
    } catch {
        guard case .invalid(let named, let inner) = error, named == source else { return nil }
        return inner
    }
}

fileprivate func ingestError(_ text: String) -> IngestError? { ingestError(Array(text.utf8)) }

/// A sessions-JSON row (also an NDJSON line).
fileprivate func sessionLine(
    id: String = "\"S-1\"", app: String = "\"Safari\"", category: String = "\"Productivity\"",
    start: String = "\"2026-02-23T09:00:00Z\"", end: String = "\"2026-02-23T09:30:00Z\""
) -> String {
    "{\"session_id\": \(id), \"app_name\": \(app), \"category\": \(category), \"start_timestamp\": \(start), \"end_timestamp\": \(end)}"
}

fileprivate let csvHeader = "session_id,app_name,category,start_timestamp,end_timestamp"

// MARK: - Detection

/// Every suite of this file, so that `--filter SourceFormatTests` runs them all.
enum SourceFormatTests {}

extension SourceFormatTests {
    struct Detection {
        static let timewarrior = #"[{"id":1,"start":"20260223T093500Z","end":"20260223T101000Z","tags":["Firefox","Browsing"]}]"#
        static let awCompact = #"{"buckets":{"aw-watcher-window_h":{"id":"aw-watcher-window_h","type":"currentwindow","hostname":"h","events":[]}}}"#
        static let awPretty = """
            {
                "buckets": {
                    "aw-watcher-window_h": {
                        "type": "currentwindow",
                        "events": []
                    }
                }
            }
            """

        @Test(arguments: [
            ("[]", SourceFormat.sessionsJSON),
            ("\u{FEFF}[]", .sessionsJSON),
            (" \n\t\r\n[]", .sessionsJSON),
            ("[\(sessionLine())]", .sessionsJSON),
            ("\u{FEFF}\n  [\n\(sessionLine())\n]", .sessionsJSON),
            // Sessions whose first rows lack timestamps are still sessions, not Timewarrior.
            (#"[{"session_id":"a","start_timestamp":null}]"#, .sessionsJSON),
            (timewarrior, .timewarrior),
            ("\u{FEFF}  [\n  {\n    \"id\": 1,\n    \"start\" : \"20260223T093500Z\"\n  }\n]", .timewarrior),
            (awCompact, .activityWatch),
            (awPretty, .activityWatch),
            ("\u{FEFF}\(awPretty)", .activityWatch),
            (#"{"buckets":{}}"#, .activityWatch),
            ("\(sessionLine())\n\(sessionLine())\n", .ndjson),
            (#"{"app_name":"Safari"}"# + "\n", .ndjson),
            ("\(sessionLine())\r\n\(sessionLine())\r\n", .ndjson),
            ("\u{FEFF}\n\n\(sessionLine())", .ndjson),
            ("{}", .sessionsJSON),
            (#"{"a":1}"#, .sessionsJSON),
            ("{\"a\":1}\n\(sessionLine())", .sessionsJSON),
            // A pretty object is not NDJSON: its first line is not a whole object.
            ("{\n  \"session_id\": \"a\"\n}", .sessionsJSON),
            (csvHeader + "\n", .csv),
            ("end_timestamp,start_timestamp,app_name\n", .csv),
            ("notes,start_timestamp,end_timestamp\r\n", .csv),
            ("\u{FEFF}" + csvHeader + "\r\n", .csv),
            // A first line of short names is a header, even of unknown names: the CSV reader then
            // says which columns it could not place (better than "not valid JSON at line 1").
            ("hello, world\n", .csv),
            ("Program;From;To\n", .csv),
            ("hello world\n", .sessionsJSON),
            ("a,\n", .sessionsJSON),
            ("x\u{1}y,z\n", .sessionsJSON),
            ("garbage", .sessionsJSON),
            ("", .sessionsJSON),
            ("   \n ", .sessionsJSON),
        ] as [(String, SourceFormat)])
        func detection(text: String, expected: SourceFormat) {
            #expect(detectFormat(text) == expected, "\(text.debugDescription)")
        }

        @Test func aSingleObjectStillSaysAnArrayWasExpected() {
            for text in ["{}", #"{"a":1}"#, "{\n  \"session_id\": \"a\"\n}"] {
                guard case .notAnArray = ingestError(text) else {
                    Issue.record("\(text.debugDescription): \(String(describing: ingestError(text)))")
                    continue
                }
            }
        }

        @Test func garbageIsASyntaxErrorAtTheFirstByte() {
            guard case .syntax(let line, let column, _) = ingestError("garbage") else {
                Issue.record("\(String(describing: ingestError("garbage")))")
                return
            }
            #expect(line == 1 && column == 1)
        }

        @Test func emptyInputIsEmpty() {
            #expect(ingestError("") == .empty)
            #expect(ingestError("  \n") == .empty)
        }
    }
}

// MARK: - Dispatch and error wrapping

extension SourceFormatTests {
    struct Decode {
        @Test func everyFormatDecodesToTheSameSession() throws {
            let expected = [LoadedSession("2026-02-23T09:35:00Z", "2026-02-23T10:10:00Z", "Firefox", "Browsing", id: "1")]
            let json = "[\(sessionLine(id: "\"1\"", app: "\"Firefox\"", category: "\"Browsing\"", start: "\"2026-02-23T09:35:00Z\"", end: "\"2026-02-23T10:10:00Z\""))]"
            let ndjson = sessionLine(id: "1", app: "\"Firefox\"", category: "\"Browsing\"", start: "\"2026-02-23T09:35:00Z\"", end: "\"2026-02-23T10:10:00Z\"") + "\n"
            let csv = csvHeader + "\n1,Firefox,Browsing,2026-02-23T09:35:00Z,2026-02-23T10:10:00Z\n"
            for text in [json, ndjson, csv] {
                let d = try decodeSource(text, source: "x")
                #expect(d.loaded == expected, "\(detectFormat(text))")
                #expect(d.source == "x")
                #expect(d.skipped.total == 0)
            }
            // A Timewarrior interval has tags, no category: its activity is the tag set.
            let d = try decodeSource(Detection.timewarrior, source: "x")
            #expect(d.loaded == [LoadedSession("2026-02-23T09:35:00Z", "2026-02-23T10:10:00Z", "Browsing, Firefox", "Other", id: "1")])
            #expect(d.source == "x" && d.skipped.total == 0)
        }

        @Test(arguments: [
            "{}",
            "garbage",
            "",
            csvHeader.replacingOccurrences(of: ",end_timestamp", with: "") + "\n",
            "[{\"id\":1,\"start\":\"20260223T093500Z\" \"end\":1}]",
            #"{"buckets": []}"#,
        ])
        func errorsAreWrappedNamingTheSource(text: String) {
            do {
                _ = try decodeSource(text, source: "data/my file.txt")
                Issue.record("\(text.debugDescription) decoded")
            } catch {
                guard case .invalid(let source, _) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(source == "data/my file.txt")
                #expect(error.description.contains("'data/my file.txt'"), "\(error.description)")
            }
        }

        @Test func aCancelledLoadIsCancelledNamingTheSource() {
            let token = CancellationToken()
            token.cancel()
            // Enough rows that every format polls the token at least once.
            let csv = csvHeader + "\n" + String(repeating: "a,b,c,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n", count: 5000)
            let ndjson = String(repeating: sessionLine() + "\n", count: 5000)
            for text in [csv, ndjson] {
                let bytes = Array(text.utf8)
                #expect(throws: LoadError.cancelled(source: "s")) {
                    try bytes.withUnsafeBufferPointer { buffer throws(LoadError) in
                        _ = try SourceFormat.load(buffer, source: "s", cancellation: token)
                    }
                }
            }
        }
    }
}

// MARK: - NDJSON

extension SourceFormatTests {
    struct NDJSON {
        func decodeNDJSON(_ text: String) throws(IngestError) -> Dataset {
            try Array(text.utf8).withUnsafeBufferPointer { buffer throws(IngestError) in
                try SessionsJSON.decodeNDJSON(buffer, source: "n", cancellation: CancellationToken())
            }
        }

        @Test func blankLinesAreIgnoredAndSkippedRowsKeepTheFilesLines() throws {
            let text = [
                sessionLine(id: "\"a\""),  // 1
                "",  // 2
                sessionLine(id: "\"b\"", end: "null"),  // 3
                "   ",  // 4
                "\t",  // 5
                sessionLine(id: "\"c\"", start: "\"2026-02-23T10:00:00Z\"", end: "\"2026-02-23T09:00:00Z\""),  // 6
                "42",  // 7
                sessionLine(id: "7", app: "null", category: "\"others\"", start: "\"2026-02-23T11:00:00Z\"", end: "\"2026-02-23T11:30:00Z\""),  // 8
                "",
                "",
            ].joined(separator: "\n")
            #expect(detectFormat(text) == .ndjson)
            let d = try decodeSource(text)
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Safari", "Productivity", id: "a"),
                    LoadedSession("2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z", "(unknown)", "Other", id: "7"),
                ])
            #expect(d.skippedLines(.missingTimestamp) == [3])
            #expect(d.skippedLines(.endNotAfterStart) == [6])
            #expect(d.skippedLines(.notAnObject) == [7])
            #expect(d.skipped.examples[.missingTimestamp]?.first?.sessionID == "b")
        }

        @Test func crlfLineEnds() throws {
            let text = sessionLine(id: "\"a\"") + "\r\n\r\n" + sessionLine(id: "\"b\"", start: "null") + "\r\n" + sessionLine(id: "\"c\"") + "\r\n"
            let d = try decodeSource(text)
            #expect(d.loaded.map(\.id) == ["a", "c"])
            #expect(d.skippedLines(.missingTimestamp) == [3])
        }

        @Test func aBOMIsSkipped() throws {
            let d = try decodeSource("\u{FEFF}" + sessionLine() + "\n" + sessionLine(id: "\"x\"", end: "\"nope\""))
            #expect(d.sessions.count == 1)
            #expect(d.skippedLines(.badTimestamp) == [2])
        }

        @Test func aFileWithoutAFinalNewline() throws {
            let d = try decodeSource(sessionLine(id: "\"a\"") + "\n" + sessionLine(id: "\"b\"", start: "\"2026-02-23T08:00:00Z\""))
            #expect(d.loaded.map(\.id) == ["b", "a"])
        }

        /// The `[` added in front must not shift line 1's columns (checked on the format itself:
        /// detection only picks NDJSON when line 1 reads as an object).
        @Test func aSyntaxErrorOnLineOneKeepsItsColumn() {
            let line = #"{"session_id": "a", "start_timestamp": x}"#
            let column = line.distance(from: line.startIndex, to: line.firstIndex(of: "x")!) + 1  // 40
            #expect(throws: IngestError.self) { try decodeNDJSON(line) }
            do {
                _ = try decodeNDJSON(line + "\n" + sessionLine())
            } catch {
                guard case .syntax(let l, let c, _) = error else { return #expect(Bool(false), "\(error)") }
                #expect(l == 1)
                #expect(c == column)
                // The sessions scanner puts the same character at the same column on a later line.
                guard case .syntax(_, let reference, _)? = ingestError("[\n" + line + "\n]") else { return #expect(Bool(false)) }
                #expect(c == reference)
            }
        }

        /// Through detection, a typo on line 1 makes the file sessions JSON (line 1 is not an
        /// object); the scanner still points at the typo.
        @Test func aSyntaxErrorOnLineOneThroughDetection() {
            let text = #"{"session_id": "a", "start_timestamp": x}"# + "\n" + sessionLine() + "\n"
            guard case .syntax(let line, let column, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 1)
            #expect(column == 40)
        }

        @Test func aSyntaxErrorOnALaterLineNamesThatLine() {
            let text = sessionLine() + "\n\n" + sessionLine() + "\n" + #"{"session_id": "a", "app_name": tru}"# + "\n" + sessionLine() + "\n"
            guard case .syntax(let line, let column, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 4)
            #expect(column == 33)
        }

        @Test func aSyntaxErrorOnALaterLineWithCRLF() {
            let text = sessionLine() + "\r\n" + sessionLine() + "\r\n" + #"{"app_name": @}"# + "\r\n"
            guard case .syntax(let line, let column, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 3)
            #expect(column == 14)
        }

        /// A line that is not a whole object is reported on its own line, not on the next one.
        @Test func bugNDJSONTruncatedLineIsReportedOnTheNextLine() {
            let text = sessionLine() + "\n" + #"{"session_id": "a""# + "\n" + sessionLine() + "\n"
            guard case .syntax(let line, _, let message)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 2, "\(message)")
        }

        /// A truncated last line (the file ending in a newline) was reported on the line after the
        /// last one, where the added `]` stands.
        @Test func bugNDJSONTruncatedLastLineIsReportedPastTheEnd() {
            let text = sessionLine() + "\n" + #"{"session_id": "# + "\n"
            guard case .syntax(let line, _, let message)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 2, "\(message)")
        }

    }
}

// MARK: - CSV

extension SourceFormatTests {
    struct CSV {
        @Test func quotedFieldsWithCommasQuotesAndNewlinesKeepLaterRowsLines() throws {
            let text = [
                csvHeader,  // 1
                "a,\"Chrome, Beta\",Browsing,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z",  // 2
                "b,\"say \"\"hi\"\"\",,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z",  // 3
                "c,\"two\nlines\",\"Work\nStuff\",2026-02-23T11:00:00Z,2026-02-23T11:30:00Z",  // 4–6
                "d,X,Y,2026-02-23T12:00:00Z,",  // 7
                "\"e\n\",X,Y,nope,2026-02-23T12:00:00Z",  // 8–9
                "f,X,Y,2026-02-23T13:00:00Z,2026-02-23T12:00:00Z",  // 10
            ].joined(separator: "\n") + "\n"
            #expect(detectFormat(text) == .csv)
            let d = try decodeSource(text)
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Chrome, Beta", "Browsing", id: "a"),
                    LoadedSession("2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z", "say \"hi\"", "Other", id: "b"),
                    LoadedSession("2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z", "two\nlines", "Work\nStuff", id: "c"),
                ])
            #expect(d.skippedLines(.missingTimestamp) == [7])
            #expect(d.skippedLines(.badTimestamp) == [8])
            #expect(d.skippedLines(.endNotAfterStart) == [10])
            #expect(d.skipped.examples[.badTimestamp]?.first?.sessionID == "e\n")
        }

        @Test func crlfLineEndsInsideAndOutsideQuotes() throws {
            let text = [
                csvHeader,  // 1
                "c,\"two\r\nlines\",Work,2026-02-23T11:00:00Z,2026-02-23T11:30:00Z",  // 2–3
                "",  // 4
                "d,X,Y,,2026-02-23T12:00:00Z",  // 5
            ].joined(separator: "\r\n") + "\r\n"
            let d = try decodeSource(text)
            #expect(d.loaded == [LoadedSession("2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z", "two\r\nlines", "Work", id: "c")])
            #expect(d.skippedLines(.missingTimestamp) == [5])
        }

        @Test func anEmptyCellIsNull() throws {
            let d = try decodeSource(csvHeader + "\n,,,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n, ,  ,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z\n")
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "(unknown)", "Other", id: nil),
                    LoadedSession("2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z", "(unknown)", "Other", id: nil),
                ])
        }

        @Test(arguments: ["start_timestamp", "end_timestamp"])
        func aMissingTimeColumnIsNamed(column: String) {
            let header = SourceFormat.sessionFields.filter { $0 != column }.joined(separator: ",")
            let error = ingestError(header + "\na,b,c,2026-02-23T09:00:00Z\n")
            switch error {
            case .syntax(let line, _, let message)?:
                #expect(line == 1)
                #expect(message.contains(column), "\(message)")
            case .malformed(let format, let problem)?:
                #expect(format == SourceFormat.csv.rawValue)
                #expect(problem.contains(column), "\(problem)")
            default:
                Issue.record("\(String(describing: error))")
            }
        }

        /// The missing-column error is thrown as `.syntax`, whose text begins "not valid JSON at
        /// line 1, column 1" — wrong for a CSV file.
        @Test func bugCSVMissingColumnErrorSaysNotValidJSON() throws {
            let error = try #require(ingestError("session_id,app_name,start_timestamp\na,b,2026-02-23T09:00:00Z\n"))
            #expect(!error.description.contains("JSON"), "\(error.description)")
            #expect(error.description.contains("end_timestamp"))
        }

        @Test func columnsInAnyOrderAndExtraColumnsIgnored() throws {
            let text = """
                notes,END_TIMESTAMP, Start_Timestamp ,app_name,extra,session_id
                "x,y",2026-02-23T09:30:00Z,2026-02-23T09:00:00Z,Safari,1,S-9,more,cells
                n,2026-02-23T10:30:00Z,2026-02-23T10:00:00Z
                """
            let d = try decodeSource(text)
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Safari", "Other", id: "S-9"),
                    LoadedSession("2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z", "(unknown)", "Other", id: nil),
                ])
        }

        @Test func blankLinesAreIgnoredAndCounted() throws {
            let text = csvHeader + "\n\n   \na,X,Y,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n\nb,X,Y,2026-02-23T09:00:00Z,x\n\n\n"
            let d = try decodeSource(text)
            #expect(d.sessions.count == 1)
            #expect(d.skipped.total == 1)
            #expect(d.skippedLines(.badTimestamp) == [6])
        }

        @Test func aBOMBeforeTheHeader() throws {
            let d = try decodeSource("\u{FEFF}" + csvHeader + "\r\na,X,Y,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\r\n")
            #expect(d.loaded.map(\.id) == ["a"])
        }

        @Test(arguments: [csvHeader, csvHeader + "\n", csvHeader + "\r\n", "\u{FEFF}" + csvHeader + "\n\n"])
        func aHeaderOnlyIsNoSessions(text: String) throws {
            let d = try decodeSource(text)
            #expect(d.sessions.count == 0)
            #expect(d.skipped.total == 0)
        }

        @Test func invalidUTF8BecomesReplacementAndIsCounted() throws {
            var bytes = Array((csvHeader + "\na,Chr").utf8)
            bytes += [0xFF]
            bytes += Array("me,Web,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\nb,Ok,Web,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z\n".utf8)
            let d = try decodeSource(bytes)
            #expect(d.loaded.map(\.app) == ["Chr\u{FFFD}me", "Ok"])
            #expect(d.repairedStrings == 1)
        }

        /// Once the input holds any invalid UTF-8, every field with a U+FFFD was counted as repaired,
        /// genuine U+FFFD characters of valid rows included.
        @Test func bugCSVCountsGenuineReplacementCharactersAsRepaired() throws {
            var bytes = Array((csvHeader + "\na,Genuine \u{FFFD},Web,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\nb,Bad ").utf8)
            bytes += [0xFF]
            bytes += Array(",Web,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z\n".utf8)
            let d = try decodeSource(bytes)
            #expect(d.sessions.count == 2)
            #expect(d.repairedStrings == 1)
        }

        /// Detection finds the header after leading blank lines, so decoding must too.
        @Test func bugCSVHeaderAfterLeadingBlankLineIsNotFound() throws {
            let text = "\n" + csvHeader + "\na,X,Y,2026-02-23T09:00:00Z,x\n"
            #expect(detectFormat(text) == .csv)
            let d = try decodeSource(text)
            #expect(d.skippedLines(.badTimestamp) == [3])
        }

        /// The decoder reads header names case-insensitively, so detection must too.
        @Test func bugCSVUppercaseHeaderIsNotDetected() throws {
            let text = "SESSION_ID,APP_NAME,CATEGORY,START_TIMESTAMP,END_TIMESTAMP\na,X,Y,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n"
            #expect(detectFormat(text) == .csv)
            let d = try decodeSource(text)
            #expect(d.sessions.count == 1)
        }
    }
}

// MARK: - Timewarrior

extension SourceFormatTests {
    struct Timewarrior {
        static let export = """
            [
            {"id":2,"start":"20260223T093500Z","end":"20260223T101000Z","tags":["Firefox","Browsing"]},
            {"id":1,"start":"20260223T110000Z","tags":["Terminal"]},
            {"id":3,"start":"20260223T120000Z","end":"20260223T121500Z"},
            42,
            {"id":4,"start":"20260223T130000Z","end":"20260223T131500Z","tags":["  Slack ","other","extra"]},
            {"id":5,"start":"20260223T140000Z","end":"20260223T141500Z","tags":[]},
            {"id":6,"start":"2026-02-23T15:00:00Z","end":"20260223T151500Z","tags":["Mixed"]},
            {"id":7,"start":"20260230T093500Z","end":"20260301T101000Z","tags":["Impossible"]},
            {"id":8,"start":20260223,"end":"20260223T101000Z"}
            ]
            """

        @Test func intervalsBecomeSessions() throws {
            #expect(detectFormat(Self.export) == .timewarrior)
            let d = try decodeSource(Self.export)
            // Without a clock (no `now`), the running interval 1 cannot be counted: missing_timestamp.
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:35:00Z", "2026-02-23T10:10:00Z", "Browsing, Firefox", "Other", id: "2"),
                    LoadedSession("2026-02-23T12:00:00Z", "2026-02-23T12:15:00Z", "(unknown)", "Other", id: "3"),
                    LoadedSession("2026-02-23T13:00:00Z", "2026-02-23T13:15:00Z", "Slack, extra, other", "Other", id: "4"),
                    LoadedSession("2026-02-23T14:00:00Z", "2026-02-23T14:15:00Z", "(unknown)", "Other", id: "5"),
                    LoadedSession("2026-02-23T15:00:00Z", "2026-02-23T15:15:00Z", "Mixed", "Other", id: "6"),
                ])
            #expect(d.skippedLines(.missingTimestamp) == [3])
            #expect(d.skipped.examples[.missingTimestamp]?.first?.sessionID == "1")
            #expect(d.skippedLines(.notAnObject) == [5])
            #expect(d.skippedLines(.badTimestamp) == [9, 10])
        }

        @Test(arguments: [
            ("20260223T093500Z", "2026-02-23T09:35:00Z"),
            ("19991231T235959Z", "1999-12-31T23:59:59Z"),
            ("20260223T093500", "20260223T093500"),
            ("2026022XT093500Z", "2026022XT093500Z"),
            ("2026-02-23T09:35:00Z", "2026-02-23T09:35:00Z"),
            ("", ""),
        ])
        func compactTimes(compact: String, rfc3339: String) {
            var out = [UInt8](repeating: 0, count: 20)
            let expanded = Array(compact.utf8).withUnsafeBufferPointer { c in
                out.withUnsafeMutableBufferPointer { TimewarriorJSON.expandCompact(c, into: $0.baseAddress!) }
            }
            #expect((expanded ? String(decoding: out, as: UTF8.self) : compact) == rfc3339)
        }

        @Test func invalidJSONIsASyntaxErrorWithLineAndColumn() {
            let text = "[\n{\"id\":1,\"start\":\"20260223T093500Z\"},\n{\"id\":2,\"start\":\"20260223T093500Z\" \"end\":1}\n]"
            #expect(detectFormat(text) == .timewarrior)
            guard case .syntax(let line, let column, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 3)
            #expect(column == 36)
        }

        /// docs/DATA.md §1: invalid UTF-8 and lone surrogate escapes inside strings become U+FFFD and the
        /// row stays. Foundation refuses both, so the whole Timewarrior load failed ("JSON that
        /// cannot be read here", at line 1, column 1).
        @Test func bugTimewarriorLoneSurrogateFailsTheWholeLoad() throws {
            let text = #"[{"id":1,"start":"20260223T093500Z","end":"20260223T101000Z","tags":["Fire\ud800fox"]}]"#
            let d = try decodeSource(text)
            #expect(d.loaded.map(\.app) == ["Fire\u{FFFD}fox"])
            #expect(d.repairedStrings == 1)
        }

        @Test func bugTimewarriorInvalidUTF8FailsTheWholeLoad() throws {
            var bytes = Array(#"[{"id":1,"start":"20260223T093500Z","end":"20260223T101000Z","tags":["Fire"#.utf8)
            bytes += [0xFF]
            bytes += Array(#"fox"]}]"#.utf8)
            let d = try decodeSource(bytes)
            #expect(d.loaded.map(\.app) == ["Fire\u{FFFD}fox"])
            #expect(d.repairedStrings == 1)
        }

        /// Skipped elements are placed on the line where they begin (brackets inside strings
        /// and nested arrays do not confuse it).
        @Test func elementLinesIgnoreBracketsInStringsAndNesting() throws {
            let text = "[ {\"start\":\"x\",\"tags\":[\"a]\",\n\"b,\\\"[\"]},\n\n 1, [2,\n3],\n\"x\"]"
            let d = try decodeSource(text)
            #expect(d.skipped.examples[.missingTimestamp]?.map(\.line) == [1])
            #expect(d.skipped.examples[.notAnObject]?.map(\.line) == [4, 4, 6])
        }
    }
}

// MARK: - ActivityWatch

extension SourceFormatTests {
    struct ActivityWatch {
        /// A laptop with window, AFK and web buckets; a desktop with only a window bucket; a third
        /// host with only an AFK bucket.
        static let export = """
            {
              "buckets": {
                "aw-watcher-window_laptop": {
                  "id": "aw-watcher-window_laptop", "type": "currentwindow", "client": "aw-watcher-window", "hostname": "laptop",
                  "created": "2026-02-01T00:00:00.000000+00:00",
                  "events": [
                    {"id": 1, "timestamp": "2026-02-23T09:00:00+00:00", "duration": 3600.0, "data": {"app": "Firefox", "title": "x"}},
                    {"id": 2, "timestamp": "2026-02-23T10:00:00.250000+00:00", "duration": 515.968, "data": {"app": "Terminal"}},
                    {"id": 3, "timestamp": "2026-02-23T11:00:00Z", "duration": 0.0000001, "data": {"app": "Zero"}},
                    {"id": 4, "timestamp": "yesterday", "duration": 5, "data": {"app": "Bad"}},
                    {"id": 5, "timestamp": "2026-02-23T11:00:00Z", "duration": -5, "data": {"app": "Negative"}},
                    {"id": 6, "timestamp": "2026-02-23T10:30:00Z", "duration": 2, "data": {"app": "Two"}},
                    {"id": 7, "timestamp": "2026-02-23T09:25:00Z", "duration": 60, "data": {"app": "WhileAway"}},
                    {"id": 8, "timestamp": "2026-02-23T10:40:00Z", "duration": 12, "data": {"title": "no app"}}
                  ]
                },
                "aw-watcher-afk_laptop": {
                  "id": "aw-watcher-afk_laptop", "type": "afkstatus", "hostname": "laptop",
                  "events": [
                    {"id": 10, "timestamp": "2026-02-23T09:00:00Z", "duration": 1200, "data": {"status": "not-afk"}},
                    {"id": 11, "timestamp": "2026-02-23T09:20:00Z", "duration": 1200, "data": {"status": "afk"}},
                    {"id": 12, "timestamp": "2026-02-23T09:40:00Z", "duration": 3600, "data": {"status": "not-afk"}},
                    {"id": 13, "timestamp": "2026-02-23T10:30:00Z", "duration": 7200, "data": {"status": "not-afk"}}
                  ]
                },
                "aw-watcher-window_desktop": {
                  "type": "currentwindow", "hostname": "desktop",
                  "events": [{"id": 20, "timestamp": "2026-02-23T09:00:00Z", "duration": 1800, "data": {"app": "Code"}}]
                },
                "aw-watcher-afk_elsewhere": {
                  "type": "afkstatus", "hostname": "elsewhere",
                  "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"status": "not-afk"}}]
                },
                "aw-watcher-web-firefox": {
                  "type": "web.tab.current", "hostname": "laptop",
                  "events": [{"id": 30, "timestamp": "2026-02-23T09:00:00Z", "duration": 100, "data": {"url": "https://x", "title": "y"}}]
                }
              }
            }
            """

        @Test func windowEventsBecomeSessionsInsideNotAFKTime() throws {
            #expect(detectFormat(Self.export) == .activityWatch)
            let d = try decodeSource(Self.export, source: "aw.json")
            let terminalStart = instant("2026-02-23T10:00:00.250000Z")
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:20:00Z", "Firefox", "Other", id: "1"),
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Code", "Other", id: "20"),
                    LoadedSession("2026-02-23T09:40:00Z", "2026-02-23T10:00:00Z", "Firefox", "Other", id: "1"),
                    LoadedSession(start: terminalStart, end: terminalStart + 515_968_000, app: "Terminal", category: "Other", id: "2"),
                    LoadedSession("2026-02-23T10:30:00Z", "2026-02-23T10:30:02Z", "Two", "Other", id: "6"),
                    LoadedSession("2026-02-23T10:40:00Z", "2026-02-23T10:40:12Z", "(unknown)", "Other", id: "8"),
                ])
            #expect(d.skipped.count(.badTimestamp) == 1)
            #expect(d.skipped.examples[.badTimestamp]?.first == SkippedRow(reason: .badTimestamp, sessionID: "4", line: nil))
            #expect(d.skipped.count(.endNotAfterStart) == 1)
            #expect(d.skipped.examples[.endNotAfterStart]?.first?.sessionID == "5")
            #expect(d.skipped.total == 2, "zero-length events are dropped silently")
            #expect(!d.apps.contains("Zero") && !d.apps.contains("WhileAway"))
        }

        @Test func compactExportDecodesTheSame() throws {
            let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(Self.export.utf8)))
            #expect(detectFormat(Array(compact)) == .activityWatch)
            let d = try decodeSource(Array(compact))
            #expect(d.loaded == (try decodeSource(Self.export)).loaded)
        }

        @Test(arguments: [
            ("2026-02-23T09:00:00+00:00", 515.968, Micros(515_968_000)),
            ("2026-02-23T09:00:00.250000+00:00", 0.0000005, Micros(1)),
            ("2026-02-23T09:00:00Z", 0.0000004, Micros(0)),
            ("2026-02-23T09:00:00.123456789+02:00", 1.5, Micros(1_500_000)),
            ("2026-02-23T09:00:00Z", 0.1, Micros(100_000)),
            ("2026-02-23T09:00:00Z", 3600.000001, Micros(3_600_000_001)),
        ] as [(String, Double, Micros)])
        func durationsRoundToTheMicrosecond(timestamp: String, duration: Double, length: Micros) throws {
            let json = #"{"timestamp":""# + timestamp + #"","duration":"# + "\(duration)" + #","data":{"app":"A"}}"#
            let d = try decodeSource(Self.oneEvent(json))
            #expect(d.skipped.total == 0)
            guard length > 0 else { return #expect(d.sessions.isEmpty, "an empty event is dropped") }
            #expect(d.loaded.first?.start == RFC3339.parse(timestamp))
            #expect(d.loaded.first.map { $0.end - $0.start } == length)
        }

        /// An export of one window bucket holding one event.
        static func oneEvent(_ json: String) -> String {
            #"{"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": ["# + json + "]}}}"
        }

        @Test(arguments: [
            (#"{"duration": 5}"#, SkipReason.missingTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00Z"}"#, .missingTimestamp),
            (#"{"timestamp": null, "duration": 5}"#, .missingTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": null}"#, .missingTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00", "duration": 5}"#, .badTimestamp),
            (#"{"timestamp": "2026-02-30T09:00:00Z", "duration": 5}"#, .badTimestamp),
            (#"{"timestamp": 1771837200, "duration": 5}"#, .badTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": "5"}"#, .badFieldType),
            (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": -0.5}"#, .endNotAfterStart),
        ] as [(String, SkipReason)])
        func badEventsNameTheirReason(json: String, reason: SkipReason) throws {
            let d = try decodeSource(Self.oneEvent(json))
            #expect(d.sessions.isEmpty)
            #expect(d.skipped.total == 1)
            #expect(d.skipped.count(reason) == 1)
        }

        /// On Linux, JSONSerialization's NSNumber for `0`, `1`, `0.0` and `1.0` answers `is Bool`
        /// true, so such durations were refused as `bad_field_type`: zero-length heartbeats (very
        /// common in ActivityWatch) were counted as skipped instead of dropped, one-second events lost.
        @Test func bugAWDurationZeroOrOneIsReadAsABoolean() throws {
            let text = """
                {"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [
                  {"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 0, "data": {"app": "Zero"}},
                  {"id": 2, "timestamp": "2026-02-23T09:00:00Z", "duration": 0.0, "data": {"app": "Zero"}},
                  {"id": 3, "timestamp": "2026-02-23T10:00:00Z", "duration": 1, "data": {"app": "One"}},
                  {"id": 4, "timestamp": "2026-02-23T11:00:00Z", "duration": 1.0, "data": {"app": "One"}}
                ]}}}
                """
            let d = try decodeSource(text)
            #expect(d.skipped.total == 0, "zero-length events are dropped silently")
            #expect(d.loaded.map(\.id) == ["3", "4"])
            #expect(d.loaded.map { $0.end - $0.start } == [1_000_000, 1_000_000])
        }

        @Test(arguments: ["true", "false"])
        func aBooleanDurationIsABadFieldType(literal: String) throws {
            let json = #"{"timestamp":"2026-02-23T09:00:00Z","duration":"# + literal + "}"
            let d = try decodeSource(Self.oneEvent(json))
            #expect(d.skipped.count(.badFieldType) == 1, "a duration of \(literal) was accepted")
        }

        @Test func aHostWithOnlyAFKTimeKeepsNothing() throws {
            let text = """
                {"buckets": {
                  "w": {"type": "currentwindow", "hostname": "h", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"}}]},
                  "a": {"type": "afkstatus", "hostname": "h", "events": [{"timestamp": "2026-02-23T08:00:00Z", "duration": 7200, "data": {"status": "afk"}}]}
                }}
                """
            let d = try decodeSource(text)
            #expect(d.sessions.isEmpty)
            #expect(d.skipped.total == 0)
        }

        @Test func overlappingNotAFKPeriodsAreUnited() {
            let periods = ActivityWatchRead.union([5..<10, 0..<3, 2..<4, 10..<12, 20..<25, 21..<22])
            #expect(periods == [0..<4, 5..<12, 20..<25])
            #expect(ActivityWatchRead.intersections(of: 3..<21, with: periods) == [3..<4, 5..<12, 20..<21])
            #expect(ActivityWatchRead.intersections(of: 12..<20, with: periods) == [])
            #expect(ActivityWatchRead.intersections(of: -5..<100, with: periods) == periods)
        }

        @Test(arguments: [#"{"buckets": []}"#, #"{"buckets": {"x": 1}}"#, #"{"buckets": null}"#])
        func aMalformedExportNamesTheFormat(text: String) {
            guard case .malformed(let format, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(format == SourceFormat.activityWatch.rawValue)
        }

        @Test func invalidJSONInAnExportIsASyntaxError() {
            let text = "{\"buckets\": {\n  \"w\": {\"type\": \"currentwindow\",,}\n}}"
            guard case .syntax(let line, _, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 2)
        }

        /// The same docs/DATA.md §1 repair as for Timewarrior: an app name with invalid UTF-8 keeps its event.
        @Test func bugAWInvalidUTF8FailsTheWholeLoad() throws {
            var bytes = Array(#"{"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"#.utf8)
            bytes += [0xC3]
            bytes += Array(#""}}]}}}"#.utf8)
            let d = try decodeSource(bytes)
            #expect(d.loaded.map(\.app) == ["A\u{FFFD}"])
            #expect(d.repairedStrings == 1)
        }

        /// One event that is not an object must not silently drop the whole bucket.
        @Test func bugAWNonObjectEventDropsTheWholeBucket() throws {
            let text = """
                {"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [
                  {"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"}},
                  "junk"
                ]}}}
                """
            let d = try decodeSource(text)
            #expect(d.sessions.count == 1)
            #expect(d.skipped.count(.notAnObject) == 1)
        }
    }
}
