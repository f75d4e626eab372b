// SitesImportEndToEndTests.swift — an ActivityWatch user's web history through the binary: `import` of an export with aw-watcher-web buckets keeps their host names as sites (once, whatever the file is called), `sites` shows them counted while their browser was in front, the store's file holds no path or title; an export loaded without the store shows its own sites, and a file without any says where sites come from.
import Foundation
import Testing
import TestSupport

struct SitesImportEndToEndTests {
    @Test func importingAnActivityWatchExportKeepsItsWebHistoryAsSites() throws {
        let w = try StoreWorkspace()
        let export = try w.write("export.json", WebExport.text)
        let first = try Binary.run(["--db", w.db, "import", export], environment: ["COLUMNS": "300"])
        #expect(first.stdout == "imported \(export): 3 added, 0 updated, 0 unchanged, 3 site visits added\nthe store holds 3 sessions: \(w.db)\n")
        #expect(first.status == 0 && first.stderr == "")
        let copy = try w.write("copy.json", WebExport.text)
        let again = try Binary.run(["--db", w.db, "import", copy, "--format", "json"])
        #expect(again.stdout.contains(#""added":0,"updated":0,"unchanged":3,"visits":0,"#), "\(again.stdout)")
        #expect(again.status == 0 && again.stderr == "")

        let json = try Binary.run(["--db", w.db, "--tz", "UTC", "--format", "json", "-c", "sites 2026-03-02"])
        // Chromium's tabs count while Chromium was in front (aw-watcher-web calls it chrome),
        // Firefox's while Firefox was; the incognito tab, the new-tab page, the file and about:blank not at all.
        #expect(
            json.stdout
                == #"{"from":"2026-03-02","to":"2026-03-02","time_zone":"UTC","total_seconds":2700,"sites":[{"site":"docs.python.org","seconds":900,"sessions":1,"category":null},{"site":"localhost","seconds":900,"sessions":1,"category":null},{"site":"mail.example.com","seconds":900,"sessions":1,"category":null}]}"#
                + "\n")
        #expect(json.status == 0 && json.stderr == "")

        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] { bytes += FileManager.default.contents(atPath: w.db + suffix) ?? Data() }
        let stored = String(decoding: bytes, as: UTF8.self)
        #expect(stored.contains("mail.example.com"))
        for secret in WebExport.neverKept { #expect(!stored.contains(secret), "\(secret) is in the store's file") }
    }

    /// Loaded without the store, an export's web buckets are its sites: `sites`, the day's
    /// list and `app` of a browser show them as an import would, and no store is made.
    @Test func anExportLoadedWithoutTheStoreShowsItsOwnSites() throws {
        let w = try StoreWorkspace()
        let export = try w.write("export.json", WebExport.text)
        let json = try Binary.run(["--db", w.db, export, "--tz", "UTC", "--format", "json", "-c", "sites 2026-03-02"])
        #expect(
            json.stdout
                == #"{"from":"2026-03-02","to":"2026-03-02","time_zone":"UTC","total_seconds":2700,"sites":[{"site":"docs.python.org","seconds":900,"sessions":1,"category":null},{"site":"localhost","seconds":900,"sessions":1,"category":null},{"site":"mail.example.com","seconds":900,"sessions":1,"category":null}]}"#
                + "\n")
        #expect(json.status == 0 && json.stderr == "")
        let day = try Binary.run(["--db", w.db, export, "--tz", "UTC", "--day", "2026-03-02", "-c", "apps", "-c", "app Chromium"])
        #expect(day.stdout.contains("\n    docs.python.org 15m · mail.example.com 15m\n"), "\(day.stdout)")
        #expect(day.stdout.contains("\n    localhost 15m\n"), "\(day.stdout)")
        #expect(day.stdout.hasSuffix("Sites\n  docs.python.org   15m  1 visit\n  mail.example.com  15m  1 visit\n  30m in 2 sites\n"), "\(day.stdout)")
        #expect(day.status == 0 && day.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: w.db), "loading makes no store")
    }

    @Test func sitesOfAFileWithoutWebBucketsSayWhereSitesComeFrom() throws {
        let w = try StoreWorkspace()
        let file = try w.write("day.json", #"[{"id":1,"app":"Chromium","start":"2026-03-02T09:00:00Z","end":"2026-03-02T09:30:00Z"}]"#)
        let r = try Binary.run(["--db", w.db, file, "--tz", "UTC", "--width", "100", "-c", "sites 2026-03-02"])
        #expect(
            r.stdout == "Sites · Monday, March 2, 2026\n"
                + "  no sites in what is loaded (an ActivityWatch export's are its aw-watcher-web buckets); the browser\n"
                + "  extension's are in the store, and usage-shell import FILE keeps an export's there too\n")
        #expect(r.status == 0 && r.stderr == "")
    }
}
