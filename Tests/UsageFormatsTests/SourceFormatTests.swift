// SourceFormatTests.swift — the format layer: detection by content, decode dispatch and error wrapping, and the helpers every SourceFormat*Tests.swift file uses; each format's own suite is in SourceFormat<Format>Tests.swift (docs/DATA.md §1–2).
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

// MARK: - Helpers

func detectFormat(_ bytes: [UInt8]) -> SourceFormat {
    bytes.withUnsafeBufferPointer { SourceFormat.detect($0) }
}

func detectFormat(_ text: String) -> SourceFormat { detectFormat(Array(text.utf8)) }

/// Decodes through the one public entry point, as a load does.
func decodeSource(_ bytes: [UInt8], source: String = "src") throws(LoadError) -> Dataset {
    try bytes.withUnsafeBufferPointer { buffer throws(LoadError) in
        try SourceFormat.load(buffer, source: source, cancellation: CancellationToken())
    }
}

func decodeSource(_ text: String, source: String = "src") throws(LoadError) -> Dataset {
    try decodeSource(Array(text.utf8), source: source)
}

/// The ingest error a decode fails with (nil when it succeeds or fails otherwise).
func ingestError(_ bytes: [UInt8], source: String = "src") -> IngestError? {
    do {
        _ = try decodeSource(bytes, source: source)
        return nil
    } catch {
        guard case .invalid(let named, let inner) = error, named == source else { return nil }
        return inner
    }
}

func ingestError(_ text: String) -> IngestError? { ingestError(Array(text.utf8)) }

/// A sessions-JSON row (also an NDJSON line).
func sessionLine(
    id: String = "\"S-1\"", app: String = "\"Safari\"", category: String = "\"Productivity\"",
    start: String = "\"2026-02-23T09:00:00Z\"", end: String = "\"2026-02-23T09:30:00Z\""
) -> String {
    "{\"session_id\": \(id), \"app_name\": \(app), \"category\": \(category), \"start_timestamp\": \(start), \"end_timestamp\": \(end)}"
}

let csvHeader = "session_id,app_name,category,start_timestamp,end_timestamp"

// MARK: - Detection

/// Every suite of the SourceFormat*Tests.swift files, so that `--filter SourceFormatTests` runs them all.
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
