// JSONScanner.swift — the byte-level, non-recursive JSON scanner behind SessionsJSON: validates RFC 8259, unescapes strings into scratch buffers, hands each row to a RowSink.

/// Where the scanner hands each array element: `DatasetBuilder` in the program; the fuzz target
/// (`Fuzz/JSONScannerFuzz.swift`) records the raw fields to compare them with Foundation's.
protocol RowSink {
    /// An object element and its five known fields (valid until the next call).
    mutating func addRow(id: FieldValue, app: FieldValue, category: FieldValue, start: FieldValue, end: FieldValue, offset: Int?)
    /// An element that is not an object, beginning at byte `offset`.
    mutating func addNonObject(offset: Int)
}

extension DatasetBuilder: RowSink {}

/// The byte-level JSON scanner behind `SessionsJSON`.
struct JSONScanner {
    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Unescaped bytes of the five known fields (one buffer each, reused row after row) and of keys.
    private let scratch = ScratchBuffers(count: 6)

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.b = bytes
    }

    /// Where the scan stands (the byte offset).
    var position: Int { i }

    // MARK: The sessions array

    /// Scans the whole input: `[`, the rows, `]`, the end.
    mutating func scanSessions<Sink: RowSink>(
        into builder: inout Sink, cancellation: CancellationToken?, progress: ((Int) -> Void)?
    ) throws(IngestError) {
        guard try scanArrayStart() else { return }
        _ = try scanElements(into: &builder, stopAt: nil, cancellation: cancellation, progress: progress)
    }

    /// Scans up to the first element (or the end of an empty array, which also checks the end of
    /// input). Returns whether there are elements to scan.
    mutating func scanArrayStart() throws(IngestError) -> Bool {
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        skipWhitespace()
        guard i < b.count else { throw .empty }
        if b[i] != UInt8(ascii: "[") {
            let found = describeValueStart(b[i])
            try skipValue()
            try expectEnd()
            throw .notAnArray(found: found)
        }
        i += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            i += 1
            try expectEnd()
            return false
        }
        return true
    }

    /// Scans array elements from `start` (or where the scan is) through the closing `]` and the
    /// end of input. With `stopAt`, stops before an element that begins exactly there and returns
    /// `true`; an element beginning past it means the guess was wrong, and the scan goes on.
    mutating func scanElements<Sink: RowSink>(
        into builder: inout Sink, from start: Int? = nil, stopAt: Int?,
        cancellation: CancellationToken?, progress: ((Int) -> Void)?
    ) throws(IngestError) -> Bool {
        if let start { i = start }
        var rows = 0
        var nextProgress = i + (1 << 20)
        var row = RowFields()
        while true {
            skipWhitespace()
            let rowStart = i
            if rowStart == stopAt { return true }
            if peek() == UInt8(ascii: "{") {
                try scanRow(&row)
                builder.addRow(id: row.id, app: row.app, category: row.category, start: row.start, end: row.end, offset: rowStart)
            } else {
                try skipValue()
                builder.addNonObject(offset: rowStart)
            }
            rows += 1
            if rows & 0xFFF == 0 {
                if cancellation?.isCancelled == true { throw .cancelled }
                if i >= nextProgress {
                    progress?(i)
                    nextProgress = i + (1 << 20)
                }
            }
            skipWhitespace()
            guard i < b.count else { throw error("unexpected end of input: expected ',' or ']'") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                break
            }
            throw error("expected ',' or ']' after an array element")
        }
        progress?(i)
        try expectEnd()
        return false
    }

    /// The five known fields of a row.
    struct RowFields {
        var id = FieldValue()
        var app = FieldValue()
        var category = FieldValue()
        var start = FieldValue()
        var end = FieldValue()
    }

    /// Scans one object row, keeping its five known fields (a repeated key: the last one).
    private mutating func scanRow(_ row: inout RowFields) throws(IngestError) {
        row = RowFields()
        i += 1  // "{"
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in the object") }
            let key = try scanKey()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            i += 1
            skipWhitespace()
            switch key {
            case .sessionID: row.id = try scanField(slot: 0)
            case .appName: row.app = try scanField(slot: 1)
            case .category: row.category = try scanField(slot: 2)
            case .start: row.start = try scanField(slot: 3)
            case .end: row.end = try scanField(slot: 4)
            case .unknown: try skipValue()
            }
            skipWhitespace()
            guard i < b.count else { throw error("unexpected end of input: expected ',' or '}'") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                return
            }
            throw error("expected ',' or '}' after an object member")
        }
    }

    private enum Key { case sessionID, appName, category, start, end, unknown }

    /// Scans a key string and tells which of the known fields it is.
    private mutating func scanKey() throws(IngestError) -> Key {
        // Fast path: the key is one of the five, written plainly (`"app_name"`), as nearly always.
        if i + 1 < b.count {
            switch b[i + 1] {
            case UInt8(ascii: "a"): if plainKey("app_name") { return .appName }
            case UInt8(ascii: "c"): if plainKey("category") { return .category }
            case UInt8(ascii: "s"):
                if plainKey("start_timestamp") { return .start }
                if plainKey("session_id") { return .sessionID }
            case UInt8(ascii: "e"): if plainKey("end_timestamp") { return .end }
            default: break
            }
        }
        let k = try scanString(slot: 5).bytes
        switch k.count {
        case 8:
            if matches(k, "app_name") { return .appName }
            if matches(k, "category") { return .category }
        case 10: if matches(k, "session_id") { return .sessionID }
        case 13: if matches(k, "end_timestamp") { return .end }
        case 15: if matches(k, "start_timestamp") { return .start }
        default: break
        }
        return .unknown
    }

    /// Whether `"name"` is at the scan position; if so, steps over it.
    @inline(__always) private mutating func plainKey(_ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard b.count - i >= n + 2, b[i + n + 1] == UInt8(ascii: "\""),
            matches(UnsafeBufferPointer(rebasing: b[(i + 1)..<(i + 1 + n)]), name)
        else { return false }
        i += n + 2
        return true
    }

    private func matches(_ k: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard k.count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for j in 0..<k.count where k[j] != p[j] { return false }
        return true
    }

    /// Scans the value of a known field without making a `String`.
    private mutating func scanField(slot: Int) throws(IngestError) -> FieldValue {
        guard i < b.count else { throw error("unexpected end of input: expected a value") }
        switch b[i] {
        case UInt8(ascii: "\""): return try scanString(slot: slot)
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return FieldValue(kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let numberStart = i
            try scanNumber()
            return FieldValue(kind: .number, bytes: UnsafeBufferPointer(rebasing: b[numberStart..<i]))
        default:
            try skipValue()
            return FieldValue(kind: .other)
        }
    }

    // MARK: Values

    /// Skips one JSON value of any kind, validating it, without recursion.
    private mutating func skipValue() throws(IngestError) {
        var stack: [Bool] = []  // true: inside an object; false: inside an array
        valueLoop: while true {
            skipWhitespace()
            guard i < b.count else { throw error("unexpected end of input: expected a value") }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    i += 1
                } else {
                    stack.append(true)
                    try scanMemberName()
                    continue valueLoop
                }
            case UInt8(ascii: "["):
                i += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    i += 1
                } else {
                    stack.append(false)
                    continue valueLoop
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try scanLiteral("true")
            case UInt8(ascii: "f"): try scanLiteral("false")
            case UInt8(ascii: "n"): try scanLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
            default: throw error("expected a value")
            }
            // A value is complete: close containers until one needs another element.
            while let inObject = stack.last {
                skipWhitespace()
                guard i < b.count else {
                    throw error("unexpected end of input: expected ',' or '\(inObject ? "}" : "]")'")
                }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    if inObject { try scanMemberName() }
                    continue valueLoop
                }
                if b[i] == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    stack.removeLast()
                    continue
                }
                throw error(inObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
            }
            return
        }
    }

    /// Scans `"key" :` inside an object being skipped.
    private mutating func scanMemberName() throws(IngestError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in the object") }
        try skipString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
        i += 1
    }

    private mutating func scanLiteral(_ word: StaticString) throws(IngestError) {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n, matches(UnsafeBufferPointer(rebasing: b[i..<(i + n)]), word) else {
            throw error("expected a value")
        }
        i += n
    }

    /// Scans a number per RFC 8259: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func scanNumber() throws(IngestError) {
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit") }
        i += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            i += 1
            guard let d = peek(), isDigit(d) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard let d = peek(), isDigit(d) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while i < b.count, isDigit(b[i]) { i += 1 }
    }

    @inline(__always) private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    // MARK: Strings

    /// Skips a string, validating its escapes.
    private mutating func skipString() throws(IngestError) {
        _ = try scanString(slot: nil)
    }

    /// Scans a string at `"`: its content bytes in the input when it has no escapes, else
    /// unescaped into scratch buffer `slot` (with no slot, escapes are only validated).
    private mutating func scanString(slot: Int?) throws(IngestError) -> FieldValue {
        i += 1  // opening quote
        let contentStart = i
        var high: UInt8 = 0
        // Fast path, 8 bytes a step while none is `"`, `\\` or a control character.
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            var wide: UInt64 = 0
            while i + 8 <= b.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let quote = w ^ 0x2222_2222_2222_2222
                let backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                // A byte's high bit is set when that byte is zero (quote, backslash) or below 0x20 (ASCII only).
                let stop = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- 0x2020_2020_2020_2020) & ~w) & highs
                if stop != 0 { break }
                wide |= w
                i += 8
            }
            if wide & 0x8080_8080_8080_8080 != 0 { high = 0x80 }
        }
        // Then byte by byte: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return FieldValue(kind: .string, bytes: UnsafeBufferPointer(rebasing: b[contentStart..<(i - 1)]), nonASCII: high >= 0x80)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character U+\(hex4(UInt32(c))) inside a string") }
            high |= c
            i += 1
        }
        guard i < b.count else { throw error("unterminated string") }
        // Slow path: escapes.
        if let slot { scratch.reset(slot, with: UnsafeBufferPointer(rebasing: b[contentStart..<i])) }
        var repaired = false
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let slot else { return FieldValue(kind: .string) }
                return FieldValue(kind: .string, bytes: scratch.bytes(slot), nonASCII: high >= 0x80, repaired: repaired)
            }
            if c < 0x20 { throw error("control character U+\(hex4(UInt32(c))) inside a string") }
            if c != UInt8(ascii: "\\") {
                if let slot { scratch.append(slot, c) }
                high |= c
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { throw error("unterminated string") }
            let e = b[i]
            i += 1
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
                    if b.count - i >= 6, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                        let save = i
                        i += 2
                        let low = try scanHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            i = save
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
                i -= 2
                throw error("invalid escape '\\\(String(UnicodeScalar(e)))' in a string")
            }
            if let slot { scratch.append(slot, scalar: scalar) }
        }
        throw error("unterminated string")
    }

    private mutating func scanHex4() throws(IngestError) -> UInt32 {
        guard b.count - i >= 4 else { throw error("expected four hex digits after '\\u'") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 0x41 + 10)
            default: throw error("expected four hex digits after '\\u'")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    // MARK: Helpers

    @inline(__always) private func peek() -> UInt8? { i < b.count ? b[i] : nil }

    private mutating func skipWhitespace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func expectEnd() throws(IngestError) {
        skipWhitespace()
        guard i == b.count else { throw error("unexpected data after the end of the JSON value") }
    }

    private func describeValueStart(_ c: UInt8) -> String {
        switch c {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    /// A syntax error at the current position, with its line and column.
    private func error(_ message: String) -> IngestError {
        let position = TextPosition.of(offset: min(i, b.count), in: b)
        return .syntax(line: position.line, column: position.column, message: message)
    }

    private func hex4(_ v: UInt32) -> String {
        String(v, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

/// Line and column of a byte offset: lines split at LF, columns count Unicode scalars from 1.
enum TextPosition {
    static func of(offset: Int, in b: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var j = 0
        while j < offset {
            if b[j] == 0x0A {
                line += 1
                lineStart = j + 1
            }
            j += 1
        }
        var column = 1
        for k in lineStart..<offset where b[k] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }
}

/// Growable byte buffers the scanner unescapes strings into, one per field so that a row's
/// fields stay valid together until the next row.
final class ScratchBuffers {
    private var storage: [UnsafeMutablePointer<UInt8>]
    private var counts: [Int]
    private var capacities: [Int]

    init(count: Int) {
        storage = (0..<count).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: 256) }
        counts = Array(repeating: 0, count: count)
        capacities = Array(repeating: 256, count: count)
    }

    deinit {
        for p in storage { p.deallocate() }
    }

    func bytes(_ slot: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage[slot], count: counts[slot])
    }

    func reset(_ slot: Int, with bytes: UnsafeBufferPointer<UInt8>) {
        counts[slot] = 0
        for byte in bytes { append(slot, byte) }
    }

    @inline(__always) func append(_ slot: Int, _ byte: UInt8) {
        if counts[slot] == capacities[slot] { grow(slot) }
        storage[slot][counts[slot]] = byte
        counts[slot] += 1
    }

    func append(_ slot: Int, scalar: UInt32) {
        let s = UnicodeScalar(scalar) ?? "\u{FFFD}"
        UTF8.encode(s) { append(slot, $0) }
    }

    private func grow(_ slot: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacities[slot] * 2)
        bigger.update(from: storage[slot], count: counts[slot])
        storage[slot].deallocate()
        storage[slot] = bigger
        capacities[slot] *= 2
    }
}
