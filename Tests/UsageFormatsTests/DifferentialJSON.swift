// DifferentialJSON.swift — the ingest differential's generator, first half: the `Differential` namespace, seeded randomness, JSON text in every layout, string escapes and RFC 3339 timestamps as the generator writes them.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport

// Everything here lives in `Differential` so that no helper name clashes with the other test files.
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
}
