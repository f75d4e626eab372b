// RealExportsShellTests.swift — issue 20 through the shell: the one warning of a load that skips rows, --format csv for every command that prints a table, the spreadsheet guard of export, the data zone and column mapping settings, and aw:// paths refused.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
import UsageData
import UsageRender
@testable import UsageShell

struct RealExportsShellTests {
    static let skipLine = "1 of 3 rows skipped (1 no timestamp) — 'check' lists them"

    @Test func aLoadThatSkipsRowsWarnsOnceAndOneThatSkipsNoneSaysNothing() throws {
        let folder = try TemporaryFolder()
        let dirty = try folder.write("a.json", SourceCommandsTests.sessionsJSON)
        let clean = try folder.write("b.json", SourceCommandsTests.cleanSessionsJSON)
        let s = shell()
        let loaded = outputLines(s.execute("load \(dirty)"))
        #expect(s.takeWarnings() == [Self.skipLine])
        #expect(!loaded.contains { $0.contains("skipped") })  // said once: on stderr, not in the summary too
        succeed(s.execute("load \(clean)"))
        #expect(s.takeWarnings() == [])
        // Every load says it, `retry`'s and a reload's too; check still lists the rows.
        succeed(s.execute("load \(dirty)"))
        succeed(s.execute("load"))
        #expect(s.takeWarnings() == [Self.skipLine, Self.skipLine])
        #expect(outputLines(s.execute("check")).contains("  missing_timestamp  1   e.g. id \"A3\" (line 3)"))
        // The bundled sample's dirt is there for `check` to show: it is not the user's.
        succeed(s.execute("load :sample:"))
        #expect(s.takeWarnings() == [])
        #expect(s.model.history.skipped.total > 0)
        // A merged load warns once, for all its sources.
        succeed(s.execute("load \(dirty) \(clean)"))
        #expect(s.takeWarnings() == ["1 of 5 rows skipped (1 no timestamp) — 'check' lists them"])
    }

    @Test func everyCommandThatPrintsATableHasACSVOfItsJSONsFields() throws {
        let s = shell(format: .csv)
        succeed(s.execute("load :sample:"))
        let apps = outputLines(s.execute("apps top 2"))
        #expect(apps == ["day,time_zone,total_seconds,name,category,seconds,sessions,share\r", "2026-02-23,UTC,27123,Spotify,Entertainment,4985,2,0.18379235335324265\r", "2026-02-23,UTC,27123,Maps,Navigation,4195,2,0.15466578180879695\r"])
        // Each command's rows are its JSON's first list, with the same fields.
        let json = shell(format: .json)
        succeed(json.execute("load :sample:"))
        for (line, list) in [
            ("show", "apps"), ("apps", "apps"), ("chart category", "categories"), ("chart hourly", "hours"), ("week", "days"),
            ("days 3", "days"), ("app Safari", "sessions"), ("hour 9", "slots"), ("limits", "limits"),
        ] {
            let rows = outputLines(s.execute(line))
            let document = JSONSerialization.jsonObject(outputLines(json.execute(line))[0])
            let items = (document[list] as? [[String: Any]]) ?? []
            #expect(rows.count == 1 + items.count, "\(line)")
            #expect(rows.allSatisfy { $0.hasSuffix("\r") && !$0.dropLast().contains("\r") }, "\(line)")
            // The row's own fields are named as in the JSON.
            if let first = items.first {
                let header = rows[0].dropLast().split(separator: ",").map(String.init)
                for key in first.keys where !(first[key] is [String: Any]) {
                    #expect(header.contains(key) || header.contains("\(list).\(key)"), "\(line): \(key)")
                }
            }
        }
        // Records: one header, one row.
        for line in ["day", "check", "insights", "set", "load :sample:"] {
            #expect(outputLines(s.execute(line)).count == 2, "\(line)")
        }
    }

    @Test func exportGuardsSpreadsheetFormulasUnlessRawAndReadsThemBack() throws {
        let folder = try TemporaryFolder()
        let data = try folder.write(
            "h.json",
            #"[{"session_id":"=1+1","app_name":"=HYPERLINK(\"http://x\")","category":"@Work","start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T10:00:00Z"}]"#)
        let s = shell()
        succeed(s.execute("load \(data)"))
        succeed(s.execute("export report \(folder.path)/r.csv"))
        let report = try String(contentsOfFile: folder.path + "/r.csv", encoding: .utf8)
        #expect(report == "rank,app,category,sessions,seconds,share\r\n1,\"'=HYPERLINK(\"\"http://x\"\")\",'@Work,1,3600,1\r\n")
        succeed(s.execute("export \(folder.path)/s.csv"))
        let sessions = try String(contentsOfFile: folder.path + "/s.csv", encoding: .utf8)
        #expect(sessions.contains("'=1+1,\"'=HYPERLINK(\"\"http://x\"\")\",'@Work,"))
        // Our own file loads back to the same names.
        succeed(s.execute("load \(folder.path)/s.csv"))
        #expect(s.model.history.apps == ["=HYPERLINK(\"http://x\")"])
        #expect(s.model.history.categories == ["@Work"])
        #expect(s.model.history.all.map { s.model.history.all.id(of: $0) } == ["=1+1"])
        // --raw-csv: as they are.
        s.output.rawCSV = true
        succeed(s.execute("export report \(folder.path)/raw.csv"))
        #expect(try String(contentsOfFile: folder.path + "/raw.csv", encoding: .utf8).contains("1,\"=HYPERLINK(\"\"http://x\"\")\",@Work,"))
        s.output.format = .csv
        #expect(outputLines(s.execute("apps")).last == "2026-02-23,UTC,3600,\"=HYPERLINK(\"\"http://x\"\")\",@Work,3600,1,1\r")
        s.output.rawCSV = false
        #expect(outputLines(s.execute("apps")).last == "2026-02-23,UTC,3600,\"'=HYPERLINK(\"\"http://x\"\")\",'@Work,3600,1,1\r")
    }

    @Test func theDataZoneAndTheColumnMappingReachTheReaders() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("p.csv", "Program,From,To\nSafari,2026-02-23 09:00,2026-02-23 10:00\n")
        let s = shell(format: .json)
        guard case .failed(let error) = s.execute("load \(csv)") else {
            Issue.record("loaded without a mapping")
            return
        }
        #expect(error.description.contains("could not place the columns 'Program', 'From', 'To'"))
        succeed(s.execute("set columns app=Program,start=From,end=To data-tz America/New_York"))
        let loaded = json(s.execute("load \(csv)"))
        #expect((loaded["local_times"] as? [[String: Any]])?.first?["time_zone"] as? String == "America/New_York")
        let app = json(s.execute("app Safari"))
        #expect((app["sessions"] as? [[String: Any]])?.first?["start"] as? String == "2026-02-23T14:00:00Z")
        // auto: the selected zone.
        succeed(s.execute("set data-tz auto tz Asia/Tokyo"))
        succeed(s.execute("load \(csv)"))
        let tokyo = json(s.execute("app Safari"))
        #expect((tokyo["sessions"] as? [[String: Any]])?.first?["start"] as? String == "2026-02-23T09:00:00+09:00")
    }

    /// At the prompt, the first load's only message is the banner: it names the zone too.
    @Test func theBannerSaysWhichZoneLocalTimesWereReadIn() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("p.csv", "App,Start,End\nSafari,2026-02-23 09:00,2026-02-23 10:00\n")
        let s = shell()
        let runner = Runner(shell: s, out: BufferSink(), err: BufferSink())
        runner.loadInitial(.file(csv))
        #expect(runner.banner == "usage-shell \(UsageShellVersion.string) — 1 session from \(csv) (local times read as UTC time) — type 'help'")
        runner.loadInitial(.sample)
        #expect(runner.banner == "usage-shell \(UsageShellVersion.string) — 290 sessions from :sample: — type 'help'")
    }

    @Test func aRunningTimewarriorIntervalCountsUpToTheModelsClock() throws {
        let folder = try TemporaryFolder()
        let timew = try folder.write("t.json", #"[{"id":1,"start":"20260223T080000Z","tags":["work","client"]}]"#)
        let now = RFC3339.parse("2026-02-23T09:24:33Z")!
        let s = shell(format: .json, now: now)
        succeed(s.execute("load \(timew)"))
        let day = json(s.execute("day"))
        #expect(day["total_seconds"] as? Int == 5073)
        let app = json(s.execute("app 'client, work'"))
        #expect((app["sessions"] as? [[String: Any]])?.first?["running"] as? Bool == true)
        let check = json(s.execute("check"))
        #expect((check["running"] as? [[String: Any]])?.first?["app"] as? String == "client, work")
    }

    @Test(arguments: [
        "aw://localhost:5600/api/0/buckets", "aw://host/x", "aw://host:1?q=1", "AW://host:1#frag",
    ])
    func anActivityWatchPathIsRefused(source: String) {
        let s = shell()
        guard case .failed(let error) = s.execute("load '\(source)'") else {
            Issue.record("\(source) loaded")
            return
        }
        #expect(error.description.hasPrefix("cannot load '\(source)': a path is not used: aw:// names an ActivityWatch server"))
    }

    @Test func aTrailingSlashIsNoPath() {
        #expect(SourceRef("aw://host:1/") == .activityWatch(host: "host", port: 1))
        #expect(SourceRef("aw://host") == .activityWatch(host: "host", port: 5600))
    }
}

extension JSONSerialization {
    fileprivate static func jsonObject(_ line: String) -> [String: Any] {
        (try? jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }
}
