// ReaderDeliberateDifferenceTests.swift — where the byte-level readers differ on purpose from the old readers they replaced (Fuzz/Reference).
import Foundation
import ReferenceReaders
import Testing
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData
import TestSupport

/// Where the readers differ on purpose from the old ones they replaced (`Fuzz/Reference`, kept
/// for these tests only: the fuzz targets compare the readers with the references in
/// `Reference/`, which share no parsing code with them, and excuse nothing).
@Suite struct ReaderDeliberateDifferenceTests {
    /// The old NDJSON reader glued a comma after every line, so a value broken over two lines
    /// where the comma made it whole again was read as one session; NDJSON is one value a line.
    @Test func bugNDJSONValueOverTwoLinesWasReadAsOne() {
        let text = #"{"session_id": "a", "start_timestamp": "2026-02-23T09:00:00Z""# + "\n"
            + #""end_timestamp": "2026-02-23T09:30:00Z"}"# + "\n"
        #expect(ReaderDifferential.ndjsonOld(Array(text.utf8)).error == nil)
        #expect(ReaderDifferential.ndjsonNew(Array(text.utf8), .standard).error
            == .syntax(line: 1, column: 62, message: "the line ends before its JSON value does"))
    }

    /// The old NDJSON reader compared an error's column (characters) with the line's length in
    /// bytes: on a line with non-ASCII text, a string cut by the line's end was "control
    /// character U+000A"; it is now what it is on any line.
    @Test func bugNDJSONLineEndOnNonASCIILineWasAControlCharacter() {
        let text = #"{"app_name": "微信"# + "\n"
        #expect(ReaderDifferential.ndjsonOld(Array(text.utf8)).error
            == .syntax(line: 1, column: 17, message: "control character U+000A inside a string"))
        #expect(ReaderDifferential.ndjsonNew(Array(text.utf8), .standard).error
            == .syntax(line: 1, column: 17, message: "the line ends before its JSON value does"))
    }

    /// Foundation decodes a string only when asked for it, so the old ActivityWatch reader let a
    /// raw line break (or a bad escape) through in a title; the new one holds every string to
    /// RFC 8259, as the sessions JSON reader does.
    @Test func aRawControlCharacterInATitleIsInvalidJSON() {
        let text = #"{"buckets": {"w": {"type": "currentwindow", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A", "title": "a"# + "\n" + #"b"}}]}}}"#
        #expect(ReaderDifferential.awOld(Array(text.utf8)).sessions.count == 1)
        #expect(ReaderDifferential.awNew(Array(text.utf8), .standard).error
            == .syntax(line: 1, column: 142, message: "control character U+000A inside a string"))
    }

    /// The old reader replaced each invalid byte by U+FFFD; the new one each invalid sequence,
    /// as the sessions JSON reader and Swift's `String(decoding:)` do.
    @Test func aTruncatedUTF8SequenceIsOneReplacementCharacter() {
        let bytes = Array(#"{"buckets": {"w": {"type": "currentwindow", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"#.utf8)
            + [0xF0, 0x9F, 0x98] + Array(#""}}]}}}"#.utf8)
        let d = ReaderDifferential.awNew(bytes, .standard)
        #expect(d.apps == ["A\u{FFFD}"])
        #expect(d.repaired == 1)
        #expect(ReaderDifferential.awOld(bytes).apps == ["A\u{FFFD}\u{FFFD}\u{FFFD}"])
    }
}
