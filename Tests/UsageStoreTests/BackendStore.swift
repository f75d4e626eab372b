// BackendStore.swift — the backends a store case runs on (SQLite, and PostgreSQL on the tests' server), a new store on one, and its tables read back as plain rows, past the program's own reads.
import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
import UsageCore
@testable import UsageStore

/// A backend the cases run on.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// A new, empty store on a backend, and what keeps it (a folder, a database) until the test ends.
final class BackendStore {
    let location: StoreLocation
    let store: any StoreWriter
    private let keep: AnyObject

    init(_ backend: Backend) throws {
        switch backend {
        case .sqlite:
            let folder = try TemporaryFolder("store")
            keep = folder
            location = .sqlite(path: folder.store)
        case .postgres:
            let database = try TestPostgres(template: try StoreTemplate.name())
            keep = database
            location = .postgres(conninfo: database.conninfo)
        }
        store = try OpenStores().writer(location)
    }

    /// Another opening of the same store (another process's, as far as the store can tell).
    func another() throws -> any StoreWriter { try OpenStores().writer(location) }

    /// The same store opened again after this opening is closed (a SQLite store's file is let go).
    func reopened() throws -> any StoreWriter {
        (store as? SQLiteStore)?.close()
        return try another()
    }

    /// The rows `sql` selects, each its values joined by `|` (NULL as empty), as the database
    /// itself answers: GRDB for SQLite, psql for PostgreSQL. Compare rows of one backend only.
    func rows(_ sql: String) throws -> [String] {
        switch location {
        case .sqlite(let path):
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    row.databaseValues.map { $0.isNull ? "" : $0.description }.joined(separator: "|")
                }
            }
        case .postgres(let conninfo):
            let out = try TestPostgres.psql(conninfo, "SET search_path TO usage_shell; " + sql)
            return out.isEmpty ? [] : out.components(separatedBy: "\n")
        }
    }

    /// The tracker's tables, the meta rows and the undo journal, each table's rows in the order
    /// of its key: what a refused change or an undo must leave exactly as it was. Not the change
    /// token (PostgreSQL's `changes` row), which every write, an undo too, moves on so that
    /// `watch` sees it.
    func trackerDump() throws -> [String] {
        let tables = [("task_category", "id"), ("category_rename", "old"), ("task", "id"), ("tracked", "id"), ("meta", "key"), ("undo_journal", "id")]
        let filter = { (table: String) in table == "meta" ? " WHERE key <> 'changes'" : "" }
        switch location {
        case .sqlite:
            var lines: [String] = []
            for (table, key) in tables {
                lines += try rows("SELECT * FROM \(table)\(filter(table)) ORDER BY \(key)").map { "\(table): \($0)" }
            }
            return lines
        case .postgres(let conninfo):
            // One psql for every table (a process each made the PostgreSQL cases slow): each row as
            // PostgreSQL writes a row value, after its table's name.
            let sql = tables.map { table, key in "SELECT '\(table): ' || r::text FROM \(table) r\(filter(table)) ORDER BY \(key);" }
            let out = try TestPostgres.psql(conninfo, "SET search_path TO usage_shell; " + sql.joined(separator: " "))
            return out.isEmpty ? [] : out.components(separatedBy: "\n")
        }
    }

    /// Runs SQL straight on the database, past every check of the program's.
    func raw(_ sql: String) throws {
        switch location {
        case .sqlite(let path):
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: sql) }
            try queue.close()
        case .postgres(let conninfo):
            try TestPostgres.psql(conninfo, "SET search_path TO usage_shell; " + sql)
        }
    }
}

/// Whether the backend's cases can run; without a server, PostgreSQL's are reported and, under
/// scripts/test (USAGE_SHELL_REQUIRE_PG) or CI, fail (the suite must not pass by skipping them).
func available(_ backend: Backend) -> Bool {
    guard backend == .postgres, let why = TestPostgres.unavailable else { return true }
    if TestPostgres.required { Issue.record("PostgreSQL cases cannot run: \(why)") }
    return false
}

/// A PostgreSQL database holding a new, empty store, made once per test run and copied for
/// each case (making the schema was most of a case's time); dropped when the run ends.
enum StoreTemplate {
    private static let made = Mutex<(name: String?, error: String?)?>(nil)

    static func name() throws -> String {
        let made = made.withLock { made in
            if let made { return made }
            do {
                let database = try TestPostgres()
                let stores = OpenStores()
                _ = try stores.writer(.postgres(conninfo: database.conninfo))
                stores.closeAll()  // a template must have no one connected
                keptTemplate.withLock { $0 = database }
                atexit { keptTemplate.withLock { $0 }?.drop() }
                made = (database.name, nil)
            } catch {
                made = (nil, "\(error)")
            }
            return made!
        }
        guard let name = made.name else { throw TestPostgresError(message: "the template store could not be made: \(made.error ?? "")") }
        return name
    }
}

/// The template, kept (not dropped at its deinit) until the run ends.
private let keptTemplate = Mutex<TestPostgres?>(nil)
