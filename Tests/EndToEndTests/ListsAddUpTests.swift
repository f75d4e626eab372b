// ListsAddUpTests.swift — the rows of `apps` add up to its total line, through the built binary: on every day of every fixture and on the benchmark's busiest kind of day (a million sessions).
import Foundation
import TestSupport
import Testing

/// Minutes of a duration as the tables write it (`2h 5m`, `2h`, `45m`, `<1m`, `0m`).
func shownMinutes(_ text: Substring) -> Int? {
    if text == "<1m" { return 0 }
    guard let match = text.wholeMatch(of: /(?:(\d+)h)? ?(?:(\d+)m)?/), match.output.1 != nil || match.output.2 != nil else {
        return nil
    }
    return (match.output.1.flatMap { Int($0) } ?? 0) * 60 + (match.output.2.flatMap { Int($0) } ?? 0)
}

/// The minutes of each row of `apps`' output (one `apps` after another when the output holds
/// several) and of each total line: `[(rows, total)]`; a day without usage is an empty list.
func appsListsMinutes(_ stdout: String) -> [(rows: [Int], total: Int)] {
    var lists: [(rows: [Int], total: Int)] = []
    var rows: [Int] = []
    for line in stdout.split(separator: "\n") {
        // `  3. Safari  ▒▒▒  Productivity · 7 sessions   1h    13%`: the duration before the share.
        if let row = line.firstMatch(of: /^ +\d+\. .*?  +((?:\d+h)?(?: ?\d+m)?|<1m) +(?:<?[\d.]+%)$/) {
            rows.append(shownMinutes(row.output.1) ?? -1)
        } else if let total = line.firstMatch(of: /^  ((?:\d+h)?(?: ?\d+m)?) total/) {
            lists.append((rows, shownMinutes(total.output.1) ?? -1))
            rows = []
        } else if line == "  no usage recorded" {
            lists.append(([], 0))
        }
    }
    return lists
}

struct ListsAddUpTests {
    /// The days of a file, from `check`'s JSON.
    static func days(of file: String) throws -> [String] {
        let r = try Binary.run([file, "--format", "json", "-c", "check"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let first = try #require(json["first_day"] as? String)
        let last = try #require(json["last_day"] as? String)
        var days: [String] = []
        var day = try #require(ISO8601DateFormatter.day.date(from: first))
        let end = try #require(ISO8601DateFormatter.day.date(from: last))
        while day <= end {
            days.append(ISO8601DateFormatter.day.string(from: day))
            day = day.addingTimeInterval(86_400)
        }
        return days
    }

    @Test(arguments: ["original-app-mock-data.json", "oracle-dirty.json", "oracle-dst.json", "aw-export.json", "hostile-names.json", ":sample:"])
    func theMinutesOfAppsAddUpToTheTotalLineOnEveryDayOfTheFixtures(name: String) throws {
        let file = name == ":sample:" ? name : Binary.fixture(name)
        let days = try Self.days(of: file)
        #expect(!days.isEmpty)
        for zone in ["UTC", "America/New_York", "Asia/Kolkata"] {
            let commands = days.flatMap { ["-c", "day \($0)", "-c", "apps"] }
            let r = try Binary.run([file, "--tz", zone, "--width", "200"] + commands)
            #expect(r.status == 0, "\(r.stderr)")
            let lists = appsListsMinutes(r.stdout)
            #expect(lists.count == days.count, "\(name) \(zone): \(lists.count) lists for \(days.count) days")
            for (k, list) in lists.enumerated() where !list.rows.isEmpty {
                #expect(!list.rows.contains(-1))
                #expect(list.rows.reduce(0, +) == list.total, "\(name) \(zone) \(days[k]): \(list.rows) ≠ \(list.total)")
            }
        }
    }

    /// `scripts/bench/gen-sessions 1000000 --days 90 --dirty` (the benchmark's workload, kept
    /// in `.build/bench` as the benchmarks keep theirs (scripts/bench/lib.py), so it is written once).
    @Test func theMinutesOfAppsAddUpToTheTotalLineOnTheMillionSessionBenchmark() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let generator = root.appendingPathComponent("scripts/bench/gen-sessions")
        let hash = try String(Self.sha256(of: generator).prefix(10))
        let folder = root.appendingPathComponent(".build/bench")
        let data = folder.appendingPathComponent("sessions-1000000r-90d-seed1-dirty-\(hash).json")
        if !FileManager.default.fileExists(atPath: data.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let partial = data.path + ".tmp.\(getpid())"
            try Self.runTool("/usr/bin/python3", [generator.path, "1000000", "--days", "90", "--seed", "1", "--dirty", "-o", partial])
            try FileManager.default.moveItem(atPath: partial, toPath: data.path)
        }
        // The default day (the last, a few sessions past midnight), a full day, and the day the benchmark times.
        let r = try Binary.run([data.path, "--width", "200", "-c", "apps", "-c", "day 2026-02-20", "-c", "apps", "-c", "day 2026-01-10", "-c", "apps"])
        #expect(r.status == 0, "\(r.stderr)")
        let lists = appsListsMinutes(r.stdout)
        #expect(lists.count == 3)
        #expect(lists.allSatisfy { $0.rows.count >= 10 })
        for list in lists {
            #expect(list.rows.reduce(0, +) == list.total, "\(list.rows) ≠ \(list.total)")
        }
    }

    static func sha256(of file: URL) throws -> String {
        let out = try runTool("/usr/bin/sha256sum", [file.path])
        return String(out.prefix { $0 != " " })
    }

    @discardableResult
    static func runTool(_ program: String, _ arguments: [String]) throws -> String {
        let run = try ProcessRun.run(URL(fileURLWithPath: program), arguments)
        #expect(run.status == 0, "\(program) \(arguments): \(run.stderr)")
        return run.stdout
    }
}

extension ISO8601DateFormatter {
    /// `2026-02-23`, in UTC.
    static var day: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withFullDate]
        f.timeZone = TimeZone(identifier: "UTC")
        return f
    }
}
