// PostgresEndToEndTests.swift — the store on a real PostgreSQL server through the built binary: a script of commands prints what it prints on SQLite, an empty database is no store yet, two devices import at once, one stopwatch from many processes, hostile names; run beside the tests' server (scripts/test starts one).
import Foundation
import Testing
import TestSupport

/// A new database on the tests' server; nil without a server (a failure under scripts/test and CI).
func postgresDatabase() -> TestPostgres? {
    if let why = TestPostgres.unavailable {
        if TestPostgres.required { Issue.record("PostgreSQL cases cannot run: \(why)") }
        return nil
    }
    do {
        return try TestPostgres()
    } catch {
        Issue.record("no test database: \(error)")
        return nil
    }
}

struct PostgresEndToEndTests {
    static let aw = Binary.fixture("aw-export.json")
    static let dst = Binary.fixture("oracle-dst.json")

    /// What the script does after the imports: every view, on a device and on all, the tracker's
    /// changes, undo, forget.
    static let script = [
        "devices", "day last", "show", "week", "days 10", "apps top 5", "categories", "insights",
        "device desktop", "show", "week", "devices", "device all",
        "track Write 2026-02-23T09:00 2026-02-23T10:00", "track Email 2026-02-23T10:00 2026-02-23T10:30", "tasks",
        "sessions 2026-02-23", "session split @1 2026-02-23T09:30", "sessions 2026-02-23", "undo", "calendar 2026-02",
        "task done Email", "undo", "tasks all", "forget before 2026-03-01 --yes", "day last", "show",
    ]

    /// The same outputs with what must differ between two stores made a moment apart made equal:
    /// the store's name, its size in bytes, the minutes of the imports and of a task's done.
    static func normalised(_ text: String, store: String) -> String {
        var t = text.replacingOccurrences(of: store, with: "STORE")
        for (pattern, with) in [
            (#""bytes":[0-9]+"#, #""bytes":0"#),
            (#""(first|last)_import":"[^"]*""#, #""$1_import":"T""#),
            (#"last imported [0-9-]+ [0-9:]+"#, "last imported T"),
            (#""done":"[^"]*""#, #""done":"T""#),
        ] {
            t = t.replacingOccurrences(of: pattern, with: with, options: .regularExpression)
        }
        return t
    }

    /// Runs the imports and the script on a store, text and JSON (each on a store of its own).
    static func transcript(_ stores: (text: String, json: String)) throws -> (imports: String, text: String, json: String) {
        let environment = ["TZ": "Europe/Paris"]
        var imports = ""
        for store in [stores.text, stores.json] {
            for arguments in [["import", aw], ["import", dst, "--device", "desktop"]] {
                let r = try Binary.run(["--db", store] + arguments + ["--format", "json"], environment: environment)
                #expect(r.status == 0, "\(r.stderr)")
                imports += normalised(r.stdout, store: store)
            }
        }
        let text = try Binary.run(["--db", stores.text, "--width", "100"] + script.flatMap { ["-c", $0] }, environment: environment)
        let json = try Binary.run(["--db", stores.json, "--format", "json"] + (script + ["store"]).flatMap { ["-c", $0] }, environment: environment)
        for r in [text, json] { #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)") }
        return (imports, normalised(text.stdout, store: stores.text), normalised(json.stdout, store: stores.json))
    }

    @Test func aScriptOfEveryKindOfCommandPrintsOnPostgreSQLWhatItPrintsOnSQLite() throws {
        guard let text = postgresDatabase(), let json = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        let sqlite = try Self.transcript((w.url.appendingPathComponent("text.sqlite").path, w.url.appendingPathComponent("json.sqlite").path))
        let postgres = try Self.transcript((text.conninfo, json.conninfo))
        #expect(postgres.imports == sqlite.imports)
        #expect(postgres.text == sqlite.text)
        #expect(postgres.json == sqlite.json)
        // The transcript is the one meant: devices apart, tracked time, undo, the forget.
        #expect(sqlite.text.contains("Devices · 3"), "\(sqlite.text.prefix(400))")
        #expect(sqlite.text.contains("split @1 Write Mon 2026-02-23 09:00–09:30 (30m) and @3 Write Mon 2026-02-23 09:30–10:00 (30m)"))
        #expect(sqlite.text.contains("undid session split @1 Write"))
        #expect(sqlite.text.contains("forgot "))
        #expect(sqlite.json.contains(#""sessions":"#))
    }

    /// Moving: a SQLite store into PostgreSQL by `import store:`, and back by `usage-shell
    /// export store:`, devices and tracked time with it; the store that comes back shows what
    /// the first one showed.
    @Test func aStoreMovesToPostgreSQLAndBackByImportAndExport() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        let environment = ["TZ": "Europe/Paris"]
        for arguments in [["import", Self.aw], ["import", Self.dst, "--device", "desktop"], ["-c", "track Write 2026-02-23T09:00 2026-02-23T10:00"]] {
            let r = try Binary.run(["--db", w.db] + arguments, environment: environment)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let there = try Binary.run(["--db", db.conninfo, "import", "store:" + w.db], environment: environment)
        #expect(there.status == 0 && there.stderr.isEmpty, "\(there.stderr)")
        let back = w.url.appendingPathComponent("back.sqlite").path
        let exported = try Binary.run(["--db", db.conninfo, "export", "store:" + back, "--format", "json"], environment: environment)
        #expect(exported.status == 0 && exported.stderr.isEmpty, "\(exported.stderr)")
        #expect(exported.stdout.hasSuffix(#""sessions_added":110,"sessions_kept":0,"tasks_added":1,"intervals_added":1,"intervals_kept":0}"# + "\n"), "\(exported.stdout)")
        // The devices with their sessions (a copy is an import at its own time, which orders them).
        let devices = { (store: String) throws -> [String] in
            let r = try Binary.run(["--db", store, "--format", "json", "-c", "devices"])
            let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
            return list.map { "\($0["name"] ?? "?") \($0["sessions"] ?? "?")" }.sorted()
        }
        #expect(try devices(back) == devices(w.db))
        #expect(try devices(back) == ["desktop 103", "laptop 7", "tablet 0"])
        let views = ["--format", "json", "-c", "day last", "-c", "show", "-c", "week", "-c", "timesheet 2026-02", "-c", "tasks all"]
        let first = try Binary.run(["--db", w.db] + views, environment: environment)
        let returned = try Binary.run(["--db", back] + views, environment: environment)
        #expect(first.status == 0 && returned.status == 0)
        #expect(Self.normalised(returned.stdout, store: back) == Self.normalised(first.stdout, store: w.db))
        #expect(first.stdout.contains("Write"), "\(first.stdout.prefix(300))")
    }

    /// A database without the store's schema is no store yet, as a missing file: the commands
    /// that read it say so, the run goes on, and `start` makes it.
    @Test func anEmptyDatabaseIsNoStoreYetAndStartMakesIt() throws {
        guard let db = postgresDatabase() else { return }
        let r = try Binary.run(["--db", db.conninfo, "-c", "day", "-c", "start Write --at 2026-02-23T09:00", "-c", "status"])
        #expect(r.stderr == "error: line 1: no store at '\(db.conninfo)' yet (import FILE, start TASK or task add NAME makes it)\n")
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("started Write at Mon 2026-02-23 09:00 (@1)\nnew task 1 Write\n● Write"), "\(r.stdout)")
        #expect(try db.sql("SELECT count(*) FROM usage_shell.tracked WHERE \"end\" IS NULL") == "1")
    }

    /// Two machines import at once, each its own device: both succeed, nothing is lost or doubled.
    @Test func twoDevicesImportingAtOnceLoseNothing() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        let a = try w.sessions("a.json", count: 20_000, prefix: "a")
        let b = try w.sessions("b.json", count: 20_000, first: "2026-02-01T00:00:00Z", prefix: "b")
        let runs = try concurrently([
            ["--db", db.conninfo, "import", a, "--device", "laptop"], ["--db", db.conninfo, "import", b, "--device", "desktop"],
            ["--db", db.conninfo, "import", a, "--device", "laptop"],
        ])
        for r in runs { #expect(r.status == 0, "\(r.stderr)") }
        let devices = try Binary.run(["--db", db.conninfo, "--format", "json", "-c", "devices"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]])
        let counts = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "?", $0["sessions"] as? Int ?? -1) })
        #expect(counts == ["laptop": 20_000, "desktop": 20_000])
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == "40000")
        #expect(try Binary.json(["--db", db.conninfo, "-c", "store"])["sessions"] as? Int == 40_000)
    }

    /// One stopwatch across machines: started by one process, seen and stopped by others; eight
    /// starting at once leave exactly one running and no two intervals overlapping.
    @Test func oneStopwatchAcrossProcessesAndEightStartsAtOnceLeaveOneRunning() throws {
        guard let db = postgresDatabase() else { return }
        #expect(try Binary.run(["--db", db.conninfo, "-c", "start Write --at 2026-02-23T09:00"]).status == 0)
        let status = try Binary.json(["--db", db.conninfo, "-c", "status"])
        #expect(status["task"] as? String == "Write" && status["running"] as? Bool == true)
        let stop = try Binary.run(["--db", db.conninfo, "-c", "stop --at 2026-02-23T10:00"])
        #expect(stop.stdout == "stopped Write after 1h (@1, Mon 2026-02-23 09:00–10:00)\n", "\(stop.stdout)")
        let names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]
        let runs = try concurrently(names.map { ["--db", db.conninfo, "-c", "start \($0)"] })
        // Each starts, or — when another took the database at the same moment, its start not
        // after the one it would stop — is refused in one line, changing nothing.
        let refusal = #/error: line 1: '(\w+)' \(@(\d+)\) has run only since (\d\d:\d\d), not before (\d\d:\d\d), so it cannot stop then; nothing was changed \(another shell or machine may have started it at that moment\)\n/#
        for r in runs { #expect(r.status == 0 || (r.status == 1 && r.stderr.wholeMatch(of: refusal) != nil), "\(r.stderr)") }
        let started = runs.filter { $0.status == 0 }.count
        #expect(started >= 1)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.tracked WHERE \"end\" IS NULL") == "1")
        #expect(try db.sql("SELECT count(*) FROM usage_shell.tracked") == "\(1 + started)")
        let overlapping = """
            SELECT count(*) FROM usage_shell.tracked a JOIN usage_shell.tracked b ON a.id < b.id
            AND a.start < coalesce(b."end", 9223372036854775807) AND b.start < coalesce(a."end", 9223372036854775807)
            """
        #expect(try db.sql(overlapping) == "0")
    }

    /// Two shells starting at one moment: the one whose transaction came second stopped the
    /// first's interval at its own start and said "the end 19:48 is not after the start
    /// 19:48". A start not after the running one's start is refused by name, on both backends.
    @Test func bugAStartAtTheRunningOnesMomentSaidTheEndWasNotAfterTheStart() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        for store in [w.db, db.conninfo] {
            let r = try Binary.run(["--db", store, "-c", "start Write --at 2026-02-23T10:00", "-c", "start Email --at 2026-02-23T10:00", "-c", "status"])
            #expect(
                r.stderr
                    == "error: line 2: 'Write' (@1) has run only since Mon 2026-02-23 10:00, not before Mon 2026-02-23 10:00, so it cannot stop then; nothing was changed (another shell or machine may have started it at that moment)\n"
            )
            #expect(r.stdout.hasPrefix("started Write at Mon 2026-02-23 10:00 (@1)\nnew task 1 Write\n● Write "), "Write still runs: \(r.stdout)")
            #expect(!r.stdout.contains("Email"))
            #expect(r.status == 1)
        }
    }

    /// Names written to attack SQL or the terminal are data: stored and shown exactly in JSON,
    /// sanitised on the terminal, the same on both backends; the tables are all still there.
    @Test func hostileNamesAreDataOnPostgreSQLAsOnSQLite() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        let device = "x'); DROP TABLE session;--"
        var outputs: [String] = []
        for store in [db.conninfo, w.db] {
            let imported = try Binary.run(["--db", store, "import", Binary.fixture("hostile-names.json"), "--device", device])
            #expect(imported.status == 0, "\(imported.stderr)")
            let task = try Binary.run(["--db", store, "-c", "task add \"Robert'); DROP TABLE tracked;--\""])
            #expect(task.status == 0, "\(task.stderr)")
            let json = try Binary.run(["--db", store, "--format", "json", "-c", "day 2026-02-23", "-c", "apps", "-c", "devices", "-c", "tasks"])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.contains(#""name":"x'); DROP TABLE session;--""#), "\(json.stdout.suffix(300))")
            #expect(json.stdout.contains(#"Robert'); DROP TABLE tracked;--"#))
            let text = try Binary.run(["--db", store, "--width", "100", "-c", "day 2026-02-23", "-c", "show", "-c", "devices", "-c", "store"])
            #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 }, "no escape reaches the terminal")
            outputs.append(Self.normalised(json.stdout, store: store))
        }
        #expect(outputs[0] == outputs[1])
        #expect(try db.sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'usage_shell' AND tablename IN ('session', 'tracked')") == "2")
    }
}
