// SessionRows.swift — the session table's rows as the store's statements write and read them, each an ordered list of the table's columns (RowLayout) from its one description as the ledger leaves it: a new row (every column: the INSERT, the binary COPY), what an import changes in place, what it reads of a device's stored sessions, a window's read, a copy's read.

/// The layouts of the session table's rows, made from one description of the table (passed in,
/// so that a test can hand it a changed one and see every statement follow).
struct SessionRows: Sendable {
    /// What a window reads, by position: the start index's columns, then the session's own id
    /// (`windowID`, read as NULL when the ids are not asked for). The readers take them at
    /// these positions (0 to 4); a column added comes after them.
    static let windowColumns = ["start", "length", "app", "category", "ext_id"]
    /// The column a window reads as NULL when it does not read the sessions' ids.
    static let windowID = "ext_id"

    /// The table as the ledger leaves it (`StoreMigrations.tables`).
    let table: TableSpec
    /// A new session: every column, in the table's order (an import's and a copy's INSERT and
    /// binary COPY, the recorder's INSERT). A column added to the table is written by all of them.
    let written: RowLayout
    /// What an import changes of a stored session in place, by its id.
    let updated: RowLayout
    /// What an import reads of a device's stored sessions, by position: its key, then what
    /// tells an update from a session left as it is.
    let stored: RowLayout
    /// What a window reads (`windowColumns`).
    let window: RowLayout
    /// What a copy into another store reads of each session, by name.
    let copied: RowLayout

    init(table: TableSpec, window: [String] = Self.windowColumns) {
        self.table = table
        written = RowLayout(all: table)
        updated = RowLayout(table, ["app", "category", "start", "length", "ext_id"])
        stored = RowLayout(table, ["key", "id", "app", "category", "start", "length"])
        self.window = RowLayout(table, window)
        copied = RowLayout(table, ["key", "app", "category", "start", "length", "ext_id", "start_offset", "end_offset"])
    }

    /// The store's: the session table as both ledgers leave it (they add the same columns).
    static let store = SessionRows(table: StoreMigrations.tables(.sqlite)["session"]!)
}
