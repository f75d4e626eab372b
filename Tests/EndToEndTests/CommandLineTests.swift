// CommandLineTests.swift — the built binary end to end: the commands of the README and docs/COMMANDS.md, batch mode, exit statuses, the embedded sample.
import Foundation
import TestSupport
import Testing

struct CommandLineTests {
    @Test func showWithNoSourceShowsTheBundledSamplesMonday() throws {
        let r = try Binary.run(["-c", "show"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Monday, February 23, 2026")
        #expect(lines[1] == "7h 32m total · 6h 22m screen time")
    }

    @Test func theOriginalAppsDataGivesItsKnownTotals() throws {
        let r = try Binary.run([Binary.fixture("original-app-mock-data.json"), "--day", "2026-02-23", "--tz", "UTC", "-c", "show"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("35h 14m total · 16h 59m screen time"))
        let firstApp = r.stdout.split(separator: "\n").first { $0.contains("1.") && $0.contains("sessions") }
        #expect(firstApp?.contains("Spotify") == true)
        #expect(firstApp?.contains("9 sessions") == true)
        #expect(firstApp?.contains("7h") == true)
    }

    @Test func theOriginalAppsDataInJSON() throws {
        let o = try Binary.json([Binary.fixture("original-app-mock-data.json"), "--day", "2026-02-23", "--tz", "UTC", "-c", "show"])
        #expect(o["total_seconds"] as? Int == 126_855)
        #expect(o["screen_time_seconds"] as? Int == 61_155)
        let apps = try #require(o["apps"] as? [[String: Any]])
        #expect(apps[0]["name"] as? String == "Spotify")
        #expect(apps[0]["seconds"] as? Int == 25_200)
        #expect(apps[0]["sessions"] as? Int == 9)
        let skipped = try #require(o["skipped"] as? [String: Any])
        #expect(skipped["total"] as? Int == 2)
        let reasons = try #require(skipped["reasons"] as? [String: Int])
        #expect(reasons == [
            "missing_timestamp": 1, "bad_timestamp": 0, "end_not_after_start": 1, "bad_field_type": 0, "not_an_object": 0,
        ])
    }

    @Test func pipedCommandsRunInOrderAndAFailureExitsOne() throws {
        let r = try Binary.run([Binary.fixture("original-app-mock-data.json"), "--tz", "UTC"], stdin: "day 2026-02-23\nchrt\napps top 3\n")
        #expect(r.status == 1)
        #expect(
            r.stderr == "warning: 2 of 201 rows skipped (1 no timestamp, 1 end not after start) — 'check' lists them\n"
                + "error: line 2: unknown command 'chrt' — did you mean 'chart'?\n")
        #expect(r.stdout.hasPrefix("Monday, February 23, 2026\n35h 14m total · 16h 59m screen time\nApps\n"))
        #expect(r.stdout.contains("3. Safari"))
    }

    @Test func bailStopsTheRun() throws {
        let r = try Binary.run(["--bail"], stdin: "day 2026-02-23\nchrt\napps top 3\n")
        #expect(r.status == 1)
        #expect(!r.stdout.contains("Apps"))
    }

    @Test func dashCCountsItsCommandsAsLines() throws {
        let r = try Binary.run(["-c", "day", "-c", "apps top zero", "-c", "day"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: line 2: apps:"))
    }

    @Test func scriptFilesRunLikeDashC() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-script-\(UUID().uuidString).usage")
        defer { try? FileManager.default.removeItem(at: script) }
        try Data("# report\nday 2026-02-22\n\nbogus\n".utf8).write(to: script)
        let r = try Binary.run(["-f", script.path])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("Sunday, February 22, 2026"))
        #expect(r.stderr == "error: line 4: unknown command 'bogus' — type 'help' for the list\n")
    }

    @Test(arguments: [
        ["--frobnicate"], ["--tz", "Mars/Base"], ["--day", "2026-02-30"], ["--format", "xml"], ["--width", "5"],
    ])
    func aBadCommandLineExits64(arguments: [String]) throws {
        let r = try Binary.run(arguments + ["-c", "show"])
        #expect(r.status == 64)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("error: "))
    }

    @Test func bugTheSamplesMondayWasTuesdayForUsersEastOfUTC() throws {
        for zone in ["Asia/Tokyo", "Europe/Paris", "America/Los_Angeles"] {
            let r = try Binary.run(["-c", "show"], environment: ["TZ": zone])
            #expect(r.stdout.hasPrefix("Monday, February 23, 2026\n7h 32m total · 6h 22m screen time\n"), "\(zone)")
        }
    }

    @Test func bugCRLFScriptsMergedLinesAndMisnumberedThem() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-crlf-\(UUID().uuidString).usage")
        defer { try? FileManager.default.removeItem(at: script) }
        try Data("day 2026-02-22\r\napps top 1\r\nbogus\n".utf8).write(to: script)
        let r = try Binary.run(["-f", script.path])
        #expect(r.stdout.hasPrefix("Sunday, February 22, 2026"))
        #expect(r.stderr == "error: line 3: unknown command 'bogus' — type 'help' for the list\n")
    }

    @Test func bugDashDayWithARelativeValueWasReadAsAnOption() throws {
        let r = try Binary.run(["--day", "-7", "-c", "day"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Monday, February 16, 2026"))
    }

    @Test func bugWriteErrorsPassedForSuccess() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let run = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(Binary.url.path)' -c show > /dev/full"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: cannot write output: No space left on device"))
    }

    /// `usage-shell FILE -c show | head -1`: the reader goes after one line; the writer must end
    /// quietly with status 0 (no SIGPIPE death, no error), even with far more than a pipe's
    /// 64 KiB still to write.
    @Test(arguments: [false, true])
    func bugTheClosedPipeTestNeverCheckedTheStatus(bigFile: Bool) throws {
        // The test ran under sh, where `${PIPESTATUS:-0}` is always 0: bash reports the writer's own.
        var source = ""
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-pipe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        if bigFile {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let rows = (0..<3000).map { k in
                #"{"app_name":"App \#(k)","category":"C\#(k % 7)","start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T10:\#(String(format: "%02d", k % 59 + 1)):00Z"}"#
            }
            let file = dir.appendingPathComponent("many.json")
            try Data(("[" + rows.joined(separator: ",\n") + "]").utf8).write(to: file)
            source = "'\(file.path)' "
        }
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "'\(Binary.url.path)' \(source)--width 200 -c show -c apps -c show | head -1; echo \"status ${PIPESTATUS[0]}\" >&2"])
        #expect(run.stdout == "Monday, February 23, 2026\n")
        #expect(run.stderr == "status 0\n")
    }

    @Test func anUnknownTZWarnsAndFallsBackToTheSystemZone() throws {
        let r = try Binary.run(["--format", "json", "-c", "day"], environment: ["TZ": "GMT+5"])
        #expect(r.stderr == "warning: TZ='GMT+5' is not an IANA zone name; using the system zone\n")
        #expect(!r.stdout.contains("GMT+0500"))
    }

    @Test func scriptErrorsSayWhy() throws {
        let r = try Binary.run(["-f", "/nonexistent/script"])
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot read script '/nonexistent/script': no such file\n")
    }

    @Test func versionAndHelp() throws {
        let v = try Binary.run(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let h = try Binary.run(["--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("--tz"))
    }

    @Test func aMissingSourceIsOneLineErrorAndExitOne() throws {
        let r = try Binary.run(["nosuch.json", "-c", "show"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: cannot load 'nosuch.json': no such file\n")
    }

    @Test func aFailedLoadKeepsThePreviousData() throws {
        let r = try Binary.run(["--tz", "UTC", "-c", "load nosuch.json", "-c", "day"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot load 'nosuch.json': no such file; the previous data is kept, 'retry' tries again"))
        #expect(r.stdout == "Monday, February 23, 2026\n7h 32m total · 6h 22m screen time\n")
    }

    @Test func everyJSONCommandPrintsOneLine() throws {
        for command in [
            "show", "day", "apps", "apps top 5", "apps category social", "chart category", "chart hourly", "week",
            "load :sample:", "app Safari", "hour 9", "check", "set",
        ] {
            let r = try Binary.run(["--format", "json", "-c", command])
            #expect(r.status == 0, "\(command)")
            #expect(r.stdout.filter { $0 == "\n" }.count == 1, "\(command)")
            #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil, "\(command)")
        }
    }

    @Test func tableLinesFitTheWidth() throws {
        for width in [20, 40, 80] {
            let commands = ["show", "chart hourly", "week", "app \"Google Chrome\"", "hour 9", "check", "set", "help", "help apps"]
            let r = try Binary.run(["--width", "\(width)"] + commands.flatMap { ["-c", $0] })
            #expect(r.status == 0)
            for line in r.stdout.split(separator: "\n") {
                #expect(line.unicodeScalars.count <= width, "\(width): \(line)")
            }
        }
    }

    @Test func theBinaryCopiedAloneStillRunsTheSample() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("usage-shell")
        try FileManager.default.copyItem(at: Binary.url, to: copy)
        let alone = try ProcessRun.run(copy, ["-c", "day"], environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"], directory: dir)
        #expect(alone.status == 0)
        #expect(alone.stdout.hasPrefix("Monday, February 23, 2026"))
    }
}
