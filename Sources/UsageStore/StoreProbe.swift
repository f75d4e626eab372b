// StoreProbe.swift — what is at a store's location now (nothing yet, a store, or something opening refuses, and why): the one place that looks, asked once per command and passed down, so that StoreLocation stays a value.
#if canImport(Glibc)
    import Glibc
#endif

/// What a look at a store's location found.
public enum StoreProbe: Equatable, Sendable {
    /// Nothing yet: no file, an empty one (a store is made in it), or a PostgreSQL database
    /// without the store's schema.
    case absent
    /// A store, to be opened. For SQLite, a non-empty file: opening checks that it is a store
    /// of ours (a look never reads it).
    case present
    /// Something is there that opening refuses, with the one line it says: a folder where the
    /// file should be, a server that cannot be reached.
    case unopenable(StoreError)

    /// Whether something is there: a store, or what opening then refuses in one line.
    public var isThere: Bool { self != .absent }

    /// What is at a SQLite store's path: a `stat`, nothing read or made. Without
    /// `makingFolder`, a path whose folder is not there is `.unopenable` (`StoreError.noFolder`),
    /// as sqlite3 refuses it; with it (the default store), `.absent`.
    static func file(_ path: String, makingFolder: Bool = true) -> StoreProbe {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if !makingFolder, let folder = missingFolder(of: path) { return .unopenable(.noFolder(path: path, folder: folder)) }
            return .absent
        }
        let kind = info.st_mode & S_IFMT
        if kind != S_IFREG { return .unopenable(.notAFile(path: path, directory: kind == S_IFDIR)) }
        return info.st_size > 0 ? .present : .absent
    }

    /// The folder of `path`, when it is not there (not a folder at all, or absent).
    static func missingFolder(of path: String) -> String? {
        let folder = SQLiteStore.folder(of: path)
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return folder }
        return nil
    }
}

extension OpenStores {
    /// What is at `location` now. A server's database is asked by opening its store here (kept
    /// open, as the command's reads use it); a database without the schema is `.absent`, and
    /// one that cannot be opened is `.unopenable`, so that opening it says why in one line.
    public func probe(_ location: StoreLocation) -> StoreProbe {
        counted()
        switch location {
        case .sqlite(let path):
            return StoreProbe.file(path, makingFolder: mayMakeFolder(of: location))
        case .postgres:
            do {
                _ = try reader(location)
                return .present
            } catch .missing {
                return .absent
            } catch {
                return .unopenable(error)
            }
        }
    }

    /// The store at `location` to read when there is one, after one look (nil: nothing there
    /// yet); what is there but cannot be opened throws its one line. `seen` is the command's
    /// look when it took one already: then it is not taken again.
    public func existing(_ location: StoreLocation, seen: StoreProbe? = nil) throws(StoreError) -> ReadOnlyStore? {
        switch seen ?? probe(location) {
        case .absent: return nil
        case .unopenable(let error): throw error
        case .present: return try reader(location)
        }
    }
}
