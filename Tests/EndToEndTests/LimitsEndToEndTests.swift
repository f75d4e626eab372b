// LimitsEndToEndTests.swift — limits through the binary: exit status 3 for cron, persistence across runs, a corrupt file named once and kept aside, an unreadable one failing the check.
import Foundation
import Testing

struct LimitsEndToEndTests {
    /// A config folder that outlives one run (the harness gives each run a fresh HOME); the test removes it.
    func config() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-limits-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func limitsCheckExitsThreeWhenALimitIsCrossedAndZeroOtherwise() throws {
        let env = ["XDG_CONFIG_HOME": try config()]
        defer { try? FileManager.default.removeItem(atPath: env["XDG_CONFIG_HOME"]!) }
        let crossed = try Binary.run(["-c", "limit Slack 10m", "-c", "limits check"], environment: env)
        #expect(crossed.status == 3)
        #expect(crossed.stdout.hasSuffix("Slack: 35m of 10m, crossed at 12:10\n"), "\(crossed.stdout)")
        // The limit survived the run: a second run only checks.
        let again = try Binary.run(["-c", "limits check"], environment: env)
        #expect(again.status == 3)
        let fine = try Binary.run(["-c", "limit Slack 2h", "-c", "limits check"], environment: env)
        #expect(fine.status == 0)
        #expect(!fine.stdout.contains("crossed at"))
        // Nothing crossed: `limits check` says nothing, so cron sends no mail.
        let quiet = try Binary.run(["-c", "limits check"], environment: env)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        // A failing command wins over a crossed limit: status 1.
        let both = try Binary.run(["-c", "limit Slack 1m", "-c", "limits check", "-c", "nosuchcommand"], environment: env)
        #expect(both.status == 1)
    }

    @Test func limitsInJSONCarryTheLocalCrossingTime() throws {
        let env = ["XDG_CONFIG_HOME": try config()]
        defer { try? FileManager.default.removeItem(atPath: env["XDG_CONFIG_HOME"]!) }
        let r = try Binary.run(["--tz", "America/New_York", "--day", "2026-02-23", "--format", "json", "-c", "limit Safari 30m", "-c", "limits"], environment: env)
        let last = try #require(r.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let limit = try #require((object["limits"] as? [[String: Any]])?.first)
        #expect(limit["app"] as? String == "Safari")
        #expect(limit["limit_seconds"] as? Int == 1800)
        #expect(limit["crossed"] as? Bool == true)
        #expect((limit["crossed_at"] as? String)?.hasSuffix("-05:00") == true)
    }

    @Test func aCorruptLimitsFileIsNamedKeptAsideAndTheNextRunStartsClean() throws {
        let dir = try config()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/usage-shell/limits.json"
        try FileManager.default.createDirectory(atPath: dir + "/usage-shell", withIntermediateDirectories: true)
        try "{\"limits\": [oops".write(toFile: path, atomically: true, encoding: .utf8)
        // One warning; the run goes on with no limits and saves the next one.
        let r = try Binary.run(["-c", "limits", "-c", "limits", "-c", "limit Maps 1h"], environment: ["XDG_CONFIG_HOME": dir])
        #expect(r.status == 0)
        #expect(r.stderr == "warning: the limits file '\(path)' is not valid (not JSON); it was kept aside as '\(path).corrupt' and limits start empty\n")
        #expect(try String(contentsOfFile: path + ".corrupt", encoding: .utf8) == "{\"limits\": [oops")
        let next = try Binary.run(["-c", "limits"], environment: ["XDG_CONFIG_HOME": dir])
        #expect(next.status == 0 && next.stderr.isEmpty)
        #expect(next.stdout.contains("Maps  "))
    }

    @Test func limitErrorsSayWhatIsWrong() throws {
        let env = ["XDG_CONFIG_HOME": try config()]
        defer { try? FileManager.default.removeItem(atPath: env["XDG_CONFIG_HOME"]!) }
        for (command, message) in [
            ("limit Safari soon", "limit: 'soon' is not a duration such as 30m, 1h30m or 2h (at most 24h)"),
            ("limit Zzz 30m", "no app named 'Zzz' in the loaded data"),
            ("limit Safari off", "limit: there is no limit on the app 'Safari'"),
            ("limits later", "limits: 'later' is not check"),
        ] {
            let r = try Binary.run(["-c", command], environment: env)
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("error: line 1: \(message)"), "\(command): \(r.stderr)")
        }
    }

    @Test func bugConcurrentLimitRunsLostEachOthersLimits() throws {
        let env = ["XDG_CONFIG_HOME": try config()]
        defer { try? FileManager.default.removeItem(atPath: env["XDG_CONFIG_HOME"]!) }
        let apps = ["Safari", "Maps", "Mail", "Slack", "Notes", "Spotify"]
        // Started together, as processes racing for the file.
        let runs = try apps.map { app -> Process in
            let p = Process()
            p.executableURL = Binary.url
            p.arguments = ["-c", "limit \(app) 1h"]
            p.environment = env.merging(["HOME": "/nonexistent", "TZ": "UTC", "LANG": "C.UTF-8"]) { $1 }
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in runs { p.waitUntilExit() }
        #expect(runs.allSatisfy { $0.terminationStatus == 0 })
        let r = try Binary.run(["--format", "json", "-c", "limits"], environment: env)
        for app in apps { #expect(r.stdout.contains("\"app\":\"\(app)\""), "\(app) lost") }
    }

    @Test func bugAFileInPlaceOfTheConfigFolderLookedLikeNoLimits() throws {
        let dir = try config()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "".write(toFile: dir + "/usage-shell", atomically: true, encoding: .utf8)
        let r = try Binary.run(["-c", "limits check"], environment: ["XDG_CONFIG_HOME": dir])
        #expect(r.status == 1)
        #expect(r.stderr == """
            warning: cannot read the category rules '\(dir)/usage-shell/categories.json': Not a directory; no category rules applied
            warning: cannot read the limits file '\(dir)/usage-shell/limits.json': Not a directory; it is left as it is, and limits are kept in memory for this session only
            error: line 1: limits check: the limits file '\(dir)/usage-shell/limits.json' could not be read this session, so its limits were not checked

            """)
    }
}
