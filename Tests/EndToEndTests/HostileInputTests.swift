// HostileInputTests.swift — the bad-input corpus of issue 8: every hostile file through `usage-shell CASE -c show` and through `load` after good data.
import Foundation
import TestSupport
import Testing

/// One file of the corpus and what the shell must make of it.
struct HostileCase: CustomTestStringConvertible, Sendable {
    enum Outcome: Sendable {
        /// The load fails with exactly this reason (after `cannot load 'FILE': `).
        case fails(String)
        /// The load succeeds; the output of the run with `arguments` must contain every one of `expected`.
        /// `stderr`: the warning of a load that skipped rows, else nothing.
        case loads(arguments: [String], expected: [String], stderr: String = "")
    }

    let name: String
    let bytes: @Sendable () -> [UInt8]
    let outcome: Outcome
    var testDescription: String { name }

    /// One valid session, to wrap hostile parts in.
    static func row(app: String = "\"Mail\"", extra: String = "") -> String {
        #"{"session_id":"s1","app_name":\#(app),"category":"Work",\#(extra)"start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T11:00:00Z"}"#
    }

    static func text(_ s: String) -> @Sendable () -> [UInt8] { { Array(s.utf8) } }

    static let all: [HostileCase] = [
        HostileCase(name: "empty file", bytes: text(""), outcome: .fails("no data: the input is empty")),
        HostileCase(name: "only white space", bytes: text(" \n\t\r\n  "), outcome: .fails("no data: the input is empty")),
        HostileCase(name: "an object", bytes: text("{}"), outcome: .fails("expected a JSON array of sessions, found an object")),
        HostileCase(name: "an open bracket", bytes: text("["), outcome: .fails("not valid JSON at line 1, column 2: unexpected end of input: expected a value")),
        HostileCase(
            name: "a truncated row", bytes: text("[\n" + row() + ",\n{\"session_id\":\"s2\",\"app_na"),
            outcome: .fails("not valid JSON at line 3, column 27: unterminated string")),
        HostileCase(
            name: "trailing garbage after the array", bytes: text("[" + row() + "]\nxyz"),
            outcome: .fails("not valid JSON at line 2, column 1: unexpected data after the end of the JSON value")),
        HostileCase(
            name: "invalid UTF-8 between values", bytes: { Array("[".utf8) + [0xFF, 0xFE] + Array((row() + "]").utf8) },
            outcome: .fails("not valid JSON at line 1, column 2: expected a value")),
        HostileCase(
            name: "a UTF-8 byte order mark", bytes: { [0xEF, 0xBB, 0xBF] + Array(("[" + row() + "]").utf8) },
            outcome: .loads(arguments: ["-c", "apps"], expected: ["Mail", "1h"])),
        HostileCase(
            name: "NUL bytes", bytes: { Array(("[" + row()).utf8) + [0, 0] + Array("]".utf8) },
            outcome: .fails("not valid JSON at line 1, column 137: expected ',' or ']' after an array element")),
        HostileCase(
            name: "1e999 in an ignored field", bytes: text("[" + row(extra: #""score":1e999,"tiny":-1e-999,"#) + "]"),
            outcome: .loads(arguments: ["-c", "apps"], expected: ["Mail", "1h"])),
        HostileCase(
            name: "a string with every escape", bytes: text("[" + row(app: #""A\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00""#) + "]"),
            outcome: .loads(arguments: ["--format", "json", "-c", "apps"], expected: [#""name":"A\"\\/\b\f\n\r\tAé😀""#])),
        HostileCase(
            name: "a lone surrogate and invalid UTF-8 in a string",
            bytes: { Array(#"[{"session_id":"s1","app_name":"Ma\ud800"#.utf8) + [0xFF] + Array(row().dropFirst(#"{"session_id":"s1","app_name":"Ma"#.count).utf8) + Array("]".utf8) },
            outcome: .loads(arguments: ["-c", "check", "-c", "apps"], expected: ["sessions: 1", "repaired strings: 1", "Ma\u{FFFD}\u{FFFD}il"])),
        HostileCase(
            name: "100000 nested arrays, closed",
            bytes: text("[" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]"),
            outcome: .loads(
                arguments: ["-c", "check"], expected: ["sessions: 0", "skipped 1 row", "not_an_object  1"],
                stderr: "warning: 1 of 1 row skipped (1 not an object) — 'check' lists them\n")),
        HostileCase(
            name: "100000 nested arrays, unclosed", bytes: text(String(repeating: "[", count: 100_000)),
            outcome: .fails("not valid JSON at line 1, column 100001: unexpected end of input: expected a value")),
        HostileCase(
            name: "a 200 MB string",
            bytes: { [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: 200_000_000) + [UInt8(ascii: "\"")] },
            outcome: .fails("expected a JSON array of sessions, found a string")),
        HostileCase(
            name: "a 200 MB app name",
            bytes: {
                Array(#"[{"session_id":"s1","app_name":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 200_000_000)
                    + Array(row().dropFirst(#"{"session_id":"s1","app_name":"Mail"#.count).utf8) + Array("]".utf8)
            },
            outcome: .loads(arguments: ["-c", "apps"], expected: ["aaaaaaaaaa…", "1h"])),
    ]
}

@Suite(.serialized)
struct HostileInputTests {
    /// A fresh folder for one case's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The checks every failed load must pass: one line naming the file, status 1, nothing on stdout.
    static func expectOneLineError(_ r: RunResult, path: String, reason: String, _ label: String) {
        #expect(r.status == 1, "\(label): status \(r.status)")
        #expect(r.stdout == "", "\(label)")
        #expect(r.stderr == "error: cannot load '\(path)': \(reason)\n", "\(label)")
    }

    @Test(arguments: HostileCase.all)
    func eachHostileFileGetsOneLineOrLoads(_ c: HostileCase) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("case.json").path
        try Data(c.bytes()).write(to: URL(fileURLWithPath: path))
        switch c.outcome {
        case .fails(let reason):
            let r = try Binary.run([path, "-c", "show"])
            Self.expectOneLineError(r, path: path, reason: reason, c.name)
            // In the shell, the data loaded before stays, and the error is one line.
            let kept = try Binary.run(["-c", "load \(path)", "-c", "day"])
            #expect(kept.status == 1)
            #expect(kept.stderr == "error: line 1: cannot load '\(path)': \(reason); the previous data is kept, 'retry' tries again\n", "\(c.name)")
            #expect(kept.stdout == "Monday, February 23, 2026\n7h 32m total · 6h 22m screen time\n", "\(c.name)")
        case .loads(let arguments, let expected, let stderr):
            let r = try Binary.run([path] + arguments)
            #expect(r.status == 0, "\(c.name): \(r.stderr)")
            #expect(r.stderr == stderr, "\(c.name)")
            for text in expected { #expect(r.stdout.contains(text), "\(c.name): no '\(text)' in \(r.stdout)") }
        }
    }

    @Test func aDirectoryIsOneLineError() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        Self.expectOneLineError(try Binary.run([dir.path, "-c", "show"]), path: dir.path, reason: "it is a directory", "directory")
    }

    @Test func aMissingFileIsOneLineError() throws {
        let path = "/nonexistent/usage-shell/missing.json"
        Self.expectOneLineError(try Binary.run([path, "-c", "show"]), path: path, reason: "no such file", "missing")
    }

    /// Root reads any file whatever its mode: then the binary runs as `nobody` through
    /// util-linux's `setpriv`, so the test means the same in CI (root) and at a desk.
    @Test func aFileWithoutReadPermissionIsOneLineError() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("secret.json").path
        try Data("[]".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        var launcher: [String] = []
        if getuid() == 0 {
            launcher = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
            let probe = try Binary.run(["--version"], launcher: launcher)
            try #require(probe.status == 0, "setpriv cannot run the binary as nobody: \(probe.stderr)")
        }
        let r = try Binary.run([path, "-c", "show"], launcher: launcher)
        Self.expectOneLineError(r, path: path, reason: "permission denied", "unreadable")
    }

    /// A FIFO nobody writes to: the load gives up after the timeout the user set (and the
    /// error says how long it waited), under `--day` as on any run.
    @Test func aFIFOWithNothingBehindItTimesOut() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pipe.json").path
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        let r = try Binary.run([path, "--day", "2026-02-23", "--timeout", "1", "-c", "show"])
        Self.expectOneLineError(
            r, path: path, reason: "nothing arrived in 1 s; is anything writing to it? (--timeout or 'set timeout' waits longer)", "FIFO")
        // Not a timing assertion on speed: a hang would never get here at all within CI's limit.
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func aFIFOWithDataLoadsLikeAFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pipe.json").path
        #expect(mkfifo(path, 0o600) == 0)
        let body = "[" + HostileCase.row() + "]"
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.write(Data(body.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let r = try Binary.run([path, "--timeout", "20", "-c", "apps"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Mail"))
    }

    /// A file cut short and written again, over and over, while the binary loads it (every
    /// format's reader in turn): each run ends with a status (loaded, or one line saying the
    /// file changed or is cut), never a signal (it is read, not mapped: no SIGBUS).
    @Test(arguments: ["json", "csv"])
    func aFileChangingWhileLoadedEndsWithAStatusNeverASignal(format: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("changing." + format).path
        let rows = (0..<40_000).map { k in
            format == "json"
                ? #"{"session_id":"s\#(k)","app_name":"App\#(k % 9)","category":null,"start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T09:30:00Z"}"#
                : "s\(k),App\(k % 9),,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z"
        }
        let whole = Data(
            (format == "json" ? "[" + rows.joined(separator: ",\n") + "]"
                : "session_id,app_name,category,start_timestamp,end_timestamp\n" + rows.joined(separator: "\n") + "\n").utf8)
        try whole.write(to: URL(fileURLWithPath: path))
        final class Flag: @unchecked Sendable { var stop = false }
        let flag = Flag()
        let changer = Thread {
            var k = 0
            while !flag.stop {
                k += 1
                if k % 2 == 0 {
                    truncate(path, off_t(whole.count / (2 + k % 5)))
                } else {
                    try? whole.write(to: URL(fileURLWithPath: path))
                }
                usleep(300)
            }
        }
        changer.start()
        defer { flag.stop = true }
        for _ in 0..<6 {
            let r = try Binary.run([path, "--day", "2026-02-23", "-c", "apps"])
            #expect(r.status == 0 || r.status == 1, "status \(r.status): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count <= 2, "\(r.stderr)")
        }
    }

    @Test func bugABatchRunRepeatedTheFailedLoadForEveryCommand() throws {
        let r = try Binary.run(["/nonexistent/a.json", "-c", "show", "-c", "apps", "-c", "help"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: cannot load '/nonexistent/a.json': no such file\n")
    }

    @Test func aTimeoutOutOfRangeIsABadCommandLine() throws {
        for value in ["0", "-1", "abc", "90000", "nan"] {
            let r = try Binary.run(["--timeout=\(value)", "-c", "show"])
            #expect(r.status == 64, "\(value)")
            #expect(r.stderr.hasPrefix("error: --timeout must be a number of seconds from 1 to 86400"), "\(value)")
        }
    }
}
