// PostgresWindowRows.swift — a window's rows as a PostgreSQL store reads them: the binary COPY of the window's columns (SessionRows: those the start index holds, and the ids when asked), its tuples made into SessionColumns, names added after the snapshot left out.
import UsageCore

/// How one window's rows are asked for and read, the same on the reader and the side reader.
struct PostgresWindowRows: Sendable {
    /// The snapshot's names: rows naming a later one belong to sessions it does not show.
    let apps: Int
    let categories: Int
    /// Whether the sessions' ids are read (`ext_id`).
    let ids: Bool
    /// Identity maps, to append one part's columns to another's.
    let appMap: [Int32]
    let categoryMap: [Int32]

    /// The columns each row gives (`SessionRows.windowColumns`: start, length, app, category, the id).
    let layout: RowLayout

    init(apps: Int, categories: Int, ids: Bool, layout: RowLayout = SessionRows.store.window) {
        (self.apps, self.categories, self.ids, self.layout) = (apps, categories, ids, layout)
        appMap = (0..<Int32(apps)).map { $0 }
        categoryMap = (0..<Int32(categories)).map { $0 }
    }

    /// The COPY of the sessions `condition` (a `WHERE …`, integers only) selects.
    func copy(_ condition: String) -> String {
        "COPY (" + layout.select(condition, nulling: ids ? nil : SessionRows.windowID, as: "NULL::text") + ") TO STDOUT (FORMAT binary)"
    }

    /// Runs `sql` (from `copy`) on `held` and reads its rows, in the order they come, with room
    /// made for `expected` of them.
    ///
    /// - Throws: the server's failure, or a protocol violation when the data are malformed or
    ///   end without their trailer.
    func read(_ sql: String, on held: PostgresConnection.Held, expected: Int = 0) throws -> SessionColumns {
        var columns = SessionColumns()
        columns.reserve(expected)
        var rows = PostgresBinaryRows(columns: layout.count)
        let (apps, categories, ids) = (self.apps, self.categories, self.ids)
        try held.copyOut(sql) { message in
            try rows.read(message) { tuple in
                let start = tuple.int64(0)
                let end = start + tuple.int64(1)
                let app = Int(tuple.int64(2)) - 1
                let category = Int(tuple.int64(3)) - 1
                guard app >= 0, app < apps, category >= 0, category < categories else { return }
                var id: String?
                if ids, !tuple.isNull(4) { id = PostgresSQL.unescaped(String(decoding: tuple.bytes(4), as: UTF8.self)) }
                columns.append(start: start, end: end, app: Int32(app), category: Int32(category), id: id)
            }
        }
        guard rows.finished else { throw PostgresFailure(state: "08P01", message: "the server's COPY data was not as expected: no trailer") }
        return columns
    }
}
