// SessionRowReader.swift — the part of the scanner that knows the session fields: where rows go (RowSink), the array's elements read as rows, an object's five known keys told apart and their values read without a String.
import UsageCore

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

extension JSONScanner {
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
        offset += 1  // "{"
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in the object") }
            let key = try scanKey()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            offset += 1
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
            guard offset < bytes.count else { throw error("unexpected end of input: expected ',' or '}'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return
            }
            throw error("expected ',' or '}' after an object member")
        }
    }

    enum Key { case sessionID, appName, category, start, end, unknown }

    /// Scans a key string and tells which of the known fields it is.
    mutating func scanKey() throws(ScanStop) -> Key {
        // Fast path: the key is one of the five, written plainly (`"app_name"`), as nearly always.
        if offset + 1 < bytes.count {
            switch bytes[offset + 1] {
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
    @inline(__always) mutating func plainKey(_ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard bytes.count - offset >= n + 2, bytes[offset + n + 1] == UInt8(ascii: "\""),
            matches(UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + n)]), name)
        else { return false }
        offset += n + 2
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
        guard offset < bytes.count else { throw error("unexpected end of input: expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "\""): return try scanString(slot: slot)
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return FieldValue(kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let numberStart = offset
            try scanNumber()
            return FieldValue(kind: .number, bytes: UnsafeBufferPointer(rebasing: bytes[numberStart..<offset]))
        default:
            try skipValue()
            return FieldValue(kind: .other)
        }
    }
}
