// Store.swift — the SQLite store on disk: where it lives, opened (WAL, a busy timeout, the schema migrated under a lock, a newer or foreign one refused, a read-only one read), and the small facts it keeps in its meta table.
import Foundation
import GRDB
import GRDBSQLite
import UsageCore

#if canImport(Glibc)
    import Glibc
#endif

/// One usage-shell store: a SQLite database of imported sessions (and, later, tracked time).
///
/// Every change is one transaction. Two processes may use it at once: SQLite's write-ahead log
/// lets readers read while a writer writes, and a writer waits up to `busyTimeout` for another.
/// Opening it writes nothing: a store that is only read keeps every byte.
/// A file that is not a store of ours (not SQLite, damaged, another program's database, a newer
/// schema) is refused with one line and never written.
public final class Store: Sendable {
    /// The database file.
    public let path: String
    /// Whether the store can only be read (a read-only file or folder).
    public let isReadOnly: Bool
    let database: any DatabaseWriter

    /// How long a write waits for another process's write to end, in seconds.
    static let busyTimeout: TimeInterval = 60

    /// `--db`, else `USAGE_SHELL_DB`, else `$XDG_DATA_HOME/usage-shell/usage.sqlite` (an absolute
    /// XDG_DATA_HOME), else `~/.local/share/usage-shell/usage.sqlite`; nil without a home.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let explicit = environment["USAGE_SHELL_DB"], !explicit.isEmpty { return explicit }
        if let base = environment["XDG_DATA_HOME"], base.hasPrefix("/") { return base + "/usage-shell/usage.sqlite" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/usage-shell/usage.sqlite"
    }

    /// Whether a store file exists at `path` (an empty file counts as none).
    public static func exists(at path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
    }

    private init(path: String, isReadOnly: Bool, database: any DatabaseWriter) {
        self.path = path
        self.isReadOnly = isReadOnly
        self.database = database
    }

    /// Opens the store at `path`. With `create`, a missing store is made (its folder too);
    /// without, a missing one is `.missing`. A store that cannot be written is opened for reading.
    public static func open(path: String, create: Bool) throws(StoreError) -> Store {
        if !exists(at: path) {
            guard create else { throw .missing(path: path) }
            try makeFolder(of: path)
        } else {
            try checkHeader(path)
            let writable = access(path, W_OK) == 0 && access(folder(of: path), W_OK) == 0
            if !writable {
                if create { throw .readOnly(path: path) }
                return try openReadOnly(path)
            }
        }
        // Two processes opening a new store at once must not both create its tables: all that
        // follows happens under an exclusive lock beside the file.
        let lock = try lockFile(path)
        defer { unlockFile(lock) }
        // Another process may have made the store meanwhile.
        let present = exists(at: path)
        if present {
            try checkHeader(path)
            // A database that is not a store of ours (or a newer one) is refused before anything
            // is written to it.
            try preflight(path)
        }
        // One connection, which sets nothing when it opens (GRDB's DatabasePool writes a table
        // and drops it at every open, to make a WAL file: a store only read must not change).
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: false))
            if !present {
                // Freed pages go back to the file system at `forget` (PRAGMA incremental_vacuum):
                // set before the first table. Then the write-ahead log, kept by the file from now on.
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                        throw StoreError.failed(path: path, reason: "this file system does not allow a write-ahead log")
                    }
                }
            }
        } catch {
            throw mapped(error, path: path)
        }
        try migrate(queue, path: path)
        return Store(path: path, isReadOnly: false, database: queue)
    }

    /// A store that may only be read. A WAL database whose `-shm` file cannot be made is read
    /// as immutable (no other process can be writing to a folder nobody may write to).
    private static func openReadOnly(_ path: String) throws(StoreError) -> Store {
        var queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            // Only a write-ahead log whose shared-memory file cannot be made (a folder nobody may
            // write to) is read as immutable: immutable reading of a file another process writes
            // reports corruption, so any other failure is said as it is.
            let code = (error as? DatabaseError)?.resultCode.primaryResultCode
            guard code == .SQLITE_CANTOPEN || code == .SQLITE_READONLY else { throw mapped(error, path: path) }
            do {
                var url = URLComponents()
                url.scheme = "file"
                url.path = path
                url.queryItems = [URLQueryItem(name: "immutable", value: "1")]
                queue = try DatabaseQueue(path: url.string ?? path, configuration: configuration(readOnly: true))
                _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            } catch {
                throw mapped(error, path: path)
            }
        }
        try checkSchema(queue, path: path, readOnly: true)
        return Store(path: path, isReadOnly: true, database: queue)
    }

    /// Reads the schema of an existing database without changing a byte of it.
    private static func preflight(_ path: String) throws(StoreError) {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
        } catch {
            throw mapped(error, path: path)
        }
        defer { try? queue.close() }
        try checkSchema(queue, path: path, readOnly: false)
    }

    private static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "usage-shell store"
        if !readOnly {
            // A big import grows the write-ahead log; it is cut back to this after each checkpoint.
            configuration.prepareDatabase { try $0.execute(sql: "PRAGMA journal_size_limit = 33554432") }
        }
        return configuration
    }

    /// Creates the tables of a new store, upgrades an older one; refuses a newer or foreign one.
    private static func migrate(_ queue: DatabaseQueue, path: String) throws(StoreError) {
        try checkSchema(queue, path: path, readOnly: false)
        do {
            try Schema.migrator.migrate(queue)
        } catch {
            throw mapped(error, path: path)
        }
    }

    /// A database with tables but no migrations of ours is another program's; one with
    /// migrations we do not know is a newer store's.
    private static func checkSchema(_ reader: any DatabaseReader, path: String, readOnly: Bool) throws(StoreError) {
        let state: (tables: Int, applied: Set<String>, superseded: Bool, complete: Bool)
        do {
            state = try reader.read { db in
                // Tables but ours: a store whose first migration was cut short (a kill) has only
                // GRDB's empty list of migrations, and is finished, not refused.
                let tables = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT IN ('grdb_migrations') AND name NOT LIKE 'sqlite_%'") ?? 0
                let hasMigrations = try db.tableExists("grdb_migrations")
                let applied = hasMigrations ? try Schema.migrator.appliedIdentifiers(db) : []
                let superseded = hasMigrations ? try Schema.migrator.hasBeenSuperseded(db) : false
                let complete = hasMigrations ? try Schema.migrator.hasCompletedMigrations(db) : false
                return (tables, applied, superseded, complete)
            }
        } catch {
            throw mapped(error, path: path)
        }
        if state.superseded {
            let found = (try? reader.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }) ?? []
            throw .newerSchema(path: path, found: found.filter { !Schema.known.contains($0) })
        }
        if state.tables > 0, state.applied.isEmpty { throw .foreign(path: path) }
        if readOnly, !state.complete {
            throw .failed(path: path, reason: "it was written by an older usage-shell and can only be read here, so it cannot be upgraded")
        }
    }

    /// The first bytes of a SQLite database; anything else at the path is not ours to open.
    ///
    /// Read through SQLite's own file layer, never with a descriptor of ours: on Linux, closing
    /// any descriptor of a file drops every POSIX lock the process holds on it, and the process
    /// may have the store open already (the stopwatch's store, the loaded one). Without the lock
    /// SQLite keeps on the file for it, another process closing the store believes itself the
    /// last: it checkpoints regardless of this one's readers and deletes the `-wal` and `-shm`
    /// in use (readers then see "database disk image is malformed", writes may be lost).
    /// SQLite closes its descriptor only once no connection of the process holds a lock.
    private static func checkHeader(_ path: String) throws(StoreError) {
        guard let vfs = sqlite3_vfs_find(nil), let xOpen = vfs.pointee.xOpen, let xFullPathname = vfs.pointee.xFullPathname else {
            throw .failed(path: path, reason: "SQLite has no file system to open it with")
        }
        // Named as SQLite's own connections name it: a full path, made by sqlite3_create_filename.
        var full = [CChar](repeating: 0, count: Int(vfs.pointee.mxPathname) + 1)
        guard xFullPathname(vfs, path, Int32(full.count), &full) == SQLITE_OK,
            let name = sqlite3_create_filename(full, "", "", 0, nil)
        else { throw .failed(path: path, reason: "its path cannot be opened") }
        defer { sqlite3_free_filename(name) }
        let size = Int(vfs.pointee.szOsFile)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        defer { memory.deallocate() }
        let file = memory.bindMemory(to: sqlite3_file.self, capacity: 1)
        errno = 0
        let opened = xOpen(vfs, name, file, SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READONLY, nil)
        let openError = errno
        // SQLite leaves no methods when the open fails (nothing to close then).
        guard let methods = file.pointee.pMethods else {
            if openError == EACCES { throw .failed(path: path, reason: "permission denied") }
            throw .failed(path: path, reason: openError != 0 ? String(cString: strerror(openError)) : "it cannot be opened (SQLite error \(opened))")
        }
        defer { _ = methods.pointee.xClose?(file) }
        guard opened == SQLITE_OK else { throw .failed(path: path, reason: "it cannot be opened (SQLite error \(opened))") }
        var header = [UInt8](repeating: 0, count: 16)
        // A shorter file reads as SQLITE_IOERR_SHORT_READ.
        let read = header.withUnsafeMutableBytes { methods.pointee.xRead?(file, $0.baseAddress, 16, 0) }
        guard read == SQLITE_OK, header == Array("SQLite format 3\0".utf8) else { throw .notADatabase(path: path) }
    }

    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `mkdir -p` of the store's folder (mode 0700: the data is personal).
    private static func makeFolder(of path: String) throws(StoreError) {
        let folder = folder(of: path)
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failed(path: path, reason: "cannot make its folder '\(folder)': \((error as NSError).localizedDescription)")
        }
    }

    /// Takes `PATH.lock` exclusively, waiting for another process that holds it.
    private static func lockFile(_ path: String) throws(StoreError) -> Int32 {
        let fd = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(path: path, reason: "cannot take its lock: \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                throw .failed(path: path, reason: "cannot take its lock: \(String(cString: strerror(errno)))")
            }
        }
        return fd
    }

    private static func unlockFile(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// SQLite's and GRDB's errors as the store's.
    static func mapped(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else { return .failed(path: path, reason: "\(error)") }
        switch error.resultCode {
        case .SQLITE_NOTADB: return .notADatabase(path: path)
        case .SQLITE_CORRUPT: return .corrupt(path: path, detail: error.message ?? "corrupt")
        case .SQLITE_READONLY: return .readOnly(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .failed(path: path, reason: "another process kept it busy for more than \(Int(busyTimeout)) s; try again")
        case .SQLITE_FULL: return .failed(path: path, reason: "the disk is full; nothing was changed")
        default: return .failed(path: path, reason: error.message ?? "\(error)")
        }
    }

    // MARK: Meta

    /// A value of the meta table (nil when unset).
    static func meta(_ db: Database, _ key: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    static func setMeta(_ db: Database, _ key: String, _ value: Int64?) throws {
        if let value {
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// The facts kept up to date by every change, so that opening reads no session.
    enum MetaKey {
        static let sessions = "sessions"
        static let latestEnd = "latest_end"
        static let longest = "longest"
        static let retentionDays = "retention_days"
    }

    /// SQLite's `PRAGMA data_version` on this store's connection: it changes when another
    /// connection (another process, or another opening of the store in this one) commits a
    /// change, and only then; so a history read from this connection needs reading again only
    /// when it moved (`watch`).
    public func dataVersion() throws(StoreError) -> Int64 {
        try read { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }

    /// Reads in one snapshot.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    /// Changes in one transaction, taken at once (so a read-then-write cannot race another process).
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writeUnmapped(body)
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    /// `write`, with the body's own errors (and SQLite's) passed through as they are.
    func writeUnmapped<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        return try database.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }
}
