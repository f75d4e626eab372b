// SessionsJSON.swift — the ingest of the sessions JSON format: a byte-level, non-recursive JSON scanner feeding DatasetBuilder.

/// Why a whole load failed while decoding (SPEC §1: only these abort a load).
public enum IngestError: Error, Equatable, Sendable {
    /// The input holds nothing but white space.
    case empty
    /// The input is not JSON: what was expected at a 1-based line and column (columns count characters).
    case syntax(line: Int, column: Int, message: String)
    /// The input is JSON but its top level is not an array; `found` names what it is.
    case notAnArray(found: String)
    /// The load was cancelled.
    case cancelled

    /// One line for the user.
    public var description: String {
        switch self {
        case .empty: return "no data: the input is empty (expected a JSON array of sessions)"
        case .syntax(let line, let column, let message): return "not valid JSON at line \(line), column \(column): \(message)"
        case .notAnArray(let found): return "expected a JSON array of sessions, found \(found)"
        case .cancelled: return "cancelled"
        }
    }
}

/// Decodes the sessions JSON format (SPEC §1) into a `Dataset`.
///
/// This is the one narrow entry point of ingest. The scanner never recurses (deep nesting cannot
/// overflow the stack), validates the whole input as JSON (RFC 8259), accepts a leading UTF-8
/// BOM, and replaces invalid UTF-8 and lone surrogate escapes inside strings with U+FFFD.
public enum SessionsJSON {
    /// Decodes `bytes`; `progress` receives the number of bytes consumed from time to time and
    /// `cancellation` is polled, throwing `.cancelled` when set.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String,
        cancellation: CancellationToken? = nil, progress: ((Int) -> Void)? = nil
    ) throws(IngestError) -> Dataset {
        var scanner = JSONScanner(bytes)
        var builder = DatasetBuilder()
        try scanner.scanSessions(into: &builder, cancellation: cancellation, progress: progress)
        builder.repairedStrings = scanner.repairedStrings
        return builder.build(source: source)
    }

    /// Decodes a byte array (convenience for tests and small inputs).
    public static func decode(_ bytes: [UInt8], source: String) throws(IngestError) -> Dataset {
        try bytes.withUnsafeBufferPointer { buffer throws(IngestError) in
            try decode(buffer, source: source)
        }
    }

    /// Decodes a string (convenience for tests).
    public static func decode(_ text: String, source: String = "test") throws(IngestError) -> Dataset {
        try decode(Array(text.utf8), source: source)
    }
}

/// The byte-level JSON scanner behind `SessionsJSON`.
struct JSONScanner {
    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0
    private(set) var repairedStrings = 0
    /// Reused buffer for strings with escapes.
    private var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.b = bytes
    }

    // MARK: The sessions array

    mutating func scanSessions(
        into builder: inout DatasetBuilder, cancellation: CancellationToken?, progress: ((Int) -> Void)?
    ) throws(IngestError) {
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
        var lineCounter = LineCounter()
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            i += 1
            try expectEnd()
            return
        }
        var rows = 0
        var nextProgress = 1 << 20
        while true {
            skipWhitespace()
            let rowStart = i
            if peek() == UInt8(ascii: "{") {
                try scanRow(into: &builder, rowStart: rowStart, lines: &lineCounter)
            } else {
                try skipValue()
                builder.addNonObject(line: lineCounter.line(at: rowStart, in: b))
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
    }

    /// Scans one object row and hands its five known fields to the builder.
    private mutating func scanRow(
        into builder: inout DatasetBuilder, rowStart: Int, lines: inout LineCounter
    ) throws(IngestError) {
        var id = RawField.absent
        var app = RawField.absent
        var category = RawField.absent
        var start = RawField.absent
        var end = RawField.absent
        i += 1  // "{"
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in the object") }
                let key = try scanKey()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
                i += 1
                skipWhitespace()
                switch key {
                case .sessionID: id = try scanField()
                case .appName: app = try scanField()
                case .category: category = try scanField()
                case .start: start = try scanField()
                case .end: end = try scanField()
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
                    break
                }
                throw error("expected ',' or '}' after an object member")
            }
        }
        builder.addRow(
            sessionID: id, appName: app, category: category, start: start, end: end,
            line: lines.line(at: rowStart, in: b))
    }

    private enum Key { case sessionID, appName, category, start, end, unknown }

    /// Scans a key string and tells which of the known fields it is.
    private mutating func scanKey() throws(IngestError) -> Key {
        let keyStart = i + 1
        let (text, raw) = try scanStringMaybeRaw()
        if let text {
            switch text {
            case "session_id": return .sessionID
            case "app_name": return .appName
            case "category": return .category
            case "start_timestamp": return .start
            case "end_timestamp": return .end
            default: return .unknown
            }
        }
        let k = UnsafeBufferPointer(rebasing: b[keyStart..<(keyStart + raw)])
        if matches(k, "session_id") { return .sessionID }
        if matches(k, "app_name") { return .appName }
        if matches(k, "category") { return .category }
        if matches(k, "start_timestamp") { return .start }
        if matches(k, "end_timestamp") { return .end }
        return .unknown
    }

    private func matches(_ k: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard k.count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for j in 0..<k.count where k[j] != p[j] { return false }
        return true
    }

    /// Scans a value of a known field into a `RawField`.
    private mutating func scanField() throws(IngestError) -> RawField {
        guard i < b.count else { throw error("unexpected end of input: expected a value") }
        switch b[i] {
        case UInt8(ascii: "\""): return .string(try scanString())
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let numberStart = i
            try scanNumber()
            return .other(literal: String(decoding: UnsafeBufferPointer(rebasing: b[numberStart..<i]), as: UTF8.self))
        default:
            try skipValue()
            return .other(literal: nil)
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
        _ = try scanStringMaybeRaw(decode: false)
    }

    /// Scans a string and returns its text.
    private mutating func scanString() throws(IngestError) -> String {
        let contentStart = i + 1
        let (text, raw) = try scanStringMaybeRaw()
        if let text { return text }
        return decodeUTF8(UnsafeBufferPointer(rebasing: b[contentStart..<(contentStart + raw)]))
    }

    /// Scans a string at `"`. Without escapes it returns `(nil, length)` so the caller can use the
    /// raw bytes; with escapes it returns the unescaped text (when `decode` is true).
    private mutating func scanStringMaybeRaw(decode: Bool = true) throws(IngestError) -> (String?, Int) {
        i += 1  // opening quote
        let contentStart = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let length = i - contentStart
                i += 1
                return (nil, length)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character U+\(hex4(UInt32(c))) inside a string") }
            i += 1
        }
        guard i < b.count else { throw error("unterminated string") }
        // Slow path: escapes.
        scratch.removeAll(keepingCapacity: true)
        if decode { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: b[contentStart..<i])) }
        var repaired = false
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard decode else { return (nil, 0) }
                if repaired { repairedStrings += 1 }
                let text = scratch.withUnsafeBufferPointer { decodeUTF8($0) }
                return (text, 0)
            }
            if c < 0x20 { throw error("control character U+\(hex4(UInt32(c))) inside a string") }
            if c != UInt8(ascii: "\\") {
                if decode { scratch.append(c) }
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
            if decode { appendUTF8(scalar) }
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

    private mutating func appendUTF8(_ scalar: UInt32) {
        let s = UnicodeScalar(scalar) ?? "\u{FFFD}"
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4)
        UTF8.encode(s) { buffer.append($0) }
        scratch.append(contentsOf: buffer)
    }

    /// Decodes UTF-8, counting the string as repaired when invalid bytes become U+FFFD.
    private mutating func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        repairedStrings += 1
        return String(decoding: bytes, as: UTF8.self)
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

/// Counts lines incrementally for offsets that only move forward (row starts).
struct LineCounter {
    private var offset = 0
    private var line = 1

    mutating func line(at target: Int, in b: UnsafeBufferPointer<UInt8>) -> Int {
        while offset < target {
            if b[offset] == 0x0A { line += 1 }
            offset += 1
        }
        return line
    }
}
