// Schema.swift — the store's tables, created and upgraded by GRDB's DatabaseMigrator: names stored once, sessions keyed by source and identity, instants as integers with their original offsets, indexes for day windows.
import GRDB

/// The store's schema, one migration per version. A store holding a migration this version
/// does not know was written by a newer usage-shell and is never changed.
enum Schema {
    /// Sessions longer than this are few and found through their own index, so that a window
    /// query reads back only one day before its start.
    static let longSession: Int64 = 86_400_000_000

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
                    CREATE INDEX session_long ON session(start, length) WHERE length > \(longSession);
                    -- Each app's latest session's category (`app NAME` on a day without it).
                    CREATE TABLE app_latest (
                        app INTEGER PRIMARY KEY REFERENCES app(id),
                        category INTEGER NOT NULL REFERENCES category(id),
                        start INTEGER NOT NULL);
                    """)
        }
        return migrator
    }

    /// The names of every migration this version knows, oldest first.
    static var known: [String] { migrator.migrations }
}
