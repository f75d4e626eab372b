// TestPostgres.swift — the tests' PostgreSQL server (started by scripts/test through scripts/pg-test-server, named by USAGE_SHELL_TEST_PG): a database of its own for each test, dropped after; and whether the server is there at all.
import Foundation

/// A database of its own on the tests' PostgreSQL server, dropped when this goes.
public final class TestPostgres: @unchecked Sendable {
    /// The superuser's connection string to the server (a key=value string), or nil: no server.
    public static var server: String? {
        guard let value = ProcessInfo.processInfo.environment["USAGE_SHELL_TEST_PG"], !value.isEmpty else { return nil }
        return value
    }

    /// Why PostgreSQL cases cannot run here, or nil when they can.
    public static var unavailable: String? {
        server == nil ? "no PostgreSQL server: scripts/test starts one (scripts/pg-test-server) and names it in USAGE_SHELL_TEST_PG" : nil
    }

    /// Whether a missing server fails the PostgreSQL cases rather than skipping them: under
    /// scripts/test (which starts a server and sets USAGE_SHELL_REQUIRE_PG) and under CI.
    public static var required: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["USAGE_SHELL_REQUIRE_PG"] != nil || environment["CI"] != nil
    }

    /// The database's name.
    public let name: String
    /// A key=value string that reaches it as the superuser.
    public let conninfo: String
    private let admin: String

    /// Makes a new database on the tests' server: empty, or a copy of `template` (a database
    /// no one is connected to).
    public init(template: String? = nil) throws {
        guard let server = Self.server else { throw TestPostgresError(message: Self.unavailable!) }
        admin = server
        name = "usage_shell_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        conninfo = Self.replacing("dbname", in: server, with: name)
        try Self.psql(server, "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0) STRATEGY FILE_COPY" } ?? ""))
    }

    deinit { drop() }

    /// Drops the database now (a kept one, at the end of a run).
    public func drop() {
        _ = try? Self.psql(admin, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The connection string with `key=value` set (added when absent).
    public static func replacing(_ key: String, in conninfo: String, with value: String) -> String {
        var parts = conninfo.split(separator: " ").map(String.init).filter { !$0.hasPrefix(key + "=") }
        parts.append("\(key)=\(value)")
        return parts.joined(separator: " ")
    }

    /// Runs SQL through psql (as the tests' superuser unless `conninfo` says otherwise); returns
    /// what it printed (unaligned, tuples only).
    @discardableResult
    public static func psql(_ conninfo: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", conninfo, "-c", sql]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestPostgresError(message: "psql: " + String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs SQL in this database.
    @discardableResult
    public func sql(_ text: String) throws -> String { try Self.psql(conninfo, text) }
}

public struct TestPostgresError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}
