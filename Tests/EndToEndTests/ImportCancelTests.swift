// ImportCancelTests.swift — issue 51 item 2 through the binary: SIGINT and SIGTERM stop `usage-shell import` and a batch run's import (-c, -f, piped; the rest of the run not run), reading or writing, with 130 or 143 and one line on stderr; nothing is written (a SQLite transaction rolled back, a PostgreSQL COPY ended), an existing store keeps its sessions, and a store the import was about to make is not left behind. Each import is held at a known point (ImportHold: before reading, or with its rows written inside the transaction) and signalled there, not raced.
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One `usage-shell` started in the background (its output in files: a pipe nobody reads
/// would stop it), to be signalled while it runs.
final class RunningBinary {
    let process = Process()
    private let out: URL
    private let err: URL

    /// The file the import makes when it reaches its hold (`hold`: `reading` or `writing`).
    let held: URL

    init(_ arguments: [String], in folder: URL, stdin: URL? = nil, hold: String? = nil) throws {
        out = folder.appendingPathComponent("run-\(UUID().uuidString).out")
        err = folder.appendingPathComponent("run-\(UUID().uuidString).err")
        held = folder.appendingPathComponent("run-\(UUID().uuidString).held")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = Binary.url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = [
            "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "PATH": "/usr/bin:/bin", "TZ": "UTC",
            "LANG": "C.UTF-8", "NO_COLOR": "1",
        ].merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
            .merging(hold.map { ["USAGE_SHELL_TEST_IMPORT_HOLD": "\($0):\(held.path)"] } ?? [:]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) }
        try process.run()
    }

    /// Waits until the import is at its hold; false when the binary ended first.
    func waitAtHold() -> Bool {
        waitWhileRunning { FileManager.default.fileExists(atPath: held.path) }
    }

    /// Waits (up to two minutes) until `condition` holds while it runs; false when it ended first.
    func waitWhileRunning(until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Sends `signal` and waits for the end: the status, standard output and standard error.
    func stop(with signal: Int32) throws -> (status: Int32, stdout: String, stderr: String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }
}

struct ImportCancelTests {
    /// Sessions enough for several rows and COPY data; the hold, not the size, gives the
    /// signal its moment (200,000 sessions raced the signal before, minutes under load).
    static let many = 2_000

    /// What a SQLite store holds, row by row, of the tables an import writes.
    static func contents(_ db: String) throws -> String {
        try sqlite3(db, "SELECT * FROM session ORDER BY id; SELECT * FROM source ORDER BY id; SELECT * FROM import_entry ORDER BY id; SELECT * FROM day_total ORDER BY 1, 2, 3")
    }

    /// The files in the workspace but the data files and the runs' output.
    static func left(_ w: StoreWorkspace) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: w.url.path).filter { !$0.hasSuffix(".json") && !$0.hasPrefix("run-") }.sorted()
    }

    @Test func item2SigintWhileReadingWritesNothingAndMakesNoStore() throws {
        let w = try StoreWorkspace()
        let data = try w.sessions("big.json", count: Self.many)
        let run = try RunningBinary(["--db", w.db, "import", data], in: w.url, hold: "reading")
        #expect(run.waitAtHold(), "the import reached its reading")
        let r = try run.stop(with: SIGINT)
        #expect(r.status == 130)
        #expect(r.stderr == "error: import cancelled: nothing was written\n")
        #expect(r.stdout == "")
        #expect(try Self.left(w) == [])
    }

    @Test func item2SigtermWhileWritingLeavesNoStoreWhereThereWasNone() throws {
        let w = try StoreWorkspace()
        let data = try w.sessions("big.json", count: Self.many)
        let run = try RunningBinary(["--db", w.db, "import", data], in: w.url, hold: "writing")
        // The store is made once the file is read, then the rows go in: held with them written.
        #expect(run.waitAtHold())
        #expect(FileManager.default.fileExists(atPath: w.db + "-wal"))
        let r = try run.stop(with: SIGTERM)
        #expect(r.status == 143)
        #expect(r.stderr == "error: import cancelled: nothing was written\n")
        #expect(try Self.left(w) == [], "no usage.sqlite, -wal, -shm or .lock left")
    }

    @Test func item2SigintWhileWritingLeavesAnExistingStoreAsItWas() throws {
        let w = try StoreWorkspace()
        let small = try w.sessions("small.json", count: 5, first: "2025-06-01T00:00:00Z", prefix: "e")
        #expect(try Binary.run(["--db", w.db, "import", small]).status == 0)
        let before = try Self.contents(w.db)
        #expect(before.contains("|e4|"))
        let data = try w.sessions("big.json", count: Self.many)
        let run = try RunningBinary(["--db", w.db, "import", data], in: w.url, hold: "writing")
        // Held with its rows written: the write holds the store's write lock until it ends.
        #expect(run.waitAtHold())
        #expect((try? sqlite3(w.db, "BEGIN IMMEDIATE; ROLLBACK;"))?.contains("locked") == true)
        let r = try run.stop(with: SIGINT)
        #expect(r.status == 130)
        #expect(r.stderr == "error: import cancelled: nothing was written\n")
        #expect(try Self.contents(w.db) == before)
        // And the cancelled import leaves nothing that a next one would trip on.
        let again = try Binary.run(["--db", w.db, "import", small])
        // Compared without white space: the line wraps at the output's width, which a long
        // temporary folder's name can reach inside the path.
        let unwrapped = again.stdout.filter { !$0.isWhitespace }
        #expect(unwrapped.hasPrefix("imported\(small):0added,0updated,5unchanged"), "\(again.stdout)\(again.stderr)")
    }

    /// A batch run's import (-c) cancelled by SIGINT while it writes: nothing written, the
    /// store it made taken away, one line, 130, and the next command not run.
    @Test func item2BatchSigintDuringADashCImportWritesNothingLeavesNoStoreAndStopsTheRun() throws {
        let w = try StoreWorkspace()
        let data = try w.sessions("big.json", count: Self.many)
        let run = try RunningBinary(["--db", w.db, "-c", "import \(data)", "-c", "help"], in: w.url, hold: "writing")
        #expect(run.waitAtHold())
        let r = try run.stop(with: SIGINT)
        #expect(r.status == 130)
        #expect(r.stderr == "error: line 1: import cancelled: nothing was written\n")
        #expect(r.stdout == "", "help was not run")
        #expect(try Self.left(w) == [], "no usage.sqlite, -wal, -shm or .lock left")
    }

    /// A script's import (-f) cancelled by SIGTERM while it writes: the store that was there
    /// keeps what it held, and the script's next import is not run.
    @Test func item2BatchSigtermDuringAScriptsImportLeavesAnExistingStoreAsItWasAndStopsTheScript() throws {
        let w = try StoreWorkspace()
        let small = try w.sessions("small.json", count: 5, first: "2025-06-01T00:00:00Z", prefix: "e")
        let other = try w.sessions("other.json", count: 3, first: "2025-07-01T00:00:00Z", prefix: "o")
        #expect(try Binary.run(["--db", w.db, "import", small]).status == 0)
        let before = try Self.contents(w.db)
        let data = try w.sessions("big.json", count: Self.many)
        let script = w.url.appendingPathComponent("imports.usage")
        try Data("import \(data)\nimport \(other)\n".utf8).write(to: script)
        let run = try RunningBinary(["--db", w.db, "-f", script.path], in: w.url, hold: "writing")
        #expect(run.waitAtHold())
        #expect((try? sqlite3(w.db, "BEGIN IMMEDIATE; ROLLBACK;"))?.contains("locked") == true)
        let r = try run.stop(with: SIGTERM)
        #expect(r.status == 143)
        #expect(r.stderr == "error: line 1: import cancelled: nothing was written\n")
        #expect(r.stdout == "")
        #expect(try Self.contents(w.db) == before, "neither import wrote")
    }

    /// Commands piped in: an import cancelled by SIGINT while it writes leaves no store where
    /// there was none, and the lines after it are not run.
    @Test func item2BatchSigintDuringAPipedImportLeavesNoStoreAndStopsReadingCommands() throws {
        let w = try StoreWorkspace()
        let data = try w.sessions("big.json", count: Self.many)
        let commands = w.url.appendingPathComponent("commands.txt")
        try Data("import \(data)\nhelp\n".utf8).write(to: commands)
        let run = try RunningBinary(["--db", w.db], in: w.url, stdin: commands, hold: "writing")
        #expect(run.waitAtHold())
        let r = try run.stop(with: SIGINT)
        #expect(r.status == 130)
        #expect(r.stderr == "error: line 1: import cancelled: nothing was written\n")
        #expect(r.stdout == "")
        #expect(try Self.left(w).filter { $0 != "commands.txt" } == [])
    }

    /// PostgreSQL, a batch run: SIGTERM while the COPY sends the rows ends it; the store holds
    /// what it held and the run stops with 143.
    @Test func item2BatchSigtermCancelsAPostgresCopyAndStopsTheRun() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        let small = try w.sessions("small.json", count: 5, first: "2025-06-01T00:00:00Z", prefix: "e")
        #expect(try Binary.run(["--db", db.conninfo, "import", small]).status == 0)
        let state = "SELECT (SELECT count(*) FROM usage_shell.session) || ' ' || (SELECT count(*) FROM usage_shell.import_entry) || ' ' || (SELECT coalesce(sum(sessions), 0) FROM usage_shell.source)"
        let before = try db.sql(state)
        #expect(before == "5 1 5")
        let data = try w.sessions("big.json", count: Self.many)
        let run = try RunningBinary(["--db", db.conninfo, "-c", "import \(data)", "-c", "help"], in: w.url, hold: "writing")
        let copying = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY%'"
        #expect(run.waitAtHold())
        #expect(try db.sql(copying) == "1", "the COPY is under way")
        let r = try run.stop(with: SIGTERM)
        #expect(r.status == 143)
        #expect(r.stderr == "error: line 1: import cancelled: nothing was written\n")
        #expect(r.stdout == "")
        #expect(try db.sql(state) == before)
        #expect(try db.sql(copying) == "0")
    }

    /// PostgreSQL: SIGINT while the COPY sends the rows ends the COPY (the server drops them)
    /// and rolls back; the store holds what it held.
    @Test func item2SigintCancelsAPostgresCopyAndWritesNothing() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        let small = try w.sessions("small.json", count: 5, first: "2025-06-01T00:00:00Z", prefix: "e")
        #expect(try Binary.run(["--db", db.conninfo, "import", small]).status == 0)
        let state = "SELECT (SELECT count(*) FROM usage_shell.session) || ' ' || (SELECT count(*) FROM usage_shell.import_entry) || ' ' || (SELECT coalesce(sum(sessions), 0) FROM usage_shell.source)"
        let before = try db.sql(state)
        #expect(before == "5 1 5")
        let data = try w.sessions("big.json", count: Self.many)
        let run = try RunningBinary(["--db", db.conninfo, "import", data], in: w.url, hold: "writing")
        let copying = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY%'"
        #expect(run.waitAtHold())
        #expect(try db.sql(copying) == "1", "the COPY is under way")
        let r = try run.stop(with: SIGINT)
        #expect(r.status == 130)
        #expect(r.stderr == "error: import cancelled: nothing was written\n")
        #expect(try db.sql(state) == before)
        #expect(try db.sql(copying) == "0")
        #expect(try db.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'") == "0")
    }
}
