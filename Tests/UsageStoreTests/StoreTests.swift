// StoreTests.swift — the SQLite store: opening (new, missing, not SQLite, another program's, a newer schema), import keyed by identity (twice, repeated ids, no ids, a grown event, Timewarrior's starts), what comes back out, retention and forget.
import Foundation
import GRDB
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
import UsageData
@testable import UsageStore

func dataset(_ json: String, source: String = "data.json") -> Dataset {
    try! SessionsJSON.decode(Array(json.utf8), source: source)
}

func row(_ id: String?, _ app: String, _ category: String?, _ start: String, _ end: String) -> String {
    let idText = id.map { "\"\($0)\"" } ?? "null"
    let categoryText = category.map { "\"\($0)\"" } ?? "null"
    return #"{"session_id":\#(idText),"app_name":"\#(app)","category":\#(categoryText),"start_timestamp":"\#(start)","end_timestamp":"\#(end)"}"#
}

func rows(_ list: [String]) -> String { "[" + list.joined(separator: ",\n") + "]" }

let importNow = RFC3339.parse("2026-03-01T12:00:00Z")!

@discardableResult
func importInto(_ store: SQLiteStore, _ d: Dataset, identity: String = "/data.json", now: Micros = importNow) throws -> ImportSummary {
    try store.importSessions([ImportSource(identity: identity, shown: d.source, dataset: d)], now: now, zone: .utc)
}

/// A file's bytes, compared whole (an expectation on them prints a fingerprint, not megabytes).
struct FileBytes: Equatable, CustomStringConvertible {
    let data: Data
    var description: String { "\(data.count) bytes, hash \(data.hashValue)" }
}

func fileBytes(_ path: String) -> FileBytes { FileBytes(data: FileManager.default.contents(atPath: path) ?? Data()) }

struct StoreOpenTests {
    @Test func aNewStoreIsMadeInWALModeWithIncrementalVacuum() throws {
        let folder = try TemporaryFolder("store")
        let path = folder.path + "/deeper/usage.sqlite"
        let store = try SQLiteStore.open(path: path, create: true)
        #expect(!store.isReadOnly)
        let (journal, vacuum) = try store.readDatabase { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA auto_vacuum"))
        }
        #expect(journal == "wal")
        #expect(vacuum == 2)
        #expect(try store.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM session") } == 0)
    }

    @Test func aMissingStoreIsNotMadeByReading() throws {
        let folder = try TemporaryFolder("store")
        #expect(throws: StoreError.missing(path: folder.store)) { try SQLiteStore.open(path: folder.store, create: false) }
        #expect(!FileManager.default.fileExists(atPath: folder.store))
    }

    @Test(arguments: ["not a database at all, just text\n", "[]", "\u{1F}\u{8B}gzip"])
    func aFileThatIsNotSQLiteIsRefusedAndLeftAsItIs(content: String) throws {
        let folder = try TemporaryFolder("store")
        _ = FileManager.default.createFile(atPath: folder.store, contents: Data(content.utf8))
        for create in [false, true] {
            #expect(throws: StoreError.notADatabase(path: folder.store)) { try SQLiteStore.open(path: folder.store, create: create) }
        }
        #expect(fileBytes(folder.store) == FileBytes(data: Data(content.utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["usage.sqlite"])
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItIs() throws {
        let folder = try TemporaryFolder("store")
        let queue = try DatabaseQueue(path: folder.store)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')") }
        try queue.close()
        let before = fileBytes(folder.store)
        #expect(throws: StoreError.foreign(path: folder.store)) { try SQLiteStore.open(path: folder.store, create: true) }
        #expect(fileBytes(folder.store) == before)
        #expect(StoreError.foreign(path: "/x").description == "cannot use the store '/x': it is a SQLite database, but not a usage-shell store; it is left as it is")
    }

    /// The GRANT a denied role is shown names that role, quoted as SQL takes any name (it said
    /// `TO role` literally, which grants to a role named role).
    @Test(arguments: [
        ("usage_app", #""usage_app""#),
        ("user", #""user""#),  // a reserved word: bare, the GRANT would not parse
        ("Team Lead", #""Team Lead""#),  // capitals and a space
        (#"o"brien"#, #""o""brien""#),  // a quote inside is doubled
    ])
    func bugADeniedRoleWasToldToGrantToARoleNamedRole(role: String, quoted: String) {
        let error = StoreError.denied(path: "db", reason: "permission denied for schema usage_shell", role: role)
        #expect(
            error.description
                == "cannot use the store 'db': the server denies the role \(quoted) the store (permission denied for schema usage_shell); its owner can let it read: GRANT USAGE ON SCHEMA usage_shell TO \(quoted); GRANT SELECT ON ALL TABLES IN SCHEMA usage_shell TO \(quoted)"
        )
    }

    /// A role refused a change (it may read) was told how to let it read, which it already may.
    @Test func bugARoleDeniedAWriteWasToldHowToLetItRead() {
        let error = StoreError.denied(path: "db", reason: "permission denied for table meta", role: "Team Lead", writing: true)
        #expect(
            error.description
                == #"cannot use the store 'db': the server denies the role "Team Lead" this change (permission denied for table meta); nothing was changed; its owner can let it write: GRANT USAGE ON SCHEMA usage_shell TO "Team Lead"; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO "Team Lead""#
        )
    }

    @Test func aStoreOfANewerVersionIsRefusedAndNeverChanged() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(rows([row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])))
        try store.writeDatabase { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')") }
        // Everything in the main file, so the file is all there is.
        try store.writer!.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let before = fileBytes(folder.store)
        #expect(throws: StoreError.newerSchema(path: folder.store, found: ["v9: from the future"])) {
            try SQLiteStore.open(path: folder.store, create: false)
        }
        #expect(fileBytes(folder.store) == before)
        #expect(
            StoreError.newerSchema(path: "/x", found: ["v9"]).description
                == "cannot use the store '/x': it was written by a newer usage-shell (schema v9); this version does not change it: upgrade usage-shell")
    }

    @Test func twoOpensOfANewStoreAtOnceMigrateItOnce() async throws {
        let folder = try TemporaryFolder("store")
        let path = folder.store
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try SQLiteStore.open(path: path, create: true) }
            }
            try await group.waitForAll()
        }
        let store = try SQLiteStore.open(path: path, create: false)
        #expect(try store.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM grdb_migrations") } == SQLiteSchema.known.count)
    }

    /// The bug of a reader that saw the store as damaged while an import wrote, at its root:
    /// opening the store again in a process that has it open already (the tracker's store and
    /// the loaded one, the import's own) must keep the lock SQLite holds on the file for the
    /// first. Reading its first bytes with a descriptor of our own and closing it dropped every
    /// POSIX lock of the process on the file; another process closing the store then believed
    /// itself the last, checkpointed over this one's readers and deleted the `-wal` and `-shm`
    /// in use. Deterministic: an outside `sqlite3` reads and closes while both are open here.
    @Test func bugAReaderSawTheStoreAsDamagedWhileAnImportWrote_openingItAgainKeepsTheLockOfTheOneOpen() throws {
        let folder = try TemporaryFolder("store")
        let first = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(first, dataset(rows([row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])))
        #expect(try first.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM session") } == 1)
        for (k, create) in [false, true].enumerated() {
            let second = try SQLiteStore.open(path: folder.store, create: create)
            #expect(try second.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM session") } == 1 + k)
            // Not the last to close (this process still has the store open): it must leave the log.
            let outside = Process()
            outside.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            outside.arguments = [folder.store, "SELECT count(*) FROM session"]
            outside.standardOutput = FileHandle.nullDevice
            try outside.run()
            outside.waitUntilExit()
            #expect(outside.terminationStatus == 0)
            for file in [folder.store + "-wal", folder.store + "-shm"] {
                #expect(FileManager.default.fileExists(atPath: file), "\(file) was deleted under an open store (create: \(create))")
            }
            // And what one writes, the other reads.
            try importInto(second, dataset(rows([row("b\(k)", "Mail", "Work", "2026-02-23T12:00:00Z", "2026-02-23T12:30:00Z")])))
            #expect(try first.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM session") } == 2 + k)
        }
    }
}

struct StoreImportTests {
    static let day = rows([
        row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
        row("b", "Mail", "Work", "2026-02-23T12:00:00.000001Z", "2026-02-23T12:30:00Z"),
        row(nil, "Notes", nil, "2026-02-22T23:30:00+01:00", "2026-02-23T00:15:00Z"),
    ])

    @Test func importingTheSameDataTwiceAddsEachSessionOnce() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let first = try importInto(store, dataset(Self.day))
        #expect(first.sources.map(\.added) == [3])
        #expect(first.sessions == 3)
        let second = try importInto(store, dataset(Self.day))
        #expect(second.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[0, 0, 3]])
        #expect(second.sessions == 3)
        #expect(try store.history(source: "store").sessionCount == 3)
    }

    @Test func aRepeatedIDIsASecondSessionNotAnUpdate() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let twice = rows([
            row("x", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            row("x", "Safari", "Web", "2026-02-23T13:00:00Z", "2026-02-23T14:00:00Z"),
        ])
        #expect(try importInto(store, dataset(twice)).sources[0].added == 2)
        #expect(try importInto(store, dataset(twice)).sources[0].unchanged == 2)
    }

    @Test func sessionsWithoutIDsAreKnownByTheirContent() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let noIDs = rows([
            row(nil, "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            row(nil, "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
        ])
        #expect(try importInto(store, dataset(noIDs)).sources[0].added == 2)
        let changed = rows([
            row(nil, "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            row(nil, "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            row(nil, "Safari", "Web", "2026-02-23T15:00:00Z", "2026-02-23T16:00:00Z"),
        ])
        let result = try importInto(store, dataset(changed)).sources[0]
        #expect(result.added == 1 && result.unchanged == 2)
    }

    /// An ActivityWatch event grows while it is the current one: imported again, it is updated in place.
    @Test func aGrownEventIsUpdatedInPlace() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(rows([row("17", "Firefox", nil, "2026-02-23T10:00:00Z", "2026-02-23T10:01:00Z")])))
        let grown = try importInto(store, dataset(rows([row("17", "Firefox", nil, "2026-02-23T10:00:00Z", "2026-02-23T10:09:00Z")])))
        #expect(grown.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[0, 1, 0]])
        #expect(grown.sessions == 1)
        let all = Array(try store.history(source: "store").all)
        #expect(all.map(\.length) == [Micros(9 * 60_000_000)])
    }

    /// Timewarrior numbers intervals from the latest: a new interval renumbers every one. They
    /// are known by their start, and a closed running interval is an update.
    @Test func timewarriorIntervalsAreKnownByTheirStart() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        var before = dataset(rows([
            row("2", "code", nil, "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
            row("1", "mail", nil, "2026-02-23T11:00:00Z", "2026-02-23T11:05:00Z"),
        ]))
        before.identity = .byStart
        try importInto(store, before)
        var after = dataset(rows([
            row("3", "code", nil, "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
            row("2", "mail", nil, "2026-02-23T11:00:00Z", "2026-02-23T11:45:00Z"),
            row("1", "chat", nil, "2026-02-23T12:00:00Z", "2026-02-23T12:10:00Z"),
        ]))
        after.identity = .byStart
        let result = try importInto(store, after).sources[0]
        #expect(result.added == 1 && result.updated == 1 && result.unchanged == 1)
    }

    /// A session is its device's, whatever file brought it: the same id in two files of one
    /// device is one session; in two devices' files, two.
    @Test func theSameIDInTwoFilesIsOneSessionOfADeviceAndTwoOfTwoDevices() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let d = dataset(rows([row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")]))
        let summary = try store.importSessions(
            [ImportSource(identity: "/phone.json", shown: "phone.json", dataset: d), ImportSource(identity: "/laptop.json", shown: "laptop.json", dataset: d)],
            now: importNow, zone: .utc)
        #expect(summary.sources.map(\.added) == [1, 0])
        #expect(summary.sources.map(\.unchanged) == [0, 1])
        #expect(summary.sessions == 1)
        let other = try store.importSessions([ImportSource(identity: "/laptop.json", shown: "laptop.json", dataset: d, device: "laptop")], now: importNow, zone: .utc)
        #expect(other.sources.map(\.added) == [1])
        #expect(other.sessions == 2)
    }

    /// What was imported comes back out the same: ids, names (a NUL, combining marks and all),
    /// categories and instants to the microsecond.
    @Test func whatWasImportedComesBackTheSame() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let original = dataset(
            rows([
                row("α-1", "Cafe\\u0301", "Caf\\u00e9", "2026-02-23T10:00:00.123456Z", "2026-02-23T11:00:00.654321+02:00"),
                row("", "NUL\\u0000x", "a\\u0000b", "2026-02-23T12:00:00Z", "2026-02-23T12:00:00.000001Z"),
                row(nil, "  (spaces) ", null, "2026-02-22T23:00:00-05:00", "2026-02-23T06:00:00Z"),
                row("7", "Safari", "Web", "2026-02-23T13:00:00Z", "2026-02-25T13:00:00Z"),
            ]))
        try importInto(store, original)
        let back = try store.history(source: "store")
        func listing(_ h: some SessionHistory) -> [String] {
            let all = h.all
            return all.map { s in
                "\(all.id(of: s) ?? "<none>")|\(h.apps[Int(s.app)].unicodeScalars.map(\.value))|\(h.categories[Int(s.category)].unicodeScalars.map(\.value))|\(s.start)|\(s.end)"
            }
        }
        #expect(listing(back) == listing(original))
    }

    /// The UTC offsets the source wrote are kept beside the instants.
    @Test func theOffsetsOfTheTimestampsAreKept() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(rows([
            row("a", "Safari", "Web", "2026-02-23T10:00:00+05:30", "2026-02-23T11:00:00-04:00"),
            row("b", "Mail", "Web", "2026-02-24T10:00:00Z", "2026-02-24T11:00:00z"),
        ])))
        let offsets = try store.readDatabase { db in
            try Row.fetchAll(db, sql: "SELECT start_offset, end_offset FROM session ORDER BY start").map { [$0[0] as Int, $0[1] as Int] }
        }
        #expect(offsets == [[330, -240], [0, 0]])
    }

    /// The default day's fact: the latest start, read through the start index (issue 35), the
    /// same as the dataset's; after a forget, the latest start left.
    @Test func theLatestStartIsTheDatasetsAndFollowsAForget() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        let data = dataset(rows([
            row("long", "Safari", "Web", "2026-02-20T10:00:00Z", "2026-02-24T02:00:00Z"),
            row("late", "Mail", "Work", "2026-02-22T23:30:00Z", "2026-02-23T00:20:00Z"),
            row("early", "Notes", "Work", "2026-02-21T09:00:00Z", "2026-02-21T10:00:00Z"),
        ]))
        try importInto(store, data)
        #expect(try store.history(source: "store").latestStart == RFC3339.parse("2026-02-22T23:30:00Z"))
        #expect(try store.history(source: "store").latestStart == data.latestStart)
        #expect(try store.forget(endingBefore: RFC3339.parse("2026-02-23T12:00:00Z")!) == 2)
        #expect(try store.history(source: "store").latestStart == RFC3339.parse("2026-02-20T10:00:00Z"))
        #expect(try store.forget(endingBefore: RFC3339.parse("2026-03-01T00:00:00Z")!) == 1)
        #expect(try store.history(source: "store").latestStart == nil)
    }

    @Test func rulesGiveNoCategoryToTheStoreAgain() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(Self.day))
        let history = try store.history(source: "store")
        #expect(history.applyingRules { _ in "Ruled" } as? StoreHistory === history)
    }
}

private let null: String? = nil

struct StoreRetentionTests {
    static let spread = rows([
        row("old", "Safari", "Web", "2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z"),
        // Crosses the cut of 2026-02-20: kept whole.
        row("across", "Mail", "Work", "2026-02-19T23:00:00Z", "2026-02-20T01:00:00Z"),
        row("new", "Notes", "Work", "2026-02-25T10:00:00Z", "2026-02-25T11:00:00Z"),
    ])

    @Test func forgetDeletesWhatEndsBeforeTheCutAndKeepsWhatCrossesItWhole() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(Self.spread))
        let cut = RFC3339.parse("2026-02-20T00:00:00Z")!
        let counted = try store.countEnding(before: cut)
        #expect(counted.matching == 1 && counted.total == 3)
        #expect(try store.forget(endingBefore: cut) == 1)
        let left = try store.history(source: "store")
        #expect(left.sessionCount == 2)
        let all = left.all
        #expect(all.map { all.id(of: $0) } == ["across", "new"])
        #expect(try store.forget(endingBefore: cut) == 0)
    }

    @Test func retentionAppliesAfterEachImportToImportedSessions() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        #expect(try store.retentionDays() == nil)
        try store.setRetention(days: 10)
        #expect(try store.retentionDays() == 10)
        // Now is 2026-03-01 12:00 UTC: the cut is the start of 2026-02-19.
        let summary = try importInto(store, dataset(Self.spread))
        #expect(summary.forgotten == 1)
        #expect(summary.sessions == 2)
        try store.setRetention(days: nil)
        #expect(try store.retentionDays() == nil)
    }

    @Test func theCutIsTheStartOfALocalDay() {
        let ny = Zone(identifier: "America/New_York")!
        #expect(Retention.cutoff(olderThan: 90, now: importNow, zone: .utc) == RFC3339.parse("2025-12-01T00:00:00Z")!)
        #expect(Retention.cutoff(olderThan: 1, now: importNow, zone: ny) == RFC3339.parse("2026-02-28T00:00:00-05:00")!)
    }

    @Test func forgottenSpaceGoesBackToTheFileSystem() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        var list: [String] = []
        for k in 0..<20_000 {
            let start = RFC3339.parse("2026-01-01T00:00:00Z")! + Micros(k) * 60_000_000
            list.append(row("id-\(k)-with-some-length", "App \(k % 50)", "Cat \(k % 7)", RFC3339.text(start), RFC3339.text(start + 30_000_000)))
        }
        try importInto(store, dataset(rows(list)))
        let pages = { try store.readDatabase { try Int.fetchOne($0, sql: "PRAGMA page_count") ?? 0 } }
        let before = try pages()
        try store.forget(endingBefore: RFC3339.parse("2027-01-01T00:00:00Z")!)
        let after = try pages()
        #expect(after < before / 2, "\(before) pages, then \(after)")
        #expect(try store.readDatabase { try Int.fetchOne($0, sql: "PRAGMA freelist_count") } == 0)
    }
}

extension RFC3339 {
    /// `2026-02-23T10:00:00.123456Z` (tests; plain arithmetic, no Foundation formatter).
    static func text(_ t: Micros) -> String {
        let seconds = t >= 0 ? t / 1_000_000 : (t - 999_999) / 1_000_000
        let micros = t - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = Int(seconds - days * 86_400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let clock = "\(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60))"
        let fraction = micros == 0 ? "" : "." + String(String(micros + 1_000_000).dropFirst())
        return "\(LocalDate(daysSinceEpoch: Int(days)))T\(clock)\(fraction)Z"
    }
}
