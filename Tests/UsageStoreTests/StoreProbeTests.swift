// StoreProbeTests.swift — a look at a store's place, case by case: nothing, an empty file, a store, a file that is not one, a folder, a FIFO; a PostgreSQL database with and without the store; a server that cannot be reached. A look never makes anything.
import Foundation
import Testing
import TestSupport
@testable import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

struct StoreProbeTests {
    /// What is put at a SQLite store's path, and what a look there finds.
    struct FileCase: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable (String) throws -> Void
        let found: @Sendable (String) -> StoreProbe
        var testDescription: String { name }
    }

    static let fileCases: [FileCase] = [
        FileCase(name: "nothing", make: { _ in }, found: { _ in .absent }),
        FileCase(name: "an empty file (a store is made in it)", make: { try Data().write(to: URL(fileURLWithPath: $0)) }, found: { _ in .absent }),
        FileCase(name: "a store", make: { _ = try OpenStores().writer(.sqlite(path: $0)) }, found: { _ in .present }),
        // A look reads nothing: opening is what refuses a file that is not a store.
        FileCase(name: "a file that is not a store", make: { try Data("not a store\n".utf8).write(to: URL(fileURLWithPath: $0)) }, found: { _ in .present }),
        FileCase(
            name: "a folder", make: { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) },
            found: { .unopenable(.notAFile(path: $0, directory: true)) }),
        FileCase(
            name: "a FIFO", make: { guard mkfifo($0, 0o600) == 0 else { throw TestPostgresError(message: "mkfifo: errno \(errno)") } },
            found: { .unopenable(.notAFile(path: $0, directory: false)) }),
    ]

    @Test(arguments: fileCases)
    func aLookAtASQLitePath(_ c: FileCase) throws {
        let folder = try TemporaryFolder("probe")
        try c.make(folder.store)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(OpenStores().probe(.sqlite(path: folder.store)) == c.found(folder.store))
        // Nothing is made by looking: no store, no lock beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test func aLookAtAPathInAFolderThatIsNotThereMakesNoFolder() throws {
        let folder = try TemporaryFolder("probe")
        let path = folder.path("not/yet/usage.sqlite")
        // The default store's folder is made when the store is: nothing is there yet.
        let stores = OpenStores()
        stores.makesFolder(of: .sqlite(path: path))
        #expect(stores.probe(.sqlite(path: path)) == .absent)
        #expect(!FileManager.default.fileExists(atPath: folder.path("not")))
    }

    /// `--db /nonexistent/dir/x.sqlite import …` made the folder (issue 51, item 6). A store
    /// named in a folder that is not there is refused at the look, and opening it to write
    /// makes nothing; the default store's folder (`location(named:environment:)`) is made.
    @Test func item6AStoreNamedInAFolderThatIsNotThereIsRefusedAndNothingIsMade() throws {
        let folder = try TemporaryFolder("probe")
        let path = folder.path("not/yet/usage.sqlite")
        let refusal = StoreError.noFolder(path: path, folder: folder.path("not/yet"))
        let stores = OpenStores()
        #expect(stores.probe(.sqlite(path: path)) == .unopenable(refusal))
        #expect(throws: refusal) { try stores.writer(.sqlite(path: path)) }
        #expect(!FileManager.default.fileExists(atPath: folder.path("not")))
        #expect(refusal.description == "cannot use the store '\(path)': its folder '\(folder.path("not/yet"))' does not exist; nothing was made (make the folder first, or name a store in one that is there)")
        // The default store, under XDG_DATA_HOME: its folders are made (mode 700).
        let standard = try #require(stores.location(named: nil, environment: ["XDG_DATA_HOME": folder.path("data")]))
        #expect(stores.location(named: path, environment: ["XDG_DATA_HOME": folder.path("data")]) == .sqlite(path: path))
        _ = try stores.writer(standard)
        let made = try FileManager.default.attributesOfItem(atPath: folder.path("data/usage-shell"))
        #expect((made[.posixPermissions] as? Int) == 0o700)
        stores.closeAll()
    }

    @Test(arguments: [(StoreProbe.absent, false), (.present, true), (.unopenable(.connection(path: "p", reason: "r")), true)])
    func somethingIsThereUnlessNothingIs(_ probe: StoreProbe, _ there: Bool) {
        #expect(probe.isThere == there)
    }

    /// Whether the database holds the store's schema.
    private static func hasSchema(_ database: TestPostgres) throws -> Bool {
        try database.sql("SELECT count(*) FROM pg_namespace WHERE nspname = 'usage_shell'") == "1"
    }

    @Test func aPostgreSQLDatabaseWithoutTheStoreIsAbsentAndIsLeftWithoutIt() throws {
        guard available(.postgres) else { return }
        let database = try TestPostgres()
        #expect(OpenStores().probe(.postgres(conninfo: database.conninfo)) == .absent)
        #expect(try !Self.hasSchema(database))
    }

    @Test func aPostgreSQLDatabaseHoldingTheStoreIsPresent() throws {
        guard available(.postgres) else { return }
        let database = try TestPostgres()
        _ = try OpenStores().writer(.postgres(conninfo: database.conninfo))
        #expect(try Self.hasSchema(database))
        #expect(OpenStores().probe(.postgres(conninfo: database.conninfo)) == .present)
    }

    /// No server at all is needed: a folder with no server's socket in it refuses at once.
    @Test func aServerThatCannotBeReachedIsSomethingThereWithItsOneLine() throws {
        let folder = try TemporaryFolder("probe")
        let location = StoreLocation.postgres(conninfo: "host=\(folder.path) port=5999 user=someone password=secret dbname=usage")
        let shown = "host=\(folder.path) port=5999 user=someone password=*** dbname=usage"
        #expect(location.description == shown)
        let reason = "connection to server on socket \"\(folder.path)/.s.PGSQL.5999\" failed: No such file or directory"
        #expect(OpenStores().probe(location) == .unopenable(.connection(path: shown, reason: reason)))
    }
}
