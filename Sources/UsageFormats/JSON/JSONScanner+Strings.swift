// JSONScanner+Strings.swift — JSON strings: plain ones read in place, escapes unescaped into scratch buffers, lone surrogates repaired and counted; objects' members read key by key for the nested readers.
import UsageCore

extension JSONScanner {

    /// Skips a string, validating its escapes.
    mutating func skipString() throws(ScanStop) {
        if countRepairs {
            countRepair(try scanString(slot: 5))
        } else {
            _ = try scanString(slot: nil)
        }
    }

    /// A short string of plain ASCII (no escape, no control character) at `"`: its content,
    /// stepped over; nil (and no step) for any other, which `scanString` then reads. Keys are
    /// nearly always such strings, and need neither unescaping nor repair.
    @inline(__always) mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        var j = offset + 1
        let end = min(bytes.count, offset + 34)
        while j < end {
            let c = bytes[j]
            if c == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<j])
                offset = j + 1
                return content
            }
            if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { return nil }
            j += 1
        }
        return nil
    }

    /// An object at `{`, read to its `}`: each member's key (valid until the value is read;
    /// plain keys read in place, others unescaped and counted for repair) to `member`, which
    /// reads the value. The readers of nested documents (ActivityWatch, Timewarrior) share it.
    @inline(__always) static func scanObject(
        _ s: inout JSONScanner, _ member: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(ScanStop) -> Void
    ) throws(ScanStop) {
        s.offset += 1
        s.skipWhitespace()
        if s.peek() == UInt8(ascii: "}") {
            s.offset += 1
            return
        }
        while true {
            s.skipWhitespace()
            guard s.peek() == UInt8(ascii: "\"") else { throw s.error("expected a string key in the object") }
            let key: UnsafeBufferPointer<UInt8>
            if let plain = s.plainString() {
                key = plain
            } else {
                let scanned = try s.scanString(slot: 5)
                s.countRepair(scanned)
                key = scanned.bytes
            }
            s.skipWhitespace()
            guard s.peek() == UInt8(ascii: ":") else { throw s.error("expected ':' after the key") }
            s.offset += 1
            try member(&s, key)
            s.skipWhitespace()
            guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected ',' or '}'") }
            if s.bytes[s.offset] == UInt8(ascii: ",") {
                s.offset += 1
                continue
            }
            if s.bytes[s.offset] == UInt8(ascii: "}") {
                s.offset += 1
                return
            }
            throw s.error("expected ',' or '}' after an object member")
        }
    }

    /// Counts a string that needed repair (with `countRepairs`).
    mutating func countRepair(_ s: FieldValue) {
        if s.repaired || (s.nonASCII && !DatasetBuilder.isValidUTF8(s.bytes)) { repairedStrings += 1 }
    }

    /// Scans a string at `"`: its content bytes in the input when it has no escapes, else
    /// unescaped into scratch buffer `slot` (with no slot, escapes are only validated).
    mutating func scanString(slot: Int?) throws(ScanStop) -> FieldValue {
        offset += 1  // opening quote
        let contentStart = offset
        var high: UInt8 = 0
        // Fast path, 8 bytes a step while none is `"`, `\\` or a control character.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var wide: UInt64 = 0
            while offset + 8 <= bytes.count {
                let w = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let quote = w ^ 0x2222_2222_2222_2222
                let backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                // A byte's high bit is set when that byte is zero (quote, backslash) or below 0x20 (ASCII only).
                let stop = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- 0x2020_2020_2020_2020) & ~w) & highs
                if stop != 0 { break }
                wide |= w
                offset += 8
            }
            if wide & 0x8080_8080_8080_8080 != 0 { high = 0x80 }
        }
        // Then byte by byte: no escapes.
        while offset < bytes.count {
            let c = bytes[offset]
            if c == UInt8(ascii: "\"") {
                offset += 1
                return FieldValue(kind: .string, bytes: UnsafeBufferPointer(rebasing: bytes[contentStart..<(offset - 1)]), nonASCII: high >= 0x80)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character U+\(hex4(UInt32(c))) inside a string") }
            high |= c
            offset += 1
        }
        guard offset < bytes.count else { throw error("unterminated string") }
        // Slow path: escapes.
        if let slot { scratch.reset(slot, with: UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])) }
        var repaired = false
        while offset < bytes.count {
            let c = bytes[offset]
            if c == UInt8(ascii: "\"") {
                offset += 1
                guard let slot else { return FieldValue(kind: .string) }
                return FieldValue(kind: .string, bytes: scratch.bytes(slot), nonASCII: high >= 0x80, repaired: repaired)
            }
            if c < 0x20 { throw error("control character U+\(hex4(UInt32(c))) inside a string") }
            if c != UInt8(ascii: "\\") {
                if let slot { scratch.append(slot, c) }
                high |= c
                offset += 1
                continue
            }
            offset += 1
            guard offset < bytes.count else { throw error("unterminated string") }
            let e = bytes[offset]
            offset += 1
            var scalar: UInt32
            switch e {
            case UInt8(ascii: "\""): scalar = 0x22
            case UInt8(ascii: "\\"): scalar = 0x5C
            case UInt8(ascii: "/"): scalar = 0x2F
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"):
                scalar = try scanHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if bytes.count - offset < 6, !isFinal { throw .needMore }
                    if bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                        let save = offset
                        offset += 2
                        let low = try scanHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            offset = save
                            scalar = 0xFFFD
                            repaired = true
                        }
                    } else {
                        scalar = 0xFFFD
                        repaired = true
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                    repaired = true
                }
            default:
                offset -= 2
                throw error("invalid escape '\\\(String(UnicodeScalar(e)))' in a string")
            }
            if let slot { scratch.append(slot, scalar: scalar) }
        }
        throw error("unterminated string")
    }

    mutating func scanHex4() throws(ScanStop) -> UInt32 {
        if bytes.count - offset < 4 {
            // A byte that is not a digit fails where it stands, as with four bytes to look at;
            // digits cut by the end fail at the first (or need more bytes, when more may follow).
            let first = offset
            while offset < bytes.count, Self.isHex(bytes[offset]) { offset += 1 }
            if offset < bytes.count { throw error("expected four hex digits after '\\u'") }
            guard isFinal else { throw .needMore }
            offset = first
            throw error("expected four hex digits after '\\u'")
        }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[offset]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 0x41 + 10)
            default: throw error("expected four hex digits after '\\u'")
            }
            v = v << 4 | d
            offset += 1
        }
        return v
    }

    @inline(__always) static func isHex(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }
}
