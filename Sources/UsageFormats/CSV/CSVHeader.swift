// CSVHeader.swift — which CSV column holds which session field: header names recognised by meaning (synonyms, any case, spaces or underscores), the user's mapping (`--columns app=Program,start=From,end=To`), and the one error that says what could not be placed.
import UsageCore

/// A session field a CSV column can hold.
public enum CSVField: String, CaseIterable, Sendable, Hashable {
    case id
    case app
    case category
    case start
    case end
    case duration

    /// The names a header may give this field, as `CSVHeader.key` spells them (lower case,
    /// letters and digits only): the canonical column first, then the common ones other tools
    /// write. A duration is seconds unless its cells say otherwise (`1h 5m`, `01:05:00`), so
    /// only names that mean seconds or say no unit are here (`Duration (min)` is not).
    var synonyms: [String] {
        switch self {
        case .id: return ["sessionid", "id", "session"]
        case .app: return ["appname", "app", "application", "applicationname", "appdisplayname"]
        case .category: return ["category", "categoryname", "appcategory"]
        case .start: return ["starttimestamp", "start", "starttime", "begin", "begintime", "startedat", "startdate"]
        case .end: return ["endtimestamp", "end", "endtime", "stop", "stoptime", "endedat", "enddate"]
        case .duration: return ["duration", "durations", "durationsec", "durationsecs", "durationseconds", "seconds"]
        }
    }

    /// The field a mapping's key names: the field's own word or any of its synonyms
    /// (`app`, `app_name`, `start_timestamp`).
    init?(key: String) {
        let k = CSVHeader.key(key)
        guard let field = CSVField.allCases.first(where: { $0.rawValue == k || $0.synonyms.contains(k) }) else { return nil }
        self = field
    }

    /// The names shown in messages for this field (the common spellings of `synonyms`).
    var examples: String {
        switch self {
        case .id: return "session_id, ID"
        case .app: return "App, Application, App Name, app_name"
        case .category: return "Category"
        case .start: return "Start, Start Time, Begin, start_timestamp"
        case .end: return "End, End Time, end_timestamp"
        case .duration: return "Duration"
        }
    }
}

/// The user's names for CSV columns: `app=Program,start=From,end=To`. A mapped field takes
/// that column whatever the header's other names; names are compared as `CSVHeader.key`
/// compares them (case, spaces and underscores aside).
public struct ColumnMapping: Sendable, Hashable, CustomStringConvertible {
    /// One `FIELD=COLUMN` pair.
    public struct Entry: Sendable, Hashable {
        public let field: CSVField
        public let column: String
    }

    public let entries: [Entry]

    /// No mapping: the header's names decide.
    public init() { entries = [] }

    /// Parses `FIELD=COLUMN[,FIELD=COLUMN…]`; `auto` or an empty text is no mapping. A column
    /// name may hold spaces (quote it in the shell); it cannot hold a comma.
    public init(parsing text: String) throws(ColumnMappingError) {
        let trimmed = Normalise.trimmed(text)
        guard !trimmed.isEmpty, trimmed.lowercased() != "auto" else {
            entries = []
            return
        }
        var entries: [Entry] = []
        for pair in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "=") else { throw .notAPair(String(pair)) }
            let key = Normalise.trimmed(String(pair[..<equals]))
            let column = Normalise.trimmed(String(pair[pair.index(after: equals)...]))
            guard let field = CSVField(key: key) else { throw .unknownField(key) }
            guard !column.isEmpty else { throw .emptyColumn(field) }
            guard !entries.contains(where: { $0.field == field }) else { throw .fieldTwice(field) }
            entries.append(Entry(field: field, column: column))
        }
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// `app=Program,start=From`, or `auto` when empty (as `set` shows it and reads it back).
    public var description: String {
        entries.isEmpty ? "auto" : entries.map { "\($0.field.rawValue)=\($0.column)" }.joined(separator: ",")
    }
}

/// Why a `--columns` value cannot be used.
public enum ColumnMappingError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAPair(String)
    case unknownField(String)
    case emptyColumn(CSVField)
    case fieldTwice(CSVField)

    public var description: String {
        let form = "use FIELD=COLUMN pairs separated by commas, e.g. app=Program,start=From,end=To"
        switch self {
        case .notAPair(let text): return "columns: '\(text)' is not FIELD=COLUMN; \(form)"
        case .unknownField(let key):
            return "columns: unknown field '\(key)': the fields are \(CSVField.allCases.map(\.rawValue).joined(separator: ", "))"
        case .emptyColumn(let field): return "columns: \(field.rawValue)= names no column; \(form)"
        case .fieldTwice(let field): return "columns: \(field.rawValue) is given twice"
        }
    }
}

/// Where each field is in a CSV's rows (indices into the header's cells).
public struct CSVColumns: Equatable, Sendable {
    public var id: Int?
    public var app: Int?
    public var category: Int?
    public var start: Int?
    public var end: Int?
    public var duration: Int?

    public init(id: Int? = nil, app: Int? = nil, category: Int? = nil, start: Int? = nil, end: Int? = nil, duration: Int? = nil) {
        self.id = id
        self.app = app
        self.category = category
        self.start = start
        self.end = end
        self.duration = duration
    }

    subscript(field: CSVField) -> Int? {
        get {
            switch field {
            case .id: return id
            case .app: return app
            case .category: return category
            case .start: return start
            case .end: return end
            case .duration: return duration
            }
        }
        set {
            switch field {
            case .id: id = newValue
            case .app: app = newValue
            case .category: category = newValue
            case .start: start = newValue
            case .end: end = newValue
            case .duration: duration = newValue
            }
        }
    }
}

/// Places a CSV header's columns: the mapping first, then the names it recognises. A header
/// that leaves the start, or both the end and the duration, unplaced cannot be read.
public enum CSVHeader {
    /// A header name as compared: lower case, letters and digits only (`Start Time`,
    /// `start_time`, `START-TIME` are all `starttime`; `Duration (s)` is `durations`).
    public static func key(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }))
    }

    /// The columns of `header` for each field, or the problem that says what could not be placed.
    public static func place(_ header: [String], mapping: ColumnMapping = ColumnMapping()) -> Result<CSVColumns, CSVHeaderProblem> {
        let keys = header.map(key)
        var columns = CSVColumns()
        var taken = Set<Int>()
        var absent: [String] = []
        for entry in mapping.entries {
            let wanted = key(entry.column)
            // The exact name first (two columns may differ only in case), then by key.
            let index = header.firstIndex { Normalise.trimmed($0) == entry.column }
                ?? keys.indices.first { keys[$0] == wanted && !taken.contains($0) }
            guard let index else {
                absent.append(entry.column)
                continue
            }
            columns[entry.field] = index
            taken.insert(index)
        }
        for field in CSVField.allCases where columns[field] == nil {
            // The field's first synonym found wins (`app_name` before `App`), then the leftmost column.
            for synonym in field.synonyms {
                if let index = keys.indices.first(where: { keys[$0] == synonym && !taken.contains($0) }) {
                    columns[field] = index
                    taken.insert(index)
                    break
                }
            }
        }
        var missing: [CSVField] = []
        if columns.start == nil { missing.append(.start) }
        if columns.end == nil, columns.duration == nil { missing += [.end, .duration] }
        guard missing.isEmpty else {
            let unplaced = header.indices.filter { !taken.contains($0) }.map { Normalise.trimmed(header[$0]) }
            return .failure(CSVHeaderProblem(missing: missing, unplaced: unplaced, mappedButAbsent: absent))
        }
        return .success(columns)
    }

    /// Whether a header's cells name a session field the way `place` recognises: any cell that
    /// is a known name or a mapped column.
    public static func recognises(_ header: [String], mapping: ColumnMapping = ColumnMapping()) -> Bool {
        let known = Set(CSVField.allCases.flatMap(\.synonyms)).union(mapping.entries.map { key($0.column) })
        return header.contains { known.contains(key($0)) }
    }

    /// Whether a first line (its bytes, without the line break) is a CSV header, for telling a
    /// CSV from other text: it names a session field or a mapped column, or it is a row of at
    /// least two short names (at most 100 characters each, none empty, no control characters),
    /// so that a header of unknown names is read as a CSV and told which columns it lacks.
    public static func looksLikeHeader(_ line: UnsafeBufferPointer<UInt8>, mapping: ColumnMapping = ColumnMapping()) -> Bool {
        guard var text = String(validating: line, as: UTF8.self) else { return false }
        if text.hasSuffix("\r") { text.removeLast() }
        let delimiter = Character(CSVFormat.delimiter(of: text))
        let cells = text.split(separator: delimiter, omittingEmptySubsequences: false).map { cell in
            var c = Normalise.trimmed(String(cell))
            if c.count >= 2, c.hasPrefix("\""), c.hasSuffix("\"") { c = String(c.dropFirst().dropLast()) }
            return c
        }
        if recognises(cells, mapping: mapping) { return true }
        return cells.count >= 2
            && cells.allSatisfy { cell in
                !cell.isEmpty && cell.count <= 100 && !cell.unicodeScalars.contains { $0.properties.generalCategory == .control }
            }
    }
}

/// A CSV header whose columns do not say where the sessions' times are: it names the columns
/// it could not place and how to map them.
public struct CSVHeaderProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The fields no column was found for (`start`; `end` and `duration` together).
    public let missing: [CSVField]
    /// The header's columns that were not placed, as written.
    public let unplaced: [String]
    /// Columns the mapping names that this header lacks.
    public let mappedButAbsent: [String]

    public var description: String {
        var needs: [String] = []
        if missing.contains(.start) { needs.append("a start column (\(CSVField.start.examples))") }
        if missing.contains(.end) {
            needs.append("an end column (\(CSVField.end.examples)) or a duration column (\(CSVField.duration.examples))")
        }
        let columns = unplaced.isEmpty ? "no columns are left" : "could not place the columns " + unplaced.map { "'\($0)'" }.joined(separator: ", ")
        var text = "\(columns); the sessions need \(needs.joined(separator: " and "))"
        if !mappedButAbsent.isEmpty {
            text += "; --columns names " + mappedButAbsent.map { "'\($0)'" }.joined(separator: ", ") + ", which this header lacks"
        }
        let example = (missing.contains(.start) ? ["start=COLUMN"] : []) + (missing.contains(.end) ? ["end=COLUMN"] : [])
        return text + "; say which column is which with --columns \(example.joined(separator: ",")) "
            + "(or duration=COLUMN; at the prompt: set columns …, then load)"
    }
}

extension Normalise {
    /// The text without leading and trailing white space (and a byte order mark, which some
    /// spreadsheets leave at the start of the header).
    static func trimmed(_ text: String) -> String {
        trim(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    }
}
