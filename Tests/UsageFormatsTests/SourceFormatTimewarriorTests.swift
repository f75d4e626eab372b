// SourceFormatTimewarriorTests.swift — Timewarrior exports through the format layer (docs/DATA.md §1–2), a suite of SourceFormatTests.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

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
