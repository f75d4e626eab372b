// PostgresConnectionTests.swift — reaching a PostgreSQL store through the built binary, and failing to, each in one line: a wrong password, a closed port (held bound, never listening, while it is tried), a server that never answers (the connect timeout, not a hang), a role that may only read, a role denied the store, PostgreSQL's own ways of naming a server (URL, PGPASSWORD, ~/.pgpass, a service file), and the server stopped while an import's COPY is under way (on a server of the test's own).
import Foundation
import Testing
import TestSupport

struct PostgresConnectionTests {
    /// The tests' server over TCP as `role` (password roles need TCP: the socket is trusted).
    static func tcp(_ db: TestPostgres, role: String, password: String?) -> String {
        let port = ProcessInfo.processInfo.environment["USAGE_SHELL_TEST_PG_PORT"] ?? "5432"
        return "host=127.0.0.1 port=\(port) user=\(role)" + (password.map { " password=\($0)" } ?? "") + " dbname=\(db.name)"
    }

    /// A store of one day in `db`, imported by the superuser.
    static func filled(_ db: TestPostgres) throws {
        let r = try Binary.run(["--db", db.conninfo, "import", Binary.fixture("oracle-dst.json")])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aWrongPasswordIsOneLine() throws {
        guard let db = postgresDatabase() else { return }
        let conninfo = Self.tcp(db, role: "usage_app", password: "wrong")
        let r = try Binary.run(["--db", conninfo, "-c", "day"])
        let shown = conninfo.replacingOccurrences(of: "password=wrong", with: "password=***")
        let port = ProcessInfo.processInfo.environment["USAGE_SHELL_TEST_PG_PORT"] ?? ""
        #expect(
            r.stderr
                == "error: cannot load 'store': \(shown): cannot connect: connection to server at \"127.0.0.1\", port \(port) failed: FATAL:  password authentication failed for user \"usage_app\"\n"
        )
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
    }

    @Test func aClosedPortIsRefusedInOneLine() throws {
        let closed = try ClosedPort()
        let port = closed.port
        let r = try Binary.run(["--db", "postgresql://someone@127.0.0.1:\(port)/usage", "-c", "day"])
        #expect(
            r.stderr
                == "error: cannot load 'store': postgresql://someone@127.0.0.1:\(port)/usage: cannot connect: connection to server at \"127.0.0.1\", port \(port) failed: Connection refused\n"
        )
        #expect(r.status == 1)
    }

    /// The bug (issue 45): the closed port was found by opening a listener and closing it, so
    /// the port was free again before the binary tried it, for a test beside this one (a
    /// listener, a server of its own) to take. It stays bound, never listening, while it is used.
    @Test func bugTheClosedPortWasGivenBackBeforeTheTestTriedIt() throws {
        let closed = try ClosedPort()
        #expect(!ClosedPort.bindable(closed.port), "port \(closed.port) was free for another test to take")
    }

    /// A server that takes the connection and never answers: libpq's connect timeout ends the
    /// wait (the run's own, here 1 s), the store is tried once, and the run ends with one line.
    @Test func aServerThatNeverAnswersTimesOutRatherThanHangs() throws {
        let listener = try SilentListener()
        let started = Date()
        let r = try Binary.run(["--db", "host=127.0.0.1 port=\(listener.port) user=x dbname=y connect_timeout=1", "-c", "day", "-c", "store"])
        let took = Date().timeIntervalSince(started)
        #expect(
            r.stderr
                == "error: cannot load 'store': host=127.0.0.1 port=\(listener.port) user=x dbname=y connect_timeout=1: cannot connect: connection to server at \"127.0.0.1\", port \(listener.port) failed: timeout expired\n"
        )
        #expect(r.status == 1)
        #expect(took < 8, "it waited \(took) s")
        #expect(listener.accepted == 1, "one connection attempt, not one per turn of each command")
    }

    @Test func aReadOnlyRoleSeesEveryViewAndAWriteIsOneLine() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        try db.sql("GRANT USAGE ON SCHEMA usage_shell TO usage_reader; GRANT SELECT ON ALL TABLES IN SCHEMA usage_shell TO usage_reader")
        let reader = Self.tcp(db, role: "usage_reader", password: "reader-secret")
        let views = try Binary.run(["--db", reader, "-c", "day last", "-c", "week", "-c", "apps", "-c", "devices", "-c", "store", "-c", "tasks"])
        #expect(views.status == 0, "\(views.stderr)")
        #expect(views.stdout.hasPrefix("Tuesday, November 3, 2026\n"), "\(views.stdout.prefix(200))")
        let shown = reader.replacingOccurrences(of: "reader-secret", with: "***")
        for command in ["start Write", "import \(Binary.fixture("aw-export.json"))", "set retention 30d"] {
            let write = try Binary.run(["--db", reader, "-c", command])
            #expect(write.stderr == "error: line 1: cannot use the store '\(shown)': the server lets this role only read it; nothing was changed\n", "\(command)")
            #expect(write.status == 1)
        }
    }

    @Test func aRoleDeniedTheStoreIsToldWhatItsOwnerCanGrant() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        let app = Self.tcp(db, role: "usage_app", password: "app-secret")
        let r = try Binary.run(["--db", app, "-c", "day last"])
        #expect(
            r.stderr
                == "error: cannot load 'store': \(app.replacingOccurrences(of: "app-secret", with: "***")): the server denies the role \"usage_app\" the store (permission denied for schema usage_shell); its owner can let it read: GRANT USAGE ON SCHEMA usage_shell TO \"usage_app\"; GRANT SELECT ON ALL TABLES IN SCHEMA usage_shell TO \"usage_app\"\n"
        )
        #expect(r.status == 1)
        // What it says its owner can grant, pasted as the owner, lets it read.
        let grant = try #require(r.stderr.components(separatedBy: "its owner can let it read: ").last?.trimmingCharacters(in: .newlines))
        try db.sql(grant)
        let after = try Binary.run(["--db", app, "-c", "day last"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.hasPrefix("Tuesday, November 3, 2026\n"), "\(after.stdout.prefix(200))")
    }

    /// A copy from a store the role may open but not read (a grant of the schema and its list
    /// of migrations alone) made the copy's new store before it failed: the error was one line,
    /// and an empty store was left behind.
    @Test func bugACopyFromAStoreItMayNotReadMadeAnEmptyStore() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        try db.sql("GRANT USAGE ON SCHEMA usage_shell TO usage_app; GRANT SELECT ON usage_shell.migrations TO usage_app")
        let app = Self.tcp(db, role: "usage_app", password: "app-secret")
        let w = try StoreWorkspace()
        let target = w.url.appendingPathComponent("never.sqlite").path
        let r = try Binary.run(["--db", app, "export", "store:" + target])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix(#"error: cannot use the store '"#) && r.stderr.contains(#"the server denies the role "usage_app" the store (permission denied for table"#), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// A role that may not make the store in an empty database (no CREATE there, PostgreSQL's
    /// default for a role that does not own it) was told the server let it "only read" a store
    /// that did not exist. It is told what is missing and the GRANT that gives it, which works
    /// when its owner pastes it; a role that may only read is still told so.
    @Test func bugARoleThatMayNotMakeTheStoreWasToldItMayOnlyReadIt() throws {
        guard let db = postgresDatabase() else { return }
        let app = Self.tcp(db, role: "usage_app", password: "app-secret")
        let shown = app.replacingOccurrences(of: "app-secret", with: "***")
        let refused = try Binary.run(["--db", app, "import", Binary.fixture("oracle-dst.json")])
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: cannot use the store '\(shown)': there is no store in this database yet, and the role "usage_app" may not make one \
            (it needs CREATE on the database); its owner can let it: GRANT CREATE ON DATABASE "\(db.name)" TO "usage_app"

            """)
        #expect(try db.sql("SELECT count(*) FROM pg_namespace WHERE nspname = 'usage_shell'") == "0")
        let reader = Self.tcp(db, role: "usage_reader", password: "reader-secret")
        let read = try Binary.run(["--db", reader, "import", Binary.fixture("oracle-dst.json")])
        #expect(read.stderr.hasSuffix("': the server lets this role only read it; nothing was changed\n"), "\(read.stderr)")

        let grant = try #require(refused.stderr.components(separatedBy: "its owner can let it: ").last)
        try db.sql(grant.trimmingCharacters(in: .whitespacesAndNewlines))
        let made = try Binary.run(["--db", app, "import", Binary.fixture("oracle-dst.json")])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try Binary.json(["--db", app, "-c", "store"])["sessions"] as? Int == 99)
    }

    /// A role that may read the store and add rows but not update them (`meta`'s counter is an
    /// upsert) was refused `start` with advice to let it read. It is told how to let it write,
    /// and the GRANT, pasted as the owner, lets the same command through.
    @Test func bugARoleDeniedAWriteWasToldHowToLetItRead() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        try db.sql("GRANT USAGE ON SCHEMA usage_shell TO usage_app; GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA usage_shell TO usage_app")
        let app = Self.tcp(db, role: "usage_app", password: "app-secret")
        let shown = app.replacingOccurrences(of: "app-secret", with: "***")
        let refused = try Binary.run(["--db", app, "-c", "start Write"])
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: line 1: cannot use the store '\(shown)': the server denies the role "usage_app" this change (permission denied for table meta); \
            nothing was changed; its owner can let it write: GRANT USAGE ON SCHEMA usage_shell TO "usage_app"; \
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO "usage_app"

            """)
        #expect(try db.sql("SELECT count(*) FROM usage_shell.tracked") == "0")
        let grant = try #require(refused.stderr.components(separatedBy: "its owner can let it write: ").last)
        try db.sql(grant.trimmingCharacters(in: .whitespacesAndNewlines))
        let started = try Binary.run(["--db", app, "-c", "start Write", "-c", "stop"])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(try db.sql("SELECT count(*) FROM usage_shell.tracked") == "1")
    }

    /// An import set the session table's identity sequence past its rows, which the usual grant
    /// of a table's rows (`SELECT, INSERT, UPDATE, DELETE ON ALL TABLES`) does not allow: every
    /// import of such a role failed on `session_id_seq`. It moves the sequence where it may.
    @Test func bugAnImportNeededTheSequenceTheUsualGrantLeavesOut() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        try db.sql("GRANT USAGE ON SCHEMA usage_shell TO usage_app; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO usage_app")
        let app = Self.tcp(db, role: "usage_app", password: "app-secret")
        let r = try Binary.run(["--db", app, "import", Binary.fixture("aw-export.json")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try db.sql("SELECT count(*) FROM usage_shell.session") == "110")
    }

    /// A role granted the tables' rows, not their ownership, opening a store an older
    /// usage-shell wrote could not upgrade it (an index changes, which only its owner may) and
    /// was told how to let it read. It is told that only the owner may upgrade it; once the
    /// owner has opened it, the role's command works.
    @Test func bugARoleThatMayNotUpgradeTheStoreWasToldHowToLetItRead() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        try db.sql(
            "GRANT USAGE ON SCHEMA usage_shell TO usage_app; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA usage_shell TO usage_app; "
                + "DELETE FROM usage_shell.migrations WHERE identifier = 'v7: source by block range'")
        let app = Self.tcp(db, role: "usage_app", password: "app-secret")
        let shown = app.replacingOccurrences(of: "app-secret", with: "***")
        let refused = try Binary.run(["--db", app, "-c", "day last"])
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: cannot load 'store': \(shown): it was written by an older usage-shell, and only the role that owns its tables \
            may upgrade it (must be owner of index session_source); open it once with this usage-shell as that role

            """)
        #expect(try Binary.run(["--db", db.conninfo, "-c", "store"]).status == 0)
        let after = try Binary.run(["--db", app, "-c", "day last"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.hasPrefix("Tuesday, November 3, 2026\n"))
    }

    /// The GRANT named the role logged in as, not the role in effect: a member that takes
    /// another role (`options=-c role=…`, or `SET ROLE`) was told to grant to itself, which
    /// changes nothing for the role the server checks.
    @Test func bugADeniedRoleTakenBySetRoleWasNotTheOneNamed() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        let member = Self.tcp(db, role: "usage_member", password: "member-secret") + " options='-c role=usage_app'"
        let r = try Binary.run(["--db", member, "-c", "day last"])
        #expect(r.stderr.contains(#"the server denies the role "usage_app" the store"#), "\(r.stderr)")
        #expect(r.stderr.hasSuffix(#"GRANT SELECT ON ALL TABLES IN SCHEMA usage_shell TO "usage_app""# + "\n"), "\(r.stderr)")
        #expect(r.status == 1)
    }

    /// PostgreSQL's own conventions name the server and the password: a URL, PGPASSWORD,
    /// ~/.pgpass, a service file (PGSERVICEFILE); each reaches the same store.
    @Test func theServerAndPasswordAsPostgreSQLsOwnToolsTakeThem() throws {
        guard let db = postgresDatabase() else { return }
        try Self.filled(db)
        try db.sql("GRANT USAGE ON SCHEMA usage_shell TO usage_app; GRANT SELECT ON ALL TABLES IN SCHEMA usage_shell TO usage_app")
        let port = ProcessInfo.processInfo.environment["USAGE_SHELL_TEST_PG_PORT"] ?? "5432"
        let w = try StoreWorkspace()
        let pgpass = try w.write("pgpass", "127.0.0.1:\(port):*:usage_app:app-secret\n")
        chmod(pgpass, 0o600)
        let service = try w.write("services", "[usage]\nhost=127.0.0.1\nport=\(port)\nuser=usage_app\npassword=app-secret\ndbname=\(db.name)\n")
        let ways: [(String, [String], [String: String])] = [
            ("a URL", ["--db", "postgresql://usage_app:app-secret@127.0.0.1:\(port)/\(db.name)"], [:]),
            ("postgres://", ["--db", "postgres://usage_app:app-secret@127.0.0.1:\(port)/\(db.name)"], [:]),
            ("PGPASSWORD", ["--db", Self.tcp(db, role: "usage_app", password: nil)], ["PGPASSWORD": "app-secret"]),
            ("~/.pgpass", ["--db", Self.tcp(db, role: "usage_app", password: nil)], ["PGPASSFILE": pgpass]),
            ("a service", ["--db", "service=usage"], ["PGSERVICEFILE": service]),
            ("USAGE_SHELL_DB", [], ["USAGE_SHELL_DB": "service=usage", "PGSERVICEFILE": service]),
        ]
        for (way, arguments, environment) in ways {
            let r = try Binary.run(arguments + ["-c", "day last"], environment: environment)
            #expect(r.status == 0, "\(way): \(r.stderr)")
            #expect(r.stdout.hasPrefix("Tuesday, November 3, 2026\n"), "\(way): \(r.stdout.prefix(100))")
        }
    }

    /// The server stopped (immediate: as a crash or a power cut) while an import writes: the
    /// import ends with one line, and after the restart the store holds the sessions from before
    /// the import or after it, never a part, and every index; the next import completes it.
    /// The bug (issue 45): the server was stopped after 0.6 of a first import's time, a guess
    /// that tests running beside it made wrong (the import had ended, or had not yet begun to
    /// write); it is stopped once the import's COPY is seen under way on the server.
    @Test func bugTheServerWasStoppedAfterAGuessedTimeNotWhileTheImportWrote() throws {
        guard TestPostgres.unavailable == nil || !TestPostgres.required else {
            Issue.record("PostgreSQL cases cannot run: \(TestPostgres.unavailable!)")
            return
        }
        guard TestPostgres.unavailable == nil else { return }
        let server = try OwnPostgresServer()
        let w = try StoreWorkspace()
        let count = 150_000
        let data = try w.sessions("big.json", count: count)

        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["--db", server.conninfo, "import", data]
        process.environment = ["HOME": w.url.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
            .merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        // The import's rows on their way (its COPY, on this server of the test's own alone).
        let copying = "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'COPY session %'"
        var writing = false
        let deadline = Date().addingTimeInterval(120)
        while !writing, process.isRunning, Date() < deadline {
            writing = try TestPostgres.psql(server.conninfo, copying) != "0"
        }
        #expect(writing, "the server was to be stopped while the import sent its rows: \(process.isRunning ? "not seen in 120 s" : "it ended first")")
        try server.control(["stop", "-m", "immediate"])
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr.hasPrefix("error: cannot use the store '\(server.conninfo)': ") && stderr.filter { $0 == "\n" }.count == 1, "\(stderr)")

        try server.control(["restart"])
        // The import was large enough to make the indexes after its rows: they are all there.
        #expect(try TestPostgres.psql(server.conninfo, "SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'session'")
            == "session_long session_pkey session_source session_start")
        let sessions = try #require(try Binary.json(["--db", server.conninfo, "-c", "store"])["sessions"] as? Int)
        #expect(sessions == 0 || sessions == count, "\(sessions)")
        #expect(try TestPostgres.psql(server.conninfo, "SELECT count(*) FROM usage_shell.session") == String(sessions))
        #expect(try Binary.run(["--db", server.conninfo, "import", data]).status == 0)
        #expect(try Binary.json(["--db", server.conninfo, "-c", "store"])["sessions"] as? Int == count)
    }
}

/// A port on 127.0.0.1 that refuses every connection: a socket bound to it that never listens,
/// kept until this goes, so that no test beside the one using it can take the port meanwhile.
final class ClosedPort {
    let port: Int
    private let socket: Int32

    init() throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let socket = self.socket
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else {
            Glibc.close(socket)
            throw HarnessError.failed("no bound socket: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { Glibc.close(socket) }

    /// Whether another socket could bind `port` on 127.0.0.1 now.
    static func bindable(_ port: Int) -> Bool {
        let other = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(other) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(other, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// A TCP listener on 127.0.0.1 that takes connections and never says a word (a server hung, or
/// a firewall that accepts and drops); counts what it took. Closed when it goes.
final class SilentListener: @unchecked Sendable {
    /// What the accepting thread shares with the listener (the thread must not hold the listener).
    private final class Taken: @unchecked Sendable {
        let lock = NSLock()
        var sockets: [Int32] = []
        var closed = false
    }

    let port: Int
    private let socket: Int32
    private let taken = Taken()

    init() throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let socket = self.socket
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound, listen(socket, 16) == 0 else { throw HarnessError.failed("no listening socket: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let taken = self.taken
        Thread.detachNewThread {
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                taken.lock.lock()
                if taken.closed { Glibc.close(client) } else { taken.sockets.append(client) }
                taken.lock.unlock()
            }
        }
    }

    /// Connections taken so far.
    var accepted: Int {
        taken.lock.lock()
        defer { taken.lock.unlock() }
        return taken.sockets.count
    }

    deinit {
        taken.lock.lock()
        taken.closed = true
        for client in taken.sockets { Glibc.close(client) }
        taken.lock.unlock()
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }
}

/// A PostgreSQL server of one test's own (scripts/pg-test-server), to stop and start; removed when it goes.
final class OwnPostgresServer {
    let folder: String
    /// The superuser over the socket, database `postgres`.
    let conninfo: String
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pg-test-server").path

    init() throws {
        // Short: the socket's path must fit in 107 bytes.
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-pg-\(UUID().uuidString.prefix(8))").path
        let out = try Self.run(Self.script, ["start", folder])
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("export USAGE_SHELL_TEST_PG='") }) else {
            throw HarnessError.failed("pg-test-server said: \(out)")
        }
        conninfo = String(line.dropFirst("export USAGE_SHELL_TEST_PG='".count).dropLast())
    }

    deinit { _ = try? Self.run(Self.script, ["stop", folder]) }

    /// pg_ctl on this server (as its owner), e.g. `stop -m immediate`, `restart` (with the options it was started with).
    func control(_ arguments: [String]) throws {
        let bin = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql").sorted { $0.compare($1, options: .numeric) == .orderedAscending }.last
            .map { "/usr/lib/postgresql/\($0)/bin/pg_ctl" } ?? "pg_ctl"
        // The server's output to its log (else it would hold this process's pipe open).
        let command = [bin, "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-s"] + arguments
        if getuid() == 0 {
            _ = try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + command)
        } else {
            _ = try Self.run(command[0], Array(command.dropFirst()))
        }
    }

    /// Runs a program and returns what it printed. Through Python's subprocess, which closes
    /// every other descriptor in the child: a server started inherits what its starter holds,
    /// and one of Foundation's would keep this process from ever seeing the program end (the
    /// output goes through a file for the same reason).
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-pg-out-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: nil), let out = FileHandle(forWritingAtPath: path) else {
            throw HarnessError.failed("cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))", program] + arguments
        process.standardOutput = out
        process.standardError = out
        try process.run()
        process.waitUntilExit()
        try out.close()
        // Read through a FileHandle: String(contentsOfFile:) leaks its buffer on an empty file
        // (FoundationEssentials' readBytesFromFile, reported by LeakSanitizer in scripts/test-asan).
        let text = FileHandle(forReadingAtPath: path).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        guard process.terminationStatus == 0 else { throw HarnessError.failed("\(program) \(arguments): \(text)") }
        return text
    }
}
