// SQLiteOpening.swift — a SQLite store opened: found or made (its folder too), checked to be ours before a byte is written (the header through SQLite's own file layer, the schema), migrated under a lock beside it, opened read-only (or as immutable) where it may not be written.
import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

extension SQLiteStore {
    /// Opens the store at `path`. With `create`, a missing store is made (its folder too, when
    /// `makingFolder`: the default store's; any other's must be there, `.noFolder`); without, a
    /// missing one is `.missing`. A store that cannot be written is opened for reading.
    ///
    /// - Throws: `.missing`, `.noFolder`, `.notAFile`, `.notADatabase`, `.corrupt`, `.foreign`, `.newerSchema`, `.readOnly`
    ///   (with `create`, when it may only be read), `.failed`.
    static func open(path: String, create: Bool, makingFolder: Bool = true) throws(StoreError) -> SQLiteStore {
        switch StoreProbe.file(path, makingFolder: makingFolder) {
        case .unopenable(let error):
            throw error
        case .absent:
            guard create else { throw .missing(path: path) }
            if makingFolder { try makeFolder(of: path) }
        case .present:
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
        // Another process may have made the store meanwhile (or removed one it had just made,
        // its import cancelled: SQLiteDiscard.swift): looked at again under the lock.
        let present = StoreProbe.file(path) != .absent
        if !present, !create { throw .missing(path: path) }
        if present {
            try checkHeader(path)
            // A database that is not a store of ours (or a newer one) is refused before anything
            // is written to it.
            try preflight(path)
        }
        // One connection, which sets nothing when it opens (GRDB's DatabasePool writes a table
        // and drops it at every open, to make a WAL file: a store only read must not change).
        let writer: DatabaseQueue
        do {
            writer = try DatabaseQueue(path: path, configuration: configuration(readOnly: false))
            if !present {
                // Freed pages go back to the file system at `forget` (PRAGMA incremental_vacuum):
                // set before the first table. Then the write-ahead log, kept by the file from now on.
                try writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                        throw StoreError.failed(path: path, reason: "this file system does not allow a write-ahead log")
                    }
                }
            }
        } catch {
            throw mapped(error, path: path)
        }
        try migrate(writer, path: path)
        let reader: DatabaseQueue
        do {
            reader = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
        } catch {
            throw mapped(error, path: path)
        }
        return SQLiteStore(path: path, isReadOnly: false, writer: writer, reader: reader, made: !present)
    }

    /// A store that may only be read. A WAL database whose `-shm` file cannot be made is read
    /// as immutable (no other process can be writing to a folder nobody may write to).
    private static func openReadOnly(_ path: String) throws(StoreError) -> SQLiteStore {
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
        return SQLiteStore(path: path, isReadOnly: true, writer: nil, reader: queue)
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

    /// The writer's connection, or a reader's: a reader may leave a transaction open across
    /// calls (a screen's, ended by `readingAsOne`).
    private static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "usage-shell store"
        if readOnly {
            configuration.allowsUnsafeTransactions = true
        } else {
            // A big import grows the write-ahead log; it is cut back to this after each checkpoint.
            configuration.prepareDatabase { try $0.execute(sql: "PRAGMA journal_size_limit = 33554432") }
        }
        return configuration
    }

    /// Creates the tables of a new store, upgrades an older one; refuses a newer or foreign one.
    private static func migrate(_ queue: DatabaseQueue, path: String) throws(StoreError) {
        try checkSchema(queue, path: path, readOnly: false)
        do {
            try SQLiteSchema.migrator.migrate(queue)
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
                let applied = hasMigrations ? try SQLiteSchema.migrator.appliedIdentifiers(db) : []
                let superseded = hasMigrations ? try SQLiteSchema.migrator.hasBeenSuperseded(db) : false
                let complete = hasMigrations ? try SQLiteSchema.migrator.hasCompletedMigrations(db) : false
                return (tables, applied, superseded, complete)
            }
        } catch {
            throw mapped(error, path: path)
        }
        if state.superseded {
            let found = (try? reader.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }) ?? []
            throw .newerSchema(path: path, found: found.filter { !SQLiteSchema.known.contains($0) })
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
    /// may have the store open already. Without the lock SQLite keeps on the file for it,
    /// another process closing the store believes itself the last: it checkpoints regardless
    /// of this one's readers and deletes the `-wal` and `-shm` in use (readers then see
    /// "database disk image is malformed", writes may be lost). SQLite closes its descriptor
    /// only once no connection of the process holds a lock.
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

    /// Takes `PATH.lock` exclusively, waiting for another process that holds it. A lock file
    /// removed while this one waited (a cancelled import's store taken away with it) is no
    /// lock any more: the lock is taken again on the file now at that path.
    static func lockFile(_ path: String) throws(StoreError) -> Int32 {
        while true {
            let fd = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .failed(path: path, reason: "cannot take its lock: \(String(cString: strerror(errno)))") }
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    Glibc.close(fd)
                    throw .failed(path: path, reason: "cannot take its lock: \(String(cString: strerror(errno)))")
                }
            }
            var held = stat()
            var named = stat()
            if fstat(fd, &held) == 0, stat(path + ".lock", &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino { return fd }
            Glibc.close(fd)
        }
    }

    static func unlockFile(_ fd: Int32) {
        flock(fd, LOCK_UN)
        Glibc.close(fd)
    }
}
