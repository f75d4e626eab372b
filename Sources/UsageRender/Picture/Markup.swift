// Markup.swift — XML and HTML written safely: every text and attribute value escaped, data text first shown in the terminal's safe form (controls and bidi controls as visible escapes), characters XML cannot hold escaped too; numbers written as SVG reads them.
import UsageCore

/// A document being written: elements, attributes and text, each piece escaped as it goes in.
/// Nothing from data can end an element or start one: `<`, `>`, `&`, `"` and `'` always become
/// entities.
struct Markup {
    private(set) var text = ""

    init() { text.reserveCapacity(16_384) }

    /// `<name a="v" …>`; `close: true` writes `<name … />`.
    mutating func open(_ name: String, _ attributes: [(String, String)] = [], close: Bool = false) {
        text += "<" + name
        for (key, value) in attributes {
            text += " " + key + "=\""
            Self.escape(value, into: &text)
            text += "\""
        }
        text += close ? "/>" : ">"
    }

    mutating func close(_ name: String) { text += "</" + name + ">" }

    /// `<name …>text</name>`.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text content: String) {
        open(name, attributes)
        Self.escape(content, into: &text)
        close(name)
    }

    /// Text of the program's own or of data, escaped.
    mutating func write(_ content: String) { Self.escape(content, into: &text) }

    /// An element whose text is escaped and whose durations (`8h 45m`) and dates (`2026-02-23`:
    /// a browser breaks after a hyphen) are kept on one line
    /// (`<span class="nw">`: the HTML report's style sheet never wraps it), so running text
    /// breaks between words but never inside a time.
    mutating func elementKeepingTimes(_ name: String, _ attributes: [(String, String)] = [], text content: String) {
        open(name, attributes)
        writeKeepingTimes(content)
        close(name)
    }

    /// Text escaped, its durations kept on one line (`elementKeepingTimes`).
    mutating func writeKeepingTimes(_ content: String) {
        var rest = Substring(content)
        while let match = rest.firstMatch(of: /\d+h \d+m|\d{4}-\d\d-\d\d/) {
            Self.escape(String(rest[..<match.range.lowerBound]), into: &text)
            text += "<span class=\"nw\">"
            Self.escape(String(match.output), into: &text)
            text += "</span>"
            rest = rest[match.range.upperBound...]
        }
        Self.escape(String(rest), into: &text)
    }

    /// Markup the program wrote itself (a style sheet, a doctype): never data.
    mutating func raw(_ markup: String) { text += markup }

    mutating func newline() { text += "\n" }

    /// Data text as the terminal shows it (`TerminalText.sanitize`: a control character or a
    /// bidi control as `\u{202E}`), then safe for XML: every character XML 1.0 cannot hold
    /// (U+FFFE, U+FFFF) shown as an escape too.
    ///
    /// Text written right to left (a run of Hebrew or Arabic words in a name, or in a line made
    /// of one) is isolated between U+2068 and U+2069 (first-strong isolate, pop: what `<bdi>` and
    /// `unicode-bidi: isolate` do), so it never reorders the text around it (`עברית · 1 session`,
    /// not `1 · עברית session`).
    static func shown(_ name: String) -> String {
        let safe = isolated(TerminalText.sanitize(name))
        guard safe.unicodeScalars.contains(where: { !allowedInXML($0) }) else { return safe }
        var out = ""
        for scalar in safe.unicodeScalars {
            if allowedInXML(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    /// `text` with each right-to-left run between U+2068 and U+2069: from a right-to-left letter
    /// to the last one before a left-to-right letter (spaces and punctuation between two
    /// right-to-left words stay inside; digits and ` · ` after the last one stay outside). Text
    /// without a right-to-left letter is returned as it is.
    static func isolated(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: rightToLeft) else { return text }
        let scalars = Array(text.unicodeScalars)
        var runs: [Range<Int>] = []
        var start: Int?
        var last = 0
        for (k, scalar) in scalars.enumerated() {
            if rightToLeft(scalar) {
                if start == nil { start = k }
                last = k
            } else if scalar.properties.isAlphabetic, let s = start {
                runs.append(s..<last + 1)
                start = nil
            }
        }
        if let s = start { runs.append(s..<last + 1) }
        var out = String.UnicodeScalarView()
        var k = 0
        for run in runs {
            out.append(contentsOf: scalars[k..<run.lowerBound])
            out.append("\u{2068}")
            out.append(contentsOf: scalars[run])
            out.append("\u{2069}")
            k = run.upperBound
        }
        out.append(contentsOf: scalars[k...])
        return String(out)
    }

    /// A letter of a right-to-left script: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
    /// Mandaic and their presentation forms, and the historic scripts of the SMP's RTL blocks.
    static func rightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// XML 1.0's `Char`: tab, newline, carriage return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and up.
    static func allowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Escapes `& < > " '` (valid in text and in attribute values alike), and writes a character
    /// XML cannot hold (a C0 control but tab, newline and return; U+FFFE, U+FFFF) as a visible
    /// escape, so whatever reaches it — data not made safe first included — the file stays
    /// well-formed.
    static func escape(_ content: String, into out: inout String) {
        let utf8 = content.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            var next = utf8.index(after: index)
            let replacement: String?
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            case 0x09, 0x0A, 0x0D: replacement = nil
            case 0..<0x20: replacement = "\\u{\(String(byte, radix: 16, uppercase: true))}"
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                let rest = utf8[next...].prefix(2)
                if rest.first == 0xBF, let last = rest.dropFirst().first, last == 0xBE || last == 0xBF {
                    replacement = last == 0xBE ? "\\u{FFFE}" : "\\u{FFFF}"
                    next = utf8.index(next, offsetBy: 2)
                } else {
                    replacement = nil
                }
            default: replacement = nil
            }
            if let replacement {
                out += content[start..<index]
                out += replacement
                start = next
            }
            index = next
        }
        out += content[start..<utf8.endIndex]
    }

    /// A coordinate or length: at most two decimals, no trailing zeros (`12`, `12.5`, `12.25`).
    static func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite else { return "0" }
        let n = Int64(hundredths)
        let sign = n < 0 ? "-" : ""
        let whole = abs(n) / 100
        let fraction = abs(n) % 100
        if fraction == 0 { return sign + String(whole) }
        if fraction % 10 == 0 { return sign + "\(whole).\(fraction / 10)" }
        return sign + "\(whole)." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// `#0072b2`.
    static func hex(_ rgb: Int) -> String {
        let digits = String(rgb & 0xFFFFFF, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
