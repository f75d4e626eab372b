// StoreLocation.swift — where a store is, as `--db` or `USAGE_SHELL_DB` names it (else the default under XDG_DATA_HOME): which backend opens it, how it is named in messages; a value, which never looks at what is there (StoreProbe.swift does).
import Foundation
import UsageData

/// A store's place; the backend is told by the form of the name.
public enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// A SQLite database file (the embedded default).
    case sqlite(path: String)
    /// A PostgreSQL database, as libpq names one: a `postgresql://` (or `postgres://`) URI, or a
    /// key=value string (`host=… dbname=…`, `service=…`); the PG* variables, `~/.pgpass` and a
    /// service file fill in the rest, as for psql.
    case postgres(conninfo: String)

    /// The store a name means (`--db NAME`, `USAGE_SHELL_DB=NAME`): a PostgreSQL URI or
    /// key=value string, else a file path.
    public init(_ name: String) {
        self = Self.isConnectionString(name) ? .postgres(conninfo: name) : .sqlite(path: name)
    }

    /// libpq's connection keywords (a key=value string begins with one).
    static let keywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding", "connect_timeout",
        "client_encoding", "options", "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
        "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode", "requiressl",
        "sslcompression", "sslcert", "sslkey", "sslpassword", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer",
        "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib", "service", "target_session_attrs",
    ]

    /// Whether `name` is a PostgreSQL connection string rather than a path.
    static func isConnectionString(_ name: String) -> Bool {
        let trimmed = name.drop { $0 == " " }
        if trimmed.hasPrefix("postgresql://") || trimmed.hasPrefix("postgres://") { return true }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        return keywords.contains(key)
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

    /// As messages name it: the path, or the connection string with its password hidden.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let conninfo): return Self.redacted(conninfo)
        }
    }

    /// The file, for a store that is one (the shell refuses to load the store's own file as data).
    public var file: String? {
        switch self {
        case .sqlite(let path): return path
        case .postgres: return nil
        }
    }

    /// A connection string without its password: `postgresql://u:***@h/db`, `password=***`.
    static func redacted(_ conninfo: String) -> String { SourceRef.redactedConnection(conninfo) }

    /// What makes two names the same store in this process: an absolute, standardised path.
    public var identity: String {
        switch self {
        case .sqlite(let path):
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return "sqlite:" + (absolute as NSString).standardizingPath
        case .postgres(let conninfo):
            return "postgres:" + conninfo
        }
    }
}
