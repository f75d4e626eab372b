// StoreError.swift — every way the store can refuse, each with one line naming the store's path; nothing here ever deletes or rewrites a file that is not a store of ours.

/// Why the store could not be opened, read or changed.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no store at the path yet.
    case missing(path: String)
    /// The file is not a SQLite database: it is left exactly as it is.
    case notADatabase(path: String)
    /// The store's folder is not there (a store named with `--db` or `USAGE_SHELL_DB`): nothing
    /// is made, as sqlite3 makes nothing; only the default store's folder is made.
    case noFolder(path: String, folder: String)
    /// The path names a directory (or another thing that is not a file): nothing is made there.
    case notAFile(path: String, directory: Bool)
    /// The file is a SQLite database, but damaged: it is left as it is.
    case corrupt(path: String, detail: String)
    /// A SQLite database that is not a usage-shell store (other tables): left alone.
    case foreign(path: String)
    /// A store written by a newer usage-shell: never altered by this one.
    case newerSchema(path: String, found: [String])
    /// The store may only be read (a read-only file or folder), and this would change it.
    case readOnly(path: String)
    /// The server lets this role only read the store (no privilege, or read-only transactions).
    case readOnlyRole(path: String)
    /// A database without the store where this role may not make it (no CREATE there): the
    /// role and the database named for the GRANT its owner can give.
    case cannotCreate(path: String, role: String, database: String)
    /// The server denies this role the store's tables; `role` is the role it was denied as
    /// (`current_user`); `writing` when a change was denied (the role may read, not write).
    case denied(path: String, reason: String, role: String?, writing: Bool = false)
    /// The server could not be reached or refused the connection (libpq's first line).
    case connection(path: String, reason: String)
    /// The server's client library (libpq) is missing or unusable.
    case noClient(path: String, reason: String)
    /// No sessions of that device are in the store.
    case unknownDevice(path: String, name: String)
    /// Anything else SQLite or the system said.
    case failed(path: String, reason: String)
    /// An import stopped by Ctrl-C or SIGTERM before it committed: its transaction was rolled
    /// back (a PostgreSQL COPY ended), so nothing was written.
    case cancelled(path: String)

    /// What a source reading the store says when there is no place for one at all (no home).
    public static let nowhere = "there is no store to use: no home folder to keep it in; give --db PATH or set USAGE_SHELL_DB"

    public var path: String {
        switch self {
        case .missing(let path), .noFolder(let path, _), .notADatabase(let path), .notAFile(let path, _), .corrupt(let path, _), .foreign(let path),
            .newerSchema(let path, _), .readOnly(let path), .readOnlyRole(let path), .cannotCreate(let path, _, _), .denied(let path, _, _, _), .connection(let path, _), .noClient(let path, _),
            .unknownDevice(let path, _), .failed(let path, _), .cancelled(let path):
            return path
        }
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .missing: return "there is no store there yet (import FILE, start TASK or task add NAME makes it)"
        case .noFolder(_, let folder):
            return "its folder '\(folder)' does not exist; nothing was made (make the folder first, or name a store in one that is there)"
        case .notADatabase: return "it is not a SQLite database; it is left as it is"
        case .notAFile(let path, let directory):
            return directory
                ? "it is a directory; a store is a file (--db \(path.hasSuffix("/") ? path : path + "/")usage.sqlite, say)"
                : "it is not a regular file; a store is a file"
        case .corrupt(_, let detail): return "the database is damaged (\(detail)); it is left as it is (sqlite3 .recover can save what is left)"
        case .foreign: return "it is a SQLite database, but not a usage-shell store; it is left as it is"
        case .newerSchema(_, let found):
            return "it was written by a newer usage-shell (schema \(found.joined(separator: ", "))); this version does not change it: upgrade usage-shell"
        case .readOnly: return "it can only be read here (a read-only file or folder)"
        case .readOnlyRole: return "the server lets this role only read it; nothing was changed"
        case .cannotCreate(_, let role, let database):
            return
                "there is no store in this database yet, and the role \(Self.quotedIdentifier(role)) may not make one (it needs CREATE on the database); its owner can let it: GRANT CREATE ON DATABASE \(Self.quotedIdentifier(database)) TO \(Self.quotedIdentifier(role))"
        case .denied(_, let reason, let role, let writing):
            let grantee = role.map(Self.quotedIdentifier) ?? "ROLE"
            return writing
                ? "the server denies the role \(grantee) this change (\(reason)); nothing was changed; its owner can let it write: GRANT USAGE ON SCHEMA usage_shell TO \(grantee); GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO \(grantee)"
                : "the server denies the role \(grantee) the store (\(reason)); its owner can let it read: GRANT USAGE ON SCHEMA usage_shell TO \(grantee); GRANT SELECT ON ALL TABLES IN SCHEMA usage_shell TO \(grantee)"
        case .connection(_, let reason): return "cannot connect: \(reason)"
        case .noClient(_, let reason): return "a PostgreSQL store needs libpq (Debian: apt-get install libpq5): \(reason)"
        case .unknownDevice(_, let name): return "it holds no device '\(name)' (devices lists them)"
        case .failed(_, let reason): return reason
        case .cancelled: return "import cancelled: nothing was written"
        }
    }

    /// A role's name as SQL takes it, always in double quotes (inner ones doubled): correct for
    /// every name, a reserved word (`user`) or a capital letter too, so the GRANT can be pasted.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public var description: String {
        if case .missing(let path) = self { return "no store at '\(path)' yet (import FILE, start TASK or task add NAME makes it)" }
        return "cannot use the store '\(path)': \(reason)"
    }
}
