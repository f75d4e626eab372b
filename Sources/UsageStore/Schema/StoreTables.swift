// StoreTables.swift — the store's tables and indexes, each described once for both backends (its columns, types, keys, checks and what they hold); a table whose shape changed has one description for each shape it had (source, session's start index).

/// Every table and index of the store, as `StoreMigrations` makes them.
enum StoreTables {
    // MARK: Sessions (v1)

    /// Small facts every change keeps up to date, so that opening reads no session.
    static let meta = TableSpec(
        name: "meta", columns: [ColumnSpec("key", .text, .primaryKey, .notNull), ColumnSpec("value", .int64)], withoutRowID: true)
    static let app = TableSpec(name: "app", columns: [ColumnSpec("id", .identity), ColumnSpec("name", .text, .notNull, .unique)])
    static let category = TableSpec(name: "category", columns: [ColumnSpec("id", .identity), ColumnSpec("name", .text, .notNull, .unique)])

    /// A source as it was before devices (v1–v4): the same name was the same source.
    static let sourceBeforeDevices = TableSpec(name: "source", columns: [ColumnSpec("id", .identity)] + sourceColumns(nameUnique: true))

    /// The sources sessions came from, the same source per device (two machines'
    /// `~/export.json` are two).
    static let source = TableSpec(
        name: "source",
        columns: [ColumnSpec("id", .identity), ColumnSpec("device", .int64, .notNull, .references("device (id)"))] + sourceColumns(nameUnique: false),
        constraints: ["CONSTRAINT source_device_name UNIQUE (device, name)"])

    private static func sourceColumns(nameUnique: Bool) -> [ColumnSpec] {
        [
            ColumnSpec(
                "name", .text, constraints: nameUnique ? [.notNull, .unique] : [.notNull],
                note: "what makes it the same source: an absolute path, a URL, aw://HOST:PORT"),
            ColumnSpec("shown", .text, .notNull, note: "as the user named it at the last import"),
            ColumnSpec("first_import", .int64, .notNull, note: "µs since 1970, UTC"),
            ColumnSpec("last_import", .int64, .notNull),
            ColumnSpec("imports", .int64, .notNull, .defaultValue("0")),
            ColumnSpec("sessions", .int64, .notNull, .defaultValue("0"), note: "how many of the store's sessions came from it"),
        ]
    }

    /// The sessions (v1; v5 adds `sessionDevice`). Unique by device and key (since v11; by
    /// source and key before, SessionRekey): the import reads the device's keys and writes
    /// inside one transaction under the writer's lock, so no other writer comes between. (A UNIQUE index on random 64-bit keys, and foreign keys checked row
    /// by row, made a million-row import four times slower; the names and sources the ids point
    /// at are written in the same transaction, before the sessions.)
    static let session = TableSpec(
        name: "session",
        columns: [
            ColumnSpec("id", .identity),
            ColumnSpec("source", .int64, .notNull, note: "source(id)"),
            ColumnSpec("key", .int64, .notNull, note: "the session's identity in its device (IdentityHash; in its source before v11)"),
            ColumnSpec("app", .int64, .notNull, note: "app(id)"),
            ColumnSpec("category", .int64, .notNull, note: "category(id)"),
            ColumnSpec("start", .int64, .notNull, note: "µs since 1970, UTC"),
            ColumnSpec("length", .int64, .notNull, .check("length > 0"), note: "µs"),
            ColumnSpec("start_offset", .int32, note: "the source's UTC offset at start, in minutes, when it said"),
            ColumnSpec("end_offset", .int32),
            ColumnSpec("ext_id", .text, note: "the session's own id, as the source had it"),
        ])
    /// The device a session came from (v5; what a store held before was this machine's, device 1).
    static let sessionDevice = ColumnSpec("device", .int64, .notNull, .defaultValue("1"))

    static let sessionSource = IndexSpec(name: "session_source", table: "session", columns: ["source"])
    /// PostgreSQL's (v7): an import's rows of one source go in together, so a block-range index
    /// finds a source's rows as well as a B-tree, at a fraction of a B-tree's cost for every row
    /// an import adds (a B-tree of one repeated value took a quarter of a million-row COPY's time).
    static let sessionSourceByBlockRange = IndexSpec(name: "session_source", table: "session", columns: ["source"], method: .brin)
    /// Covering: a window without ids reads this index alone.
    static let sessionStartBeforeDevices = IndexSpec(name: "session_start", table: "session", columns: ["start"], include: ["length", "app", "category"])
    static let sessionStart = IndexSpec(name: "session_start", table: "session", columns: ["start"], include: ["length", "app", "category", "device"])
    static let sessionLong = IndexSpec(name: "session_long", table: "session", columns: ["start", "length"], condition: "length > \(StoreHistory.longSession)")

    /// Each app's latest session's category (`app NAME` on a day without it).
    static let appLatest = TableSpec(
        name: "app_latest",
        columns: [
            ColumnSpec("app", .int64, .primaryKey, .references("app (id)")),
            ColumnSpec("category", .int64, .notNull, .references("category (id)")),
            ColumnSpec("start", .int64, .notNull),
        ])

    // MARK: Tracking (v2, v3)

    /// The categories a person manages for tasks; a task without one is in Other.
    static let taskCategory = TableSpec(
        name: "task_category",
        columns: [ColumnSpec("id", .identity), ColumnSpec("name", .text, .notNull, .unique), ColumnSpec("created", .int64, .notNull, note: "µs since 1970, UTC")])

    /// A category renamed: a rule or limit naming the old name means the new one.
    static let categoryRename = TableSpec(
        name: "category_rename", columns: [ColumnSpec("old", .text, .primaryKey, .notNull), ColumnSpec("new", .text, .notNull)], withoutRowID: true)

    static let task = TableSpec(
        name: "task",
        columns: [
            ColumnSpec("id", .identity, note: "the task's number; its time belongs to it by this"),
            ColumnSpec("name", .text, .notNull, .check("length(name) > 0")),
            ColumnSpec("category", .int64, .references("task_category (id) ON DELETE SET NULL")),
            ColumnSpec(
                "due", .text,
                .check(
                    .each(
                        sqlite: "due IS NULL OR due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'",
                        postgres: "due IS NULL OR due ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'")),
                note: "a local date"),
            ColumnSpec("priority", .int32, .notNull, .defaultValue("1"), .check("priority BETWEEN 0 AND 2"), note: "low, medium, high"),
            ColumnSpec("estimate", .int64, .check("estimate IS NULL OR estimate > 0"), note: "µs"),
            ColumnSpec("created", .int64, .notNull),
            ColumnSpec("done", .int64, note: "when it was marked done"),
            ColumnSpec("deleted", .int64, note: "when it was deleted with its time kept"),
        ])
    static let taskName = IndexSpec(name: "task_name", table: "task", columns: ["name"], unique: true, condition: "deleted IS NULL")

    static let tracked = TableSpec(
        name: "tracked",
        columns: [
            ColumnSpec("id", .identity),
            ColumnSpec("task", .int64, .notNull, .references("task (id) ON DELETE CASCADE")),
            ColumnSpec("start", .int64, .notNull, note: "µs since 1970, UTC"),
            ColumnSpec("end", .int64, note: "NULL while the stopwatch runs"),
            ColumnSpec("start_offset", .int32, .notNull, note: "the UTC offset in minutes in effect at start, in `zone`"),
            ColumnSpec("end_offset", .int32),
            ColumnSpec("zone", .text, .notNull, note: "the zone it was tracked in"),
        ],
        constraints: ["CHECK (\"end\" IS NULL OR \"end\" > start)", "CHECK ((\"end\" IS NULL) = (end_offset IS NULL))"])
    static let trackedStart = IndexSpec(name: "tracked_start", table: "tracked", columns: ["start"])
    static let trackedTask = IndexSpec(name: "tracked_task", table: "tracked", columns: ["task"])
    /// One stopwatch runs at a time, whichever machine started it.
    static let trackedOneRunning = IndexSpec(
        name: "tracked_one_running", table: "tracked", columns: ["(\"end\" IS NULL)"], unique: true, condition: "\"end\" IS NULL")

    /// Every change to tracked time, tasks and categories, newest last, with what `undo` needs
    /// to put the rows it touched back exactly (Tracking/Journal.swift).
    static let undoJournal = TableSpec(
        name: "undo_journal",
        columns: [
            ColumnSpec("id", .int64, .primaryKey),
            ColumnSpec("note", .text, .notNull, note: "JSON: the change in words (its command, task or category, interval, times)"),
            ColumnSpec("images", .text, .notNull, note: "JSON: each row it touched as it was before (null: the row was not there)"),
        ])

    // MARK: Devices (v5)

    /// The machines sessions came from.
    static let device = TableSpec(
        name: "device",
        columns: [
            ColumnSpec("id", .identity),
            ColumnSpec("name", .text, .notNull, .unique),
            ColumnSpec("sessions", .int64, .notNull, .defaultValue("0"), note: "its sessions in the store now"),
            ColumnSpec("first_import", .int64),
            ColumnSpec("last_import", .int64),
            ColumnSpec("latest_end", .int64, note: "of its sessions (a device's span without reading them)"),
            ColumnSpec("longest", .int64, .notNull, .defaultValue("0")),
        ])

    // MARK: Kept totals (v6)

    /// Time per quarter hour (UTC) and device, all apps, in µs: each local day's total in any
    /// zone whose offsets are whole quarter hours, without reading its sessions.
    static let quarterTotal = TableSpec(
        name: "quarter_total",
        columns: [
            ColumnSpec("quarter", .int64, .notNull, note: "quarter hours since 1970-01-01T00:00Z"),
            ColumnSpec("device", .int64, .notNull, note: "device(id)"),
            ColumnSpec("micros", .int64, .notNull, .check("micros >= 0")),
        ],
        primaryKey: ["quarter", "device"], withoutRowID: true)

    /// Time per UTC day, device, app and category in µs, and how many sessions start that day:
    /// a range's apps and categories add its whole UTC days and read only its two edges.
    static let dayTotal = TableSpec(
        name: "day_total",
        columns: [
            ColumnSpec("day", .int64, .notNull, note: "days since 1970-01-01 (UTC)"),
            ColumnSpec("device", .int64, .notNull, note: "device(id)"),
            ColumnSpec("app", .int64, .notNull, note: "app(id)"),
            ColumnSpec("category", .int64, .notNull, note: "category(id)"),
            ColumnSpec("micros", .int64, .notNull, .check("micros >= 0")),
            ColumnSpec("starts", .int64, .notNull, .check("starts >= 0")),
        ],
        primaryKey: ["day", "device", "app", "category"], withoutRowID: true)

    // MARK: Imports (v9)

    /// Every import (and copy of another store) into this one, newest last.
    static let importEntry = TableSpec(
        name: "import_entry",
        columns: [
            ColumnSpec("id", .int64, .primaryKey),
            ColumnSpec("at", .int64, .notNull, note: "µs since 1970, UTC"),
            ColumnSpec("first_session", .int64, note: "the ids its new sessions took: first_session..last_session (none: NULL)"),
            ColumnSpec("last_session", .int64),
            ColumnSpec("forgotten", .int64, note: "when forget import or forget device took its sessions back"),
        ])

    /// Each source an import read: as the user named it, the device its sessions went to, what it did.
    static let importPart = TableSpec(
        name: "import_part",
        columns: [
            ColumnSpec("entry", .int64, .notNull, .references("import_entry (id)")),
            ColumnSpec("position", .int32, .notNull),
            ColumnSpec("source", .text, .notNull),
            ColumnSpec("device", .text, .notNull),
            ColumnSpec("added", .int64, .notNull),
            ColumnSpec("updated", .int64, .notNull),
            ColumnSpec("unchanged", .int64, .notNull),
        ],
        primaryKey: ["entry", "position"])

    // MARK: Sites (v10)

    /// The sites browsers showed in front: host names alone (`SiteName`), each stored once.
    static let site = TableSpec(name: "site", columns: [ColumnSpec("id", .identity), ColumnSpec("name", .text, .notNull, .unique, note: "a host name, lowercased, no port")])

    /// Each stretch of time a browser showed one site in front on a device (the native host's
    /// writes, or an ActivityWatch web bucket's events). Never a path, a query, a title or a URL.
    static let siteVisit = TableSpec(
        name: "site_visit",
        columns: [
            ColumnSpec("id", .identity),
            ColumnSpec("device", .int64, .notNull, .references("device (id)")),
            ColumnSpec("browser", .text, .notNull, note: "the browser family: chromium, chrome, firefox"),
            ColumnSpec("site", .int64, .notNull, .references("site (id)")),
            ColumnSpec("start", .int64, .notNull, note: "µs since 1970, UTC"),
            ColumnSpec("length", .int64, .notNull, .check("length >= 0"), note: "µs; 0 while the open visit has not been seen again"),
        ])
    /// Covering: a range's visits read this index alone.
    static let siteVisitStart = IndexSpec(name: "site_visit_start", table: "site_visit", columns: ["start"], include: ["length", "device", "browser", "site"])

    /// The sites never recorded (`web ignore`): a host name, or `*.` and a domain.
    static let siteIgnored = TableSpec(
        name: "site_ignored", columns: [ColumnSpec("pattern", .text, .primaryKey, .notNull, note: "as SitePattern spells it")], withoutRowID: true)

    // MARK: Site categories (v12)

    /// The categories sites are given (`category rule SITE CATEGORY`).
    static let siteCategory = TableSpec(
        name: "site_category",
        columns: [ColumnSpec("pattern", .text, .primaryKey, .notNull, note: "as SitePattern spells it"), ColumnSpec("category", .text, .notNull)],
        withoutRowID: true)

    // MARK: Site visits by import (v13)

    /// The import that first brought a visit in (`forget import N` takes its visits back). No
    /// reference: a visit is written before its import's entry, in the same transaction.
    static let siteVisitImport = ColumnSpec(
        "import_entry", .int64, note: "import_entry(id) of the import that first brought it; NULL: the browser extension's own, or imported before v13")

    /// The site visits an import's source added (`imports`).
    static let importPartVisits = ColumnSpec("visits", .int64, note: "the site visits it added; NULL: the source held none (or imported before v13)")
}
