// SourceFormatNDJSONTests.swift — NDJSON through the format layer (docs/DATA.md §1–2), a suite of SourceFormatTests.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

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
