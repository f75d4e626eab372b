// JSONScanner.swift — the byte-level, non-recursive JSON scanner behind the sessions JSON and NDJSON ingest: validates RFC 8259, unescapes strings into scratch buffers, hands each row to a RowSink; scans a whole input or one segment of a stream.
import UsageCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the scanner hands each array element: `DatasetBuilder` in the program; the fuzz target
/// (`Fuzz/JSONScannerFuzz.swift`) records the raw fields to compare them with Foundation's.
protocol RowSink {
    /// An object element and its five known fields (valid until the next call); it begins at
    /// byte `offset` of the scanned bytes, on their line `line` (1-based).
    mutating func addRow(
        id: FieldValue, app: FieldValue, category: FieldValue, start: FieldValue, end: FieldValue, offset: Int, line: Int)
    /// An element that is not an object, beginning at byte `offset`, on line `line`.
    mutating func addNonObject(offset: Int, line: Int)
}

extension DatasetBuilder: RowSink {
    mutating func addRow(
        id: FieldValue, app: FieldValue, category: FieldValue, start: FieldValue, end: FieldValue, offset: Int, line: Int
    ) {
        addRow(id: id, app: app, category: category, start: start, end: end, line: line)
    }

    mutating func addNonObject(offset: Int, line: Int) {
        addNonObject(line: line)
    }
}

/// What reads the elements of a top-level array one at a time (the sessions' rows, Timewarrior's
/// intervals), for `JSONScanner.scanElements`.
protocol ArrayElementReader {
    associatedtype Sink
    /// Reads the element at the scan position (any JSON value), keeping what it needs.
    mutating func read(_ s: inout JSONScanner) throws(ScanStop)
    /// The element read last is whole (its separator seen): hands it to `sink`. It began at
    /// byte `offset` of the scanned bytes, on their line `line`.
    mutating func commit(into sink: inout Sink, offset: Int, line: Int)
}

/// The sessions array's elements: objects as rows of the five known fields, anything else not
/// an object.
struct SessionRowReader<Sink: RowSink>: ArrayElementReader {
    private var row = JSONScanner.RowFields()
    private var isObject = false

    @inline(__always) mutating func read(_ s: inout JSONScanner) throws(ScanStop) {
        isObject = s.peek() == UInt8(ascii: "{")
        if isObject { try s.scanRow(&row) } else { try s.skipValue() }
    }

    @inline(__always) mutating func commit(into sink: inout Sink, offset: Int, line: Int) {
        if isObject {
            sink.addRow(id: row.id, app: row.app, category: row.category, start: row.start, end: row.end, offset: offset, line: line)
        } else {
            sink.addNonObject(offset: offset, line: line)
        }
    }
}

/// Why a scan stopped short of a result, by byte offset (the caller turns offsets into lines
/// and columns: a segment's offsets are not the file's).
enum ScanStop: Error, Equatable {
    /// The bytes end inside a value, and more may follow (only when the scan is not final).
    case needMore
    /// Not JSON: what was expected at byte `offset`.
    case syntax(offset: Int, message: String)
    /// Not JSON, placed already: line (1-based, of the scanned bytes) and column (NDJSON lines).
    case located(line: Int, column: Int, message: String)
    /// Nothing but white space.
    case empty
    /// Valid JSON whose top level is not an array.
    case notAnArray(found: String)
    /// The load was cancelled.
    case cancelled

    /// The ingest error this stop is, with `b` the bytes scanned from their first line.
    func ingestError(in b: UnsafeBufferPointer<UInt8>) -> IngestError {
        switch self {
        case .needMore: return .syntax(line: 1, column: 1, message: "unexpected end of input")
        case .syntax(let offset, let message):
            let position = TextPosition.of(offset: min(offset, b.count), in: b)
            return .syntax(line: position.line, column: position.column, message: message)
        case .located(let line, let column, let message): return .syntax(line: line, column: column, message: message)
        case .empty: return .empty
        case .notAnArray(let found): return .notAnArray(found: found)
        case .cancelled: return .cancelled
        }
    }
}

/// Where a segment of a sessions array begins.
enum SegmentStart: Sendable {
    /// At the start of the input: a byte order mark, white space, `[`.
    case document
    /// At an element of the array (a guessed row boundary, proved by the segment before).
    case element
}

/// How the scan of one segment ended, when it did not fail.
enum SegmentEnd: Equatable, Sendable {
    /// At the start of an element (after `,` and white space): the next segment goes on from
    /// exactly here.
    case open
    /// A value runs past the segment's end. It begins at `resume`, after `newlines` line
    /// breaks of the segment, and must be scanned again with the bytes that follow.
    case short(resume: Int, newlines: Int)
    /// The array closed and the rest of the segment is white space (a final segment: the input ended).
    case closed
}

/// The byte-level JSON scanner behind `SessionsJSON` and `NDJSONScan`.
///
/// It scans either a whole input (final: its end is the input's end) or one segment of a
/// stream (not final: any read past the end means "more bytes needed", never an error).
/// Errors carry byte offsets; line breaks are counted on the way (they can only stand in
/// white space between tokens), so skipped rows know their line without a second pass.
struct JSONScanner {
    private(set) var b: UnsafeBufferPointer<UInt8>
    var i = 0
    /// Whether the end of `b` is the end of the input (else more bytes may follow).
    private(set) var isFinal: Bool
    /// Line breaks passed so far.
    var newlines = 0
    /// With `countRepairs`, the strings (keys and skipped ones included) in which invalid UTF-8
    /// or a lone surrogate escape became U+FFFD, as Foundation-based readers counted them.
    var repairedStrings = 0
    var countRepairs = false
    /// Unescaped bytes of the five known fields (one buffer each, reused row after row) and of keys.
    private let scratch = ScratchBuffers(count: 6)

    init(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool = true) {
        self.b = bytes
        self.isFinal = final
    }

    /// Where the scan stands (the byte offset).
    var position: Int { i }

    /// Scans other bytes with the same scratch buffers, from their start.
    mutating func rebase(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) {
        b = bytes
        i = 0
        isFinal = final
        newlines = 0
    }

    // MARK: The sessions array

    /// Scans a whole input: `[`, the rows, `]`, the end.
    mutating func scanSessions<Sink: RowSink>(
        into builder: inout Sink, cancellation: CancellationToken?
    ) throws(IngestError) {
        do throws(ScanStop) {
            _ = try scanSegment(into: &builder, from: .document, cancellation: cancellation)
        } catch {
            throw error.ingestError(in: b)
        }
    }

    /// Scans the bytes as a segment of a sessions array beginning at `start`: the rows it holds
    /// whole go to `builder`. Throws the first error in the segment; when the scan is not final,
    /// a value cut by the end is `.short`, not an error.
    mutating func scanSegment<Sink: RowSink>(
        into builder: inout Sink, from start: SegmentStart, cancellation: CancellationToken?
    ) throws(ScanStop) -> SegmentEnd {
        var rows = SessionRowReader<Sink>()
        return try scanElements(into: &builder, reader: &rows, from: start, cancellation: cancellation)
    }

    /// Scans the bytes as a segment of a top-level array beginning at `start`, each element
    /// read by `reader` and handed to `sink` once its separator is seen. With `countRepairs`,
    /// the strings counted are those of the elements handed over (a `.short` end takes back
    /// the cut element's).
    mutating func scanElements<Reader: ArrayElementReader>(
        into sink: inout Reader.Sink, reader: inout Reader, from start: SegmentStart, cancellation: CancellationToken?
    ) throws(ScanStop) -> SegmentEnd {
        i = 0
        newlines = 0
        repairedStrings = 0
        if start == .document {
            do throws(ScanStop) {
                guard try scanArrayStart() else { return .closed }
            } catch .needMore {
                return .short(resume: 0, newlines: 0)
            }
        }
        var rows = 0
        while true {
            let rowStart = i
            let rowNewlines = newlines
            let rowRepaired = repairedStrings
            if rowStart == b.count, !isFinal { return .open }
            let separator: UInt8
            do throws(ScanStop) {
                try reader.read(&self)
                skipWhitespace()
                guard i < b.count else { throw error("unexpected end of input: expected ',' or ']'") }
                separator = b[i]
                guard separator == UInt8(ascii: ",") || separator == UInt8(ascii: "]") else {
                    throw error("expected ',' or ']' after an array element")
                }
            } catch .needMore {
                repairedStrings = rowRepaired
                return .short(resume: rowStart, newlines: rowNewlines)
            }
            reader.commit(into: &sink, offset: rowStart, line: rowNewlines + 1)
            i += 1
            if separator == UInt8(ascii: "]") {
                try expectEnd()
                return .closed
            }
            skipWhitespace()
            rows += 1
            if rows & 0xFFF == 0, cancellation?.isCancelled == true { throw .cancelled }
        }
    }

    /// Scans up to the first element (or the end of an empty array, which also checks the end of
    /// input). Returns whether there are elements to scan.
    mutating func scanArrayStart() throws(ScanStop) -> Bool {
        if b.count < 3, !isFinal { throw .needMore }
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        skipWhitespace()
        guard i < b.count else { throw isFinal ? .empty : .needMore }
        if b[i] != UInt8(ascii: "[") {
            // A value that is not an array is an error whatever follows: read it all first, so
            // that a syntax error inside it is the one reported, as one scan would.
            guard isFinal else { throw .needMore }
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

    // MARK: NDJSON

    /// Scans the bytes as NDJSON lines (a segment ends after a line break, or is final). Each
    /// non-blank line is read as `[` + the line + `]` would be: values separated by commas,
    /// objects as rows, anything else not an object; rows know their line (1-based, of these
    /// bytes). An error names its line and its column on that line; a value the line ends
    /// before (a line break inside it) is "the line ends before its JSON value does".
    mutating func scanNDJSON<Sink: RowSink>(
        into builder: inout Sink, skippingBOM: Bool, cancellation: CancellationToken?
    ) throws(ScanStop) {
        let segment = b
        let final = isFinal
        defer {
            b = segment
            isFinal = final
        }
        guard let base = segment.baseAddress else { return }
        var start = skippingBOM && segment.count >= 3 && segment[0] == 0xEF && segment[1] == 0xBB && segment[2] == 0xBF ? 3 : 0
        var line = 1
        var rows = 0
        var lineBreaks = 0
        defer { newlines = lineBreaks }
        while start < segment.count {
            let end: Int
            do {
                if let newline = memchr(base + start, 0x0A, segment.count - start) {
                    end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    lineBreaks += 1
                    try scanLine(UnsafeBufferPointer(rebasing: segment[start...end]), number: line, into: &builder)
                } else {
                    // The last line has no line break: it is scanned with one, as every other line.
                    end = segment.count
                    let withBreak = Array(segment[start...]) + [0x0A]
                    try withBreak.withUnsafeBufferPointer { (bytes) throws(ScanStop) in
                        try scanLine(bytes, number: line, into: &builder)
                    }
                }
            }
            rows += 1
            if rows & 0xFFF == 0, cancellation?.isCancelled == true { throw .cancelled }
            start = end + 1
            line += 1
        }
    }

    /// One line (its bytes and line break): its values, or its error placed on the line.
    private mutating func scanLine<Sink: RowSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, number line: Int, into builder: inout Sink
    ) throws(ScanStop) {
        b = bytes
        i = 0
        do throws(ScanStop) {
            try scanLineValues(into: &builder, line: line)
        } catch .syntax(let offset, let message) {
            let content = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 1)])
            let past = offset >= content.count
            let column = Self.scalars(in: UnsafeBufferPointer(rebasing: content[..<min(offset, content.count)])) + 1
            throw .located(line: line, column: column, message: past ? "the line ends before its JSON value does" : message)
        }
    }

    /// The values of one line (`b` is the line and its line break).
    private mutating func scanLineValues<Sink: RowSink>(into builder: inout Sink, line: Int) throws(ScanStop) {
        skipWhitespace()
        if i == b.count { return }  // a blank line
        var row = RowFields()
        while true {
            let rowStart = i
            let isObject = peek() == UInt8(ascii: "{")
            if isObject { try scanRow(&row) } else { try skipValue() }
            skipWhitespace()
            let more = i < b.count
            if more, b[i] != UInt8(ascii: ",") { throw error("expected ',' or ']' after an array element") }
            if isObject {
                builder.addRow(
                    id: row.id, app: row.app, category: row.category, start: row.start, end: row.end,
                    offset: rowStart, line: line)
            } else {
                builder.addNonObject(offset: rowStart, line: line)
            }
            guard more else { return }
            i += 1
            skipWhitespace()
        }
    }

    /// Unicode scalars in UTF-8 bytes (columns count them).
    static func scalars(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for byte in bytes where byte & 0xC0 != 0x80 { n += 1 }
        return n
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
    mutating func scanRow(_ row: inout RowFields) throws(ScanStop) {
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
    private mutating func scanKey() throws(ScanStop) -> Key {
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

    func matches(_ k: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard k.count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for j in 0..<k.count where k[j] != p[j] { return false }
        return true
    }

    /// Scans the value of a known field without making a `String`.
    mutating func scanField(slot: Int) throws(ScanStop) -> FieldValue {
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
    mutating func skipValue() throws(ScanStop) {
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
    mutating func scanMemberName() throws(ScanStop) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in the object") }
        try skipString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
        i += 1
    }

    mutating func scanLiteral(_ word: StaticString) throws(ScanStop) {
        let n = word.utf8CodeUnitCount
        let available = min(n, b.count - i)
        let p = word.utf8Start
        for k in 0..<available where b[i + k] != p[k] { throw error("expected a value") }
        if available < n { throw isFinal ? error("expected a value") : .needMore }
        i += n
    }

    /// Scans a number per RFC 8259: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func scanNumber() throws(ScanStop) {
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
        // A number that ends with the bytes may go on in the bytes that follow.
        if i == b.count, !isFinal { throw .needMore }
    }

    private mutating func skipDigits() {
        while i < b.count, isDigit(b[i]) { i += 1 }
    }

    @inline(__always) private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    // MARK: Strings

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
        var j = i + 1
        let end = min(b.count, i + 34)
        while j < end {
            let c = b[j]
            if c == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: b[(i + 1)..<j])
                i = j + 1
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
        s.i += 1
        s.skipWhitespace()
        if s.peek() == UInt8(ascii: "}") {
            s.i += 1
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
            s.i += 1
            try member(&s, key)
            s.skipWhitespace()
            guard s.i < s.b.count else { throw s.error("unexpected end of input: expected ',' or '}'") }
            if s.b[s.i] == UInt8(ascii: ",") {
                s.i += 1
                continue
            }
            if s.b[s.i] == UInt8(ascii: "}") {
                s.i += 1
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
                    if b.count - i < 6, !isFinal { throw .needMore }
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

    private mutating func scanHex4() throws(ScanStop) -> UInt32 {
        if b.count - i < 4 {
            // A byte that is not a digit fails where it stands, as with four bytes to look at;
            // digits cut by the end fail at the first (or need more bytes, when more may follow).
            let first = i
            while i < b.count, Self.isHex(b[i]) { i += 1 }
            if i < b.count { throw error("expected four hex digits after '\\u'") }
            guard isFinal else { throw .needMore }
            i = first
            throw error("expected four hex digits after '\\u'")
        }
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

    @inline(__always) private static func isHex(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }

    // MARK: Helpers

    @inline(__always) func peek() -> UInt8? { i < b.count ? b[i] : nil }

    /// Steps over white space, counting line breaks (the only place they can stand).
    @inline(__always) mutating func skipWhitespace() {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x09 || c == 0x0D {
                i += 1
            } else if c == 0x0A {
                i += 1
                newlines += 1
            } else {
                return
            }
        }
    }

    /// Only white space to the end (of the input, or of this segment when more may follow).
    mutating func expectEnd() throws(ScanStop) {
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

    /// A syntax error at the current position; at the end of bytes that are not the input's
    /// end, more bytes are needed instead.
    func error(_ message: String) -> ScanStop {
        if i >= b.count, !isFinal { return .needMore }
        return .syntax(offset: min(i, b.count), message: message)
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
