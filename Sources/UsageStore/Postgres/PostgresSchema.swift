// PostgresSchema.swift — where the store's tables live on a PostgreSQL server (a schema of their own, usage_shell), the migrations it runs (StoreMigrations' one ledger, PostgreSQL's part, applied in one transaction under a lock by PostgresStore) and the writer's lock.

/// The store's schema on PostgreSQL. A database holding a migration this version does not know
/// was written by a newer usage-shell and is never changed.
enum PostgresSchema {
    /// The schema (namespace) the store's tables live in, so that they share a database with
    /// anything else.
    static let namespace = "usage_shell"

    /// The migrations PostgreSQL runs (StoreMigrations' one ledger), oldest first.
    static var migrations: [StoreMigration] { StoreMigrations.ledger(.postgres) }

    /// The names of every migration this version knows, oldest first.
    static var known: [String] { StoreMigrations.known(.postgres) }

    /// The lock every migration and every change takes (one writer at a time, as SQLite has).
    static let writerLock: Int64 = 0x7573_6167_6573_6801  // "usagesh" + 1
}
