// FuzzRegressionTests.swift — what fuzzing (scripts/fuzz, Fuzz/) found and what it takes for granted: each crash or differential failure becomes a test here named after the bug, with its input inline.
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore

// Found in the scanner and parser of issue 8: nothing (the streaming readers of issue 19: see
// StreamingFuzzRegressionTests below). The targets ran about 71 million inputs (the JSON
// scanner 8.5 million, the RFC 3339 parser 62.6 million, in runs of up to 20 minutes) with no
// crash, no sanitizer report and no difference from their references; the one failure, after
// 0.4 million JSON inputs, was the harness's own (its copy for Foundation turned an invalid
// escape into a valid one) and was fixed there. A failure found later goes here as
// `@Test func <whatWentWrong>()` with the input from the failure message (printed as a Swift
// literal), next to the fix in Sources/UsageFormats.

/// Found by the ActivityWatch and NDJSON targets (issue 19), in the new streaming readers.
struct StreamingFuzzRegressionTests {
    /// A number cut by a chunk's end (`6` of `60`) was taken whole, in a value the ActivityWatch
    /// reader skips, so the chunk after began with `0` and the load failed where one read passed.
    @Test func aNumberCutByAChunkEndWasTakenWhole() throws {
        let text = #"{"buckets": {"w": {"type": "currentwindow", "duration": 60, "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"}}]}}}"#
        let bytes = Array(text.utf8)
        let whole = try bytes.withUnsafeBufferPointer { b throws(IngestError) in try ActivityWatchRead.read(b, document: .export).dataset(source: "t") }
        for chunk in 1...12 {
            let chunked = try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: Chunking(segmentBytes: chunk, readBytes: chunk)).dataset(source: "t")
            }
            #expect(chunked.sessions.count == whole.sessions.count, "chunks of \(chunk)")
            #expect(chunked.sessions.first?.end == whole.sessions.first?.end)
        }
    }

    /// Found by the csv target (issue 28): a `'` followed by a combining mark (U+0301) and `=`
    /// is no formula guard — no trigger follows the `'` — so reading keeps the cell whole.
    /// `unguarded` dropped the first Character, and `'` with its mark is one: the mark went with
    /// the `'`, the `=` behind it looked like a guarded trigger, and the reference CSV reader
    /// dropped two scalars where the byte-level reader (rightly) dropped none.
    @Test func bugFormulaGuardBeforeACombiningMarkWasDroppedWithIt() {
        #expect(SpreadsheetCell.unguarded("'\u{301}=SUM(A1)") == "'\u{301}=SUM(A1)")
        #expect(SpreadsheetCell.unguarded("'\u{301}") == "'\u{301}")
        // A real guard is still taken off, and a guarded cell that begins with a mark reads back.
        #expect(SpreadsheetCell.unguarded("'=\u{301}x") == "=\u{301}x")
        #expect(SpreadsheetCell.unguarded(SpreadsheetCell.guarded("\u{301}=x")) == "\u{301}=x")
        #expect(SpreadsheetCell.unguarded(SpreadsheetCell.guarded("'\u{301}=x")) == "'\u{301}=x")
    }

    /// `\u` followed by fewer than four bytes: a byte that is not a hex digit is where the error
    /// is, as with four bytes to look at (it was the `\u`'s place at the end of a line or input).
    @Test func aShortUnicodeEscapeFailsAtItsFirstBadByte() {
        #expect(throws: IngestError.syntax(line: 1, column: 7, message: "expected four hex digits after '\\u'")) {
            try SessionsJSON.decode(#"["a\u0t"#)
        }
        #expect(throws: IngestError.syntax(line: 1, column: 6, message: "expected four hex digits after '\\u'")) {
            try SessionsJSON.decode(#"["a\u0"#)
        }
    }
}

/// The JSON target (Fuzz/JSONScannerFuzz.swift) excuses JSONSerialization for rejecting what
/// docs/DATA.md §1 has us accept. Were ours to start rejecting one of these as well, both would reject
/// and the target could not notice; these tests would. (The byte order mark, deep nesting, lone
/// surrogates, invalid UTF-8, a raw U+FEFF and trailing commas have theirs in IngestTests and
/// DifferentialIngestTests.)
struct FuzzLeniencyTests {
    /// `1e400` is a JSON number (RFC 8259 sets no range) that Foundation cannot represent.
    @Test func numbersBeyondDoubleRangeAreValidJSON() throws {
        let d = try SessionsJSON.decode("[\(row(id: "1e400")), \(row(app: "-1E+400")), 1e400]")
        #expect(Array(d.sessions).map(\.id) == ["1e400"])
        #expect(d.skipped.count(.badFieldType) == 1)
        #expect(d.skipped.count(.notAnObject) == 1)
    }

    /// Foundation reads these as UTF-16 or UTF-32 (the program's source detection tells the
    /// user to convert such files before the scanner sees them); to the scanner they are not JSON.
    @Test(arguments: [
        [0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00],  // [1] in UTF-16LE
        [0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D],  // [1] in UTF-16BE
        [0x5B, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00, 0x00],  // [] in UTF-32LE
        [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00],  // [] in UTF-16LE with a byte order mark
        [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x5D],  // [] in UTF-16BE with a byte order mark
    ] as [[UInt8]])
    func utf16AndUTF32AreNotJSONToTheScanner(bytes: [UInt8]) {
        #expect {
            try SessionsJSON.decode(bytes, source: "t")
        } throws: { error in
            guard case .syntax(line: 1, _, _) = error as? IngestError else { return false }
            return true
        }
    }

    /// 513 nested arrays: one more than JSONSerialization allows.
    @Test func nestingDeeperThanFoundationAllowsIsAccepted() throws {
        let nested = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let d = try SessionsJSON.decode("[\(nested), \(row())]")
        #expect(d.sessions.count == 1)
        #expect(d.skipped.count(.notAnObject) == 1)
    }
}
