// JSONScanner.swift — the byte-level, non-recursive JSON scanner behind the sessions JSON, NDJSON, ActivityWatch and Timewarrior readers: its state over the bytes (a whole input, or one segment of a stream) and the byte helpers every part uses.
import UsageCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The byte-level JSON scanner behind `SessionsJSON` and `NDJSONScan`.
///
/// It scans either a whole input (final: its end is the input's end) or one segment of a
/// stream (not final: any read past the end means "more bytes needed", never an error).
/// Errors carry byte offsets; line breaks are counted on the way (they can only stand in
/// white space between tokens), so skipped rows know their line without a second pass.
struct JSONScanner {
    var bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    /// Whether the end of `b` is the end of the input (else more bytes may follow).
    var isFinal: Bool
    /// Line breaks passed so far.
    var newlines = 0
    /// With `countRepairs`, the strings (keys and skipped ones included) in which invalid UTF-8
    /// or a lone surrogate escape became U+FFFD, as Foundation-based readers counted them.
    var repairedStrings = 0
    var countRepairs = false
    /// Unescaped bytes of the five known fields (one buffer each, reused row after row) and of keys.
    let scratch = ScratchBuffers(count: 7)

    init(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool = true) {
        self.bytes = bytes
        self.isFinal = final
    }

    /// Where the scan stands (the byte offset).
    var position: Int { offset }

    /// Scans other bytes with the same scratch buffers, from their start.
    mutating func rebase(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) {
        self.bytes = bytes
        offset = 0
        isFinal = final
        newlines = 0
    }

    // MARK: Helpers

    @inline(__always) func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Steps over white space, counting line breaks (the only place they can stand).
    @inline(__always) mutating func skipWhitespace() {
        while offset < bytes.count {
            let c = bytes[offset]
            if c == 0x20 || c == 0x09 || c == 0x0D {
                offset += 1
            } else if c == 0x0A {
                offset += 1
                newlines += 1
            } else {
                return
            }
        }
    }

    /// Only white space to the end (of the input, or of this segment when more may follow).
    mutating func expectEnd() throws(ScanStop) {
        skipWhitespace()
        guard offset == bytes.count else { throw error("unexpected data after the end of the JSON value") }
    }

    func describeValueStart(_ c: UInt8) -> String {
        switch c {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    /// A syntax error at the current position; at the end of bytes that are not the input's
    /// end, more bytes are needed instead.
    func error(_ message: String) -> ScanStop {
        if offset >= bytes.count, !isFinal { return .needMore }
        return .syntax(offset: min(offset, bytes.count), message: message)
    }

    func hex4(_ v: UInt32) -> String {
        String(v, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}
