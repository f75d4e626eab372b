// JSONRepair.swift — makes JSON with invalid UTF-8 or lone surrogate escapes in its strings readable by Foundation, as docs/DATA.md §1 asks: each becomes U+FFFD and is counted.

/// Replaces, inside JSON strings only, every invalid UTF-8 sequence with U+FFFD's bytes and
/// every lone surrogate escape (`\ud800` not followed by a low one, or a low one alone) with
/// `\ufffd`; the sessions scanner does the same while scanning. Everything else is copied.
enum JSONRepair {
    /// Whether the bytes may need repair: they are not valid UTF-8, or hold a surrogate escape
    /// (`\\uD8..`–`\\uDF..`; a well-formed pair needs none, which `repair` finds out).
    static func mayNeedRepair(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if String(validating: b, as: UTF8.self) == nil { return true }
        var i = 0
        while i + 2 < b.count {
            if b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u"), b[i + 2] == UInt8(ascii: "d") || b[i + 2] == UInt8(ascii: "D") {
                return true
            }
            i += 1
        }
        return false
    }

    /// The repaired bytes and how many strings needed repair (0: the bytes are unchanged).
    static func repair(_ b: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], repairedStrings: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        var inString = false
        var repairedHere = false
        var repaired = 0
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        while i < b.count {
            let c = b[i]
            if !inString {
                if c == UInt8(ascii: "\"") {
                    inString = true
                    repairedHere = false
                }
                out.append(c)
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                inString = false
                if repairedHere { repaired += 1 }
                out.append(c)
                i += 1
            case UInt8(ascii: "\\"):
                if let high = hex4(b, i + 2), i + 1 < b.count, b[i + 1] == UInt8(ascii: "u"), (0xD800...0xDFFF).contains(high) {
                    let pairedLow = high <= 0xDBFF && i + 7 < b.count && b[i + 6] == UInt8(ascii: "\\")
                        && b[i + 7] == UInt8(ascii: "u") && hex4(b, i + 8).map { (0xDC00...0xDFFF).contains($0) } == true
                    if pairedLow {
                        out.append(contentsOf: b[i..<(i + 12)])
                        i += 12
                    } else {
                        out.append(contentsOf: Array("\\ufffd".utf8))
                        repairedHere = true
                        i += 6
                    }
                } else {
                    out.append(contentsOf: b[i..<min(b.count, i + 2)])
                    i += 2
                }
            case 0..<0x80:
                out.append(c)
                i += 1
            default:
                let n = validSequenceLength(b, at: i)
                if n > 0 {
                    out.append(contentsOf: b[i..<(i + n)])
                    i += n
                } else {
                    out.append(contentsOf: replacement)
                    repairedHere = true
                    i += 1
                }
            }
        }
        return repaired == 0 ? (Array(b), 0) : (out, repaired)
    }

    /// The value of 4 hex digits at `i`, or nil.
    private static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        guard i + 4 <= b.count else { return nil }
        var value = 0
        for k in i..<(i + 4) {
            guard let digit = Int(String(UnicodeScalar(b[k])), radix: 16) else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    /// The length of the valid UTF-8 sequence starting at `i` (a byte ≥ 0x80), or 0.
    private static func validSequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = b[i]
        let (n, second): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (n, second) = (2, 0x80...0xBF)
        case 0xE0: (n, second) = (3, 0xA0...0xBF)
        case 0xED: (n, second) = (3, 0x80...0x9F)
        case 0xE1...0xEF: (n, second) = (3, 0x80...0xBF)
        case 0xF0: (n, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (n, second) = (4, 0x80...0xBF)
        case 0xF4: (n, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard i + n <= b.count, second.contains(b[i + 1]) else { return 0 }
        for k in (i + 2)..<(i + n) where !(0x80...0xBF).contains(b[k]) { return 0 }
        return n
    }
}
