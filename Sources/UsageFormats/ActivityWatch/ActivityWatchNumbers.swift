// ActivityWatchNumbers.swift — numbers in ActivityWatch events: ids as an integer's or a number's text as the Foundation-based reader made them (Foundation asked only for the rare literals the fast path leaves), durations as the nearest Double.
import Foundation
import UsageCore

extension ActivityWatchReader {
    /// An integer literal whose text is what `Int64`'s would be (not `-0`, at most 18 digits).
    static func isPlainInteger(_ f: FieldValue) -> Bool {
        guard f.kind == .number, f.bytes.count <= 18, f.bytes.count > 0 else { return false }
        if f.bytes[0] == UInt8(ascii: "-"), f.bytes.count == 2, f.bytes[1] == UInt8(ascii: "0") { return false }
        for c in f.bytes where c == UInt8(ascii: ".") || c | 0x20 == UInt8(ascii: "e") { return false }
        return true
    }

    // MARK: Numbers as Foundation reads them

    /// An id as the Foundation-based reader made it: a string's text, an integer's digits
    /// (`-0` is `0`; `1e2` and `1.0` are `100` and `1`), another number's `Double` text; else nil.
    static func idText(_ f: FieldValue) -> String? {
        switch f.kind {
        case .string: return String(decoding: f.bytes, as: UTF8.self)
        case .number:
            // The common case, plain digits that fit: Int64's text. Anything else: Foundation's own answer.
            if f.bytes.count <= 18, !f.bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }),
                let n = Int64(String(decoding: f.bytes, as: UTF8.self))
            {
                return String(n)
            }
            return FoundationNumbers.idText(String(decoding: f.bytes, as: UTF8.self))
        case .absent, .null, .other: return nil
        }
    }

    /// A number literal as the nearest `Double` (docs/DATA.md §9.3: any number; one beyond
    /// Double's range is infinite, one too small for it 0). Plain decimals of up to 15
    /// significant digits are exact quotients (correctly rounded); anything else is Swift's
    /// own parsing, correctly rounded too. (Foundation's JSONDecoder, asked before, refused a
    /// number too small for a Double, `1e-999`, so its event was a `bad_field_type`.)
    static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenDot = false
        var k = 0
        let negative = b.first == UInt8(ascii: "-")
        if negative { k = 1 }
        while k < b.count {
            let c = b[k]
            if c == UInt8(ascii: ".") {
                seenDot = true
            } else if c >= 0x30, c <= 0x39 {
                if mantissa > 0 || c != 0x30 { digits += 1 }
                mantissa = mantissa &* 10 &+ Int64(c - 0x30)
                if seenDot { scale += 1 }
            } else {
                digits = 99  // an exponent
                break
            }
            k += 1
        }
        guard digits <= 15, scale <= 22 else { return Double(String(decoding: b, as: UTF8.self)) }
        let value = Double(mantissa) / Self.powersOfTen[scale]
        return negative ? -value : value
    }

    static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }
}

/// Foundation's decoding of an id's number literal, for the rare literals the fast path leaves.
enum FoundationNumbers {
    private struct Box: Decodable {
        var text: String?
        var double: Double?

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            if let n = try? c.decode(Int64.self) {
                text = String(n)
                double = Double(n)
                return
            }
            var d = try decoder.unkeyedContainer()
            let x = try? d.decode(Double.self)
            text = x.map { String($0) }
            double = x
        }
    }

    static func idText(_ literal: String) -> String? {
        (try? JSONDecoder().decode(Box.self, from: Data("[\(literal)]".utf8)))?.text
    }

}
