// RealExportsEndToEndTests.swift — issue 20's acceptance through the built binary, as a new user would try it: a phone-style CSV of local times, an unknown header, the skip warning of a batch load, export's spreadsheet guard, --format csv, --raw-csv, --columns, --data-tz and aw:// paths.
import Foundation
import Testing
import TestSupport

struct RealExportsEndToEndTests {
    static let phoneCSV = """
        Application,Start Time,Duration
        Safari,2026-02-23 08:15:00,1h 5m
        Messages,2026-02-23 12:00,00:12:30
        Maps,2026-02-23 23:40:00,1800
        Safari,2026-02-23 18:30:00,45 min
        """
    /// The same sessions in the canonical JSON: the CSV's wall times are Paris time (UTC+1).
    static let canonicalJSON = """
        [{"app_name":"Safari","start_timestamp":"2026-02-23T07:15:00Z","end_timestamp":"2026-02-23T08:20:00Z"},
        {"app_name":"Messages","start_timestamp":"2026-02-23T11:00:00Z","end_timestamp":"2026-02-23T11:12:30Z"},
        {"app_name":"Maps","start_timestamp":"2026-02-23T22:40:00Z","end_timestamp":"2026-02-23T23:10:00Z"},
        {"app_name":"Safari","start_timestamp":"2026-02-23T17:30:00Z","end_timestamp":"2026-02-23T18:15:00Z"}]
        """

    @Test func aPhoneCSVOfLocalTimesLoadsInTheZoneGivenAsTheCanonicalJSON() throws {
        let folder = try TemporaryFolder("real")
        let csv = try folder.write("phone.csv", Self.phoneCSV)
        let json = try folder.write("same.json", Self.canonicalJSON)
        for zone in ["Europe/Paris", "UTC", "America/New_York"] {
            for day in ["2026-02-23", "2026-02-24"] {
                let args = ["--tz", zone, "--day", day, "--format", "json", "-c", "show", "-c", "app Safari"]
                let fromCSV = try Binary.run([csv, "--data-tz", "Europe/Paris"] + args)
                let fromJSON = try Binary.run([json] + args)
                #expect(fromCSV.status == 0 && fromCSV.stderr == "", "\(fromCSV.stderr)")
                #expect(fromCSV.stdout == fromJSON.stdout, "\(zone) \(day)")
            }
        }
        // Without --data-tz the selected zone reads them; the load says which, once.
        let paris = try Binary.run([csv, "--tz", "Europe/Paris", "--day", "2026-02-23", "--format", "json", "-c", "day"])
        let canonical = try Binary.run([json, "--tz", "Europe/Paris", "--day", "2026-02-23", "--format", "json", "-c", "day"])
        #expect(paris.stdout == canonical.stdout)
        let load = try Binary.run(["--tz", "Europe/Paris", "-c", "load \(csv)"])
        #expect(load.stdout.contains("times without a UTC offset (4 rows) read as Europe/Paris time"))
    }

    @Test func anUnknownHeaderNamesTheColumnsItCouldNotPlaceAndHowToMapThem() throws {
        let folder = try TemporaryFolder("real")
        let path = try folder.write("phone.csv", Self.phoneCSV.replacingOccurrences(of: "Start Time", with: "Started"))
        let r = try Binary.run([path, "-c", "show"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(
            r.stderr == "error: cannot load '\(path)': not a valid CSV: could not place the columns 'Started'; the sessions need a "
                + "start column (Start, Start Time, Begin, start_timestamp); say which column is which with --columns start=COLUMN "
                + "(or duration=COLUMN; at the prompt: set columns …, then load)\n")
        // Mapped, it loads.
        let mapped = try Binary.run([path, "--columns", "start=Started", "--data-tz", "UTC", "--day", "2026-02-23", "-c", "apps top 1"])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stdout.contains("1. Safari"))
    }

    @Test func aBatchLoadThatSkipsRowsWarnsOnStderrAndCheckStillListsThem() throws {
        let folder = try TemporaryFolder("real")
        let path = try folder.write(
            "dirty.csv", Self.phoneCSV + "\nBroken,2026-02-23 25:00,60\nZero,2026-02-23 10:00,0\nNoStart,,60\n")
        let r = try Binary.run([path, "--data-tz", "UTC", "-c", "day 2026-02-23", "-c", "check"])
        #expect(r.status == 0)
        #expect(r.stderr == "warning: 3 of 7 rows skipped (1 no timestamp, 1 bad timestamp, 1 end not after start) — 'check' lists them\n")
        #expect(r.stdout.contains("  bad_timestamp        1   e.g. line 6"))
        #expect(r.stdout.contains("  end_not_after_start  1   e.g. line 7"))
        #expect(r.stdout.contains("  missing_timestamp    1   e.g. line 8"))
        // A file that skips nothing says nothing new.
        let clean = try folder.write("clean.csv", Self.phoneCSV)
        #expect(try Binary.run([clean, "-c", "day"]).stderr == "")
        // JSON output stays one document on stdout; the warning is on stderr all the same.
        let json = try Binary.run([path, "--format", "json", "-c", "day 2026-02-23"])
        #expect(json.stderr.hasPrefix("warning: 3 of 7 rows skipped"))
        #expect(json.stdout.hasPrefix("{\"day\":\"2026-02-23\""))
    }

    @Test func exportReportGuardsAFormulaAppName() throws {
        let folder = try TemporaryFolder("real")
        let data = try folder.write(
            "h.json",
            #"[{"session_id":"1","app_name":"=HYPERLINK(\"http://x\")","category":"+Evil","start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T10:00:00Z"}]"#)
        let x = folder.url.appendingPathComponent("x.csv").path
        let r = try Binary.run([data, "-c", "export report \(x)"])
        #expect(r.status == 0, "\(r.stderr)")
        let written = try String(contentsOfFile: x, encoding: .utf8)
        #expect(written == "rank,app,category,sessions,seconds,share\r\n1,\"'=HYPERLINK(\"\"http://x\"\")\",'+Evil,1,3600,1\r\n")
        // --raw-csv writes the cells as they are.
        let raw = folder.url.appendingPathComponent("raw.csv").path
        #expect(try Binary.run([data, "--raw-csv", "-c", "export report \(raw)"]).status == 0)
        #expect(try String(contentsOfFile: raw, encoding: .utf8).contains("1,\"=HYPERLINK(\"\"http://x\"\")\",+Evil,"))
        // A sessions CSV we wrote loads back to the same names.
        let sessions = folder.url.appendingPathComponent("s.csv").path
        #expect(try Binary.run([data, "-c", "export \(sessions)"]).status == 0)
        #expect(
            try Binary.run([sessions, "--format", "json", "-c", "apps"]).stdout
                == (try Binary.run([data, "--format", "json", "-c", "apps"]).stdout))
    }

    @Test func formatCSVPrintsTheJSONsFieldsAsRFC4180() throws {
        let r = try Binary.run(["--tz", "UTC", "--format", "csv", "-c", "apps top 2", "-c", "day"])
        #expect(r.status == 0)
        #expect(
            r.stdout
                == "day,time_zone,total_seconds,name,category,seconds,sessions,share\r\n"
                + "2026-02-23,UTC,27123,Spotify,Entertainment,4985,2,0.18379235335324265\r\n"
                + "2026-02-23,UTC,27123,Maps,Navigation,4195,2,0.15466578180879695\r\n"
                + "day,time_zone,total_seconds,screen_time_seconds\r\n2026-02-23,UTC,27123,22928\r\n")
        // `set format csv`, and the rows are the JSON's, field for field.
        let csv = try Binary.run(["--tz", "UTC", "-c", "set format csv", "-c", "chart category"]).stdout
        let json = try Binary.json(["--tz", "UTC", "-c", "chart category"])
        let categories = try #require(json["categories"] as? [[String: Any]])
        let expected = ["day,time_zone,total_seconds,name,seconds,share"]
            + categories.map { c in "2026-02-23,UTC,27123,\(c["name"]!),\(c["seconds"]!),\(c["share"]!)" }
        #expect(csv.hasSuffix(expected.map { $0 + "\r\n" }.joined()), "\(csv)")
        #expect(csv.hasPrefix("format,color,glyphs,accessible,width,tz,pager,timer,timeout,data_tz,columns,raw_csv,week_start,retention,web\r\ncsv,auto,"))
    }

    @Test(arguments: [
        (["--columns", "where=From"], "error: --columns: unknown field 'where': the fields are id, app, category, start, end, duration"),
        (["--data-tz", "Mars/Olympus"], "error: --data-tz must be auto or a time zone (an IANA name such as Europe/Paris, or UTC), not 'Mars/Olympus'"),
        (["--format", "xml"], "error: The value 'xml' is invalid for '--format <format>'"),
    ])
    func badOptionsAreABadCommandLine(arguments: [String], message: String) throws {
        let r = try Binary.run(arguments + ["-c", "show"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix(message), "\(r.stderr)")
    }

    @Test func anActivityWatchPathIsRefusedInOneLine() throws {
        let r = try Binary.run(["aw://localhost:5600/api/0/buckets", "-c", "show"])
        #expect(r.status == 1)
        #expect(
            r.stderr == "error: cannot load 'aw://localhost:5600/api/0/buckets': a path is not used: aw:// names an ActivityWatch "
                + "server, aw://HOST:PORT, whose events are read through its API; drop '/api/0/buckets' (aw://localhost:5600)\n")
    }
}
