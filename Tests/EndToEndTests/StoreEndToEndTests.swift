// StoreEndToEndTests.swift — the store through the built binary, as a user meets it: import then show with no argument, import again, two sources, store, forget; kill -9 during imports; two processes at once; files that are not our store; a read-only store.
import Foundation
import TestSupport
import Testing

/// A temporary folder for one test's store and data files.
final class StoreWorkspace {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-store-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    var db: String { url.appendingPathComponent("usage.sqlite").path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A sessions file of `count` sessions of a minute, one every two minutes from `first`; ids from `prefix`.
    @discardableResult
    func sessions(_ name: String, count: Int, first: String = "2026-01-01T00:00:00Z", prefix: String = "s") throws -> String {
        let start = ISO8601DateFormatter().date(from: first)!.timeIntervalSince1970
        let formatter = ISO8601DateFormatter()
        var rows: [String] = []
        rows.reserveCapacity(count)
        for k in 0..<count {
            let s = formatter.string(from: Date(timeIntervalSince1970: start + Double(k) * 120))
            let e = formatter.string(from: Date(timeIntervalSince1970: start + Double(k) * 120 + 60))
            rows.append(#"{"session_id":"\#(prefix)\#(k)","app_name":"App \#(k % 40)","category":"Cat \#(k % 6)","start_timestamp":"\#(s)","end_timestamp":"\#(e)"}"#)
        }
        return try write(name, "[\n" + rows.joined(separator: ",\n") + "\n]\n")
    }
}

/// The sqlite3 shell (Debian's `sqlite3`), to look at a store from outside.
func sqlite3(_ db: String, _ sql: String) throws -> String {
    let run = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, sql])
    return (run.stdout + run.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
}

func sha(_ path: String) -> Int { (FileManager.default.contents(atPath: path) ?? Data()).hashValue }

struct StoreEndToEndTests {
    static let day = """
        [{"session_id":"a","app_name":"Safari","category":"Web","start_timestamp":"2026-02-20T10:00:00Z","end_timestamp":"2026-02-20T11:00:00Z"},
         {"session_id":"b","app_name":"Mail","category":"Work","start_timestamp":"2026-02-21T09:00:00Z","end_timestamp":"2026-02-21T09:30:00Z"}]
        """

    /// The acceptance's first point: import, then the shell opens on the store with no argument.
    @Test func importThenShowWithNoArgumentShowsTheDatasLastDay() throws {
        let w = try StoreWorkspace()
        let data = try w.write("data.json", Self.day)
        let environment = ["XDG_DATA_HOME": w.url.appendingPathComponent("data").path, "COLUMNS": "1000"]
        let first = try Binary.run(["import", data, "--format", "table"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("imported \(data): 2 added, 0 updated, 0 unchanged"))
        let show = try Binary.run(["-c", "show"], environment: environment)
        #expect(show.status == 0)
        #expect(show.stdout.hasPrefix("Saturday, February 21, 2026\n30m total"))
        let again = try Binary.run(["import", data], environment: environment)
        #expect(again.stdout.hasPrefix("imported \(data): 0 added, 0 updated, 2 unchanged"))
        let store = try Binary.json(["-c", "store"], environment: environment)
        #expect(store["sessions"] as? Int == 2)
        #expect((store["path"] as? String)?.hasSuffix("data/usage-shell/usage.sqlite") == true)
        // The same data loaded from the file and from the store: the same day.
        #expect(try Binary.run([data, "--format", "json", "-c", "day"]).stdout == Binary.run(["store", "--format", "json", "-c", "day"], environment: environment).stdout)
    }

    @Test func twoSourcesOfOneImportGoIntoOneStore() throws {
        let w = try StoreWorkspace()
        let csv = try w.write("a.csv", "app_name,category,start_timestamp,end_timestamp,session_id\nSlack,Chat,2026-02-21T12:00:00Z,2026-02-21T12:45:00Z,c1\n")
        let json = try w.write("b.json", Self.day)
        let r = try Binary.run(["--db", w.db, "import", csv, json, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect((summary?["sources"] as? [[String: Any]])?.map { $0["added"] as? Int } == [1, 2])
        #expect(summary?["sessions"] as? Int == 3)
        let day = try Binary.run(["--db", w.db, "-c", "apps"])
        #expect(day.stdout.contains("Slack") && day.stdout.contains("Mail"))
        // `load store` with another file merges the two, the store still read by day.
        let other = try w.write("c.json", #"[{"session_id":"z","app_name":"Terminal","category":"Dev","start_timestamp":"2026-02-21T20:00:00Z","end_timestamp":"2026-02-21T21:00:00Z"}]"#)
        let merged = try Binary.run(["--db", w.db, "--width", "1000", "-c", "load store " + other, "-c", "apps"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("loaded 4 sessions from store + \(other)"))
        #expect(merged.stdout.contains("Terminal") && merged.stdout.contains("Slack"))
    }

    /// The default store (not named with --db or USAGE_SHELL_DB) opens where it holds
    /// sessions, the sample where it does not; a store named explicitly is always what opens,
    /// even empty (see `bugAMistypedDbShowedTheSample` for one that is not there).
    @Test func theStoreOpensWhereItHoldsSessionsAndTheSampleWhereItDoesNot() throws {
        let w = try StoreWorkspace()
        let environment = ["XDG_DATA_HOME": w.url.path]
        let db = w.url.appendingPathComponent("usage-shell/usage.sqlite").path
        let empty = try Binary.run(["-c", "day"], environment: environment)
        #expect(empty.stdout.hasPrefix("Monday, February 23, 2026"), "the sample with no store")
        #expect(!FileManager.default.fileExists(atPath: db), "reading makes no store")
        #expect(try Binary.run(["import", w.write("d.json", Self.day)], environment: environment).status == 0, "the import the test starts from")
        #expect(try Binary.run(["-c", "day"], environment: environment).stdout.hasPrefix("Saturday, February 21, 2026"))
        let forget = try Binary.run(["-c", "forget before 2026-03-01 --yes"], environment: environment)
        #expect(forget.stdout == "forgot 2 of 2 imported sessions (those that end before 2026-03-01 00:00)\n")
        #expect(try Binary.run(["-c", "day"], environment: environment).stdout.hasPrefix("Monday, February 23, 2026"), "an empty store opens on the sample")
        // Named, the same empty store is what is shown: today, with nothing in it.
        let before = Self.today()
        let named = try Binary.run(["--db", db, "--format", "json", "-c", "day"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(Set([before, Self.today()]).contains { named.stdout == #"{"day":"\#($0)","time_zone":"UTC","total_seconds":0,"screen_time_seconds":0}"# + "\n" }, "\(named.stdout)")
    }

    /// Today in UTC (the zone the binary runs in), as `2026-02-23`.
    static func today() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date())
    }

    /// `usage-shell export` is `import`'s way back, a command of its own (it loaded a file named
    /// `export`): the store into another store, or every session to a file, as the shell's
    /// `export` writes them; its errors in one line, without a line number.
    @Test func exportIsACommandOfItsOwnAsImportIs() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "import", w.write("d.json", Self.day)]).status == 0, "the import the test starts from")
        let copy = w.url.appendingPathComponent("copy.sqlite").path
        let copied = try Binary.run(["--db", w.db, "export", "store:" + copy, "--format", "json"])
        #expect(copied.status == 0 && copied.stderr.isEmpty, "\(copied.stderr)")
        #expect(
            copied.stdout
                == #"{"from":"\#(w.db)","into":"\#(copy)","sessions_added":2,"sessions_kept":0,"tasks_added":0,"intervals_added":0,"intervals_kept":0}"#
                + "\n")
        let views = ["--format", "json", "-c", "day last", "-c", "show", "-c", "apps"]
        #expect(try Binary.run(["--db", copy] + views).stdout == Binary.run(["--db", w.db] + views).stdout)

        let file = w.url.appendingPathComponent("all.json").path
        let written = try Binary.run(["--db", w.db, "export", file])
        #expect(written.stdout == "exported 2 sessions to \(file) (json)\n" && written.status == 0, "\(written.stderr)")
        let shells = w.url.appendingPathComponent("shells.json").path
        #expect(try Binary.run(["--db", w.db, "-c", "export \(shells)"]).status == 0)
        #expect(FileManager.default.contents(atPath: file) == FileManager.default.contents(atPath: shells))

        // A day's app list, as the shell writes it for the day selected.
        let report = w.url.appendingPathComponent("report.csv").path
        let shellsReport = w.url.appendingPathComponent("shells-report.csv").path
        let r = try Binary.run(["--db", w.db, "export", "report", report, "--day", "2026-02-20"])
        #expect(r.stdout == "exported the app list of Fri 2026-02-20 (1 app) to \(report)\n" && r.status == 0, "\(r.stderr)")
        #expect(try Binary.run(["--db", w.db, "-c", "day 2026-02-20", "-c", "export report \(shellsReport)"]).status == 0)
        #expect(FileManager.default.contents(atPath: report) == FileManager.default.contents(atPath: shellsReport))
        // An impossible --day is a bad command line (64), as the shell's is, since --day is one
        // option of both (issue 44); a day with no data is a failure (1). Nothing is written.
        let badDay = try Binary.run(["--db", w.db, "export", "report", report + ".2", "--day", "2026-13-01"])
        #expect(badDay.status == 64 && !FileManager.default.fileExists(atPath: report + ".2"), "\(badDay.stderr)")

        let again = try Binary.run(["--db", w.db, "export", file])
        #expect(again.stderr == "error: export: '\(file)' already exists: add --force to replace it\n")
        #expect(again.status == 1 && again.stdout.isEmpty)
        #expect(try Binary.run(["--db", w.db, "export", file, "--force"]).status == 0)

        let none = w.url.appendingPathComponent("none.sqlite").path
        let nothing = w.url.appendingPathComponent("nothing.json").path
        let missing = try Binary.run(["--db", none, "export", nothing])
        #expect(missing.stderr == "error: no store at '\(none)' yet (import FILE, start TASK or task add NAME makes it)\n")
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: nothing) && !FileManager.default.fileExists(atPath: none))
    }

    /// `export store:` into a new SQLite file left its sessions in the file's log (`-wal`), the
    /// file itself empty until something opened it again: a backup copied as one file held nothing.
    @Test func bugAStoreExportedToSQLiteHeldItsSessionsOnlyInItsLog() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "import", w.write("d.json", Self.day)]).status == 0, "the import the test starts from")
        let backup = w.url.appendingPathComponent("backup.sqlite").path
        #expect(try Binary.run(["--db", w.db, "export", "store:" + backup]).status == 0)
        let elsewhere = w.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let alone = elsewhere.appendingPathComponent("backup.sqlite").path
        try FileManager.default.copyItem(atPath: backup, toPath: alone)
        #expect(try sqlite3(alone, "SELECT count(*) FROM session") == "2")
    }

    /// A copy showed every source and device it brought as last imported at the copy's time:
    /// a store moved to a server said a laptop not imported for a year was imported today. It
    /// keeps the times (and the number of imports) of the store it came from; copying again
    /// changes nothing.
    @Test func bugACopyShowedEverySourceAsImportedAtTheCopysTime() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "import", w.write("d.json", Self.day), "--device", "laptop"]).status == 0)
        #expect(try Binary.run(["--db", w.db, "import", w.url.appendingPathComponent("d.json").path, "--device", "laptop"]).status == 0)
        // As if imported in 2025: 2025-03-01 and 2025-06-01 09:00 UTC.
        _ = try sqlite3(
            w.db,
            "UPDATE source SET first_import = 1740819600000000, last_import = 1748768400000000; "
                + "UPDATE device SET first_import = 1740819600000000, last_import = 1748768400000000")
        func times(_ db: String) throws -> String {
            let devices = try Binary.run(["--db", db, "--format", "json", "-c", "devices"]).stdout
            let store = try Binary.json(["--db", db, "-c", "store"])
            let sources = (store["sources"] as? [[String: Any]] ?? []).map { "\($0["imports"] ?? "") \($0["first_import"] ?? "") \($0["last_import"] ?? "")" }
            return devices.replacingOccurrences(of: #""selected":(true|false)"#, with: "", options: .regularExpression) + sources.joined(separator: "; ")
        }
        let before = try times(w.db)
        #expect(before.contains("2 2025-03-01"), "\(before)")
        let copy = w.url.appendingPathComponent("copy.sqlite").path
        for _ in 0..<2 {
            // The second copy merges into the first: `--force` says to (issue 44).
            #expect(try Binary.run(["--db", w.db, "export", "store:" + copy, "--force"]).status == 0)
            #expect(try times(copy) == before)
        }
    }

    @Test func forgetInABatchRunNeedsYes() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "import", w.write("d.json", Self.day)]).status == 0, "the import the test starts from")
        let refused = try Binary.run(["--db", w.db, "-c", "forget before 2026-02-21"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: line 1: this deletes data, and a batch run cannot ask: add --yes to go ahead (forget before 2026-02-21 --yes)\n")
        #expect(try Binary.json(["--db", w.db, "-c", "store"])["sessions"] as? Int == 2)
        let done = try Binary.run(["--db", w.db, "-c", "forget older-than 10000d --yes", "-c", "forget before 2026-02-21 --yes"])
        let lines = done.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("nothing to forget: no imported session ends before ") == true)
        #expect(lines.last == "forgot 1 of 2 imported sessions (those that end before 2026-02-21 00:00)")
        #expect(try Binary.json(["--db", w.db, "-c", "store"])["sessions"] as? Int == 1)
    }

    @Test func importReadsStandardInput() throws {
        let w = try StoreWorkspace()
        let r = try Binary.run(["--db", w.db, "import", "-"], stdin: Self.day, environment: ["COLUMNS": "1000"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("imported <stdin>: 2 added"))
    }

    /// Retention is kept in the store, so every import (cron's too) applies it.
    @Test func retentionIsKeptInTheStoreAndAppliedAfterEachImport() throws {
        let w = try StoreWorkspace()
        let set = try Binary.run(["--db", w.db, "--width", "1000", "-c", "set retention 30d"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("retention   30d"))
        let old = try w.write("old.json", Self.day)
        let r = try Binary.run(["--db", w.db, "import", old], environment: ["COLUMNS": "1000"])
        #expect(r.stdout.contains("retention: 2 sessions older than 30 days forgotten"), "\(r.stdout)")
        #expect(try Binary.json(["--db", w.db, "-c", "store"])["retention_days"] as? Int == 30)
    }
}

struct StoreFaultTests {
    /// Killed at any moment of an import, the store is as it was before it or after it, and opens.
    @Test func aKillDuringAnImportLeavesTheStoreBeforeOrAfterIt() throws {
        let w = try StoreWorkspace()
        let data = try w.sessions("big.json", count: 60_000)
        let started = Date()
        let full = try Binary.run(["--db", w.db + ".probe", "import", data])
        #expect(full.status == 0)
        let duration = Date().timeIntervalSince(started)
        var seen: Set<Int> = []
        for k in 0..<14 {
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["--db", w.db, "import", data]
            process.environment = ["HOME": w.url.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
                .merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Spread the kills over the whole import: opening, reading, writing, committing.
            Thread.sleep(forTimeInterval: duration * Double(k) / 12)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Killed before it made the store (no file, or an empty one): there is none, as before.
            let size = (try? FileManager.default.attributesOfItem(atPath: w.db)[.size] as? Int) ?? 0
            guard size > 0 else {
                seen.insert(0)
                continue
            }
            #expect(try sqlite3(w.db, "PRAGMA integrity_check") == "ok", "after kill \(k)")
            // Killed after SQLite made the file but before the schema's transaction committed:
            // there is no store yet, as before the import. The binary either says so (the file's
            // first transaction, in a rollback journal, rolled back when sqlite3 opened it above,
            // left it empty) or makes the schema and shows none.
            let shown = try Binary.run(["--db", w.db, "-c", "store"])
            if shown.status == 1 {
                #expect(shown.stderr == "error: line 1: no store at '\(w.db)' yet (import FILE, start TASK or task add NAME makes it)\n", "after kill \(k)")
                seen.insert(0)
                continue
            }
            let store = try Binary.json(["--db", w.db, "-c", "store"])
            let sessions = try #require(store["sessions"] as? Int)
            #expect(sessions == 0 || sessions == 60_000, "after kill \(k): \(sessions)")
            #expect(try sqlite3(w.db, "SELECT count(*) FROM session") == String(sessions))
            seen.insert(sessions)
        }
        // And a last import completes it.
        #expect(try Binary.run(["--db", w.db, "import", data]).status == 0)
        #expect(try Binary.json(["--db", w.db, "-c", "store"])["sessions"] as? Int == 60_000)
    }

    /// Two processes importing at once both succeed (one waits for the other's transaction).
    @Test func twoProcessesImportingAtOnceBothSucceed() throws {
        let w = try StoreWorkspace()
        let a = try w.sessions("a.json", count: 30_000, prefix: "a")
        let b = try w.sessions("b.json", count: 30_000, first: "2026-02-01T00:00:00Z", prefix: "b")
        for files in [[a, b], [a, a]] {
            let db = w.url.appendingPathComponent("two-\(files[1].hasSuffix("b.json") ? "ab" : "aa").sqlite").path
            let results = try concurrently(files.map { ["--db", db, "import", $0] })
            for r in results { #expect(r.status == 0, "\(r.stderr)") }
            let expected = files[1] == a ? 30_000 : 60_000
            #expect(try Binary.json(["--db", db, "-c", "store"])["sessions"] as? Int == expected)
        }
    }

    /// A reader while another process imports: every read succeeds, before or after.
    @Test func aReaderWhileAnotherProcessImports() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "import", w.write("d.json", StoreEndToEndTests.day)]).status == 0, "the import the test starts from")
        let big = try w.sessions("big.json", count: 60_000)
        let results = try concurrently([["--db", w.db, "import", big]] + Array(repeating: ["--db", w.db, "-c", "day", "-c", "store"], count: 6))
        for r in results { #expect(r.status == 0, "\(r.stderr)") }
    }

    /// The bug: one of the readers of `aReaderWhileAnotherProcessImports` once said "the database
    /// is damaged (database disk image is malformed)". Each process opens the store more than once
    /// (the stopwatch's store, then the loaded one or the import's), and each open read the file's
    /// first bytes with a descriptor of its own: closing it dropped the POSIX locks SQLite held on
    /// the file for the store already open. A reader ending then believed itself the last: it
    /// checkpointed regardless of the import and deleted the `-wal` and `-shm` in use, and the
    /// import's next checkpoint wrote pages under a reader's snapshot.
    ///
    /// Readers one after another in three streams for as long as each of four imports runs
    /// (the moment one ends while another process is between its opens is what it takes): every
    /// reader reads, every import stays, the store stays whole.
    @Test func bugAReaderSawTheStoreAsDamagedWhileAnImportWrote() throws {
        let w = try StoreWorkspace()
        _ = try Binary.run(["--db", w.db, "import", w.write("d.json", StoreEndToEndTests.day)])
        final class Shared: @unchecked Sendable {
            let lock = NSLock()
            var importing = true
            var readers = 0
            var failures: [String] = []
            var imported: Result<RunResult, any Error>?
        }
        let rounds = 4
        for round in 0..<rounds {
            let big = try w.sessions("big\(round).json", count: 60_000, prefix: "r\(round)-")
            let db = w.db
            let shared = Shared()
            DispatchQueue.concurrentPerform(iterations: 4) { k in
                if k == 0 {
                    let r = Result { try Binary.run(["--db", db, "import", big]) }
                    shared.lock.withLock { (shared.imported, shared.importing) = (r, false) }
                    return
                }
                while shared.lock.withLock({ shared.importing }) {
                    let r = Result { try Binary.run(["--db", db, "-c", "day", "-c", "store"]) }
                    shared.lock.withLock {
                        shared.readers += 1
                        switch r {
                        case .success(let run) where run.status != 0: shared.failures.append("status \(run.status): \(run.stderr)")
                        case .failure(let error): shared.failures.append("\(error)")
                        default: break
                        }
                    }
                }
            }
            let run = try #require(try shared.imported?.get())
            #expect(run.status == 0, "round \(round): the import: \(run.stderr)")
            #expect(shared.failures.isEmpty, "round \(round): \(shared.failures.count) of \(shared.readers) readers failed: \(shared.failures)")
            #expect(try sqlite3(w.db, "PRAGMA integrity_check") == "ok", "round \(round)")
            #expect(try sqlite3(w.db, "SELECT count(*) FROM session") == "\(2 + 60_000 * (round + 1))", "round \(round): an import was lost")
        }
    }


    /// `--db` naming a directory showed the bundled sample as if nothing were wrong (only writes
    /// failed, with SQLite's "unable to open database file"): every command now says it in one
    /// line, exit status 1, and nothing is made beside it.
    @Test(arguments: ["show", "apps top 3", "store", "tasks", "track Email 9:00 9:30", "start Email"])
    func bugDbNamingADirectoryShowedTheSample(command: String) throws {
        let w = try StoreWorkspace()
        let folder = w.url.appendingPathComponent("stores").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = try Binary.run(["--db", folder, "-c", command])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: cannot load 'store': \(folder): it is a directory; a store is a file (--db \(folder)/usage.sqlite, say)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.url.path) == ["stores"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        let imported = try Binary.run(["--db", folder, "import", Binary.fixture("oracle-dst.json")])
        #expect(imported.status == 1)
        #expect(imported.stderr == "error: cannot use the store '\(folder)': it is a directory; a store is a file (--db \(folder)/usage.sqlite, say)\n")
    }

    /// A file at the store's path that is not a store of ours: one line naming it, status 1,
    /// and the file exactly as it was.
    @Test(arguments: ["text", "foreign", "newer", "damaged"])
    func aFileThatIsNotOurStoreIsRefusedInOneLineAndLeftAsItIs(kind: String) throws {
        let w = try StoreWorkspace()
        switch kind {
        case "text": try w.write("usage.sqlite", "these are my notes, not a database\n")
        case "foreign": _ = try sqlite3(w.db, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        case "newer":
            #expect(try Binary.run(["--db", w.db, "import", w.sessions("d.json", count: 10)]).status == 0, "the import the test starts from")
            _ = try sqlite3(w.db, "INSERT INTO grdb_migrations VALUES ('v9: from the future')")
        default:
            #expect(try Binary.run(["--db", w.db, "import", w.sessions("d.json", count: 20_000)]).status == 0, "the import the test starts from")
            // Damage the second half of the file: the session pages.
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: w.db))
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: size / 2)
            try handle.write(contentsOf: Data(repeating: 0x5A, count: Int(size / 2)))
            try handle.close()
        }
        let before = sha(w.db)
        for arguments in [["--db", w.db, "-c", "check"], ["--db", w.db, "store", "-c", "check"], ["--db", w.db, "import", Binary.fixture("oracle-dst.json")]] {
            let r = try Binary.run(arguments)
            #expect(r.status == 1, "\(kind) \(arguments): \(r.stdout)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(kind) \(arguments): \(r.stderr)")
            #expect(r.stderr.contains(w.db), "\(kind): \(r.stderr)")
        }
        #expect(sha(w.db) == before, "\(kind): the file changed")
    }

    /// A store that may only be read (a read-only file in a read-only folder) opens for reading.
    @Test func aReadOnlyStoreOpensForReading() throws {
        let w = try StoreWorkspace()
        let data = try w.write("d.json", StoreEndToEndTests.day)
        #expect(try Binary.run(["--db", w.db, "import", data]).status == 0, "the import the test starts from")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: w.db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: w.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: w.url.path) }
        var launcher: [String] = []
        if getuid() == 0 {
            // Root writes anywhere: run as nobody, for whom the folder is read-only.
            launcher = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
        }
        let read = try Binary.run(["--db", w.db, "-c", "day", "-c", "store"], launcher: launcher)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.hasPrefix("Saturday, February 21, 2026"))
        #expect(read.stdout.contains("(read-only)"))
        let write = try Binary.run(["--db", w.db, "import", data], launcher: launcher)
        #expect(write.status == 1)
        #expect(write.stderr == "error: cannot use the store '\(w.db)': it can only be read here (a read-only file or folder)\n")
    }
}

/// Runs the binary with each set of arguments at once; the results in the same order.
func concurrently(_ runs: [[String]]) throws -> [RunResult] {
    final class Results: @unchecked Sendable {
        var list: [Result<RunResult, any Error>?]
        let lock = NSLock()
        init(_ n: Int) { list = Array(repeating: nil, count: n) }
    }
    let results = Results(runs.count)
    DispatchQueue.concurrentPerform(iterations: runs.count) { k in
        let r = Result { try Binary.run(runs[k]) }
        results.lock.lock()
        results.list[k] = r
        results.lock.unlock()
    }
    return try results.list.map { try $0!.get() }
}
