// CSVTable.swift — `--format csv`: any command's JSON document made into one RFC 4180 table (header row, the same fields), generically; and the cell rules of every CSV we write (formula guard, terminal safety).
import UsageCore

/// What a document's CSV rows are.
public enum CSVShape: Sendable {
    /// One row per element of the document's first list (`apps`, `hours`, `days`, `sessions`…),
    /// each carrying the document's other fields; its other lists are left out (they are the
    /// tables of other commands: `show`'s categories are `chart category`'s).
    case firstList
    /// The whole document as one row (`check`, `insights`, `load`: a record, not a table).
    case record
}

/// How CSV cells are written.
public struct CSVCellPolicy: Sendable, Equatable {
    /// Put `'` before a text cell a spreadsheet would run as a formula (`SpreadsheetCell`).
    public var guardFormulas: Bool
    /// Show control and bidi characters as visible escapes (`\e`, `\u{202E}`), as tables do:
    /// output for a terminal.
    public var escapeControls: Bool

    public init(guardFormulas: Bool = true, escapeControls: Bool = false) {
        self.guardFormulas = guardFormulas
        self.escapeControls = escapeControls
    }

    /// A text cell as written.
    func text(_ s: String) -> String {
        let guarded = guardFormulas ? SpreadsheetCell.guarded(s) : s
        return escapeControls ? TerminalText.sanitize(guarded) : guarded
    }
}

/// A JSON document as one table. Columns are named by the JSON keys: nested objects become
/// `parent.key` (`skipped.reasons.bad_timestamp`, a slot's `apps.Spotify`) and array elements
/// `parent.N` from 1 (`advice.1.kind`); the document's own fields come first, then the row's;
/// a row field named like a document field is written `LIST.FIELD` (`sessions.seconds`).
/// A list of records (`JSONText.records`) puts the fields it declares first, rows or none, so
/// the header of a view does not change on a day without rows; other columns follow in the
/// order first seen, so rows with different keys (hours with different apps) share one header,
/// with empty cells where a row has no value. Strings are text cells;
/// numbers and booleans are written as the JSON writes them; null is an empty cell.
public struct CSVTable: Equatable, Sendable {
    /// A cell as the JSON had it.
    public enum Cell: Equatable, Sendable {
        case text(String)
        case number(String)
        case empty
    }

    public let header: [String]
    public let rows: [[Cell]]

    public init(header: [String], rows: [[Cell]]) {
        self.header = header
        self.rows = rows
    }

    /// The table of a JSON document.
    public init(_ document: JSONText, shape: CSVShape = .firstList) {
        // A document that is a list itself (`sessions`): its items are the rows.
        if case .array = document, Self.isList(document) {
            self.init(.object([("rows", document)]), shape: .firstList)
            return
        }
        guard case .object(let members) = document else {
            self.init(header: ["value"], rows: [[Self.flatten(document, prefix: "").first?.1 ?? .empty]])
            return
        }
        let listIndex: Int? =
            shape == .record
            ? nil
            : members.firstIndex { member in
                if case .records = member.1 { return true }
                guard case .array(let items) = member.1 else { return false }
                return items.allSatisfy { if case .object = $0 { return true } else { return false } }
            }
        var context: [(String, Cell)] = []
        for (k, (key, value)) in members.enumerated() where k != listIndex {
            if listIndex != nil, Self.isList(value) { continue }  // another command's table
            context += Self.flatten(value, prefix: key)
        }
        guard let listIndex else {
            self.init(header: context.map(\.0), rows: [context.map(\.1)])
            return
        }
        let listName = members[listIndex].0
        let contextNames = Set(context.map(\.0))
        let (items, fields): ([JSONText], [String])
        switch members[listIndex].1 {
        case .records(let list, let names): (items, fields) = (list, names)
        case .array(let list): (items, fields) = (list, [])
        default: preconditionFailure("a list")
        }
        // The fields a list of records declares first (its header with no rows), then any other.
        var rowColumns = fields.map { contextNames.contains($0) ? listName + "." + $0 : $0 }
        var seen = Set(rowColumns)
        let flattened = items.map { item in
            Self.flatten(item, prefix: "").map { name, cell in
                (contextNames.contains(name) ? listName + "." + name : name, cell)
            }
        }
        for row in flattened {
            for (name, _) in row where seen.insert(name).inserted { rowColumns.append(name) }
        }
        let rows = flattened.map { row -> [Cell] in
            let byName = Dictionary(row, uniquingKeysWith: { first, _ in first })
            return context.map(\.1) + rowColumns.map { byName[$0] ?? .empty }
        }
        self.init(header: context.map(\.0) + rowColumns, rows: rows)
    }

    /// An array of objects (a table in itself), or such a list with none in it.
    private static func isList(_ value: JSONText) -> Bool {
        if case .records = value { return true }
        guard case .array(let items) = value, !items.isEmpty else { return false }
        return items.allSatisfy { if case .object = $0 { return true } else { return false } }
    }

    /// A value's cells, named under `prefix`.
    static func flatten(_ value: JSONText, prefix: String) -> [(String, Cell)] {
        func name(_ key: String) -> String { prefix.isEmpty ? key : prefix + "." + key }
        switch value {
        case .null: return [(prefix, .empty)]
        case .bool(let b): return [(prefix, .number(b ? "true" : "false"))]
        case .int(let n): return [(prefix, .number(String(n)))]
        case .double(let d): return [(prefix, d.isFinite ? .number(JSONText.number(d)) : .empty)]
        case .seconds(let m): return [(prefix, .number(JSONText.seconds(m)))]
        case .string(let s): return [(prefix, .text(s))]
        case .object(let members): return members.flatMap { flatten($0.1, prefix: name($0.0)) }
        case .array(let items), .records(let items, _): return items.enumerated().flatMap { flatten($1, prefix: name(String($0 + 1))) }
        }
    }

    /// The table as CSV records (RFC 4180: fields quoted when they hold a comma, a quote or a
    /// line break), without their CRLF.
    public func records(_ policy: CSVCellPolicy) -> [String] {
        let headerCells = header.map { policy.text($0) }
        let body = rows.map { row in
            row.map { cell -> String in
                switch cell {
                case .text(let s): return policy.text(s)
                case .number(let n): return n
                case .empty: return ""
                }
            }
        }
        return ([headerCells] + body).map { cells in
            var out: [UInt8] = []
            for (k, field) in cells.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                CSVText.append(field, to: &out)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
