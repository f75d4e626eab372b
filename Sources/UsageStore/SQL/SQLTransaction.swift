// SQLTransaction.swift — one transaction as the store's shared code sees it, whatever the backend: statements with `?` placeholders, rows back by column name, rows added to totals (`addRows`, in each backend's fastest form); what SQLite's and PostgreSQL's drivers each implement.

/// A transaction (or a read) in progress on one connection. The store's rules written once for
/// every backend (the tracker, retention, the facts it keeps) use nothing else. SQL is written
/// with `?` placeholders and in the dialect both backends speak (`ON CONFLICT … DO UPDATE`,
/// `RETURNING`, `"end"` quoted); a backend rewrites what it must (PostgreSQL's `$1`).
public protocol SQLTransaction {
    /// The rows of a query.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow]
    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int
    /// Adds `rows` (one integer for each of `columns`) to `table`: a row whose `key` columns
    /// are there already has its other columns increased by the row's instead.
    func addRows(_ table: String, columns: [String], key: [String], rows: [[Int64]]) throws
}

extension SQLTransaction {
    /// `addRows` as both backends speak it: multi-row `VALUES` of 100 rows a statement,
    /// `ON CONFLICT … DO UPDATE`.
    public func addRows(_ table: String, columns: [String], key: [String], rows: [[Int64]]) throws {
        for chunk in stride(from: 0, to: rows.count, by: 100) {
            let part = rows[chunk..<min(chunk + 100, rows.count)]
            let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            try execute(
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                    + Array(repeating: tuple, count: part.count).joined(separator: ", ") + Self.onConflict(table, columns: columns, key: key),
                part.flatMap { $0.map(SQLValue.integer) })
        }
    }

    /// The `ON CONFLICT` clause of `addRows`.
    static func onConflict(_ table: String, columns: [String], key: [String]) -> String {
        " ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET "
            + columns.filter { !key.contains($0) }.map { "\($0) = \(table).\($0) + excluded.\($0)" }.joined(separator: ", ")
    }

    /// The first row of a query, or nil.
    public func row(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLRow? {
        try rows(sql, arguments).first
    }

    /// The first column of the first row as an integer, or nil (no row, or null).
    public func int(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? {
        try rows(sql, arguments).first?[0].integer
    }

    /// The first column of every row as text (nulls left out).
    public func texts(_ sql: String, _ arguments: [SQLValue] = []) throws -> [String] {
        try rows(sql, arguments).compactMap { $0[0].text }
    }

    /// Runs an `INSERT … RETURNING id` and returns the new row's id.
    public func insert(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        guard let id = try int(sql, arguments) else { throw SQLMissingRow(statement: sql) }
        return id
    }
}

/// An `INSERT … RETURNING` that returned nothing: the backend broke its promise.
public struct SQLMissingRow: Error, CustomStringConvertible {
    public let statement: String
    public var description: String { "the database returned no row for: \(statement)" }
}

/// A new row's id, as one more than the largest in use (what SQLite's rowids do): the same ids
/// on every backend, with no gap where a refused change took one (a server's sequences leave
/// such gaps), since writers take their turn one at a time.
enum SQLIDs {
    /// The expression of the next id of `table`, for an `INSERT`'s values.
    static func next(_ table: String) -> String { "(SELECT coalesce(max(id), 0) + 1 FROM \(table))" }
}
