// Journal.swift — the undo journal, written once for every SQL backend: a change's transaction keeps the image of each row it touches as it was before (the first time it touches it) and writes them, with a note of the change, as one entry; `undo` puts the images back — what the change made deleted, what it changed or deleted restored — in an order none of the database's rules objects to.
import Foundation
import UsageCore

/// A table the tracker changes, and the column that names its rows.
enum JournalTable: String, Codable, CaseIterable {
    case taskCategory = "task_category"
    case task
    case tracked
    case categoryRename = "category_rename"
    case meta

    var key: String {
        switch self {
        case .categoryRename: return "old"
        case .meta: return "key"
        default: return "id"
        }
    }

    /// Other tables point at its rows (`ON DELETE CASCADE`, `SET NULL`): a row of it is
    /// restored in place, never deleted and made again.
    var isPointedAt: Bool { self == .taskCategory || self == .task }

    /// Deleted in this order (what points first), put back in the reverse.
    static let deletionOrder: [JournalTable] = [.tracked, .categoryRename, .meta, .task, .taskCategory]
}

/// A row as it was before a change: its table, its key, its columns (nil: it was not there).
struct RowImage: Equatable {
    let table: JournalTable
    let key: SQLValue
    let row: SQLRow?

    static func == (a: RowImage, b: RowImage) -> Bool {
        a.table == b.table && a.key == b.key && a.row?.columns == b.row?.columns && a.row?.values == b.row?.values
    }
}

/// A change in progress, on its transaction: what it reads and writes goes to the transaction;
/// what it touches is kept, before it is touched, for the journal's entry.
final class Journal: SQLTransaction {
    let base: any SQLTransaction
    /// The rows the change touched, as they were before it, in the order it touched them.
    private(set) var images: [RowImage] = []
    private var kept = Set<String>()
    /// What the change was, as `undo` names it.
    var note: ChangeNote?

    /// How many entries the journal keeps: the oldest go as new ones come.
    static let limit: Int64 = 1000

    init(_ base: any SQLTransaction) { self.base = base }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] { try base.rows(sql, arguments) }
    @discardableResult func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int { try base.execute(sql, arguments) }
    func addRows(_ table: String, columns: [String], key: [String], rows: [[Int64]]) throws {
        try base.addRows(table, columns: columns, key: key, rows: rows)
    }

    /// Keeps row `key` of `table` as it is now (nil when it is not there), unless this change
    /// kept it already.
    func keep(_ table: JournalTable, _ key: SQLValue) throws {
        guard kept.insert(Self.mark(table, key)).inserted else { return }
        let row = try base.row("SELECT * FROM \(table.rawValue) WHERE \(Self.quoted(table.key)) = ?", [key])
        images.append(RowImage(table: table, key: key, row: row))
    }

    /// Keeps row `id` of `table`.
    func keep(_ table: JournalTable, id: Int64) throws { try keep(table, .integer(id)) }

    /// Keeps every row of `table` that `condition` (SQL after `WHERE`) matches now.
    func keep(_ table: JournalTable, where condition: String, _ arguments: [SQLValue]) throws {
        for row in try base.rows("SELECT \(Self.quoted(table.key)) FROM \(table.rawValue) WHERE \(condition)", arguments) {
            try keep(table, row[0])
        }
    }

    /// Notes that row `id` of `table` was just made (it was not there before).
    func made(_ table: JournalTable, id: Int64) {
        guard kept.insert(Self.mark(table, .integer(id))).inserted else { return }
        images.append(RowImage(table: table, key: .integer(id), row: nil))
    }

    /// Sets a meta value, its row kept first.
    func setMeta(_ key: String, _ value: Int64?) throws {
        try keep(.meta, .text(key))
        try Meta.set(base, key, value)
    }

    /// Writes the entry, when the change touched anything; the oldest past `limit` go.
    func write() throws {
        guard !images.isEmpty else { return }
        let encoder = JSONEncoder()
        let note = String(decoding: try encoder.encode(note ?? ChangeNote("change")), as: UTF8.self)
        let images = String(decoding: try encoder.encode(self.images.map(CodedImage.init)), as: UTF8.self)
        let id = try base.insert("INSERT INTO undo_journal (id, note, images) VALUES (\(SQLIDs.next("undo_journal")), ?, ?) RETURNING id", [.text(note), .text(images)])
        try base.execute("DELETE FROM undo_journal WHERE id <= ?", [.integer(id - Self.limit)])
    }

    /// Puts the images back: first every row of them deleted that nothing points at, and
    /// those the change made of tables something points at (what points first); then the
    /// images inserted, or written over the row in place where something points at it (what
    /// is pointed at first). Every state between is a part of the state before the change, so
    /// no rule of the database (one running, no overlap, unique names) objects.
    static func restore(_ images: [RowImage], _ tx: any SQLTransaction) throws {
        for table in JournalTable.deletionOrder {
            for image in images where image.table == table && !(table.isPointedAt && image.row != nil) {
                try tx.execute("DELETE FROM \(table.rawValue) WHERE \(quoted(table.key)) = ?", [image.key])
            }
        }
        for table in JournalTable.deletionOrder.reversed() {
            for image in images where image.table == table {
                guard let row = image.row else { continue }
                let exists = try tx.row("SELECT 1 FROM \(table.rawValue) WHERE \(quoted(table.key)) = ?", [image.key]) != nil
                if exists {
                    let others = row.columns.indices.filter { row.columns[$0] != table.key }
                    try tx.execute(
                        "UPDATE \(table.rawValue) SET \(others.map { "\(quoted(row.columns[$0])) = ?" }.joined(separator: ", ")) WHERE \(quoted(table.key)) = ?",
                        others.map { row.values[$0] } + [image.key])
                } else {
                    try tx.execute(
                        "INSERT INTO \(table.rawValue) (\(row.columns.map(quoted).joined(separator: ", "))) VALUES (\(row.columns.map { _ in "?" }.joined(separator: ", ")))",
                        row.values)
                }
            }
        }
    }

    /// The images of an entry (its `images`).
    static func images(from text: String) throws -> [RowImage] {
        try JSONDecoder().decode([CodedImage].self, from: Data(text.utf8)).map(\.image)
    }

    /// The note of an entry.
    static func note(from text: String) throws -> ChangeNote {
        try JSONDecoder().decode(ChangeNote.self, from: Data(text.utf8))
    }

    /// A column's name as both backends read it (`"end"` is a keyword of PostgreSQL).
    static func quoted(_ name: String) -> String { "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"" }

    private static func mark(_ table: JournalTable, _ key: SQLValue) -> String {
        switch key {
        case .integer(let v): return "\(table.rawValue) i\(v)"
        case .text(let v): return "\(table.rawValue) t\(v)"
        case .real(let v): return "\(table.rawValue) r\(v)"
        case .null: return "\(table.rawValue) null"
        }
    }
}

/// A row image as the journal's JSON holds it: `{"table","key","row":{"columns","values"}|null}`,
/// each value a number, a string, null, or `{"real":x}` (a real kept apart from an integer).
private struct CodedImage: Codable {
    let table: JournalTable
    let key: CodedValue
    let row: CodedRow?

    struct CodedRow: Codable {
        let columns: [String]
        let values: [CodedValue]
    }

    init(_ image: RowImage) {
        table = image.table
        key = CodedValue(image.key)
        row = image.row.map { CodedRow(columns: $0.columns, values: $0.values.map(CodedValue.init)) }
    }

    var image: RowImage {
        RowImage(table: table, key: key.value, row: row.map { SQLRow(columns: $0.columns, values: $0.values.map(\.value)) })
    }
}

private struct CodedValue: Codable {
    let value: SQLValue

    init(_ value: SQLValue) { self.value = value }

    private enum Keys: String, CodingKey { case real }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Keys.self) {
            value = .real(try keyed.decode(Double.self, forKey: .real))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let v = try? single.decode(Int64.self) {
            value = .integer(v)
        } else {
            value = .text(try single.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .real(let v):
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(v, forKey: .real)
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let v):
            var single = encoder.singleValueContainer()
            try single.encode(v)
        case .text(let v):
            var single = encoder.singleValueContainer()
            try single.encode(v)
        }
    }
}
