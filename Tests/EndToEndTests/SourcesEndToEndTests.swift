// SourcesEndToEndTests.swift — the built binary reading every source format, standard input, several sources at once, category rules, and export.
import Foundation
import Testing

struct SourcesEndToEndTests {
    /// Days around both DST changes, in a zone that has them and in UTC.
    static let days = ["2026-03-07", "2026-03-08", "2026-03-09", "2026-11-01", "2026-11-02"]
    /// What every load of the DST fixture (in any of its formats) says on stderr: its two dirty rows.
    static let dstWarning = "warning: 2 of 101 rows skipped (1 bad timestamp, 1 end not after start) — 'check' lists them\n"

    @Test(arguments: ["oracle-dst.ndjson", "oracle-dst.csv"])
    func aConversionLoadsToTheSameReportsAsTheJSON(file: String) throws {
        for zone in ["America/New_York", "UTC"] {
            for day in Self.days {
                let args = ["--tz", zone, "--day", day, "--format", "json", "-c", "show"]
                let json = try Binary.run([Binary.fixture("oracle-dst.json")] + args)
                let other = try Binary.run([Binary.fixture(file)] + args)
                #expect(json.status == 0 && other.status == 0)
                #expect(other.stderr == Self.dstWarning)
                #expect(other.stdout == json.stdout, "\(file) \(zone) \(day)")
            }
        }
    }

    @Test func theCSVConversionSkipsTheSameRowsOnTheirOwnLines() throws {
        let csv = try Binary.json([Binary.fixture("oracle-dst.csv"), "-c", "check"])
        let json = try Binary.json([Binary.fixture("oracle-dst.json"), "-c", "check"])
        #expect(csv["sessions"] as? Int == json["sessions"] as? Int)
        #expect((csv["skipped"] as? [String: Any])?["total"] as? Int == (json["skipped"] as? [String: Any])?["total"] as? Int)
        // One row a line in both (the CSV's header is line 1, as the JSON's `[`).
        func lines(_ o: [String: Any]) -> [String: [Int?]]? {
            (o["examples"] as? [String: [[String: Any]]])?.mapValues { $0.map { $0["line"] as? Int } }
        }
        let csvLines = lines(csv)
        let jsonLines = lines(json)
        #expect(csvLines != nil && csvLines == jsonLines)
    }

    @Test func dataPipedToStandardInputLoadsWithADash() throws {
        let text = try String(contentsOfFile: Binary.fixture("oracle-dst.json"), encoding: .utf8)
        let args = ["--tz", "America/New_York", "--day", "2026-11-01", "--format", "json", "-c", "show"]
        let piped = try Binary.run(["-"] + args, stdin: text)
        let file = try Binary.run([Binary.fixture("oracle-dst.json")] + args)
        #expect(piped.status == 0)
        #expect(piped.stderr == Self.dstWarning)
        #expect(piped.stdout == file.stdout)
        let source = try Binary.run(["-", "--format", "json", "-c", "check"], stdin: text)
        #expect(source.stdout.contains("\"source\":\"<stdin>\""))
    }

    @Test func standardInputInAnyFormat() throws {
        let csv = try String(contentsOfFile: Binary.fixture("oracle-dst.csv"), encoding: .utf8)
        let r = try Binary.run(["-", "--tz", "UTC", "--day", "2026-03-08", "-c", "day"], stdin: csv)
        #expect(r.status == 0)
        #expect(r.stdout.contains("Sunday, March 8, 2026"))
    }

    @Test func aDashWhereStandardInputCarriesTheCommandsIsRefused() throws {
        let r = try Binary.run(["-"], stdin: "show\n")
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: '-' cannot read data from standard input: it carries the commands here"))
    }

    @Test func standardInputIsReadOnce() throws {
        let text = try String(contentsOfFile: Binary.fixture("oracle-dst.json"), encoding: .utf8)
        let r = try Binary.run(["-", "-c", "load -"], stdin: text)
        #expect(r.status == 1)
        #expect(r.stderr == Self.dstWarning + "error: line 1: standard input has already been read: '-' can be loaded once per run\n")
    }

    @Test func severalSourcesMergeAndCheckNamesEachOnesSkippedRows() throws {
        let dst = Binary.fixture("oracle-dst.json")
        let csv = Binary.fixture("oracle-dst.csv")
        let o = try Binary.json([dst, csv, "-c", "check"])
        let single = try Binary.json([dst, "-c", "check"])
        #expect(o["source"] as? String == "\(dst) + \(csv)")
        #expect(o["sessions"] as? Int == 2 * (single["sessions"] as? Int ?? -1))
        let sources = try #require(o["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String } == [dst, csv])
        let examples = try #require(o["examples"] as? [String: [[String: Any]]])
        #expect(examples.values.joined().allSatisfy { [dst, csv].contains($0["source"] as? String ?? "") })
        let text = try Binary.run([dst, csv, "--width", "1000", "-c", "check"])
        #expect(text.stdout.contains("sources: 2"))
        #expect(text.stdout.contains("(\(csv) line "))
        // At 80 columns, long paths that differ only at their end are shown whole, each on its own line.
        let narrow = try Binary.run([dst, csv, "--width", "80", "-c", "check"]).stdout.split(separator: "\n")
        if dst.count > 40 {
            #expect(narrow.contains { $0 == "  \(dst)" || $0.hasPrefix("  \(dst.prefix(70))") })
            #expect(!narrow.contains { $0.hasPrefix("  ") && $0.contains("…") && $0.contains("sessions") })
        }
    }

    @Test func theActivityWatchExportFixtureGivesTheHandComputedTotals() throws {
        // Worked out by hand in Tests/Sources/test_activitywatch.py, which also made this file
        // from a real aw-server (window events kept only inside not-AFK periods).
        let o = try Binary.json([Binary.fixture("aw-export.json"), "--tz", "UTC", "--day", "2026-02-23", "-c", "show"])
        #expect(o["total_seconds"] as? Double == 19_715.718)
        let apps = try #require(o["apps"] as? [[String: Any]])
        let seconds = Dictionary(uniqueKeysWithValues: apps.map { ($0["name"] as! String, $0["seconds"] as! Double) })
        #expect(seconds == ["Code": 5999.75, "Spotify": 5400, "Firefox": 3300, "Terminal": 2700, "Slack": 1800, "Calculator": 515.968])
    }

    @Test func categoryRulesNameUncategorisedApps() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config.appendingPathComponent("usage-shell"), withIntermediateDirectories: true)
        try Data(#"{"rules": [{"match": "^(code|terminal)$", "category": "Development"}, {"match": "fire", "category": "Web"}]}"#.utf8)
            .write(to: config.appendingPathComponent("usage-shell/categories.json"))
        let args = [Binary.fixture("aw-export.json"), "--tz", "UTC", "--day", "2026-02-23", "--format", "json"]
        let r = try Binary.run(args + ["-c", "chart category", "-c", "rules"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let categories = (lines[0]["categories"] as! [[String: Any]]).map { ($0["name"] as! String, $0["seconds"] as! Double) }
        #expect(categories.map(\.0) == ["Development", "Other", "Web"])
        #expect(categories[0].1 == 5999.75 + 2700)
        #expect(lines[1]["uncategorised_seconds"] as? Double == 5400 + 1800 + 515.968)
    }

    @Test func exportWritesEachFormatAndKeepsAnExistingFileWithoutForce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = Binary.fixture("oracle-dst.json")
        let show = ["--tz", "America/New_York", "--day", "2026-03-08", "--format", "json", "-c", "show"]
        let expected = try Binary.run([source] + show).stdout
        for name in ["out.json", "out.ndjson", "out.csv"] {
            let path = folder.appendingPathComponent(name).path
            let r = try Binary.run([source, "-c", "export \(path)"])
            #expect(r.status == 0)
            #expect(r.stdout.hasPrefix("exported "))
            // The export holds only valid sessions: the same day, no skipped rows.
            var reloaded = try JSONSerialization.jsonObject(with: Data(try Binary.run([path] + show).stdout.utf8)) as! [String: Any]
            var original = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as! [String: Any]
            reloaded["skipped"] = nil
            original["skipped"] = nil
            #expect(NSDictionary(dictionary: reloaded) == NSDictionary(dictionary: original), "\(name)")
        }
        let path = folder.appendingPathComponent("out.json").path
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try Binary.run([Binary.fixture("aw-export.json"), "-c", "export \(path)"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: line 1: export: '\(path)' already exists: add --force to replace it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let forced = try Binary.run([Binary.fixture("aw-export.json"), "-c", "export \(path) --force"])
        #expect(forced.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func exportReportWritesTheDaysAppListAsCSV() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("day.csv").path
        let r = try Binary.run([Binary.fixture("aw-export.json"), "--tz", "UTC", "--day", "2026-02-23", "-c", "export report \(path)"])
        #expect(r.status == 0)
        #expect(r.stdout == "exported the app list of Mon 2026-02-23 (6 apps) to \(path)\n")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let rows = text.components(separatedBy: "\r\n")
        #expect(rows[0] == "rank,app,category,sessions,seconds,share")
        #expect(rows[1].hasPrefix("1,Code,Other,1,5999.75,"))
    }

    @Test func anUnknownExportExtensionIsAUsageError() throws {
        let r = try Binary.run(["-c", "export out.txt"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot tell the format of 'out.txt': name it .json, .ndjson (.jsonl) or .csv"))
    }

    @Test func anUnreachableServerIsOneErrorLine() throws {
        // Port 9 (discard) has no listener on loopback here.
        let r = try Binary.run(["-c", "load http://127.0.0.1:9/x.json"])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.hasPrefix("error: line 1: cannot load 'http://127.0.0.1:9/x.json': "))
    }
}

extension SourcesEndToEndTests {
    /// The "given twice" check stood in the `load` command only, so the command line's sources
    /// (`usage-shell x.json x.json`) still loaded twice and doubled every total.
    @Test func bugTheSameSourceTwiceOnTheCommandLineDoubledEveryTotal() throws {
        let dst = Binary.fixture("oracle-dst.json")
        let r = try Binary.run([dst, dst, "-c", "check"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: load: '\(dst)' is given twice (usage: load [SOURCE...])\n"))
    }
}
