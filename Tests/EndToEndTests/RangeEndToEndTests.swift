// RangeEndToEndTests.swift — summary, apps of a range and timesheet through the built binary: the store (its kept totals), a file (its sessions summed) and tracked time give the same totals for the same sessions, across a spring-forward change; one device's summary is its file's, every device's is the files loaded together; the timesheet's rows are those totals; its CSV is a sheet with CRLF, guarded names and decimal hours that add up; bad ranges are one line and exit 1.
import Foundation
import Testing

struct RangeEndToEndTests {
    /// Thirty-odd sessions that never overlap (so they can be tracked too), whole minutes,
    /// 2026-03-02 … 2026-03-13 UTC: some across New York's midnight and its spring forward.
    static let sessions: [(task: String, category: String, start: String, end: String)] = {
        let tasks = [("Write report", "Client A"), ("Email", "Client A"), ("Code review", "Client B"), ("Café ☕ notes", "Client B"), ("Invoices", "Admin")]
        var list: [(String, String, String, String)] = []
        var minute = 0
        for k in 0..<34 {
            minute += 95 + (k * 211) % 540  // the next start, after the last end
            let length = 20 + (k * 37) % 200
            let (task, category) = tasks[(k * 3) % tasks.count]
            func stamp(_ m: Int) -> String {
                let day = 2 + m / 1440
                return String(format: "2026-03-%02dT%02d:%02d", day, (m % 1440) / 60, m % 60)
            }
            list.append((task, category, stamp(minute), stamp(minute + length)))
            minute += length
        }
        return list
    }()

    static let range = "2026-03-01..2026-03-15"
    static let ny = ["--tz", "America/New_York"]

    static func fileJSON() -> String {
        "[" + sessions.enumerated().map { k, s in
            #"{"session_id":"s\#(k)","app_name":"\#(s.task)","category":"\#(s.category)","start_timestamp":"\#(s.start):00Z","end_timestamp":"\#(s.end):00Z"}"#
        }.joined(separator: ",\n") + "]"
    }

    /// A summary's document without what tells its sources apart (nothing should).
    static func summary(_ arguments: [String], _ command: String) throws -> NSDictionary {
        try Binary.json(arguments + ny + ["-c", command]) as NSDictionary
    }

    @Test func theStoreAFileAndTrackedTimeGiveTheSameTotals() throws {
        let w = try StoreWorkspace()
        let file = try w.write("sessions.json", Self.fileJSON())
        #expect(try Binary.run(["--db", w.db, "import", file]).status == 0)
        let tracked = try StoreWorkspace()
        var commands: [String] = []
        for (task, category) in Set(Self.sessions.map { "\($0.task)|\($0.category)" }).sorted().map({ $0.split(separator: "|").map(String.init) }).map({ ($0[0], $0[1]) }) {
            commands += ["-c", "task add \"\(task)\" category \"\(category)\""]
        }
        for s in Self.sessions { commands += ["-c", "track \"\(s.task)\" \(s.start) \(s.end)"] }
        let made = try Binary.run(["--db", tracked.db, "--tz", "UTC", "--bail"] + commands)
        #expect(made.status == 0, "\(made.stderr)")
        for command in ["summary \(Self.range)", "summary 2026-03", "summary last 10", "apps top 3 \(Self.range)", "summary 2026-03-08..2026-03-08"] {
            let fromFile = try Self.summary([file, "--day", "2026-03-12"], command)
            let fromStore = try Self.summary(["--db", w.db, "--day", "2026-03-12"], command)
            let fromTracked = try Self.summary(["--db", tracked.db, ":tracked:", "--day", "2026-03-12"], command)
            #expect(fromStore == fromFile, "\(command): the store's \(fromStore) vs the file's \(fromFile)")
            #expect(fromTracked == fromFile, "\(command): tracked time's \(fromTracked) vs the file's \(fromFile)")
        }
        // The timesheet of the same days is those totals, task by task.
        let sheet = try Binary.json(["--db", tracked.db] + Self.ny + ["-c", "timesheet \(Self.range)"])
        let summary = try Self.summary([file], "summary \(Self.range)")
        #expect(sheet["total_seconds"] as? Int == summary["total_seconds"] as? Int)
        let apps = Dictionary(uniqueKeysWithValues: (summary["apps"] as? [[String: Any]] ?? []).map { ($0["name"] as! String, $0["seconds"] as! Int) })
        let rows = Dictionary(uniqueKeysWithValues: (sheet["rows"] as? [[String: Any]] ?? []).map { ($0["task"] as! String, $0["seconds"] as! Int) })
        #expect(rows == apps)
        #expect((sheet["columns"] as? [Any])?.count == 15)
    }

    /// The last line of a run's output as a JSON object (after `device NAME`'s own line).
    static func lastJSON(_ arguments: [String]) throws -> NSDictionary {
        let result = try Binary.run(arguments + ny + ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary ?? [:]
    }

    @Test func oneDevicesSummaryIsItsFilesAndEveryDevicesIsTheFilesTogether() throws {
        let w = try StoreWorkspace()
        let all = Self.fileJSON().dropFirst().dropLast().components(separatedBy: ",\n")
        // The laptop's sessions and the desktop's, and one session on both at once.
        let laptop = try w.write("laptop.json", "[" + (all.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) + [all[1]]).joined(separator: ",") + "]")
        let desktop = try w.write("desktop.json", "[" + all.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).joined(separator: ",") + "]")
        #expect(try Binary.run(["--db", w.db, "-c", "import \(laptop) --device laptop", "-c", "import \(desktop) --device desktop"]).status == 0)
        for command in ["summary \(Self.range)", "apps \(Self.range)", "summary last 10"] {
            let day = ["--day", "2026-03-12"]
            let one = try Self.lastJSON(["--db", w.db] + day + ["-c", "device laptop", "-c", command]).mutableCopy() as! NSMutableDictionary
            #expect(one["device"] as? String == "laptop", "\(command)")
            one.removeObject(forKey: "device")
            #expect(one == (try Self.summary([laptop] + day, command)), "\(command): laptop")
            let every = try Self.summary(["--db", w.db] + day, command)
            #expect(every == (try Self.summary([laptop, desktop] + day, command)), "\(command): every device")
        }
        // The table says whose it is.
        let table = try Binary.run(["--db", w.db, "--day", "2026-03-12", "-c", "device desktop", "-c", "summary week"] + Self.ny)
        #expect(table.stdout.components(separatedBy: "\n").dropFirst().first == "device desktop")
    }

    @Test func theSpringForwardDayIsTwentyThreeHoursInTheSummary() throws {
        let w = try StoreWorkspace()
        let file = try w.write("day.json", #"[{"app_name":"Night","category":"Work","start_timestamp":"2026-03-08T05:00:00Z","end_timestamp":"2026-03-09T04:00:00Z"}]"#)
        #expect(try Binary.run(["--db", w.db, "import", file]).status == 0)
        for source in [[file], ["--db", w.db]] {
            let doc = try Binary.json(source + Self.ny + ["-c", "summary 2026-03-07..2026-03-09"])
            #expect(doc["total_seconds"] as? Int == 23 * 3600)
            #expect((doc["daily"] as? [[String: Any]])?.map { $0["day"] as? String } == ["2026-03-08"])
        }
    }

    @Test func theTimesheetsCSVIsASheetThatAddsUp() throws {
        let w = try StoreWorkspace()
        let tracked = try Binary.run([
            "--db", w.db, "--tz", "UTC", "-c", "track =SUM(A1) 2026-03-02T09:00 2026-03-02T09:40", "-c", "track Email 2026-03-03T10:00 2026-03-03T10:20",
            "-c", "track Email 2026-03-04T23:50 2026-03-05T00:30",
        ])
        #expect(tracked.status == 0, "\(tracked.stderr)")
        let csv = try Binary.run(["--db", w.db, "--tz", "UTC", "--format", "csv", "-c", "timesheet 2026-03-02..2026-03-05"]).stdout
        #expect(csv == """
            category,task,2026-03-02,2026-03-03,2026-03-04,2026-03-05,total_hours\r
            Other,Email,0.00,0.33,0.17,0.50,1.00\r
            Other,'=SUM(A1),0.67,0.00,0.00,0.00,0.67\r
            Total,,0.67,0.33,0.17,0.50,1.67\r

            """)
        let table = try Binary.run(["--db", w.db, "--tz", "UTC", "--width", "80", "-c", "timesheet 2026-03-02..2026-03-05"])
        #expect(table.stdout == """
            Timesheet · Mon 2 – Thu 5 Mar 2026

                         Mon   Tue   Wed   Thu  Total
                           2     3     4     5
            Other       0:40  0:20  0:10  0:30   1:40
              Email           0:20  0:10  0:30   1:00
              =SUM(A1)  0:40                     0:40
            Total       0:40  0:20  0:10  0:30   1:40

            """)
    }

    @Test(arguments: [
        ("summary 2026-13", "error: line 1: summary: '2026-13' is not a range (week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO) (usage: summary [last N|week|month|year|RANGE])\n"),
        ("timesheet 2026-03..2026-02", "error: line 1: timesheet: the range ends (2026-02-28) before it begins (2026-03-01) (usage: timesheet [last N|week|month|year|RANGE])\n"),
        ("apps last 99999", "error: line 1: apps: '99999' is not a number of days from 1 to 36525, week, month or year (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])\n"),
    ])
    func aBadRangeIsOneLineAndExitOne(command: String, stderr: String) throws {
        let r = try Binary.run(["-c", command])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == stderr)
    }
}
