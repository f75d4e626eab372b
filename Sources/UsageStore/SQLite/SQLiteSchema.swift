// SQLiteSchema.swift — the store's migrations (StoreMigrations' one ledger, SQLite's part) registered with GRDB's DatabaseMigrator, each run in its transaction; the kept totals computed SQLite's fast way.
import GRDB

/// The store's schema on SQLite. A store holding a migration this version does not know was
/// written by a newer usage-shell and is never changed.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in StoreMigrations.ledger(.sqlite) {
            migrator.registerMigration(migration.name(in: .sqlite)) { db in
                try migration.run(.sqlite, GRDBTransaction(db: db)) { try SQLiteStore.fillKeptTotals(db) }
            }
        }
        return migrator
    }

    /// The names of every migration this version knows, oldest first.
    static var known: [String] { StoreMigrations.known(.sqlite) }
}
