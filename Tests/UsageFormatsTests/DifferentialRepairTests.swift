// DifferentialRepairTests.swift — the U+FFFD and U+FEFF tables: invalid UTF-8 and lone surrogates repaired, raw U+FEFF kept, with the expectations written out (JSONSerialization rejects these inputs).
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport

/// U+FEFF inside a string is a character like any other (not White_Space: never trimmed). The
/// differential encodes it as `\ufeff` because JSONSerialization drops it raw after a quote or an
/// escape; here it is raw, at those places.
struct DifferentialRawFEFFTests {
    static let valid = DifferentialRepairTests.valid

    @Test(arguments: [
        ("\u{FEFF}Safari", "\u{FEFF}Safari"),
        ("\u{FEFF}", "\u{FEFF}"),
        ("\\t\u{FEFF}x", "\u{FEFF}x"),
        ("a\\\"\u{FEFF}b", "a\"\u{FEFF}b"),
        (" \u{FEFF} ", "\u{FEFF}"),
    ])
    func aRawFEFFInANameIsKept(json: String, expected: String) throws {
        let d = try SessionsJSON.decode(
            "[{\"session_id\": \"\u{FEFF}1\", \"app_name\": \"\(json)\", \"category\": \"\u{FEFF}\", \(Self.valid)}]", source: "t")
        let session = try #require(Array(d.sessions).first)
        #expect(Differential.scalars(d.apps[Int(session.app)]) == Differential.scalars(expected))
        #expect(Differential.scalars(d.categories[Int(session.category)]) == [0xFEFF])
        #expect(session.id.map(Differential.scalars) == [0xFEFF, 0x31])
        #expect(d.repairedStrings == 0)
    }
}

/// docs/DATA.md §1: invalid UTF-8 and lone surrogate escapes inside strings become U+FFFD, the row stays,
/// and the repaired strings are counted. JSONSerialization rejects these inputs, so there is no
/// reference here: the expectations are written out.
struct DifferentialRepairTests {
    static let valid = #""start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z""#

    /// (app_name value as JSON bytes, expected app name)
    static let appCases: [([UInt8], String)] = [
        (Array(#""\ud800""#.utf8), "\u{FFFD}"),
        (Array(#""a\udc00b""#.utf8), "a\u{FFFD}b"),
        (Array(#""\ud800\ud800""#.utf8), "\u{FFFD}\u{FFFD}"),
        (Array(#""x\ud83c""#.utf8), "x\u{FFFD}"),
        (Array(#""\udfb5\ud83c""#.utf8), "\u{FFFD}\u{FFFD}"),
        (Array(#""\ud83c\u0041""#.utf8), "\u{FFFD}A"),
        (Array(#""\ud83c\nz""#.utf8), "\u{FFFD}\nz"),
        (Array(#""\uDBFF\uDFFF\uDC00""#.utf8), "\u{10FFFF}\u{FFFD}"),
        (Array(#""\ud83c\udfb5 ok \ud800""#.utf8), "🎵 ok \u{FFFD}"),
        ([0x22, 0x61, 0xFF, 0x62, 0x22], "a\u{FFFD}b"),
        ([0x22, 0xC3, 0x28, 0x22], "\u{FFFD}("),
        ([0x22, 0x78, 0xC3, 0x22], "x\u{FFFD}"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "\u{FFFD}\u{FFFD}\u{FFFD}"),  // UTF-8 of a surrogate
        ([0x22, 0xC0, 0xAF, 0x22], "\u{FFFD}\u{FFFD}"),  // overlong "/"
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),  // beyond U+10FFFF
        ([0x22, 0x80, 0x5C, 0x6E, 0x7A, 0x22], "\u{FFFD}\nz"),  // invalid bytes and an escape in one string
        ([0x22, 0x20, 0xFE, 0x20, 0x22], "\u{FFFD}"),  // repaired, then trimmed
    ]

    @Test(arguments: appCases)
    func anAppNameIsRepairedAndTheRowStays(value: [UInt8], expected: String) throws {
        let bytes = Array(#"[{"session_id": "r", "app_name": "#.utf8) + value + Array(", \(Self.valid)}]".utf8)
        let d = try SessionsJSON.decode(bytes, source: "t")
        #expect(d.sessions.count == 1)
        #expect(d.skipped.total == 0)
        #expect(d.apps.map(Differential.scalars) == [Differential.scalars(expected)])
        #expect(d.repairedStrings == 1)
    }

    @Test func aTruncatedSequenceBecomesReplacementCharacters() throws {
        // E2 82 is the start of a three-byte sequence cut short: one U+FFFD (Unicode's maximal
        // subpart) or two (per byte) are both replacements; the letters around it stay.
        let bytes = Array(#"[{"app_name": "a"#.utf8) + [0xE2, 0x82] + Array(#"b", \#(Self.valid)}]"#.utf8)
        let d = try SessionsJSON.decode(bytes, source: "t")
        let name = try #require(d.apps.first)
        #expect(name.hasPrefix("a") && name.hasSuffix("b"))
        #expect(name.unicodeScalars.dropFirst().dropLast().allSatisfy { $0 == "\u{FFFD}" })
        #expect(d.repairedStrings == 1)
    }

    @Test func everyRepairedStringIsCountedOnce() throws {
        let row = #"{"session_id": "id\udc00", "app_name": "a\ud800\ud800", "category": "c"# + "\u{FFFD}" + #"", "#
        var bytes = Array("[\(row)\(Self.valid)},\n".utf8)
        // A second row whose category holds raw invalid bytes.
        bytes += Array(#"{"category": "x"#.utf8) + [0xFF, 0xFF] + Array(#"", \#(Self.valid)}]"#.utf8)
        let d = try SessionsJSON.decode(bytes, source: "t")
        #expect(d.sessions.count == 2)
        // The literal U+FFFD written in the input is no repair; the other three strings are.
        #expect(d.repairedStrings == 3)
        let ids = Array(d.sessions).map(\.id)
        #expect(ids.contains("id\u{FFFD}"))
        #expect(Set(d.categories.map(Differential.scalars)) == [Differential.scalars("c\u{FFFD}"), Differential.scalars("x\u{FFFD}\u{FFFD}")])
    }

    @Test func aSkippedRowKeepsItsRepairedID() throws {
        let bytes = Array("[\n\n".utf8) + Array(#"{"session_id": "s"#.utf8) + [0xC3] + Array(#"", "start_timestamp": null}]"#.utf8)
        let d = try SessionsJSON.decode(bytes, source: "t")
        #expect(d.skipped.count(.missingTimestamp) == 1)
        let example = try #require(d.skipped.examples[.missingTimestamp]?.first)
        #expect(example.sessionID == "s\u{FFFD}")
        #expect(example.line == 3)
        #expect(d.repairedStrings == 1)
    }

    @Test func aValidPairAndALiteralReplacementCharacterAreNoRepair() throws {
        let d = try SessionsJSON.decode(
            "[{\"app_name\": \"\\ud83c\\udfb5 \u{FFFD}\", \(Self.valid)}]", source: "t")
        #expect(d.apps == ["🎵 \u{FFFD}"])
        #expect(d.repairedStrings == 0)
    }
}
