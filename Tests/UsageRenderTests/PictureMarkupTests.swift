// PictureMarkupTests.swift — the pieces the saved pictures are written with: escaping for XML and HTML, data names in their safe form, numbers as SVG reads them, the ring's sectors, text fitted and wrapped by its estimated width.
import Foundation
import Testing
@testable import UsageRender

struct PictureMarkupTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("a & b", "a &amp; b"),
        ("</text><script>alert(1)</script>", "&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("\"><img src=x onerror=alert(1)>", "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
        ("it's", "it&#39;s"),
        ("微信 & 👨‍👩‍👧", "微信 &amp; 👨‍👩‍👧"),
        ("", ""),
    ])
    func escapeTurnsEveryMarkupCharacterIntoAnEntity(input: String, expected: String) {
        var out = ""
        Markup.escape(input, into: &out)
        #expect(out == expected)
    }

    @Test(arguments: [
        ("evil\u{202E}txt.exe", "evil\\u{202E}txt.exe"),
        ("\u{1B}[31mred", "\\e[31mred"),
        ("tab\there", "tab\\there"),
        ("line\u{2028}break", "line\\u{2028}break"),
        ("noncharacter\u{FFFE}\u{FFFF}", "noncharacter\\u{FFFE}\\u{FFFF}"),
        ("Café", "Café"),
    ])
    func dataTextIsShownInTheTerminalsSafeFormAndWhatXMLCanHold(input: String, expected: String) {
        #expect(Markup.shown(input) == expected)
        #expect(Markup.shown(input).unicodeScalars.allSatisfy(Markup.allowedInXML))
    }

    @Test(arguments: [(0.0, "0"), (12.0, "12"), (12.5, "12.5"), (12.25, "12.25"), (12.255, "12.26"), (-3.1, "-3.1"), (0.004, "0"), (-0.004, "0"), (100.05, "100.05")])
    func numbersHaveAtMostTwoDecimals(value: Double, expected: String) {
        #expect(Markup.number(value) == expected)
    }

    @Test func hexColoursHaveSixDigits() {
        #expect(Markup.hex(0x0072B2) == "#0072b2")
        #expect(Markup.hex(0) == "#000000")
    }

    /// A quarter turn from 12 o'clock: the outer arc from the top to 3 o'clock, in to the hole, back along it.
    @Test func aSectorIsTwoArcsBetweenItsAngles() {
        let d = SVGCanvas.sector(cx: 100, cy: 100, outer: 50, inner: 30, from: 0, to: 0.25)
        #expect(d == "M100 50 A50 50 0 0 1 150 100 L130 100 A30 30 0 0 0 100 70 Z")
        // More than half a turn takes the large arc.
        let large = SVGCanvas.sector(cx: 0, cy: 0, outer: 10, inner: 5, from: 0, to: 0.75)
        #expect(large == "M0 -10 A10 10 0 1 1 -10 0 L-5 0 A5 5 0 1 0 0 -5 Z")
        // A whole turn is two half rings (one arc cannot end where it starts).
        let whole = SVGCanvas.sector(cx: 0, cy: 0, outer: 10, inner: 5, from: 0, to: 1)
        #expect(whole == "M0 -10 A10 10 0 0 1 0 10 L0 5 A5 5 0 0 0 0 -5 Z M0 10 A10 10 0 0 1 0 -10 L0 -5 A5 5 0 0 0 0 5 Z")
    }

    @Test func textIsCutToItsWidthWithAnEllipsisAndWrappedAtSpaces() {
        #expect(PictureStyle.fitted("Safari", width: 100, size: 12) == "Safari")
        let cut = PictureStyle.fitted("Visual Studio Code — Insiders", width: 100, size: 12)
        #expect(cut.hasSuffix("…") && PictureStyle.textWidth(cut, size: 12) <= 100)
        // By kind of character, in ems: narrow and wide letters, capitals, a wide character.
        #expect(abs(PictureStyle.textWidth("ilj", size: 10) - 10.8) < 1e-9)
        #expect(abs(PictureStyle.textWidth("MWa", size: 10) - 26.2) < 1e-9)
        #expect(abs(PictureStyle.textWidth("微信 9", size: 10) - 30.8) < 1e-9)
        let lines = PictureStyle.wrapped("47h 44m in 7 days · 6h 49m a day on average · busiest Sun 22 Feb (8h 45m)", width: 200, size: 12)
        #expect(lines.count > 1 && lines.allSatisfy { PictureStyle.textWidth($0, size: 12) <= 200 })
        #expect(lines.joined(separator: " ") == "47h 44m in 7 days · 6h 49m a day on average · busiest Sun 22 Feb (8h 45m)")
    }

    @Test func theHTMLsPolicyForbidsEveryRequestAndScript() {
        let html = Figure(title: "t", totals: ["1h total"]).htmlDocument()
        #expect(html.contains("content=\"default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src &#39;none&#39;; font-src &#39;none&#39;;"))
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://") && !html.contains("@import") && !html.contains("url("))
    }

    @Test func aFigureWithoutChartsHasNoSVG() {
        #expect(Figure(title: "t", blocks: [.text(title: nil, ["words"])]).svgDocument() == nil)
    }

    /// A right-to-left category came out reordered in SVG and HTML (`1 · עברית session`: issue
    /// 51, item 10): each right-to-left run is isolated (U+2068 … U+2069), the rest left as it is.
    @Test(arguments: [
        ("עברית · 1 session", "\u{2068}עברית\u{2069} · 1 session"),
        ("By category: שלום עולם 30m (100%)", "By category: \u{2068}שלום עולם\u{2069} 30m (100%)"),
        ("Notes", "Notes"),
        ("مرحبا, Hello עולם", "\u{2068}مرحبا\u{2069}, Hello \u{2068}עולם\u{2069}"),
        ("evil\u{202E}עברית", "evil\\u{202E}\u{2068}עברית\u{2069}"),
    ])
    func item10ARightToLeftNameIsIsolated(input: String, expected: String) {
        #expect(Markup.shown(input) == expected)
    }
}
