// StoreLocation.swift — where a store is, as `--db` or `USAGE_SHELL_DB` names it (else the default under XDG_DATA_HOME): which backend opens it, how it is named in messages, whether there is one yet.
#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A store's place: for now a SQLite file; the backend is told by the form of the name.
public enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// A SQLite database file (the embedded default).
    case sqlite(path: String)

    /// The store a name means (`--db NAME`, `USAGE_SHELL_DB=NAME`): a file path.
    public init(_ name: String) {
        self = .sqlite(path: name)
    }

    /// `USAGE_SHELL_DB`, else `$XDG_DATA_HOME/usage-shell/usage.sqlite` (an absolute
    /// XDG_DATA_HOME), else `~/.local/share/usage-shell/usage.sqlite`; nil without a home.
    /// (`--db` is the caller's: it comes before all of these.)
    public static func standard(environment: [String: String]) -> StoreLocation? {
        if let explicit = environment["USAGE_SHELL_DB"], !explicit.isEmpty { return StoreLocation(explicit) }
        if let base = environment["XDG_DATA_HOME"], base.hasPrefix("/") { return .sqlite(path: base + "/usage-shell/usage.sqlite") }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return .sqlite(path: home + "/.local/share/usage-shell/usage.sqlite")
    }

    /// As messages name it: the path.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        }
    }

    /// The file, for a store that is one (the shell refuses to load the store's own file as data).
    public var file: String? {
        switch self {
        case .sqlite(let path): return path
        }
    }

    /// Whether something is there: a store, or something that is not one (which opening then
    /// refuses in one line); an empty file counts as nothing (a store is made in it).
    public var exists: Bool {
        switch self {
        case .sqlite(let path):
            var info = stat()
            guard stat(path, &info) == 0 else { return false }
            return (info.st_mode & S_IFMT) != S_IFREG || info.st_size > 0
        }
    }

    /// What makes two names the same store in this process: an absolute, standardised path.
    var identity: String {
        switch self {
        case .sqlite(let path):
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return "sqlite:" + (absolute as NSString).standardizingPath
        }
    }
}
