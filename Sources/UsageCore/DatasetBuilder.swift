// DatasetBuilder.swift — turns decoded rows into a Dataset: validity rules, normalisation and interning (SPEC §1–2).

/// A field of a row as the decoder saw it, before validation.
public enum RawField: Sendable, Equatable {
    /// The key is not in the object.
    case absent
    /// The value is JSON `null`.
    case null
    /// The value is a string (already unescaped, invalid UTF-8 replaced).
    case string(String)
    /// A number, boolean, array or object; numbers keep their literal text.
    case other(literal: String?)
}

/// Collects rows one by one and builds the `Dataset`: the one place where SPEC §1's validity
/// rules and §2's normalisation are applied.
public struct DatasetBuilder {
    private var apps = NameTable(normalise: Normalise.appName)
    private var categories = NameTable(normalise: Normalise.category)
    private var sessions: [Session] = []
    private var skipped = SkipSummary()
    /// Strings in which invalid UTF-8 or a lone surrogate became U+FFFD.
    public var repairedStrings = 0

    public init() {}

    /// Validates one object row and adds it as a session or counts it as skipped.
    ///
    /// Checks, in order: timestamps present, timestamps valid, `app_name` and `category` of the
    /// right type, end after start. The first failing check names the skip reason.
    public mutating func addRow(
        sessionID: RawField, appName: RawField, category: RawField,
        start: RawField, end: RawField, line: @autoclosure () -> Int,
        parse: (String) -> Micros? = RFC3339.parse
    ) {
        let id: String?
        switch sessionID {
        case .string(let s): id = s
        case .other(let literal): id = literal
        case .absent, .null: id = nil
        }
        func skip(_ reason: SkipReason) {
            skipped.record(SkippedRow(reason: reason, sessionID: id, line: line()))
        }
        func timestamp(_ field: RawField) -> Micros?? {
            switch field {
            case .absent, .null: return .none
            case .string(let s): return .some(parse(s))
            case .other: return .some(nil)
            }
        }
        guard let startValue = timestamp(start), let endValue = timestamp(end) else {
            return skip(.missingTimestamp)
        }
        guard let s = startValue, let e = endValue else { return skip(.badTimestamp) }
        guard let app = textOrNull(appName), let cat = textOrNull(category) else {
            return skip(.badFieldType)
        }
        guard e > s else { return skip(.endNotAfterStart) }
        sessions.append(
            Session(start: s, end: e, app: apps.id(for: app), category: categories.id(for: cat), id: id))
    }

    /// Counts an array element that is not an object.
    public mutating func addNonObject(line: Int) {
        skipped.record(SkippedRow(reason: .notAnObject, sessionID: nil, line: line))
    }

    /// The finished dataset, sessions sorted by start.
    public func build(source: String) -> Dataset {
        Dataset(
            source: source, apps: apps.names, categories: categories.names, sessions: sessions,
            skipped: skipped, repairedStrings: repairedStrings)
    }

    /// `.some(nil)` for null/absent, `.some(text)` for a string, `nil` for a wrong type.
    private func textOrNull(_ field: RawField) -> String?? {
        switch field {
        case .absent, .null: return .some(nil)
        case .string(let s): return .some(s)
        case .other: return nil
        }
    }
}

/// Interns names: raw text → id of its normalised form, so each raw spelling is normalised once.
struct NameTable {
    private(set) var names: [String] = []
    private var ids: [ExactName: Int32] = [:]
    private var rawIDs: [ExactName: Int32] = [:]
    private var nullID: Int32?
    let normalise: (String?) -> String

    init(normalise: @escaping (String?) -> String) {
        self.normalise = normalise
    }

    /// The id of the normalised form of `raw` (null included).
    mutating func id(for raw: String?) -> Int32 {
        guard let raw else {
            if let nullID { return nullID }
            let id = intern(normalise(nil))
            nullID = id
            return id
        }
        if let id = rawIDs[ExactName(raw)] { return id }
        let id = intern(normalise(raw))
        rawIDs[ExactName(raw)] = id
        return id
    }

    private mutating func intern(_ name: String) -> Int32 {
        if let id = ids[ExactName(name)] { return id }
        let id = Int32(names.count)
        names.append(name)
        ids[ExactName(name)] = id
        return id
    }
}

/// A name compared by its exact scalars. Swift's `String ==` treats canonically equivalent
/// strings (`é` and `e` + U+0301) as equal; SPEC §2 keeps names exactly, so they stay apart.
struct ExactName: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: ExactName, b: ExactName) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Name normalisation of SPEC §2.
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
    /// Orders by Unicode scalar values, as SPEC §4 asks (Swift's `<` uses canonical equivalence).
    public func scalarsPrecede(_ other: String) -> Bool {
        unicodeScalars.lexicographicallyPrecedes(other.unicodeScalars)
    }
}
