// DatasetBuilder.swift — turns scanned rows into columns: validity rules, normalisation and interning (docs/DATA.md §1–2), on bytes.
import UsageCore
import Foundation

/// A field of a row as the scanner saw it, without making a `String`: its kind and, for a
/// string or number, its UTF-8 bytes (in the input, or unescaped in a scratch buffer).
struct FieldValue {
    enum Kind: UInt8 {
        /// The key is not in the object.
        case absent
        /// JSON `null`.
        case null
        /// A string; `bytes` is its unescaped content.
        case string
        /// A number; `bytes` is its literal text.
        case number
        /// A boolean, array or object.
        case other
    }

    var kind = Kind.absent
    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// Some byte is ≥ 0x80, so the bytes must be checked as UTF-8.
    var nonASCII = false
    /// A lone surrogate escape became U+FFFD while unescaping.
    var repaired = false

    /// Whether the string might hold invalid UTF-8 or a repaired escape (ASCII never does).
    var mayNeedRepair: Bool { kind == .string && (nonASCII || repaired) }
}

/// Collects rows one by one into columns: the one place where docs/DATA.md §1's validity rules and
/// §2's normalisation are applied. Skipped rows are counted; the first three of each reason
/// are kept as examples with their line.
struct DatasetBuilder: Sendable {
    private(set) var apps = NameTable(normalise: Normalise.appName)
    private(set) var categories = NameTable(normalise: Normalise.category)
    private(set) var columns = SessionColumns()
    /// Skip counts and examples.
    private(set) var skipped = SkipSummary()
    /// Strings in which invalid UTF-8 or a lone surrogate became U+FFFD.
    var repairedStrings = 0
    /// The last timestamp date parsed.
    private var dates = RFC3339.DateCache()
    /// Timewarrior: the activity name of each set of tag bytes seen (nil: no tags).
    var tagSetNames: [[UInt8]: [UInt8]?] = [:]
    /// CSV: rows kept whose times were read as wall-clock times of a zone.
    var localTimeRows = 0

    init(expectedRows: Int = 0) {
        columns.reserve(expectedRows)
    }

    /// Validates one object row and adds it as a session or counts it as skipped.
    ///
    /// Checks, in order: timestamps present, timestamps valid, `app_name` and `category` of the
    /// right type, end after start. The first failing check names the skip reason.
    mutating func addRow(
        id: FieldValue, app: FieldValue, category: FieldValue, start: FieldValue, end: FieldValue, line: Int?
    ) {
        // Every decoded string counts once when it needed repair, whether the row is kept or not.
        if id.mayNeedRepair || app.mayNeedRepair || category.mayNeedRepair || start.mayNeedRepair || end.mayNeedRepair {
            for field in [id, app, category, start, end] where field.kind == .string {
                if field.repaired || (field.nonASCII && !Self.isValidUTF8(field.bytes)) { repairedStrings += 1 }
            }
        }
        func skip(_ reason: SkipReason) {
            skipped.record(SkippedRow(reason: reason, sessionID: Self.idText(id), line: line))
        }
        guard start.kind != .absent, start.kind != .null, end.kind != .absent, end.kind != .null else {
            return skip(.missingTimestamp)
        }
        guard start.kind == .string, end.kind == .string, let s = RFC3339.parse(start.bytes, cache: &dates),
            let e = RFC3339.parse(end.bytes, cache: &dates)
        else { return skip(.badTimestamp) }
        guard app.kind.isTextOrNull, category.kind.isTextOrNull else { return skip(.badFieldType) }
        guard e > s else { return skip(.endNotAfterStart) }
        let appID = apps.id(for: app)
        let categoryID = categories.id(for: category)
        let offsets = UTCOffsets(startMinutes: RFC3339.offsetMinutes(start.bytes), endMinutes: RFC3339.offsetMinutes(end.bytes))
        switch id.kind {
        case .string where id.nonASCII && !Self.isValidUTF8(id.bytes):
            let repairedID = Array(String(decoding: id.bytes, as: UTF8.self).utf8)
            repairedID.withUnsafeBufferPointer {
                columns.append(start: s, end: e, app: appID, category: categoryID, idBytes: $0, offsets: offsets)
            }
        case .string, .number:
            columns.append(start: s, end: e, app: appID, category: categoryID, idBytes: id.bytes, offsets: offsets)
        case .absent, .null, .other:
            columns.append(start: s, end: e, app: appID, category: categoryID, idBytes: nil, offsets: offsets)
        }
    }

    /// Adds a session whose instants are already known (ActivityWatch events), or skips it
    /// when it is empty; names are normalised as for any row.
    mutating func addSession(
        start: Micros, end: Micros, app: String?, category: String?, id: String?, line: Int?, running: Bool = false
    ) {
        guard end > start else {
            return skipped.record(SkippedRow(reason: .endNotAfterStart, sessionID: id, line: line))
        }
        columns.append(
            start: start, end: end, app: apps.id(for: app), category: categories.id(for: category), id: id, running: running)
    }

    /// Adds a session whose instants are known, its names and id as bytes (CSV cells: valid
    /// UTF-8 or repaired here as `String(decoding:)` repairs), or skips it when it is empty.
    mutating func addSession(
        start: Micros, end: Micros, app: FieldValue, category: FieldValue, idBytes id: UnsafeBufferPointer<UInt8>?, line: Int?
    ) {
        guard end > start else {
            return skipped.record(
                SkippedRow(reason: .endNotAfterStart, sessionID: id.map { String(decoding: $0, as: UTF8.self) }, line: line))
        }
        let appID = apps.id(for: app)
        let categoryID = categories.id(for: category)
        if let id, !Self.isValidUTF8(id) {
            let repaired = Array(String(decoding: id, as: UTF8.self).utf8)
            repaired.withUnsafeBufferPointer { columns.append(start: start, end: end, app: appID, category: categoryID, idBytes: $0) }
        } else {
            columns.append(start: start, end: end, app: appID, category: categoryID, idBytes: id)
        }
    }

    /// Counts a row skipped before it reached the rules (a format's own checks).
    mutating func skip(_ reason: SkipReason, id: String?, line: Int?) {
        skipped.record(SkippedRow(reason: reason, sessionID: id, line: line))
    }

    /// The id of an app name from another builder (merging halves).
    mutating func intern(app name: String) -> Int32 { apps.intern(name) }

    /// The id of a category name from another builder (merging halves).
    mutating func intern(category name: String) -> Int32 { categories.intern(name) }

    /// Counts an array element that is not an object.
    mutating func addNonObject(line: Int?) {
        skipped.record(SkippedRow(reason: .notAnObject, sessionID: nil, line: line))
    }

    /// Hands over the rows collected so far (one segment's), keeping the name tables and the
    /// date cache for the next segment; the part's ids index `apps`/`categories` as they are now.
    mutating func takePart(table: Int) -> ScannedPart {
        let part = ScannedPart(
            table: table, appNames: apps.names, categoryNames: categories.names, columns: columns, skipped: skipped,
            repairedStrings: repairedStrings, localTimeRows: localTimeRows)
        columns = SessionColumns()
        skipped = SkipSummary()
        repairedStrings = 0
        localTimeRows = 0
        return part
    }

    /// A row's `session_id` as text: a string, or a number's literal; else `nil`.
    static func idText(_ id: FieldValue) -> String? {
        switch id.kind {
        case .string, .number: return String(decoding: id.bytes, as: UTF8.self)
        case .absent, .null, .other: return nil
        }
    }

    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

}

extension FieldValue.Kind {
    fileprivate var isTextOrNull: Bool { self == .string || self == .null || self == .absent }
}

extension NameTable {
    /// The id of a string, null or absent field's normalised name.
    mutating func id(for field: FieldValue) -> Int32 {
        field.kind == .string ? id(forBytes: field.bytes) : idForNull()
    }
}

/// Counting line breaks fast (8 bytes at a time): line numbers are only needed for a few rows.
enum Newlines {
    /// The number of LF bytes in `bytes[from..<to]`.
    static func count(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let base = bytes.baseAddress else { return 0 }
        var n = 0
        var i = from
        let lf: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let raw = UnsafeRawPointer(base)
        while i + 8 <= to {
            let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ lf
            // A byte's high bit in `t` is set exactly when that byte of v is non-zero.
            let t = ((v & low7) &+ low7) | v
            n += 8 - (t & ~low7).nonzeroBitCount
            i += 8
        }
        while i < to {
            if base[i] == 0x0A { n += 1 }
            i += 1
        }
        return n
    }

    /// 1-based line numbers of byte offsets (in any order), in one pass over the input.
    static func lines(at offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var lines = [Int](repeating: 1, count: offsets.count)
        var position = 0
        var line = 1
        for k in order {
            line += count(in: bytes, from: position, to: offsets[k])
            position = max(position, offsets[k])
            lines[k] = line
        }
        return lines
    }
}
