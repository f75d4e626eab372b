// DatasetBuilder.swift — turns scanned rows into columns: validity rules, normalisation and interning (docs/DATA.md §1–2), on bytes.
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

/// Interns names: the raw bytes seen → the id of their normalised form, so each raw spelling
/// is decoded and normalised once, and later rows cost one hash lookup and no `String`.
struct NameTable: Sendable {
    private(set) var names: [String] = []
    private var ids: [ExactName: Int32] = [:]
    private var raw = ByteTable()
    private var nullID: Int32?
    let normalise: @Sendable (String?) -> String

    init(normalise: @escaping @Sendable (String?) -> String) {
        self.normalise = normalise
    }

    /// The id of a string, null or absent field's normalised name.
    mutating func id(for field: FieldValue) -> Int32 {
        guard field.kind == .string else { return idForNull() }
        if let id = raw.value(for: field.bytes) { return id }
        let id = intern(normalise(String(decoding: field.bytes, as: UTF8.self)))
        raw.insert(field.bytes, value: id)
        return id
    }

    /// The id of a name given as text (null included).
    mutating func id(for text: String?) -> Int32 {
        guard var text else { return idForNull() }
        return text.withUTF8 { id(for: FieldValue(kind: .string, bytes: $0)) }
    }

    private mutating func idForNull() -> Int32 {
        if let nullID { return nullID }
        let id = intern(normalise(nil))
        nullID = id
        return id
    }

    /// Extends `map` (another table's ids → ours, -1: not seen yet) to every id `ids` use
    /// (negative ids: none), interning the names of `names` not seen before in the order their
    /// ids come: what another table's rows, taken after these, need.
    mutating func extend(_ map: inout [Int32], for ids: [Int32], names: [String]) {
        if map.count < names.count { map += [Int32](repeating: -1, count: names.count - map.count) }
        map.withUnsafeMutableBufferPointer { map in
            for id in ids where id >= 0 && map[Int(id)] < 0 { map[Int(id)] = intern(names[Int(id)]) }
        }
    }

    /// The id of an already normalised name.
    mutating func intern(_ name: String) -> Int32 {
        if let id = ids[ExactName(name)] { return id }
        let id = Int32(names.count)
        names.append(name)
        ids[ExactName(name)] = id
        return id
    }
}

/// An open-addressing hash table from byte strings to ids (names are few and short).
struct ByteTable: Sendable {
    private var arena: [UInt8] = []
    private var entries: [(offset: Int32, count: Int32, hash: UInt32, value: Int32)] = []
    private var slots = [Int32](repeating: -1, count: 64)

    func value(for key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(key)
        var slot = Int(hash) & (slots.count - 1)
        while true {
            let e = slots[slot]
            if e < 0 { return nil }
            let entry = entries[Int(e)]
            if entry.hash == hash, Int(entry.count) == key.count, equal(entry.offset, key) { return entry.value }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, value: Int32) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        let hash = Self.hash(key)
        entries.append((Int32(arena.count), Int32(key.count), hash, value))
        arena.append(contentsOf: key)
        place(Int32(entries.count - 1), hash: hash)
    }

    private func equal(_ offset: Int32, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let keyBase = key.baseAddress else { return true }
        return arena.withUnsafeBufferPointer { a in memcmp(a.baseAddress! + Int(offset), keyBase, key.count) == 0 }
    }

    private mutating func place(_ entry: Int32, hash: UInt32) {
        var slot = Int(hash) & (slots.count - 1)
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = entry
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for k in entries.indices { place(Int32(k), hash: entries[k].hash) }
    }

    /// A multiply-mix hash over 8 bytes a step (names are short: one or two steps).
    @inline(__always) static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = key.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var h = UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15
        var i = 0
        while i + 8 <= key.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < key.count {
            tail |= UInt64(base[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
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

/// A name compared by its exact scalars. Swift's `String ==` treats canonically equivalent
/// strings (`é` and `e` + U+0301) as equal; docs/DATA.md §2 keeps names exactly, so they stay apart.
public struct ExactName: Hashable, Sendable {
    public let text: String
    public init(_ text: String) { self.text = text }
    public static func == (a: ExactName, b: ExactName) -> Bool { a.text.sameScalars(as: b.text) }
    public func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Name normalisation of docs/DATA.md §2.
public enum Normalise {
    /// The app name of sessions whose `app_name` is null or blank.
    public static let unknownApp = "(unknown)"
    /// The category of sessions whose category is null, blank, `other` or `others`.
    public static let otherCategory = "Other"

    /// Trims white space; null or blank becomes `(unknown)`. Everything else is kept exactly.
    public static func appName(_ raw: String?) -> String {
        let trimmed = trim(raw ?? "")
        return trimmed.isEmpty ? unknownApp : trimmed
    }

    /// Trims white space; null, blank, `other` or `others` (any case) become `Other`.
    public static func category(_ raw: String?) -> String {
        let trimmed = trim(raw ?? "")
        switch trimmed.lowercased() {
        case "", "other", "others": return otherCategory
        default: return trimmed
        }
    }

    /// The string without leading and trailing Unicode white space.
    public static func trim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

extension String {
    /// Whether both hold exactly the same scalars (Swift's `==` uses canonical equivalence).
    /// Copies of one string compare in constant time, however long (a 200 MB name).
    public func sameScalars(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var (a, b) = (self, other)
        return a.withUTF8 { x in
            b.withUTF8 { y in x.baseAddress == y.baseAddress || x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// Orders by Unicode scalar values, as docs/DATA.md §4 asks (Swift's `<` uses canonical equivalence).
    public func scalarsPrecede(_ other: String) -> Bool {
        unicodeScalars.lexicographicallyPrecedes(other.unicodeScalars)
    }
}
