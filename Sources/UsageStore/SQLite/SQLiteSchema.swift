// SQLiteSchema.swift — the store's tables, created and upgraded by GRDB's DatabaseMigrator: names stored once, sessions keyed by source and identity, instants as integers with their original offsets, indexes for day windows; then (v2) tasks, their categories and tracked time, whose rules (end after start, one running, no overlap) the database itself keeps; then (v3) the undo journal of the tracker's changes; (v5) devices; (v6) the totals kept per quarter hour and per day, per device; (v9) every import as an entry.
import GRDB

/// The store's schema, one migration per version. A store holding a migration this version
/// does not know was written by a newer usage-shell and is never changed.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: sessions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
                    CREATE TABLE app (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                    CREATE TABLE category (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                    CREATE TABLE source (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,          -- what makes it the same source: an absolute path, a URL, aw://HOST:PORT
                        shown TEXT NOT NULL,                -- as the user named it at the last import
                        first_import INTEGER NOT NULL,      -- µs since 1970, UTC
                        last_import INTEGER NOT NULL,
                        imports INTEGER NOT NULL DEFAULT 0,
                        sessions INTEGER NOT NULL DEFAULT 0);  -- how many of the store's sessions came from it
                    -- A source's sessions are unique by key: the import reads the source's keys
                    -- and writes inside one IMMEDIATE transaction, so no other writer comes between.
                    -- (A UNIQUE index on random 64-bit keys, and foreign keys checked row by row,
                    -- made a million-row import four times slower; the names and sources the
                    -- ids point at are written in the same transaction, before the sessions.)
                    CREATE TABLE session (
                        id INTEGER PRIMARY KEY,
                        source INTEGER NOT NULL,            -- source(id)
                        key INTEGER NOT NULL,               -- the session's identity in its source (IdentityHash)
                        app INTEGER NOT NULL,               -- app(id)
                        category INTEGER NOT NULL,          -- category(id)
                        start INTEGER NOT NULL,             -- µs since 1970, UTC
                        length INTEGER NOT NULL CHECK (length > 0),  -- µs
                        start_offset INTEGER,               -- the source's UTC offset at start, in minutes, when it said
                        end_offset INTEGER,
                        ext_id TEXT);                       -- the session's own id, as the source had it
                    CREATE INDEX session_source ON session(source);
                    -- Covering: a window without ids reads this index alone.
                    CREATE INDEX session_start ON session(start, length, app, category);
                    CREATE INDEX session_long ON session(start, length) WHERE length > \(StoreHistory.longSession);
                    -- Each app's latest session's category (`app NAME` on a day without it).
                    CREATE TABLE app_latest (
                        app INTEGER PRIMARY KEY REFERENCES app(id),
                        category INTEGER NOT NULL REFERENCES category(id),
                        start INTEGER NOT NULL);
                    """)
        }
        migrator.registerMigration("v2: tracking") { db in
            try db.execute(
                sql: """
                    -- The categories a person manages for tasks; a task without one is in Other.
                    CREATE TABLE task_category (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        created INTEGER NOT NULL);          -- µs since 1970, UTC
                    -- A category renamed: a rule or limit naming the old name means the new one.
                    CREATE TABLE category_rename (
                        old TEXT PRIMARY KEY NOT NULL,
                        new TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE task (
                        id INTEGER PRIMARY KEY,             -- the task's number; its time belongs to it by this
                        name TEXT NOT NULL CHECK (length(name) > 0),
                        category INTEGER REFERENCES task_category(id) ON DELETE SET NULL,
                        due TEXT CHECK (due IS NULL OR due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),  -- a local date
                        priority INTEGER NOT NULL DEFAULT 1 CHECK (priority BETWEEN 0 AND 2),  -- low, medium, high
                        estimate INTEGER CHECK (estimate IS NULL OR estimate > 0),  -- µs
                        created INTEGER NOT NULL,
                        done INTEGER,                       -- when it was marked done
                        deleted INTEGER);                   -- when it was deleted with its time kept
                    CREATE UNIQUE INDEX task_name ON task(name) WHERE deleted IS NULL;
                    CREATE TABLE tracked (
                        id INTEGER PRIMARY KEY,
                        task INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                        start INTEGER NOT NULL,             -- µs since 1970, UTC
                        end INTEGER,                        -- NULL while the stopwatch runs
                        start_offset INTEGER NOT NULL,      -- the UTC offset in minutes in effect at start, in `zone`
                        end_offset INTEGER,
                        zone TEXT NOT NULL,                 -- the zone it was tracked in
                        CHECK (end IS NULL OR end > start),
                        CHECK ((end IS NULL) = (end_offset IS NULL)));
                    CREATE INDEX tracked_start ON tracked(start);
                    CREATE INDEX tracked_task ON tracked(task);
                    -- One stopwatch runs at a time.
                    CREATE UNIQUE INDEX tracked_one_running ON tracked((end IS NULL)) WHERE end IS NULL;
                    -- Tracked intervals never overlap (a running one reaches to the end of time).
                    CREATE TRIGGER tracked_no_overlap_insert BEFORE INSERT ON tracked
                    WHEN EXISTS (SELECT 1 FROM tracked
                                 WHERE start < coalesce(NEW.end, 9223372036854775807)
                                   AND coalesce(end, 9223372036854775807) > NEW.start)
                    BEGIN SELECT RAISE(ABORT, 'tracked intervals may not overlap'); END;
                    CREATE TRIGGER tracked_no_overlap_update BEFORE UPDATE OF start, end ON tracked
                    WHEN EXISTS (SELECT 1 FROM tracked
                                 WHERE id != NEW.id
                                   AND start < coalesce(NEW.end, 9223372036854775807)
                                   AND coalesce(end, 9223372036854775807) > NEW.start)
                    BEGIN SELECT RAISE(ABORT, 'tracked intervals may not overlap'); END;
                    """)
        }
        migrator.registerMigration("v3: tracking journal") { db in
            try db.execute(
                sql: """
                    -- Every change to tracked time, tasks and categories, newest last, with what
                    -- `undo` needs to put the rows it touched back exactly (Tracking/Journal.swift).
                    CREATE TABLE undo_journal (
                        id INTEGER PRIMARY KEY,
                        note TEXT NOT NULL,                 -- JSON: the change in words (its command, task or category, interval, times)
                        images TEXT NOT NULL);              -- JSON: each row it touched as it was before (null: the row was not there)
                    """)
        }
        migrator.registerMigration("v5: devices") { db in
            // The machines sessions came from. What a store held before was this machine's.
            try db.execute(
                sql: """
                    CREATE TABLE device (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        sessions INTEGER NOT NULL DEFAULT 0,   -- its sessions in the store now
                        first_import INTEGER,
                        last_import INTEGER,
                        latest_end INTEGER,                    -- of its sessions (a device's span without reading them)
                        longest INTEGER NOT NULL DEFAULT 0)
                    """)
            try db.execute(
                sql: """
                    INSERT INTO device (id, name, sessions, first_import, last_import, latest_end, longest)
                    SELECT 1, ?, coalesce(sum(sessions), 0), min(first_import), max(last_import),
                           (SELECT value FROM meta WHERE key = 'latest_end'), coalesce((SELECT value FROM meta WHERE key = 'longest'), 0)
                    FROM source HAVING count(*) > 0
                    """, arguments: [Devices.local])
            try db.execute(sql: SQLiteSchema.devicesV5)
        }
        migrator.registerMigration("v6: day totals") { db in
            // The totals kept beside the sessions, per device, computed once here for a store made before.
            try db.execute(sql: KeptTotals.schema(withoutRowID: true))
            try SQLiteStore.fillKeptTotals(db)
        }
        migrator.registerMigration("v7: recorded time in the kept totals") { db in
            // The recorder's sessions were left out of the totals until this version.
            try KeptTotals.refillIfRecorded(GRDBTransaction(db: db)) { try SQLiteStore.fillKeptTotals(db) }
        }
        migrator.registerMigration("v9: imports") { db in
            // Every import kept as an entry, so that one can be taken back (PostgreSQL's v8 has no SQLite twin).
            try db.execute(sql: ImportLog.schema(bigint: "INTEGER", primaryKey: "INTEGER PRIMARY KEY"))
        }
        return migrator
    }

    /// Sources are the same source per device (two machines' `~/export.json` are two); each
    /// session carries its device, so a device's windows read the start index alone.
    static let devicesV5 = """
        CREATE TABLE source_v5 (
            id INTEGER PRIMARY KEY,
            device INTEGER NOT NULL REFERENCES device(id),
            name TEXT NOT NULL,
            shown TEXT NOT NULL,
            first_import INTEGER NOT NULL,
            last_import INTEGER NOT NULL,
            imports INTEGER NOT NULL DEFAULT 0,
            sessions INTEGER NOT NULL DEFAULT 0,
            UNIQUE (device, name));
        INSERT INTO source_v5 SELECT id, 1, name, shown, first_import, last_import, imports, sessions FROM source;
        DROP TABLE source;
        ALTER TABLE source_v5 RENAME TO source;
        ALTER TABLE session ADD COLUMN device INTEGER NOT NULL DEFAULT 1;
        DROP INDEX session_start;
        CREATE INDEX session_start ON session(start, length, app, category, device);
        """

    /// The names of every migration this version knows, oldest first.
    static var known: [String] { migrator.migrations }
}
