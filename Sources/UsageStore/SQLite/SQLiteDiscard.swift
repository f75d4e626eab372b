// SQLiteDiscard.swift — a store file this process made for an import that was then cancelled, taken away again (the file, its -wal, -shm and .lock), but only while nobody else has it open and it holds nothing.
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

extension SQLiteStore {
    /// Closes this store and, when this process made its file (`made`) and it is still as made
    /// (no other connection open, no row in any table), removes it with its `-wal`, `-shm` and
    /// `.lock`, so that a cancelled import leaves nothing where there was nothing. Anything
    /// else leaves the store as it is: it is a store, empty, that the next import uses.
    ///
    /// Why this and not a store made under another name and renamed into place at the commit:
    /// a rename would replace a store another process made meanwhile under the real name, and
    /// a kill -9 would leave the other name's files behind; here a kill -9 leaves at most an
    /// empty store (SQLite rolls the transaction back at the next open), and two processes
    /// are kept apart by the lock every opening takes: it is held from the look at the files
    /// to their removal, so no process opens the store meanwhile, and one that opened it
    /// earlier still has it open (its `-wal` is there) or wrote to it (a row is there).
    ///
    /// Returns whether the files were removed.
    @discardableResult
    func discardIfUnused() -> Bool {
        close()
        guard made else { return false }
        guard let lock = try? Self.lockFile(path) else { return false }
        defer { Self.unlockFile(lock) }
        // The last connection to close removes the write-ahead log: one still there is another's.
        guard !exists(path + "-wal"), Self.holdsNothing(path), !exists(path + "-wal") else { return false }
        for suffix in ["", "-wal", "-shm", ".lock"] { unlink(path + suffix) }
        return true
    }

    /// Whether the store at `path` has no row in any table but the migrations' own list.
    private static func holdsNothing(_ path: String) -> Bool {
        // Written nothing by opening; a connection that may write removes the `-wal` it made as
        // it closes (a read-only one would leave it).
        guard let queue = try? DatabaseQueue(path: path) else { return false }
        defer { try? queue.close() }
        let empty = try? queue.read { db -> Bool in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'grdb_migrations' AND name NOT LIKE 'sqlite_%'")
            for table in tables where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \"\(table)\")") == true { return false }
            return true
        }
        return empty == true
    }

    private func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
