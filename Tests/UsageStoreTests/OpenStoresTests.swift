// OpenStoresTests.swift — a store is opened once per place and process and shared (two names of one file are one store); a read-only one is a reader and refuses a writer; closing at the end of a run writes the log into the file; a PostgreSQL store is held to the end of the command that opened it; one screen's windows are one state of the store, whatever another connection commits meanwhile.
import Foundation
import GRDB
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct OpenStoresTests {
    @Test func twoNamesOfOneFileAreOneStore() throws {
        let folder = try TemporaryFolder("store")
        let stores = OpenStores()
        let first = try stores.writer(.sqlite(path: folder.store))
        let relative = "./" + String(folder.store.dropFirst(FileManager.default.currentDirectoryPath.count + 1))
        let second = try stores.reader(.sqlite(path: folder.path + "/./usage.sqlite"))
        #expect(first === second.opened)
        if folder.store.hasPrefix(FileManager.default.currentDirectoryPath + "/") {
            #expect(try stores.reader(.sqlite(path: relative)).opened === first)
        }
        // Another registry (as another process) opens a store of its own.
        #expect(try OpenStores().reader(.sqlite(path: folder.store)).opened !== first)
    }

    /// A reader had every write method of its backend's store: code holding one could cast it
    /// to a writer and change a store opened to be read (`OpenStores.reader` checked nothing).
    @Test(arguments: Backend.allCases) func bugAReaderCouldBeCastToAWriter(_ backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let reader: any StoreReader = try OpenStores().reader(s.location)
        #expect(!(reader is any StoreWriter))
        #expect(!(reader is any ImportWriting) && !(reader is any TrackerWriting) && !(reader is any RecorderWriting))
        #expect(try reader.history(source: "store").sessionCount == 0)
        #expect(try reader.trackerSnapshot().tasks.isEmpty)
        #expect(!(ReadOnlyStore.self is any StoreWriter.Type))
    }

    @Test func aStoreNobodyHoldsIsClosedAndOpenedAnewWhenAskedAgain() throws {
        let folder = try TemporaryFolder("store")
        let stores = OpenStores()
        var first: (any StoreWriter)? = try stores.writer(.sqlite(path: folder.store))
        weak let held = first as? SQLiteStore
        first = nil
        #expect(held == nil)
        _ = try stores.reader(.sqlite(path: folder.store))
    }

    /// `-c help` on a PostgreSQL store opened it three times (six connections) as the start of
    /// the run asked for it and let it go; now it is held until the next command begins.
    @Test func bugAPostgreSQLStoreWasOpenedAnewEachTimeItWasAskedForInOneCommand() throws {
        guard available(.postgres) else { return }
        let database = try TestPostgres()
        let stores = OpenStores()
        let location = StoreLocation.postgres(conninfo: database.conninfo)
        var first: (any StoreWriter)? = try stores.writer(location)
        weak let held = first as? PostgresStore
        first = nil
        #expect(held != nil, "let go within the attempt, and closed")
        #expect(try stores.reader(location).opened === held)
        stores.newAttempt()
        #expect(held == nil, "still held after the next command began")
    }

    @Test(.enabled(if: geteuid() != 0, "root writes anywhere: StoreEndToEndTests.aReadOnlyStoreOpensForReading covers this as nobody"))
    func aStoreThatMayOnlyBeReadIsAReaderAndRefusesAWriter() throws {
        let folder = try TemporaryFolder("store")
        try importInto(SQLiteStore.open(path: folder.store, create: true), dataset(Self.oneSession))
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path) }
        let stores = OpenStores()
        #expect(try stores.reader(.sqlite(path: folder.store)).history(source: "store").sessionCount == 1)
        #expect(throws: StoreError.readOnly(path: folder.store)) { try stores.writer(.sqlite(path: folder.store)) }
    }

    @Test func aMissingStoreIsMadeOnlyForAWriter() throws {
        let folder = try TemporaryFolder("store")
        let stores = OpenStores()
        #expect(throws: StoreError.missing(path: folder.store)) { try stores.reader(.sqlite(path: folder.store)) }
        #expect(throws: StoreError.missing(path: folder.store)) { try stores.writer(.sqlite(path: folder.store), create: false) }
        #expect(stores.probe(.sqlite(path: folder.store)) == .absent)
        _ = try stores.writer(.sqlite(path: folder.store))
        #expect(stores.probe(.sqlite(path: folder.store)) == .present)
    }

    @Test func closingAtTheEndOfARunLeavesEverythingInTheFileItself() throws {
        let folder = try TemporaryFolder("store")
        let stores = OpenStores()
        let store = try stores.writer(.sqlite(path: folder.store))
        _ = try store.importSessions([ImportSource(identity: "/d.json", shown: "d.json", dataset: dataset(Self.oneSession))], now: importNow, zone: .utc)
        _ = try store.history(source: "store").window(from: .min, to: .max)
        stores.closeAll()
        // No log left beside it: a copy of the file alone is the whole store.
        #expect(!FileManager.default.fileExists(atPath: folder.store + "-wal"))
        let copy = folder.path + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: folder.store, toPath: copy)
        #expect(try SQLiteStore.open(path: copy, create: false).history(source: "store").sessionCount == 1)
    }

    static let oneSession = rows([row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])

    static let twoDays = rows([
        row("mon", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
        row("tue", "Mail", "Work", "2026-02-24T10:00:00Z", "2026-02-24T11:00:00Z"),
    ])

    /// The two days' windows, each as (sessions, seconds).
    private func days(_ history: StoreHistory) -> [Int] {
        [("2026-02-23", "2026-02-24"), ("2026-02-24", "2026-02-25")].map { from, to in
            history.window(from: instant(from + "T00:00:00Z"), to: instant(to + "T00:00:00Z")).reduce(0) { n, _ in n + 1 }
        }
    }

    @Test func oneScreensWindowsAreOneStateWhateverAnotherConnectionCommitsMeanwhile() throws {
        let folder = try TemporaryFolder("store")
        let other = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(other, dataset(Self.twoDays))
        let history = try OpenStores().reader(.sqlite(path: folder.store)).history(source: "store")
        let seen = history.readingAsOne { () -> [Int] in
            let monday = history.window(from: instant("2026-02-23T00:00:00Z"), to: instant("2026-02-24T00:00:00Z")).reduce(0) { n, _ in n + 1 }
            // Another process forgets everything before Wednesday between the screen's two reads.
            _ = try? other.forget(endingBefore: instant("2026-02-25T00:00:00Z"))
            let tuesday = history.window(from: instant("2026-02-24T00:00:00Z"), to: instant("2026-02-25T00:00:00Z")).reduce(0) { n, _ in n + 1 }
            return [monday, tuesday]
        }
        #expect(seen == [1, 1], "the screen saw half of the other process's change")
        // The next screen sees the change, the windows kept from before dropped with it.
        #expect(days(history) == [0, 0])
        #expect(history.takeReadFailure() == nil)
    }

    @Test func aChangeTheScreenMakesItselfIsSeenByItsLaterReads() throws {
        let folder = try TemporaryFolder("store")
        let stores = OpenStores()
        let store = try stores.writer(.sqlite(path: folder.store))
        _ = try store.importSessions([ImportSource(identity: "/d.json", shown: "d.json", dataset: dataset(Self.twoDays))], now: importNow, zone: .utc)
        let history = try store.history(source: "store")
        let seen = history.readingAsOne { () -> [Int] in
            let before = days(history)
            _ = try? store.forget(endingBefore: instant("2026-02-24T00:00:00Z"))
            return before + days(history)
        }
        #expect(seen == [1, 1, 0, 1])
    }

    @Test func theChangeTokenMovesWithEveryCommitAndOnlyThen() throws {
        let folder = try TemporaryFolder("store")
        let stores = OpenStores()
        let store = try stores.writer(.sqlite(path: folder.store))
        let first = try store.changeToken()
        #expect(try store.changeToken() == first)
        try store.setRetention(days: 30)
        let second = try store.changeToken()
        #expect(second != first, "this process's own change")
        let other = try SQLiteStore.open(path: folder.store, create: false)
        try other.setRetention(days: 60)
        #expect(try store.changeToken() != second, "another connection's change")
    }
}
