// RowLayout.swift — the columns one kind of statement writes or reads, an ordered list taken from the table's description, and each statement rendered from it (the column list, an INSERT of n rows with its placeholders, a binary COPY in, a SELECT, an UPDATE by key), the same list giving a binary row's field count and types.

/// Columns of one table in the order a statement names them: the statement's column list,
/// placeholders and a binary row's fields all come from this one list, as GRDB's record
/// `Columns` serve both the schema and the queries.
struct RowLayout: Sendable {
    let table: String
    let columns: [ColumnSpec]

    /// The columns of `table` named by `names`, in that order. A name the table lacks is this
    /// program's mistake, not the user's: it stops at once, naming it.
    init(_ table: TableSpec, _ names: [String]) {
        self.table = table.name
        columns = names.map { name in
            guard let column = table.column(name) else { preconditionFailure("the \(table.name) table has no column \(name)") }
            return column
        }
    }

    /// Every column of `table`, in its order.
    init(all table: TableSpec) {
        self.table = table.name
        columns = table.columns
    }

    /// Fields a row (a binary COPY tuple's field count).
    var count: Int { columns.count }

    /// What each field holds, in order (a binary COPY row's types).
    var types: [ColumnType] { columns.map(\.type) }

    /// `a, b, "end"`; with `nulled`, that column read as `null` instead (a window without ids).
    func names(nulling nulled: String? = nil, as null: String = "NULL") -> String {
        columns.map { $0.name == nulled ? null : ColumnSpec.quoted($0.name) }.joined(separator: ", ")
    }

    /// One row's placeholders: `(?, ?, …)`.
    var placeholders: String { "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")" }

    /// `INSERT INTO table (…) VALUES (?, …)`, `rows` rows of placeholders.
    func insert(rows: Int = 1) -> String {
        "INSERT INTO \(table) (\(names())) VALUES " + Array(repeating: placeholders, count: rows).joined(separator: ", ")
    }

    /// `COPY table (…) FROM STDIN (FORMAT binary)`: rows of `count` fields of `types`.
    var copyIn: String { "COPY \(table) (\(names())) FROM STDIN (FORMAT binary)" }

    /// `SELECT … FROM table` and `rest` (`WHERE …`); read from `source` where it is other than
    /// the table itself (`session NOT INDEXED`), with `nulled` read as `null`.
    func select(_ rest: String, from source: String? = nil, nulling nulled: String? = nil, as null: String = "NULL") -> String {
        "SELECT \(names(nulling: nulled, as: null)) FROM \(source ?? table) \(rest)"
    }

    /// `UPDATE table SET a = ?, … WHERE key = ?`: the columns' values, then the key's.
    func update(key: String) -> String {
        "UPDATE \(table) SET " + columns.map { ColumnSpec.quoted($0.name) + " = ?" }.joined(separator: ", ") + " WHERE \(key) = ?"
    }
}
