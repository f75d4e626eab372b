// CellWidthTests.swift — terminal cell widths (the generated East Asian Width table and the grapheme rules), table-driven.
import Testing
@testable import UsageRender

struct CellWidthTests {
    /// (case, text, cells).
    static let cases: [(String, String, Int)] = [
        ("ASCII", "usage", 5),
        ("empty", "", 0),
        ("Latin with precomposed acute", "Café", 4),
        ("e + combining acute U+0301", "e\u{301}", 1),
        ("CJK ideographs", "漢字", 4),
        ("Hangul syllables", "한국어", 6),
        ("Hiragana", "ひらがな", 8),
        ("Katakana", "カタカナ", 8),
        ("ideographic space U+3000", "\u{3000}", 2),
        ("fullwidth Latin U+FF21", "\u{FF21}", 2),
        ("fullwidth word", "Ｆｕｌｌ", 8),
        ("halfwidth Katakana U+FF71", "\u{FF71}", 1),
        ("emoji 😀 U+1F600", "😀", 2),
        ("emoji ⌚ U+231A", "⌚", 2),
        ("emoji ☔ U+2614", "☔", 2),
        ("emoji 🚀 U+1F680", "🚀", 2),
        ("VS16 ☺️", "\u{263A}\u{FE0F}", 2),
        ("text-presentation ☺ U+263A", "\u{263A}", 1),
        ("text-presentation 🌡 U+1F321", "\u{1F321}", 1),
        ("VS16 🌡️", "\u{1F321}\u{FE0F}", 2),
        ("ZWJ family 👨‍👩‍👧", "👨\u{200D}👩\u{200D}👧", 2),
        ("flag 🇯🇵", "🇯🇵", 2),
        ("lone regional indicator U+1F1EF", "\u{1F1EF}", 2),
        ("zero-width space U+200B", "\u{200B}", 0),
        ("zero-width space between letters", "a\u{200B}b", 2),
        // Bug: a soft hyphen counted 0 cells, but terminals (tmux, xterm; glibc wcwidth) draw it in
        // one, so an app row holding one overflowed an 80-column terminal by a cell.
        ("bug: soft hyphen U+00AD takes a cell in terminals", "\u{AD}", 1),
        ("soft hyphen between letters", "a\u{AD}b", 3),
        ("box drawing ─ U+2500", "\u{2500}", 1),
        ("full block █ U+2588", "\u{2588}", 1),
        ("ambiguous middle dot · U+00B7", "\u{B7}", 1),
        ("ambiguous ellipsis … U+2026", "\u{2026}", 1),
        ("CJK Extension B U+20000", "\u{20000}", 2),
        ("unassigned U+3A000 (default wide)", "\u{3A000}", 2),
        ("unassigned U+3FFFD (default wide)", "\u{3FFFD}", 2),
        ("mixed", "微信 🎵 Café", 12),
    ]

    @Test func cellsPerCase() {
        for (name, text, expected) in Self.cases {
            let got = TerminalText.cells(text)
            #expect(got == expected, "\(name): \(got) cells, expected \(expected)")
        }
    }

    @Test func generatedTableIsSortedAndNonOverlapping() {
        let ranges = EastAsianWidth.wideRanges
        #expect(!ranges.isEmpty)
        #expect(ranges.first!.lowerBound >= 0x1100, "isWide's v < 0x1100 shortcut needs this")
        #expect(ranges.last!.upperBound <= 0x10FFFF)
        for (a, b) in zip(ranges, ranges.dropFirst()) {
            #expect(a.upperBound + 1 < b.lowerBound, "\(hex(a)) then \(hex(b)): not sorted, overlapping or not merged")
        }
    }

    @Test func binarySearchAgreesWithTheTableAtEveryBoundary() {
        let ranges = EastAsianWidth.wideRanges
        var probes: [UInt32] = [0, 0x10FF, 0x10FFFF]
        for r in ranges {
            probes += [r.lowerBound - 1, r.lowerBound, r.upperBound, r.upperBound + 1]
        }
        for v in probes {
            let expected = ranges.contains { $0.contains(v) }
            #expect(EastAsianWidth.isWide(v) == expected, "U+\(String(v, radix: 16, uppercase: true))")
        }
    }

    @Test func fitNeverSplitsAWideCharacter() {
        #expect(TerminalText.fit("漢字漢字", width: 4) == "漢…")
        #expect(TerminalText.fit("漢字漢字", width: 5) == "漢字…")
        #expect(TerminalText.fit("漢字漢字", width: 8) == "漢字漢字")
        let text = "Café 漢字 😀 🇯🇵 e\u{301}ｱ한"
        for width in 0...10 {
            let fitted = TerminalText.fit(text, width: width)
            #expect(TerminalText.cells(fitted) <= width, "width \(width): \"\(fitted)\"")
            let kept = fitted.hasSuffix("…") ? String(fitted.dropLast()) : fitted
            #expect(text.starts(with: kept), "width \(width): \"\(fitted)\" is not a prefix of whole characters")
        }
    }

    private func hex(_ r: ClosedRange<UInt32>) -> String {
        "\(String(r.lowerBound, radix: 16, uppercase: true))...\(String(r.upperBound, radix: 16, uppercase: true))"
    }
}
