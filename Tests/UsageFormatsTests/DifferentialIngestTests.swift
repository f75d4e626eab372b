// DifferentialIngestTests.swift — SessionsJSON.decode checked against an independent Foundation reference of docs/DATA.md §1–2 on seeded dirty documents (small, large, split traps), layout independence, and the U+FFFD / U+FEFF tables.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport

// Everything here lives in `Differential` so that no helper name clashes with the other test files.
//
// The reference decoder is deliberately plain: JSONSerialization parses, a regular expression
// checks the RFC 3339 shape, a table of year starts does the calendar. It needs two facts that
// JSONSerialization cannot give and that the generator records while writing the text: the
// 1-based line where each array element begins, and the literal text of a numeric `session_id`.

enum Differential {

    // MARK: - Seeded randomness (SplitMix64)

    typealias Rng = SplitMix64

    /// The seed of document `index` of a run seeded `base`.
    static func seed(_ base: UInt64, _ index: Int) -> UInt64 {
        var r = Rng(seed: base ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        return r.next()
    }

    // MARK: - JSON text as the generator builds it

    /// A JSON value whose strings are already encoded (the text between the quotes), so that the
    /// same value renders byte-for-byte the same in every layout except for white space.
    indirect enum Value {
        /// `null`, `true`, `false` or a number literal, written as is.
        case atom(String)
        case string(String)
        case array([Value])
        case object([Member])
    }

    struct Member {
        var key: String  // encoded
        var value: Value
    }

    enum Layout {
        case minified
        case pretty(newline: String)
        case random(seed: UInt64)
    }

    /// A rendered document: its bytes and, per array element, where it is and the line it begins on.
    struct Rendered {
        var bytes: [UInt8] = []
        var lines: [Int] = []
        var ranges: [Range<Int>] = []
    }

    struct Renderer {
        enum Gap { case outer, open, close, comma, beforeComma, colon, beforeColon }
        static let spaces = [" ", "\t", "\n", "\r\n", "  ", "\n\t\t", " \r\n ", "\t \n", "\n\n"]
        var out: [UInt8] = []
        var lineFeeds = 0
        let layout: Layout
        var rng: Rng

        init(layout: Layout) {
            self.layout = layout
            if case .random(let seed) = layout { rng = Rng(seed: seed) } else { rng = Rng(seed: 0) }
        }

        mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }

        mutating func gap(_ kind: Gap, depth: Int) {
            var ws = ""
            switch layout {
            case .minified: break
            case .pretty(let newline):
                switch kind {
                case .open, .comma: ws = newline + String(repeating: "  ", count: depth)
                case .close: ws = newline + String(repeating: "  ", count: max(0, depth - 1))
                case .colon: ws = " "
                case .outer: ws = out.isEmpty ? "" : newline
                case .beforeComma, .beforeColon: break
                }
            case .random:
                if rng.chance(0.45) {
                    ws = rng.pick(Self.spaces)
                    if rng.chance(0.2) { ws += rng.pick(Self.spaces) }
                }
            }
            lineFeeds += ws.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            raw(ws)
        }

        mutating func value(_ v: Value, depth: Int) {
            switch v {
            case .atom(let a): raw(a)
            case .string(let s): raw("\"" + s + "\"")
            case .array(let items):
                raw("[")
                if items.isEmpty {
                    if case .random = layout { gap(.beforeComma, depth: depth) }
                    raw("]")
                    return
                }
                for (k, item) in items.enumerated() {
                    gap(k == 0 ? .open : .comma, depth: depth + 1)
                    value(item, depth: depth + 1)
                    gap(.beforeComma, depth: depth + 1)
                    raw(k == items.count - 1 ? "" : ",")
                }
                gap(.close, depth: depth + 1)
                raw("]")
            case .object(let members):
                raw("{")
                if members.isEmpty {
                    if case .random = layout { gap(.beforeComma, depth: depth) }
                    raw("}")
                    return
                }
                for (k, m) in members.enumerated() {
                    gap(k == 0 ? .open : .comma, depth: depth + 1)
                    raw("\"" + m.key + "\"")
                    gap(.beforeColon, depth: depth + 1)
                    raw(":")
                    gap(.colon, depth: depth + 1)
                    value(m.value, depth: depth + 1)
                    gap(.beforeComma, depth: depth + 1)
                    raw(k == members.count - 1 ? "" : ",")
                }
                gap(.close, depth: depth + 1)
                raw("}")
            }
        }
    }

    /// Renders the top-level array, recording where each element begins.
    static func render(_ elements: [Value], layout: Layout, bom: Bool = false) -> Rendered {
        var r = Renderer(layout: layout)
        var result = Rendered()
        if bom { r.out = [0xEF, 0xBB, 0xBF] }
        r.gap(.outer, depth: 0)
        r.raw("[")
        if elements.isEmpty {
            r.gap(.beforeComma, depth: 0)
        }
        for (k, element) in elements.enumerated() {
            r.gap(k == 0 ? .open : .comma, depth: 1)
            let begin = r.out.count
            result.lines.append(r.lineFeeds + 1)
            r.value(element, depth: 1)
            result.ranges.append(begin..<r.out.count)
            r.gap(.beforeComma, depth: 1)
            r.raw(k == elements.count - 1 ? "" : ",")
        }
        if !elements.isEmpty { r.gap(.close, depth: 1) }
        r.raw("]")
        r.gap(.outer, depth: 0)
        result.bytes = r.out
        return result
    }

    // MARK: - String encoding

    static func hex4(_ v: UInt32, _ rng: inout Rng) -> String {
        let h = String(v, radix: 16, uppercase: rng.chance(0.5))
        return "\\u" + String(repeating: "0", count: 4 - h.count) + h
    }

    /// Encodes `s` as JSON string content, choosing among the equivalent escapes at random.
    /// Never writes a raw control character, a lone surrogate or invalid UTF-8.
    static func encode(_ s: String, _ rng: inout Rng, escapeRate: Double? = nil) -> String {
        let rate = escapeRate ?? (rng.chance(0.7) ? 0 : 0.2)
        var out = ""
        for u in s.unicodeScalars {
            let v = u.value
            if v == 0xFEFF {
                // JSONSerialization drops a raw U+FEFF that opens a string or follows an escape;
                // DifferentialRawFEFFTests covers the raw form without it.
                out += hex4(v, &rng)
                continue
            }
            let short: String? =
                switch v {
                case 0x22: "\\\""
                case 0x5C: "\\\\"
                case 0x08: "\\b"
                case 0x0C: "\\f"
                case 0x0A: "\\n"
                case 0x0D: "\\r"
                case 0x09: "\\t"
                default: nil
                }
            if let short {
                out += rng.chance(0.75) ? short : hex4(v, &rng)
            } else if v < 0x20 {
                out += hex4(v, &rng)
            } else if v == 0x2F, rng.chance(max(rate, 0.1)) {
                out += "\\/"
            } else if rng.chance(rate) {
                if v > 0xFFFF {
                    let w = v - 0x10000
                    out += hex4(0xD800 + (w >> 10), &rng) + hex4(0xDC00 + (w & 0x3FF), &rng)
                } else {
                    out += hex4(v, &rng)
                }
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    // MARK: - Timestamps as the generator writes them

    /// Civil date of a day count since 1970-01-01 (the project's own LocalDate: this only writes
    /// the generator's text; the reference decoder reads it back with a table of its own).
    static func civil(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let date = LocalDate(daysSinceEpoch: Int(days))
        return (Int64(date.year), date.month, date.day)
    }

    static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static let offsetsMinutes = [0, 0, 0, 0, 330, -480, 60, -60, 345, 840, -720, 1439, -1439, 525, -150, 1]

    /// An RFC 3339 text of the instant `seconds` + `nanos`, in a random offset and fraction length
    /// (the fraction is the instant's, cut to the digits written).
    static func timestamp(seconds: Int64, nanos: Int64, _ rng: inout Rng) -> String {
        let offset = Int64(rng.pick(offsetsMinutes))
        let local = seconds + offset * 60
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let sod = local - days * 86_400
        let (y, m, d) = civil(days)
        let year = y >= 0 ? pad(y, 4) : "-" + pad(-y, 4)
        var s = "\(year)-\(pad(Int64(m), 2))-\(pad(Int64(d), 2))"
        s += rng.chance(0.15) ? "t" : "T"
        s += "\(pad(sod / 3600, 2)):\(pad(sod / 60 % 60, 2)):\(pad(sod % 60, 2))"
        if rng.chance(0.6) {
            let digits = rng.int(1...9)
            s += "." + String(pad(nanos, 9).prefix(digits))
        }
        if offset == 0 {
            s += rng.pick(["Z", "Z", "Z", "z", "+00:00", "-00:00"])
        } else {
            let a = abs(offset)
            s += (offset < 0 ? "-" : "+") + pad(a / 60, 2) + ":" + pad(a % 60, 2)
        }
        return s
    }

    static let badTimestamps = [
        "2026-02-30T10:00:00Z", "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2100-02-29T12:00:00Z",
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z", "2026-06-31T23:00:00+01:00",
        "2026-01-00T00:00:00Z", "2026-01-32T00:00:00Z", "2026-02-23T24:00:00Z", "2026-02-23T23:60:00Z",
        "2016-12-31T23:59:60Z", "2026-02-23T10:00:00+24:00", "2026-02-23T10:00:00+05:60",
        "2026-02-23T10:00:00+0530", "2026-02-23T10:00:00+05", "2026-02-23T10:00:00.Z",
        "2026-02-23T10:00:00.1234567890Z", "2026-02-23T10:00:00", "2026-02-23 10:00:00Z", "2026-2-23T10:00:00Z",
        "", "Z", "2026-02-23", "not a time", "２０２６-02-23T10:00:00Z", "٢٠٢٦-02-23T10:00:00Z",
        "2026-02-23T10:00:00Z ", " 2026-02-23T10:00:00Z", "2026-02-23T10:00:00Z\n", "2026-02-23T10:00:00,5Z",
        "+2026-02-23T10:00:00Z", "2026-02-23T10:00:00Z\u{301}", "2026-02-23T10:00:00\u{FF3A}",
        "2026-02-23T10:00:00+05:30\n", "2026-02-23T10:00:00.+05:30", "2026-02-23T10:00:00-8:00",
        "2026-02-23T10:00Z", "2026-02-23T10:00:00UTC", "2026-02-23T10:00:00GMT+1", "2026-02-23X10:00:00Z",
        "20260223T100000Z", "2026-02-23T10:00:00.5", "2026-02-23T10:00:00.123456789012Z", "\u{0}",
        // Valid ones among the odd: the reference decides, not this list.
        "2024-02-29T00:00:00Z", "2000-02-29T12:00:00-08:00", "2026-02-23t10:00:00z", "2026-02-23T10:00:00.5-00:00",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.9999999Z",
    ]

    static let mutationScalars: [String] = [
        "0", "1", "9", "-", ":", "T", "t", " ", "Z", "+", ".", "a", "\u{663}", "\u{FF10}", "/", "\u{0}", "\n", "\u{301}",
    ]

    /// A text that is probably not a valid timestamp: a mutated valid one or one of the list.
    static func badTimestamp(_ valid: String, _ rng: inout Rng) -> String {
        if rng.chance(0.5) { return rng.pick(badTimestamps) }
        var s = Array(valid.unicodeScalars)
        let at = rng.below(s.count)
        switch rng.below(6) {
        case 0: s[at] = rng.pick(mutationScalars).unicodeScalars.first!
        case 1: s.remove(at: at)
        case 2: s.insert(rng.pick(mutationScalars).unicodeScalars.first!, at: at)
        case 3: s.append(rng.pick(mutationScalars).unicodeScalars.first!)
        case 4: s.insert(" ", at: 0)
        default:  // drop the offset
            while let last = s.last, "Zz0123456789:+-".unicodeScalars.contains(last), s.count > 19 { s.removeLast() }
        }
        var out = ""
        out.unicodeScalars.append(contentsOf: s)
        return out
    }

    // MARK: - Names and other strings

    static let appNames = [
        "Safari", "Chrome", "Slack", "Mail", "微信", "WeChat", "Café", "Cafe\u{301}", "🎵 Music", "👨‍👩‍👧 Family",
        "Visual Studio Code", "Line\nBreak", "Tab\there", "quo\"te", "back\\slash", "a/b", "\u{1B}[31mred",
        "\u{202E}evil", "nul\u{0}byte", "\u{FFFF}", "\u{10FFFF}x", "(unknown)", "", " ", "\t\n", "\u{A0}",
        "\u{200B}", " \u{301}x", "x \u{301}", "İstanbul", "ß", "Ǆ", "\u{2126}hm", "\u{3A9}hm", "\u{212A}elvin",
        "Kelvin", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{180E}", "\u{1C}", "Other", "others", "日本語の長いアプリ名",
        "Ａｐｐ", "\u{7F}", "\r\n", "😀", "\u{1F3FB}", "ﷺ", "a\u{0}",
    ]

    static let categoryNames = [
        "Productivity", "Social", "Entertainment", "Games", "Utilities", "Education", "other", "Other", "OTHER",
        "others", "OThers", "Others ", "other s", "others.", "otherss", "anOther", "ＯＴＨＥＲ", "Othe\u{301}r",
        "otherſ", "OTHERſ", "Café", "Cafe\u{301}", "社交", "", "  ", "\t", "(unknown)", "Other\u{200B}",
        "\u{A0}other\u{3000}", "\u{85}Others\u{2029}", "\u{1680}OTHER\u{205F}", "\u{1C}other", "\u{212A}", "K",
        "Ｏther", "other\n", "\u{202F}others\u{2000}", "\u{200A}\u{2009}", "other\u{0}",
    ]

    /// White space and look-alikes used to pad names.
    static let padding = [
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{3000}", "\u{85}", "\u{2028}", "\u{2029}", "\u{1680}",
        "\u{2000}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{200B}", "\u{FEFF}", "\u{180E}", "\u{2060}", "\u{1C}",
        "\u{1F}", "\u{301}",
    ]

    static let randomScalars: [String] = [
        "a", "b", "Z", " ", "1", "é", "e", "\u{301}", "微", "信", "🎵", "\u{1F468}", "\u{200D}", "\u{A0}", "\u{3000}",
        "\t", "\n", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}", "\u{202E}", "\u{FEFF}", "\u{FFFF}",
        "\u{10FFFF}", "\"", "\\", "/", "Ω", "\u{2126}", "\u{212A}", "K", "ſ", "İ", "\u{D7FF}", "\u{E000}", "\u{1D11E}",
    ]

    static func randomText(_ rng: inout Rng, maxLength: Int = 12) -> String {
        var s = ""
        for _ in 0..<rng.int(0...maxLength) { s += rng.pick(randomScalars) }
        return s
    }

    static func padded(_ s: String, _ rng: inout Rng) -> String {
        guard rng.chance(0.3) else { return s }
        var out = s
        if rng.chance(0.7) { for _ in 0..<rng.int(1...3) { out = rng.pick(padding) + out } }
        if rng.chance(0.7) { for _ in 0..<rng.int(1...3) { out += rng.pick(padding) } }
        return out
    }

    static func name(from pool: [String], _ rng: inout Rng) -> String {
        if rng.chance(0.02) { return String(repeating: rng.pick(pool), count: 200) }
        return padded(rng.chance(0.85) ? rng.pick(pool) : randomText(&rng), &rng)
    }

    static let numberLiterals = [
        "12", "-3", "1.5e3", "0", "-0", "1E+2", "0.25", "-0.0", "123456789012345678901234567890", "1e-7", "2E-308",
        "7", "42", "1.0", "9007199254740993", "-12.5E-1",
    ]

    static let idStrings = [
        "S-1", "", " padded ", "微信-1", "é", "e\u{301}", "\u{1F3B5}", "a\"b", "12", "null", "\u{0}", "line\nbreak",
        "\u{202E}x",
    ]

    static let unknownKeys = [
        "device", "meta", "notes", "App_Name", "app_name ", "appname", "START_TIMESTAMP", "", "é", "session id",
        "category\u{0}", "\u{1F3B5}", "end_timestamp\u{200B}", "Category", "id", "sessionId",
    ]

    // MARK: - Random values

    static func randomAtom(_ rng: inout Rng) -> Value {
        switch rng.below(4) {
        case 0: .atom("null")
        case 1: .atom(rng.chance(0.5) ? "true" : "false")
        default: .atom(rng.pick(numberLiterals))
        }
    }

    /// Any JSON value, nested at most `depth` deep.
    static func randomValue(_ rng: inout Rng, depth: Int) -> Value {
        switch rng.below(depth > 0 ? 5 : 3) {
        case 0: return randomAtom(&rng)
        case 1, 2: return .string(encode(rng.chance(0.5) ? randomText(&rng) : rng.pick(appNames), &rng))
        case 3: return .array((0..<rng.int(0...4)).map { _ in randomValue(&rng, depth: depth - 1) })
        default:
            return .object(
                (0..<rng.int(0...4)).map { _ in
                    Member(
                        key: encode(rng.chance(0.5) ? rng.pick(unknownKeys) : randomText(&rng, maxLength: 6), &rng),
                        value: randomValue(&rng, depth: depth - 1))
                })
        }
    }

    /// A value that is neither a string nor null.
    static func wrongType(_ rng: inout Rng) -> Value {
        switch rng.below(4) {
        case 0: .atom(rng.pick(numberLiterals))
        case 1: .atom(rng.chance(0.5) ? "true" : "false")
        case 2: .array((0..<rng.int(0...2)).map { _ in randomValue(&rng, depth: 1) })
        default: .object((0..<rng.int(0...2)).map { _ in Member(key: encode(rng.pick(unknownKeys), &rng), value: randomValue(&rng, depth: 1)) })
        }
    }

    // MARK: - Rows

    /// A generated array element and the one fact the reference takes from the generator: the
    /// literal of its `session_id` when that (last) member is a number.
    struct Element {
        var value: Value
        var idLiteral: String?
    }

    static let knownKeys = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    /// A start instant: mostly around 2026-02-23, sometimes anywhere from year 0 to 9999.
    static func startInstant(_ rng: inout Rng) -> (seconds: Int64, nanos: Int64) {
        let feb23: Int64 = 1_771_804_800  // 2026-02-23T00:00:00Z
        let seconds: Int64
        switch rng.weighted([70, 12, 6, 4, 8]) {
        case 0: seconds = feb23 + rng.int64(-7 * 86_400...7 * 86_400)
        case 1: seconds = rng.int64(-2_208_988_800...4_102_444_800)  // 1900...2100
        case 2: seconds = rng.int64(-3 * 86_400...3 * 86_400)  // around the epoch
        case 3: seconds = rng.int64(-62_167_219_200...253_402_300_799)  // 0000...9999
        default:  // whole minutes and days
            seconds = (feb23 / 60 + rng.int64(-20_000...20_000)) * 60
        }
        let nanos: Int64 =
            switch rng.below(4) {
            case 0: 0
            case 1: rng.int64(0...999_999) * 1000
            default: rng.int64(0...999_999_999)
            }
        return (seconds, nanos)
    }

    /// How long after the start the end lies (may be zero or negative), as (seconds, nanos).
    static func duration(_ rng: inout Rng) -> (Int64, Int64) {
        switch rng.weighted([55, 10, 8, 8, 5, 14]) {
        case 0: return (rng.int64(1...3 * 3600), rng.int64(0...999_999_999))
        case 1: return (0, 0)
        case 2: return (-rng.int64(1...3600), 0)
        case 3: return (0, rng.pick([1, 999, 1000, 1001, 999_999, -1, -1000]))
        case 4: return (rng.int64(86_400...3 * 86_400), 0)
        default: return (rng.int64(0...600), rng.int64(0...999_999_999))
        }
    }

    static func timestampValue(valid: String, _ rng: inout Rng) -> Value? {
        switch rng.weighted([4, 3, 6, 2, 85]) {
        case 0: return nil
        case 1: return .atom("null")
        case 2: return .string(encode(badTimestamp(valid, &rng), &rng))
        case 3:
            return rng.chance(0.6)
                ? .atom(rng.pick(["1771837200", "1771837200.5", "true", "false", "0", "-1"]))
                : rng.chance(0.5) ? .array([.string(valid)]) : .object([Member(key: "t", value: .string(valid))])
        default: return .string(encode(valid, &rng))
        }
    }

    static func nameValue(pool: [String], _ rng: inout Rng) -> Value? {
        switch rng.weighted([4, 6, 3, 87]) {
        case 0: return nil
        case 1: return .atom("null")
        case 2: return wrongType(&rng)
        default: return .string(encode(name(from: pool, &rng), &rng))
        }
    }

    static func idValue(serial: Int, _ rng: inout Rng) -> Value? {
        switch rng.weighted([8, 5, 45, 15, 17, 3, 4, 3]) {
        case 0: return nil
        case 1: return .atom("null")
        case 2: return .string(encode("S-\(serial)", &rng))
        case 3: return .string(encode(padded(rng.pick(idStrings), &rng), &rng))
        case 4: return .atom(rng.pick(numberLiterals))
        case 5: return .atom(rng.chance(0.5) ? "true" : "false")
        case 6: return wrongType(&rng)
        default: return .string(encode(randomText(&rng), &rng))
        }
    }

    /// One random element: mostly session objects of varying dirt, sometimes something else.
    static func element(serial: Int, _ rng: inout Rng) -> Element {
        if rng.chance(0.04) {
            // Not an object, sometimes an array that holds a perfectly good row.
            let inner = element(serial: serial, &rng).value
            let value: Value =
                switch rng.below(5) {
                case 0: randomAtom(&rng)
                case 1: .string(encode(rng.pick(appNames), &rng))
                case 2: .array([inner])
                case 3: .array([])
                default: randomValue(&rng, depth: 2)
                }
            if case .object = value { return Element(value: .array([value]), idLiteral: nil) }
            return Element(value: value, idLiteral: nil)
        }
        let (s, ns) = startInstant(&rng)
        let (ds, dns) = duration(&rng)
        var es = s + ds
        var ens = ns + dns
        if ens >= 1_000_000_000 {
            es += 1
            ens -= 1_000_000_000
        } else if ens < 0 {
            es -= 1
            ens += 1_000_000_000
        }
        let start = timestamp(seconds: s, nanos: ns, &rng)
        let end = timestamp(seconds: es, nanos: ens, &rng)

        var members: [(name: String, value: Value)] = []
        func add(_ name: String, _ value: Value?) {
            if let value { members.append((name, value)) }
        }
        add("session_id", idValue(serial: serial, &rng))
        add("app_name", nameValue(pool: appNames, &rng))
        add("category", nameValue(pool: categoryNames, &rng))
        add("start_timestamp", timestampValue(valid: start, &rng))
        add("end_timestamp", timestampValue(valid: end, &rng))
        for _ in 0..<rng.weighted([60, 25, 10, 5]) {
            members.append((rng.pick(unknownKeys), randomValue(&rng, depth: 3)))
        }
        if rng.chance(0.06) {
            // A duplicate key with another value: the last one counts.
            let key = rng.pick(knownKeys)
            let value: Value? =
                switch key {
                case "session_id": idValue(serial: serial + 1, &rng)
                case "app_name": nameValue(pool: appNames, &rng)
                case "category": nameValue(pool: categoryNames, &rng)
                case "start_timestamp": timestampValue(valid: start, &rng)
                default: timestampValue(valid: end, &rng)
                }
            members.append((key, value ?? .atom("null")))
        }
        if rng.chance(0.5) { rng.shuffle(&members) }
        var idLiteral: String?
        if let last = members.last(where: { $0.name == "session_id" }), case .atom(let a) = last.value,
            !["null", "true", "false"].contains(a)
        {
            idLiteral = a
        }
        let object = Value.object(members.map { Member(key: encode($0.name, &rng), value: $0.value) })
        return Element(value: object, idLiteral: idLiteral)
    }

    static func document(seed: UInt64, rows: ClosedRange<Int>) -> [Element] {
        var rng = Rng(seed: seed)
        let n = rows.lowerBound == 0 && rng.chance(0.05) ? rng.int(0...2) : rng.int(rows)
        return (0..<n).map { element(serial: $0, &rng) }
    }

    // MARK: - What is compared

    static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// A session by value: instants, names and id compared by exact Unicode scalars.
    struct SessionKey: Hashable, Comparable, CustomStringConvertible {
        var start: Int64
        var end: Int64
        var app: [UInt32]
        var category: [UInt32]
        var id: [UInt32]?

        static func < (a: Self, b: Self) -> Bool {
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            if a.app != b.app { return a.app.lexicographicallyPrecedes(b.app) }
            if a.category != b.category { return a.category.lexicographicallyPrecedes(b.category) }
            switch (a.id, b.id) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x.lexicographicallyPrecedes(y)
            }
        }

        static func text(_ s: [UInt32]) -> String {
            var out = ""
            out.unicodeScalars.append(contentsOf: s.compactMap { Unicode.Scalar($0) })
            return out.debugDescription
        }

        var description: String {
            "start=\(start) end=\(end) app=\(Self.text(app)) category=\(Self.text(category)) id=\(id.map(Self.text) ?? "nil")"
        }
    }

    struct Example: Hashable, CustomStringConvertible {
        var id: [UInt32]?
        var line: Int
        var description: String { "(id=\(id.map(SessionKey.text) ?? "nil"), line=\(line))" }
    }

    /// The observable result of a decode, in a form both sides can produce.
    struct Outcome: Equatable {
        /// Sorted by `SessionKey`: compared as a multiset.
        var sessions: [SessionKey] = []
        var counts: [SkipReason: Int] = [:]
        var examples: [SkipReason: [Example]] = [:]

        mutating func skip(_ reason: SkipReason, id: String?, line: Int) {
            counts[reason, default: 0] += 1
            if examples[reason, default: []].count < 3 {
                examples[reason, default: []].append(Example(id: id.map(scalars), line: line))
            }
        }
    }

    /// The project's result, as an outcome, plus what only it can get wrong.
    static func outcome(of d: Dataset) -> (outcome: Outcome, sortedByTime: Bool) {
        var o = Outcome()
        let sessions = Array(d.sessions)
        o.sessions = sessions.map {
            SessionKey(
                start: $0.start, end: $0.end, app: scalars(d.apps[Int($0.app)]),
                category: scalars(d.categories[Int($0.category)]), id: $0.id.map(scalars))
        }
        let sorted = zip(sessions, sessions.dropFirst()).allSatisfy { ($0.start, $0.end) <= ($1.start, $1.end) }
        o.sessions.sort()
        for reason in SkipReason.allCases where d.skipped.count(reason) > 0 {
            o.counts[reason] = d.skipped.count(reason)
            o.examples[reason] = d.skipped.examples[reason, default: []].map {
                Example(id: $0.sessionID.map(scalars), line: $0.line ?? -1)
            }
        }
        return (o, sorted)
    }

    /// Differences between an expected and an actual outcome, one line each ("" when equal).
    static func diff(expected e: Outcome, actual a: Outcome, limit: Int = 6) -> String {
        var lines: [String] = []
        if e.sessions != a.sessions {
            var remaining: [SessionKey: Int] = [:]
            for s in a.sessions { remaining[s, default: 0] += 1 }
            var missing: [SessionKey] = []
            for s in e.sessions {
                if let n = remaining[s], n > 0 { remaining[s] = n - 1 } else { missing.append(s) }
            }
            var extra: [SessionKey] = []
            for s in a.sessions where remaining[s, default: 0] > 0 {
                remaining[s]! -= 1
                extra.append(s)
            }
            lines.append("sessions: expected \(e.sessions.count), got \(a.sessions.count)")
            lines += missing.prefix(limit).map { "  - expected, missing: \($0)" }
            lines += extra.prefix(limit).map { "  + got, unexpected:   \($0)" }
        }
        for reason in SkipReason.allCases {
            let ec = e.counts[reason, default: 0]
            let ac = a.counts[reason, default: 0]
            if ec != ac { lines.append("skipped \(reason.rawValue): expected \(ec), got \(ac)") }
            let ee = e.examples[reason, default: []]
            let ae = a.examples[reason, default: []]
            if ee != ae { lines.append("examples \(reason.rawValue): expected \(ee), got \(ae)") }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - The reference decoder

    struct ReferenceError: Error { var message: String }

    /// docs/DATA.md §1–2 written plainly on top of Foundation, independent of the project's code.
    final class Reference {
        /// RFC 3339 as docs/DATA.md §1 restricts it; `\A…\z` so that no trailing line break slips through.
        let pattern = try! NSRegularExpression(
            pattern: #"\A([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?([Zz]|([+-])([0-9]{2}):([0-9]{2}))\z"#)
        /// Days from 1970-01-01 to January 1st of each year 0...9999, counted a year at a time.
        let yearStart: [Int64]

        init() {
            var table = [Int64](repeating: 0, count: 10_000)
            for y in 1971..<10_000 { table[y] = table[y - 1] + Reference.yearLength(y - 1) }
            for y in stride(from: 1969, through: 0, by: -1) { table[y] = table[y + 1] - Reference.yearLength(y) }
            yearStart = table
        }

        static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
        static func yearLength(_ y: Int) -> Int64 { isLeap(y) ? 366 : 365 }
        static func monthLengths(_ y: Int) -> [Int] { [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] }

        /// Microseconds since the epoch, or nil when `text` is not a valid timestamp.
        func parse(_ text: String) -> Int64? {
            let ns = text as NSString
            guard let m = pattern.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
            func group(_ i: Int) -> String? {
                let r = m.range(at: i)
                return r.location == NSNotFound ? nil : ns.substring(with: r)
            }
            func number(_ i: Int) -> Int { Int(group(i)!)! }
            let (year, month, day) = (number(1), number(2), number(3))
            let (hour, minute, second) = (number(4), number(5), number(6))
            guard (1...12).contains(month), (1...Reference.monthLengths(year)[month - 1]).contains(day),
                hour <= 23, minute <= 59, second <= 59
            else { return nil }
            var offsetSeconds = 0
            if let sign = group(9) {
                let (oh, om) = (number(10), number(11))
                guard oh <= 23, om <= 59 else { return nil }
                offsetSeconds = (sign == "-" ? -1 : 1) * (oh * 3600 + om * 60)
            }
            var micros: Int64 = 0
            if let fraction = group(7) {
                let digits = String(fraction.dropFirst())
                micros = Int64(String((digits + "00000").prefix(6)))!
            }
            let days = yearStart[year] + Int64(Reference.monthLengths(year).prefix(month - 1).reduce(0, +)) + Int64(day - 1)
            let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
            return seconds * 1_000_000 + micros
        }

        /// Unicode White_Space (PropList.txt), written out.
        static func isWhiteSpace(_ v: UInt32) -> Bool {
            switch v {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
            default: false
            }
        }

        static func trim(_ s: String) -> [UInt32] {
            var v = scalars(s)
            while let first = v.first, isWhiteSpace(first) { v.removeFirst() }
            while let last = v.last, isWhiteSpace(last) { v.removeLast() }
            return v
        }

        static func appName(_ raw: String?) -> [UInt32] {
            let t = trim(raw ?? "")
            return t.isEmpty ? scalars("(unknown)") : t
        }

        static func category(_ raw: String?) -> [UInt32] {
            let t = trim(raw ?? "")
            let folded = t.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            return t.isEmpty || folded == scalars("other") || folded == scalars("others") ? scalars("Other") : t
        }

        enum Field { case absent, null, string(String), other }

        static func field(_ value: Any?) -> Field {
            guard let v = value else { return .absent }
            return switch v {
            case is NSNull: .null
            case let s as String: .string(s)
            default: .other
            }
        }

        /// Decodes `bytes`; `lines[k]` is the line where element k begins and `idLiterals[k]` the
        /// literal of its numeric `session_id`, both recorded by the generator.
        func decode(_ bytes: [UInt8], lines: [Int], idLiterals: [String?]) throws -> Outcome {
            let top = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
            guard let elements = top as? [Any] else { throw ReferenceError(message: "the top level is not an array") }
            guard elements.count == lines.count else {
                throw ReferenceError(message: "JSONSerialization sees \(elements.count) rows, the generator wrote \(lines.count)")
            }
            var o = Outcome()
            for (k, element) in elements.enumerated() {
                guard let row = element as? [String: Any] else {
                    o.skip(.notAnObject, id: nil, line: lines[k])
                    continue
                }
                let id: String?
                switch row["session_id"] {
                case let s as String: id = s
                case let n as NSNumber:
                    id = idLiterals[k]
                    if let literal = id, Double(literal) != n.doubleValue, !(n is NSDecimalNumber) {
                        throw ReferenceError(message: "the generator wrote \(literal), JSONSerialization read \(n)")
                    }
                default: id = nil
                }
                func skip(_ reason: SkipReason) { o.skip(reason, id: id, line: lines[k]) }

                let start = Reference.field(row["start_timestamp"])
                let end = Reference.field(row["end_timestamp"])
                switch (start, end) {
                case (.absent, _), (.null, _), (_, .absent), (_, .null):
                    skip(.missingTimestamp)
                    continue
                default: break
                }
                guard case .string(let st) = start, case .string(let et) = end, let s = parse(st), let e = parse(et) else {
                    skip(.badTimestamp)
                    continue
                }
                var names: [String?] = []
                for key in ["app_name", "category"] {
                    switch Reference.field(row[key]) {
                    case .absent, .null: names.append(nil)
                    case .string(let text): names.append(text)
                    case .other: break
                    }
                }
                guard names.count == 2 else {
                    skip(.badFieldType)
                    continue
                }
                guard e > s else {
                    skip(.endNotAfterStart)
                    continue
                }
                o.sessions.append(
                    SessionKey(
                        start: s, end: e, app: Reference.appName(names[0]), category: Reference.category(names[1]),
                        id: id.map(scalars)))
            }
            o.sessions.sort()
            return o
        }
    }

    // MARK: - Running one document

    struct Report {
        var documents = 0
        var rows = 0
        var failures: [String] = []
        var totals = Outcome()
        var sessions = 0
    }

    /// Decodes one document both ways and describes any disagreement ("" when none).
    static func check(
        _ elements: [Element], layout: Layout, bom: Bool, reference: Reference, label: String
    ) throws -> (problem: String, expected: Outcome) {
        let rendered = render(elements.map(\.value), layout: layout, bom: bom)
        let literals = elements.map(\.idLiteral)
        let expected = try reference.decode(rendered.bytes, lines: rendered.lines, idLiterals: literals)
        let dataset = try SessionsJSON.decode(rendered.bytes, source: label)
        let (actual, sorted) = outcome(of: dataset)
        var problems: [String] = []
        let d = diff(expected: expected, actual: actual)
        if !d.isEmpty { problems.append(d) }
        if !sorted { problems.append("sessions are not in (start, end) order") }
        if dataset.repairedStrings != 0 { problems.append("repairedStrings: expected 0, got \(dataset.repairedStrings)") }
        if dataset.skipped.total != expected.counts.values.reduce(0, +) {
            problems.append("skipped.total: expected \(expected.counts.values.reduce(0, +)), got \(dataset.skipped.total)")
        }
        guard !problems.isEmpty else { return ("", expected) }

        // Minimise: the first element that disagrees on its own.
        var isolated = "no single element disagrees on its own"
        for (k, range) in rendered.ranges.enumerated() {
            let one = [UInt8]("[".utf8) + rendered.bytes[range] + [UInt8]("]".utf8)
            let e = try reference.decode(one, lines: [1], idLiterals: [literals[k]])
            let a = outcome(of: try SessionsJSON.decode(one, source: label)).outcome
            let d1 = diff(expected: e, actual: a)
            if !d1.isEmpty {
                var text = String(decoding: rendered.bytes[range], as: UTF8.self)
                if text.count > 800 { text = String(text.prefix(800)) + "…" }
                isolated = "element \(k) (line \(rendered.lines[k])) disagrees on its own:\n\(text)\n\(d1)"
                break
            }
        }
        return ("\(label): \(elements.count) rows\n\(problems.joined(separator: "\n"))\n\(isolated)", expected)
    }

    static func run(baseSeed: UInt64, documents: Range<Int>, rows: ClosedRange<Int>) throws -> Report {
        let reference = Reference()
        var report = Report()
        for index in documents {
            let docSeed = seed(baseSeed, index)
            let elements = document(seed: docSeed, rows: rows)
            var layoutRng = Rng(seed: docSeed ^ 0xA5A5)
            let layout: Layout =
                switch layoutRng.weighted([70, 10, 10, 10]) {
                case 0: .random(seed: layoutRng.next())
                case 1: .minified
                case 2: .pretty(newline: "\n")
                default: .pretty(newline: "\r\n")
                }
            let label = "seed 0x\(String(baseSeed, radix: 16)) document \(index) (document seed 0x\(String(docSeed, radix: 16)))"
            let (problem, expected) = try check(
                elements, layout: layout, bom: layoutRng.chance(0.05), reference: reference, label: label)
            report.documents += 1
            report.rows += elements.count
            report.sessions += expected.sessions.count
            for (reason, n) in expected.counts { report.totals.counts[reason, default: 0] += n }
            if !problem.isEmpty { report.failures.append(problem) }
        }
        return report
    }
}

// MARK: - Tests

struct DifferentialIngestTests {
    static let baseSeed: UInt64 = 0x5EED_2026_0223

    @Test func randomDirtyDocumentsDecodeAsTheReferenceDoes() throws {
        let report = try Differential.run(baseSeed: Self.baseSeed, documents: 0..<200, rows: 0...300)
        for failure in report.failures.prefix(5) { Issue.record(Comment(rawValue: failure)) }
        let disagreeing = report.failures.count
        #expect(disagreeing == 0, "of \(report.documents) documents")
        // The generator really exercised every rule.
        for reason in SkipReason.allCases {
            #expect(report.totals.counts[reason, default: 0] >= 100, "too few \(reason.rawValue) rows generated")
        }
        #expect(report.sessions >= 10_000)
        print("differential: \(report.documents) documents, \(report.rows) rows, \(report.sessions) sessions, skipped \(report.totals.counts.map { "\($0.key.rawValue)=\($0.value)" }.sorted())")
    }

    @Test func aLargeDirtyDocumentDecodesAsTheReferenceDoes() throws {
        let report = try Differential.run(baseSeed: Self.baseSeed ^ 0xB16, documents: 0..<1, rows: 20_000...20_000)
        for failure in report.failures { Issue.record(Comment(rawValue: failure)) }
        let rows = report.rows
        #expect(rows == 20_000)
        #expect(report.sessions > 10_000)
    }

    /// Inputs of several MiB may be scanned in parts (the rewrite splits near the middle at a
    /// guessed row boundary). These put something that looks like a row boundary across the
    /// middle: inside a string, inside a non-object element, inside a row's unknown member; and,
    /// for contrast, nothing there at all (a real split), once with only valid rows before the
    /// middle so that the skip examples and their lines come from the second part.
    static let traps = ["string", "array element", "unknown member", "none", "none, valid first half"]

    @Test(arguments: traps)
    func largeDocumentsWithRowLookalikesInTheMiddle(trap: String) throws {
        let seed = Differential.seed(Self.baseSeed ^ 0x5B117, Self.traps.firstIndex(of: trap)!)
        var elements = Differential.document(seed: seed, rows: 3000...3000)
        // Pad every object with an unknown member so that few rows make a large input.
        let padding = Differential.Value.string(String(repeating: "padding ", count: 180))
        for k in elements.indices {
            if case .object(var members) = elements[k].value {
                members.append(Differential.Member(key: "padding", value: padding))
                elements[k].value = .object(members)
            }
        }
        func lookalike(_ n: Int) -> Differential.Value {
            .object([
                Differential.Member(key: "session_id", value: .string("L-\(n)")),
                Differential.Member(key: "app_name", value: .string("Lookalike")),
                Differential.Member(key: "start_timestamp", value: .string("2026-02-23T09:00:00Z")),
                Differential.Member(key: "end_timestamp", value: .string("2026-02-23T10:00:00Z")),
            ])
        }
        let middle = elements.count / 2
        if trap == "none, valid first half" {
            for k in 0..<middle {
                elements[k] = .init(value: lookalike(k), idLiteral: nil)
                if case .object(let members) = elements[k].value {
                    elements[k].value = .object(members + [Differential.Member(key: "padding", value: padding)])
                }
            }
        }
        let row = #"{\"session_id\": \"L\", \"app_name\": \"Lookalike\"}"#
        let valid: [Differential.Member] = [
            Differential.Member(key: "session_id", value: .string("T")),
            Differential.Member(key: "start_timestamp", value: .string("2026-02-23T09:00:00Z")),
            Differential.Member(key: "end_timestamp", value: .string("2026-02-23T10:00:00Z")),
        ]
        switch trap {
        case "string":
            let text = String(repeating: "}, " + row + ",\\n{", count: 12_000)
            elements.insert(.init(value: .object(valid + [.init(key: "notes", value: .string(text))]), idLiteral: nil), at: middle)
        case "array element":
            elements.insert(.init(value: .array((0..<8000).map(lookalike)), idLiteral: nil), at: middle)
        case "unknown member":
            let meta = Differential.Value.array((0..<8000).map(lookalike))
            elements.insert(.init(value: .object(valid + [.init(key: "meta", value: meta)]), idLiteral: nil), at: middle)
        default: break
        }
        let rendered = Differential.render(elements.map(\.value), layout: .random(seed: seed))
        #expect(rendered.bytes.count > 4_500_000, "big enough to be scanned in parts (4 MiB and more)")
        if !trap.hasPrefix("none") {
            let range = rendered.ranges[middle]
            #expect(range.contains(rendered.bytes.count / 2), "the lookalikes do not cover the middle")
        }
        let (problem, _) = try Differential.check(
            elements, layout: .random(seed: seed), bom: false, reference: Differential.Reference(),
            label: "trap \(trap), document seed 0x\(String(seed, radix: 16))")
        if !problem.isEmpty { Issue.record(Comment(rawValue: problem)) }
    }

    /// The same rows minified, pretty-printed, with CRLF, with random white space and behind a
    /// byte order mark decode to the same dataset; only the example lines differ, and those are
    /// where each row begins in that text.
    @Test func layoutChangesNothingButLineNumbers() throws {
        for index in 0..<20 {
            let seed = Differential.seed(Self.baseSeed ^ 0x1A7, index)
            let elements = Differential.document(seed: seed, rows: 50...150).map(\.value)
            let layouts: [(String, Differential.Layout, Bool)] = [
                ("minified", .minified, false), ("pretty", .pretty(newline: "\n"), false),
                ("pretty CRLF", .pretty(newline: "\r\n"), false), ("random", .random(seed: seed), false),
                ("minified with BOM", .minified, true),
            ]
            var first: (name: String, dataset: Dataset, sessions: [Differential.SessionKey])?
            for (name, layout, bom) in layouts {
                let rendered = Differential.render(elements, layout: layout, bom: bom)
                let d = try SessionsJSON.decode(rendered.bytes, source: "layout")
                // In order, not as a multiset: the same rows in the same order give the same sequence.
                let sessions = Array(d.sessions).map {
                    Differential.SessionKey(
                        start: $0.start, end: $0.end, app: Differential.scalars(d.apps[Int($0.app)]),
                        category: Differential.scalars(d.categories[Int($0.category)]), id: $0.id.map(Differential.scalars))
                }
                // Every example's line is the line where its row begins in this text.
                let rowLines = Set(rendered.lines)
                for (reason, rows) in d.skipped.examples {
                    for row in rows {
                        let isARowsLine = row.line.map(rowLines.contains) ?? false
                        #expect(isARowsLine, "seed \(seed) \(name): \(reason.rawValue) example at line \(row.line ?? -1) is no row's line")
                    }
                }
                if case .minified = layout {
                    #expect(d.skipped.examples.values.joined().allSatisfy { $0.line == 1 }, "seed \(seed) \(name)")
                }
                guard let f = first else {
                    first = (name, d, sessions)
                    continue
                }
                let what = "seed 0x\(String(seed, radix: 16)): \(name) vs \(f.name)"
                #expect(sessions == f.sessions, "\(what): sessions differ")
                #expect(d.apps.map(Differential.scalars) == f.dataset.apps.map(Differential.scalars), "\(what): apps differ")
                #expect(
                    d.categories.map(Differential.scalars) == f.dataset.categories.map(Differential.scalars),
                    "\(what): categories differ")
                #expect(d.repairedStrings == f.dataset.repairedStrings, "\(what)")
                for reason in SkipReason.allCases {
                    #expect(d.skipped.count(reason) == f.dataset.skipped.count(reason), "\(what): \(reason.rawValue)")
                    let ids = d.skipped.examples[reason, default: []].map { $0.sessionID.map(Differential.scalars) }
                    let firstIDs = f.dataset.skipped.examples[reason, default: []].map { $0.sessionID.map(Differential.scalars) }
                    #expect(ids == firstIDs, "\(what): \(reason.rawValue) examples")
                }
            }
        }
    }

    /// JSONSerialization keeps the last of duplicate keys, and so does the project; the random
    /// documents rely on that, this states it.
    @Test(arguments: [
        (#"{"app_name": "A", "app_name": "B", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "B"),
        (#"{"app_name": 1, "app_name": "C", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "C"),
        (#"{"start_timestamp": null, "app_name": "D", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "D"),
        (#"{"app\u005fname": "A", "app_name": "E", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "E"),
        (#"{"app_name": "A", "app\u005Fname": "F", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "F"),
    ])
    func theLastOfDuplicateKeysWins(row: String, app: String) throws {
        let d = try SessionsJSON.decode("[\(row)]", source: "t")
        #expect(Array(d.sessions).map { d.apps[Int($0.app)] } == [app])
        let viaFoundation = try JSONSerialization.jsonObject(with: Data("[\(row)]".utf8)) as? [[String: Any]]
        #expect(viaFoundation?.first?["app_name"] as? String == app)
    }

    @Test func aValueLastSeenAsAnotherTypeSkipsTheRow() throws {
        let d = try SessionsJSON.decode(
            #"[{"session_id": "x", "category": "Social", "category": [1], "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}]"#,
            source: "t")
        #expect(d.skipped.count(.badFieldType) == 1)
        #expect(d.skipped.examples[.badFieldType]?.first?.sessionID == "x")
    }
}

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
