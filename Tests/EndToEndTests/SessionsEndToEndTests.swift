// SessionsEndToEndTests.swift — mending tracked time through the built binary: the issue's story (the wrong task, a late start) mended and listed by id, exactly; the JSON and CSV shapes; a session delete needs --yes in a batch; undo in a later run and after a kill -9 of the run that made the change (the tracker's tables compared as sqlite3 dumps them); edits from two processes at once.
import Foundation
import TestSupport
import Testing

/// The tracker's tables and the journal as sqlite3's `.dump` writes them.
func trackerDump(_ db: String) throws -> String {
    try ["task_category", "category_rename", "task", "tracked", "undo_journal"].map { try sqlite3(db, ".dump \($0)") }.joined(separator: "\n")
}

struct SessionsEndToEndTests {
    @Test func theWrongTaskAndALateStartAreMendedAndListedByID() throws {
        let w = try StoreWorkspace()
        let r = try Binary.run([
            "--db", w.db, "-c", "track \"Write report\" 2026-02-23T09:00 2026-02-23T10:30", "-c", "session edit @1 task Email",
            "-c", "start Review --at 2026-02-23T11:05", "-c", "stop --at 2026-02-23T12:00", "-c", "session edit @2 start 2026-02-23T11:00",
            "-c", "sessions 2026-02-23",
        ])
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                tracked Write report Mon 2026-02-23 09:00–10:30 (@1, 1h 30m)
                new task 1 Write report
                changed @1 Email Mon 2026-02-23 09:00–10:30 (1h 30m)
                new task 2 Email
                started Review at Mon 2026-02-23 11:05 (@2)
                new task 3 Review
                stopped Review after 55m (@2, Mon 2026-02-23 11:05–12:00)
                changed @2 Review Mon 2026-02-23 11:00–12:00 (1h)
                Sessions · Mon 2026-02-23 · 2 sessions · 2h 30m
                  @2  11:00–12:00      1h  Review
                  @1  09:00–10:30  1h 30m  Email

                """)
        let json = try Binary.run(["--db", w.db, "--format", "json", "-c", "sessions 2026-02-23", "-c", "session split @1 2026-02-23T10:00", "-c", "undo"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(
            json.stdout == """
                [{"id":2,"task":"Review","start":"2026-02-23T11:00:00Z","end":"2026-02-23T12:00:00Z","seconds":3600,"running":false},\
                {"id":1,"task":"Email","start":"2026-02-23T09:00:00Z","end":"2026-02-23T10:30:00Z","seconds":5400,"running":false}]
                {"sessions":[{"id":1,"task":"Email","start":"2026-02-23T09:00:00Z","end":"2026-02-23T10:00:00Z","seconds":3600,"running":false},\
                {"id":3,"task":"Email","start":"2026-02-23T10:00:00Z","end":"2026-02-23T10:30:00Z","seconds":1800,"running":false}],\
                "removed":[],"created_task":false}
                {"undid":"session split","session":1,"other_session":null,"name":"Email","new_name":null,"start":null,\
                "end":"2026-02-23T10:00:00Z","left":5}

                """)
        let csv = try Binary.run(["--db", w.db, "--format", "csv", "-c", "sessions Email"])
        #expect(csv.stdout == "id,task,start,end,seconds,running\r\n1,Email,2026-02-23T09:00:00Z,2026-02-23T10:30:00Z,5400,false\r\n")
    }

    @Test func refusalsNameTheSessionInTheWayAndChangeNothing() throws {
        let w = try StoreWorkspace()
        _ = try Binary.run(["--db", w.db, "-c", "track Write 2026-02-23T09:00 2026-02-23T10:00", "-c", "track Mail 2026-02-23T10:30 2026-02-23T11:00"])
        let before = try trackerDump(w.db)
        let cases: [(String, String)] = [
            ("session edit @2 start 2026-02-23T09:30", "that overlaps @1 'Write' tracked Mon 2026-02-23 09:00–10:00; nothing was changed"),
            ("session move @1 2026-02-23T10:15", "that overlaps @2 'Mail' tracked Mon 2026-02-23 10:30–11:00; nothing was changed"),
            ("session edit @1 end 2026-02-23T08:00", "the end Mon 2026-02-23 08:00 is not after the start Mon 2026-02-23 09:00"),
            ("session split @1 2026-02-23T10:00", "Mon 2026-02-23 10:00 is not inside @1 (Mon 2026-02-23 09:00–10:00): a split is between its start and its end"),
            ("session join @1 @1", "@1 cannot be joined with itself: name two sessions"),
            ("session delete @7 --yes", "no session @7 (sessions lists them with their ids)"),
            ("session edit 1 end 2026-02-23T10:15", "session: '1' is not a session id: write @N, as sessions, today and task N show them (usage: \(Self.sessionUsage))"),
        ]
        for (line, message) in cases {
            let r = try Binary.run(["--db", w.db, "-c", line])
            #expect(r.status == 1, "\(line)")
            #expect(r.stderr == "error: line 1: \(message)\n", "\(line)")
        }
        #expect(try trackerDump(w.db) == before)
    }

    static let sessionUsage =
        "session edit @N start|end TIME, session edit @N task TASK, session move @N TIME, session split @N TIME, session join @N @M [--force], session delete @N [--yes], session @N"

    @Test func aSessionDeleteNeedsYesInABatchAndUndoWithNothingLeftSaysSo() throws {
        let w = try StoreWorkspace()
        let none = try Binary.run(["--db", w.db, "-c", "undo"])
        #expect(none.stderr == "error: line 1: nothing to undo\n")
        #expect(none.status == 1)
        #expect(!FileManager.default.fileExists(atPath: w.db), "undo made a store")
        _ = try Binary.run(["--db", w.db, "-c", "track Write 2026-02-23T09:00 2026-02-23T10:00"])
        let asked = try Binary.run(["--db", w.db, "-c", "session delete @1"])
        #expect(asked.status == 1)
        #expect(asked.stderr == "error: line 1: this deletes data, and a batch run cannot ask: add --yes to go ahead (session delete @1 --yes)\n")
        let deleted = try Binary.run(["--db", w.db, "-c", "session delete @1 --yes", "-c", "undo", "-c", "undo", "-c", "undo"])
        #expect(deleted.stdout == "deleted @1 Write Mon 2026-02-23 09:00–10:00 (1h)\nundid session delete @1 Write Mon 2026-02-23 09:00–10:00\nundid track @1 Write Mon 2026-02-23 09:00–10:00\n")
        #expect(deleted.stderr == "error: line 4: nothing to undo\n")
    }

    @Test func continueStartsTheLastStoppedTaskOrTheOneNamed() throws {
        let w = try StoreWorkspace()
        let r = try Binary.run([
            "--db", w.db, "-c", "continue", "-c", "track Write 2026-02-23T09:00 2026-02-23T10:00", "-c", "track Mail 2026-02-23T10:00 2026-02-23T10:30",
            "-c", "continue --at 2026-02-23T11:00", "-c", "continue @1 --at 2026-02-23T11:30", "-c", "continue Write",
        ])
        #expect(r.stderr == "error: line 1: nothing to continue: no tracked time has stopped yet (start TASK starts the stopwatch)\n")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.dropFirst(4)) == [
                "started Mail at Mon 2026-02-23 11:00 (@3)", "stopped Mail after 30m (@3, Mon 2026-02-23 11:00–11:30)",
                "started Write at Mon 2026-02-23 11:30 (@4)", "Write is already running (since Mon 2026-02-23 11:30, @4)",
            ])
    }

    /// The change is made by a shell that is then killed with SIGKILL (or one that ended): a
    /// later run undoes it, and the store is as it was before the change.
    @Test func undoWorksInALaterRunAndAfterAKillMinusNine() throws {
        let w = try StoreWorkspace()
        _ = try Binary.run(["--db", w.db, "-c", "track Write 2026-02-23T09:00 2026-02-23T10:00", "-c", "track Mail 2026-02-23T10:30 2026-02-23T11:00"])
        let before = try trackerDump(w.db)
        // A later run.
        #expect(try Binary.run(["--db", w.db, "-c", "session join @1 @2 --force"]).status == 0)
        #expect(try trackerDump(w.db) != before)
        let undone = try Binary.run(["--db", w.db, "-c", "undo"])
        #expect(undone.stdout == "undid session join @1 @2 Write Mon 2026-02-23 09:00–11:00\n")
        #expect(try trackerDump(w.db) == before)
        // A shell that made the change and was killed before it ended.
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["--db", w.db]
        process.environment = ["HOME": w.url.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data("session move @2 2026-02-23T12:00\n".utf8))
        var moved = false
        for _ in 0..<100 where !moved {
            Thread.sleep(forTimeInterval: 0.1)
            moved = try sqlite3(w.db, "SELECT count(*) FROM undo_journal") == "3"
        }
        #expect(moved, "the change was not made")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try sqlite3(w.db, "PRAGMA integrity_check") == "ok")
        let again = try Binary.run(["--db", w.db, "-c", "undo"])
        #expect(again.stdout == "undid session move @2 Mail at Mon 2026-02-23 12:00\n", "\(again.stderr)")
        #expect(try trackerDump(w.db) == before)
    }

    /// Two processes edit at once: each edit is one transaction with its journal entry, so
    /// none is lost and undoing them all gives back the store as it was; two that race for one
    /// free hour never both get it, and the loser names the winner's interval.
    @Test func editsFromTwoProcessesAtOnce() throws {
        let w = try StoreWorkspace()
        let seed = (0..<10).map { k in "track T\(k) 2026-02-23T\(String(format: "%02d", 2 * k)):00 2026-02-23T\(String(format: "%02d", 2 * k)):30" }
        #expect(try Binary.run(["--db", w.db] + seed.flatMap { ["-c", $0] }).status == 0)
        let before = try trackerDump(w.db)
        // Each process lengthens its own five intervals, one minute at a time, ten times.
        let scripts = (0..<2).map { p in
            (0..<10).flatMap { step in
                stride(from: p + 1, through: 10, by: 2).map { id in
                    "session edit @\(id) end 2026-02-23T\(String(format: "%02d", 2 * (id - 1))):\(31 + step)"
                }
            }
        }
        let results = Results()
        let db = w.db
        DispatchQueue.concurrentPerform(iterations: 2) { p in
            results.set(p, try? Binary.run(["--db", db] + scripts[p].flatMap { ["-c", $0] }))
        }
        for p in 0..<2 { #expect(results.get(p)?.status == 0, "\(results.get(p)?.stderr ?? "no run")") }
        let lengths = try sqlite3(w.db, "SELECT group_concat((\"end\" - start) / 60000000) FROM (SELECT * FROM tracked ORDER BY id)")
        #expect(lengths == Array(repeating: "40", count: 10).joined(separator: ","))
        #expect(try sqlite3(w.db, "SELECT count(*) FROM undo_journal") == "110")
        #expect(try Binary.run(["--db", w.db] + Array(repeating: ["-c", "undo"], count: 100).flatMap { $0 }).status == 0)
        #expect(try trackerDump(w.db) == before)
        // A race for one free hour (23:00–23:59) from both at once: one wins. (Names far apart:
        // a new name one slip from the other's would be refused as a likely typo.)
        let racers = ["Hare", "Tortoise"]
        DispatchQueue.concurrentPerform(iterations: 2) { p in
            results.set(p, try? Binary.run(["--db", db, "-c", "track \(racers[p]) 2026-02-23T23:00 2026-02-23T23:59"]))
        }
        let outcomes = (0..<2).compactMap { results.get($0) }
        #expect(outcomes.map(\.status).sorted() == [0, 1])
        let winner = outcomes.first { $0.status == 0 }?.stdout.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
        #expect(outcomes.first { $0.status == 1 }?.stderr == "error: line 1: that overlaps @11 '\(winner)' tracked Mon 2026-02-23 23:00–23:59; nothing was changed\n")
    }
}

/// Results written from concurrent threads.
private final class Results: @unchecked Sendable {
    private var runs: [Int: RunResult] = [:]
    private let lock = NSLock()
    func set(_ k: Int, _ r: RunResult?) { lock.withLock { runs[k] = r } }
    func get(_ k: Int) -> RunResult? { lock.withLock { runs[k] } }
}
