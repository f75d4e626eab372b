// StoreMigrations.swift — the one ledger of the store's migrations, oldest first, for both backends: each a name and its steps (StoreTables' tables and indexes, statements both dialects run, a dialect's own part marked as such, the kept totals computed), rendered to each dialect's statements and run inside the backend's migration transaction.

/// One step of a migration.
enum SchemaStep: Sendable {
    case create(TableSpec)
    case index(IndexSpec)
    case dropIndex(String)
    case addColumn(table: String, ColumnSpec)
    /// A table given a new shape: SQLite, which cannot change a constraint in place, makes it
    /// anew and copies its rows with `select`; PostgreSQL alters it with `postgres`.
    case reshape(TableSpec, select: String, postgres: [String])
    /// A statement both dialects run as it is.
    case statement(String, [SQLValue] = [])
    /// What only one dialect has (SQLite's triggers, PostgreSQL's exclusion constraint), by name.
    case addition(SQLDialect, name: String, String)
    /// The kept totals computed from the sessions there are (each backend its fastest way).
    case fillKeptTotals
    /// Again, when recorded sessions were left out of them.
    case refillKeptTotalsIfRecorded
    /// Every stored session's key made again by the rule of its device (`SessionRekey`).
    case rekeyByDevice

    /// The statements `dialect` runs for this step (none for a computation).
    func statements(_ dialect: SQLDialect) -> [(sql: String, arguments: [SQLValue])] {
        switch self {
        case .create(let table): return [(table.create(dialect), [])]
        case .index(let index): return [(index.create(dialect), [])]
        case .dropIndex(let name): return [("DROP INDEX \(name)", [])]
        case .addColumn(let table, let column): return [("ALTER TABLE \(table) ADD COLUMN " + column.spelled(dialect), [])]
        case .reshape(let table, let select, let postgres):
            guard dialect == .sqlite else { return postgres.map { ($0, []) } }
            let made = table.name + "_new"
            return [
                (table.create(.sqlite, as: made), []), ("INSERT INTO \(made) \(select)", []), ("DROP TABLE \(table.name)", []),
                ("ALTER TABLE \(made) RENAME TO \(table.name)", []),
            ]
        case .statement(let sql, let arguments): return [(sql, arguments)]
        case .addition(let only, _, let sql): return only == dialect ? [(sql, [])] : []
        case .fillKeptTotals, .refillKeptTotalsIfRecorded, .rekeyByDevice: return []
        }
    }
}

/// A migration: its name (as the store records it) and its steps.
struct StoreMigration: Sendable {
    let name: String
    /// The name SQLite stores recorded it under, where that differs (the two backends kept two
    /// ledgers, numbered apart, before this one).
    var sqliteName: String? = nil
    /// The backends it runs on.
    var dialects: Set<SQLDialect> = Set(SQLDialect.allCases)
    let steps: [SchemaStep]

    func name(in dialect: SQLDialect) -> String { dialect == .sqlite ? sqliteName ?? name : name }

    /// Runs its steps in the caller's transaction; `fillKeptTotals` is the backend's way of
    /// computing the kept totals from the sessions.
    func run(_ dialect: SQLDialect, _ tx: any SQLTransaction, fillKeptTotals: () throws -> Void) throws {
        for step in steps {
            switch step {
            case .fillKeptTotals: try fillKeptTotals()
            case .refillKeptTotalsIfRecorded: try KeptTotals.refillIfRecorded(tx, fill: fillKeptTotals)
            case .rekeyByDevice: try SessionRekey.run(tx)
            default: for statement in step.statements(dialect) { try tx.execute(statement.sql, statement.arguments) }
            }
        }
    }
}

/// The store's migrations, oldest first. A store holding a migration this version does not know
/// was written by a newer usage-shell and is never changed.
enum StoreMigrations {
    /// Those `dialect` runs, oldest first.
    static func ledger(_ dialect: SQLDialect) -> [StoreMigration] { all.filter { $0.dialects.contains(dialect) } }

    /// Their names as `dialect`'s stores record them, oldest first.
    static func known(_ dialect: SQLDialect) -> [String] { ledger(dialect).map { $0.name(in: dialect) } }

    /// The tables as `dialect`'s ledger leaves them, by name: each made, reshaped, or given a
    /// column, step by step (a column added comes after those it was made with, as in the
    /// database). What the store's statements write and read is rendered from these (`SessionRows`).
    static func tables(_ dialect: SQLDialect) -> [String: TableSpec] { tables(ledger(dialect)) }

    /// The tables `migrations` leave, run in their order.
    static func tables(_ migrations: [StoreMigration]) -> [String: TableSpec] {
        var tables: [String: TableSpec] = [:]
        for step in migrations.flatMap(\.steps) {
            switch step {
            case .create(let table), .reshape(let table, _, _): tables[table.name] = table
            case .addColumn(let name, let column): tables[name] = tables[name]?.adding(column)
            case .index, .dropIndex, .statement, .addition, .fillKeptTotals, .refillKeptTotalsIfRecorded, .rekeyByDevice: break
            }
        }
        return tables
    }

    static let all: [StoreMigration] = [
        StoreMigration(
            name: "v1: sessions",
            steps: [
                .create(StoreTables.meta), .create(StoreTables.app), .create(StoreTables.category),
                .create(StoreTables.sourceBeforeDevices), .create(StoreTables.session),
                .index(StoreTables.sessionSource), .index(StoreTables.sessionStartBeforeDevices), .index(StoreTables.sessionLong),
                .create(StoreTables.appLatest),
            ]),
        StoreMigration(
            name: "v2: tracking",
            steps: [
                .create(StoreTables.taskCategory), .create(StoreTables.categoryRename), .create(StoreTables.task),
                .index(StoreTables.taskName), .create(StoreTables.tracked), .index(StoreTables.trackedStart),
                .index(StoreTables.trackedTask), .index(StoreTables.trackedOneRunning),
                // Tracked intervals never overlap (a running one reaches to the end of time).
                .addition(.sqlite, name: "tracked_no_overlap_insert", noOverlapTrigger("tracked_no_overlap_insert", on: "INSERT", other: "")),
                .addition(.sqlite, name: "tracked_no_overlap_update", noOverlapTrigger("tracked_no_overlap_update", on: "UPDATE OF start, \"end\"", other: "id != NEW.id AND ")),
                .addition(.postgres, name: "tracked_no_overlap", "ALTER TABLE tracked ADD CONSTRAINT tracked_no_overlap EXCLUDE USING gist (int8range(start, \"end\") WITH &&)"),
            ]),
        StoreMigration(name: "v3: tracking journal", steps: [.create(StoreTables.undoJournal)]),
        StoreMigration(
            name: "v5: devices",
            steps: [
                .create(StoreTables.device),
                // What a store held before devices was this machine's.
                .statement(
                    """
                    INSERT INTO device (id, name, sessions, first_import, last_import, latest_end, longest)
                    SELECT 1, ?, coalesce(sum(sessions), 0), min(first_import), max(last_import),
                           (SELECT value FROM meta WHERE key = 'latest_end'), coalesce((SELECT value FROM meta WHERE key = 'longest'), 0)
                    FROM source HAVING count(*) > 0
                    """, [.text(Devices.local)]),
                .reshape(
                    StoreTables.source, select: "SELECT id, 1, name, shown, first_import, last_import, imports, sessions FROM source",
                    postgres: [
                        "ALTER TABLE source ADD COLUMN device BIGINT NOT NULL DEFAULT 1 REFERENCES device (id)",
                        "ALTER TABLE source ALTER COLUMN device DROP DEFAULT",
                        "ALTER TABLE source DROP CONSTRAINT source_name_key",
                        "ALTER TABLE source ADD CONSTRAINT source_device_name UNIQUE (device, name)",
                    ]),
                // Each session carries its device, so a device's windows read the start index alone.
                .addColumn(table: "session", StoreTables.sessionDevice),
                .dropIndex("session_start"), .index(StoreTables.sessionStart),
            ]),
        StoreMigration(
            name: "v6: day totals", steps: [.create(StoreTables.quarterTotal), .create(StoreTables.dayTotal), .fillKeptTotals]),
        StoreMigration(
            name: "v7: source by block range", dialects: [.postgres],
            steps: [.dropIndex("session_source"), .index(StoreTables.sessionSourceByBlockRange)]),
        // The recorder's sessions were left out of the kept totals until this version.
        StoreMigration(name: "v8: recorded time in the kept totals", sqliteName: "v7: recorded time in the kept totals", steps: [.refillKeptTotalsIfRecorded]),
        StoreMigration(
            name: "v9: imports",
            steps: [
                .create(StoreTables.importEntry), .create(StoreTables.importPart),
                // The largest session id ever given: a forgotten session's id is never given again.
                .statement(
                    """
                    INSERT INTO meta (key, value) SELECT 'session_high', max(id) FROM session WHERE true HAVING max(id) IS NOT NULL
                        ON CONFLICT (key) DO UPDATE SET value = CASE WHEN excluded.value > meta.value THEN excluded.value ELSE meta.value END
                    """),
            ]),
        // Time per website (the native host's visits; `web ignore`; `set web off` in meta).
        StoreMigration(
            name: "v10: site visits",
            steps: [.create(StoreTables.site), .create(StoreTables.siteVisit), .index(StoreTables.siteVisitStart), .create(StoreTables.siteIgnored)]),
        // A session was known within the file it came from, so a copy of an export under
        // another name counted its sessions twice: it is now its device's, known by its own id
        // or by its app and start. The sessions a store holds twice stay until `check fix`.
        StoreMigration(name: "v11: a session is its device's, whatever file brought it", steps: [.rekeyByDevice]),
        // The sites' categories (`category rule SITE CATEGORY`).
        StoreMigration(name: "v12: site categories", steps: [.create(StoreTables.siteCategory)]),
        // An imported site visit is the import's that first brought it (`forget import N` takes
        // it back), and each source of an import says how many it added (`imports`). Visits
        // imported before stay no import's.
        StoreMigration(
            name: "v13: site visits by import",
            steps: [.addColumn(table: "site_visit", StoreTables.siteVisitImport), .addColumn(table: "import_part", StoreTables.importPartVisits)]),
    ]

    /// SQLite's guard against overlapping tracked intervals, on insert or on a change of either end.
    private static func noOverlapTrigger(_ name: String, on event: String, other: String) -> String {
        """
        CREATE TRIGGER \(name) BEFORE \(event) ON tracked
        WHEN EXISTS (SELECT 1 FROM tracked
                     WHERE \(other)start < coalesce(NEW."end", 9223372036854775807)
                       AND coalesce("end", 9223372036854775807) > NEW.start)
        BEGIN SELECT RAISE(ABORT, 'tracked intervals may not overlap'); END
        """
    }
}
