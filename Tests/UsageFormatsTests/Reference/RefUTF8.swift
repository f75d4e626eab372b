// RefUTF8.swift — UTF-8 decoded by hand from the table of Unicode §3.9 (D92): scalars, and U+FFFD for each maximal invalid subpart, as every reader repairs text.

/// UTF-8 by the table of Unicode §3.9 (D92), by hand.
enum RefUTF8 {
    /// The scalar at `k` and its length; nil and the length of the maximal invalid subpart (at least 1).
    static func decode(_ b: [UInt8], at k: Int, end: Int) -> (Unicode.Scalar?, Int) {
        let lead = b[k]
        let n: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: n = 2
        case 0xE0: (n, second) = (3, 0xA0...0xBF)
        case 0xED: (n, second) = (3, 0x80...0x9F)
        case 0xE1...0xEC, 0xEE...0xEF: n = 3
        case 0xF0: (n, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: n = 4
        case 0xF4: (n, second) = (4, 0x80...0x8F)
        default: return (nil, 1)
        }
        var value = UInt32(lead) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
        for j in 1..<n {
            let range = j == 1 ? second : 0x80...0xBF
            guard k + j < end, range.contains(b[k + j]) else { return (nil, j) }
            value = value << 6 | UInt32(b[k + j] & 0x3F)
        }
        return (Unicode.Scalar(value), n)
    }

    /// The text of bytes with each maximal invalid subpart as U+FFFD, and whether there was any.
    static func text(_ b: [UInt8]) -> (String, repaired: Bool) {
        var scalars = String.UnicodeScalarView()
        var k = 0
        var repaired = false
        while k < b.count {
            if b[k] < 0x80 {
                scalars.append(Unicode.Scalar(b[k]))
                k += 1
                continue
            }
            let (s, n) = decode(b, at: k, end: b.count)
            scalars.append(s ?? "\u{FFFD}")
            repaired = repaired || s == nil
            k += n
        }
        return (String(scalars), repaired)
    }
}
