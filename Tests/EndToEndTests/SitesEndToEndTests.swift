// SitesEndToEndTests.swift — time per website through the binary (exit status, stdout, stderr): `sites` of a day and a range in text, JSON and CSV, counted only while the browser was in front; `set web off` and `web ignore` kept in the store where the native host's write applies them.
import Foundation
import Testing
import UsageCore
import UsageStore

struct SitesEndToEndTests {
    /// 2026-03-02 09:00 UTC.
    static let t0 = Micros(1_772_442_000) * 1_000_000

    /// A recorder's day on `laptop` (Chromium 09:00–09:30, a terminal 09:30–09:40, Chromium
    /// 09:40–10:00) and the sites the extension saw: docs.python.org 09:00–09:20, example.org
    /// 09:20–09:50 (ten minutes of it under the terminal), docs.python.org again 09:50–10:00.
    static func seeded() throws -> StoreWorkspace {
        let w = try StoreWorkspace()
        let stores = OpenStores()
        defer { stores.closeAll() }
        let store = try stores.writer(StoreLocation(w.db))
        func minute(_ m: Int64) -> Micros { t0 + m * 60_000_000 }
        func session(_ app: String, _ from: Int64, _ to: Int64) -> RecordedSession {
            RecordedSession(app: app, category: "Other", start: minute(from), end: minute(to), startOffset: 0, endOffset: 0)
        }
        try store.record([session("Chromium", 0, 30), session("xterm", 30, 40), session("Chromium", 40, 60)], device: "laptop", now: minute(60), mark: nil)
        for (site, from, to) in [("docs.python.org", 0, 20), ("example.org", 20, 50), ("docs.python.org", 50, 60)] as [(String, Int64, Int64)] {
            var at = minute(from)
            while at <= minute(to) {
                try store.siteSeen(site, browser: "chromium", device: "laptop", at: at)
                at += 5_000_000
            }
        }
        try store.siteSeen(nil, browser: "chromium", device: "laptop", at: minute(60))
        return w
    }

    @Test func sitesRanksADaysSitesAsTheyWereSeen() throws {
        let w = try Self.seeded()
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "sites"])
        // example.org's ten minutes under the terminal do not count: Chromium's 50 minutes in all.
        #expect(r.stdout == "Sites · Monday, March 2, 2026\n  docs.python.org  30m  2 visits\n  example.org      20m  1 visit\n  50m in 2 sites\n")
        #expect(r.stderr == "")
        #expect(r.status == 0)
        let json = try Binary.run(["--db", w.db, "--tz", "UTC", "--format", "json", "-c", "sites 2026-03-02"])
        #expect(
            json.stdout
                == #"{"from":"2026-03-02","to":"2026-03-02","time_zone":"UTC","total_seconds":3000,"sites":[{"site":"docs.python.org","seconds":1800,"sessions":2,"category":null},{"site":"example.org","seconds":1200,"sessions":1,"category":null}]}"#
                + "\n")
        #expect(json.status == 0 && json.stderr == "")
        let csv = try Binary.run(["--db", w.db, "--tz", "UTC", "--format", "csv", "-c", "sites 2026-03-01..2026-03-07"])
        #expect(
            csv.stdout
                == "from,to,time_zone,total_seconds,site,seconds,sessions,category\r\n2026-03-01,2026-03-07,UTC,3000,docs.python.org,1800,2,\r\n"
                + "2026-03-01,2026-03-07,UTC,3000,example.org,1200,1,\r\n")
        #expect(csv.status == 0 && csv.stderr == "")
        let week = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-03", "-c", "sites week", "-c", "sites"])
        #expect(week.stdout == "Sites · Mon 2 – Sun 8 Mar 2026\n  docs.python.org  30m  2 visits\n  example.org      20m  1 visit\n  50m in 2 sites\n"
            + "Sites · Tuesday, March 3, 2026\n  no site time: sites count while usage-shell record sees their browser in front\n")
        #expect(week.status == 0)
    }

    @Test func appOfABrowserShowsItsSitesUnderIt() throws {
        let w = try Self.seeded()
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "app chromium"])
        #expect(r.stdout.hasPrefix("Chromium · Other · Mon 2026-03-02\n50m · "), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("\n\nSites\n  docs.python.org  30m  2 visits\n  example.org      20m  1 visit\n  50m in 2 sites\n"), "\(r.stdout)")
        #expect(r.stderr == "" && r.status == 0)
        let other = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "app xterm"])
        #expect(!other.stdout.contains("Sites"), "\(other.stdout)")
        let json = try Binary.json(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "app Chromium"])
        let sites = try #require(json["sites"] as? [[String: Any]])
        #expect(sites.map { "\($0["site"]!) \($0["seconds"]!) \($0["sessions"]!)" } == ["docs.python.org 1800 2", "example.org 1200 1"])
        #expect(try Binary.json(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "app xterm"])["sites"] == nil)
    }

    @Test func theDaysAppListShowsTheTopSitesUnderTheirBrowser() throws {
        let w = try Self.seeded()
        let accessible = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "--accessible", "-c", "apps"])
        #expect(
            accessible.stdout
                == "Apps\n2 apps; the most used is Chromium: 50m, 83% of the day.\n  1. Chromium, Other, 2 sessions, 50m, 83%\n"
                + "    docs.python.org 30m · example.org 20m\n  2. xterm, Other, 1 session, 10m, 17%\n  1h total\n")
        #expect(accessible.status == 0 && accessible.stderr == "")
        // The table and the day screen: the sites' line right under Chromium's row.
        for command in ["apps", "show", "apps top 1"] {
            let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "--color", "never", "-c", command])
            let lines = r.stdout.components(separatedBy: "\n")
            let row = try #require(lines.firstIndex { $0.hasPrefix("  1. Chromium") }, "\(command): \(r.stdout)")
            #expect(lines[row + 1] == "    docs.python.org 30m · example.org 20m", "\(command): \(r.stdout)")
            #expect(lines.filter { $0.contains("docs.python.org") }.count == 1, "\(command): \(r.stdout)")
        }
    }

    /// `limit SITE DURATION`: a name with a dot that is no app's is a site; its time is as
    /// `sites` counts it, and `limits check` says when it was crossed (exit status 3).
    @Test func limitOnASiteIsCheckedAgainstItsTimeAsSeen() throws {
        let w = try Self.seeded()
        let env = ["XDG_CONFIG_HOME": w.url.appendingPathComponent("config").path]
        let base = ["--db", w.db, "--tz", "UTC", "--day", "2026-03-02"]
        let set = try Binary.run(base + ["-c", "limit docs.python.org 20m", "-c", "limit *.Example.org 1h"], environment: env)
        #expect(set.status == 0 && set.stderr == "", "\(set.stderr)")
        let check = try Binary.run(base + ["-c", "limits check"], environment: env)
        #expect(check.stdout == "site docs.python.org: 30m of 20m, crossed at 09:20\n")
        #expect(check.status == 3)
        let json = try Binary.run(base + ["--format", "json", "-c", "limits"], environment: env)
        #expect(
            json.stdout
                == #"{"day":"2026-03-02","time_zone":"UTC","limits":[{"site":"docs.python.org","limit_seconds":1200,"used_seconds":1800,"crossed":true,"crossed_at":"2026-03-02T09:20:00Z"},"#
                + #"{"site":"*.example.org","limit_seconds":3600,"used_seconds":1200,"crossed":false,"crossed_at":null}]}"# + "\n")
        let off = try Binary.run(base + ["-c", "limit docs.python.org off", "-c", "limit news.example off"], environment: env)
        #expect(off.stderr.hasPrefix("error: line 2: limit: there is no limit on the site 'news.example'"), "\(off.stderr)")
        #expect(off.status == 1)
    }

    @Test func theWeekShowsItsTopSitesUnderTheirBrowser() throws {
        let w = try Self.seeded()
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-04", "--color", "never", "-c", "week"])
        #expect(r.stdout.hasSuffix("\n\nTop sites\n  Chromium\n    docs.python.org 30m · example.org 20m\n"), "\(r.stdout)")
        #expect(r.status == 0 && r.stderr == "")
        let before = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-01", "--color", "never", "-c", "week"])
        #expect(!before.stdout.contains("Top sites"), "a week without sites has no such lines")
    }

    /// The week's `Top sites` named each browser by the store's key (`chromium`), where the
    /// day's views name it as its app (`Chromium`): the same browser spelled two ways.
    @Test func bugTheWeeksTopSitesNamedTheBrowserByItsStoreKey() throws {
        let w = try Self.seeded()
        let svg = w.url.appendingPathComponent("week.svg").path
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-04", "--color", "never", "-c", "week", "-c", "save \(svg)"])
        #expect(r.stdout.contains("\nTop sites\n  Chromium\n    docs.python.org 30m · example.org 20m\n"), "\(r.stdout)")
        #expect(r.status == 0 && r.stderr == "")
        let drawing = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawing.contains(">Chromium · 2 visits</text>"), "\(drawing.suffix(1500))")
        #expect(!drawing.contains("chromium"))
    }

    /// `category rule SITE CATEGORY` is kept in the store and `sites` shows it: a host's own
    /// rule first, else the nearest domain's.
    @Test func categoryRuleGivesASiteItsCategory() throws {
        let w = try Self.seeded()
        let base = ["--db", w.db, "--tz", "UTC", "--day", "2026-03-02"]
        let set = try Binary.run(
            base + ["-c", "category rule *.python.org Reference", "-c", "category rule *.org Web", "-c", "category rule Example.org Shopping", "-c", "sites"])
        #expect(
            set.stdout
                == "*.python.org is in Reference\n*.org is in Web\nexample.org is in Shopping\n"
                + "Sites · Monday, March 2, 2026\n  docs.python.org  30m  2 visits · Reference\n  example.org      20m  1 visit · Shopping\n  50m in 2 sites\n")
        #expect(set.status == 0 && set.stderr == "")
        let json = try Binary.run(base + ["--format", "json", "-c", "category rule example.org off", "-c", "sites"])
        #expect(
            json.stdout
                == #"{"site":"example.org","category":null}"# + "\n"
                + #"{"from":"2026-03-02","to":"2026-03-02","time_zone":"UTC","total_seconds":3000,"sites":[{"site":"docs.python.org","seconds":1800,"sessions":2,"category":"Reference"},{"site":"example.org","seconds":1200,"sessions":1,"category":"Web"}]}"#
                + "\n")
        let again = try Binary.run(base + ["-c", "category rule example.org off"])
        #expect(again.stderr.hasPrefix("error: line 1: example.org has no category rule (category rule SITE CATEGORY gives it one)"), "\(again.stderr)")
        #expect(again.status == 1)
        let bad = try Binary.run(base + ["-c", "category rule https://example.org/a Web"])
        #expect(bad.stderr.hasPrefix("error: line 1: category: 'https://example.org/a' is not a site"), "\(bad.stderr)")
        #expect(bad.status == 1)
    }

    /// The extension's visits without `usage-shell record` running (no browser session to count
    /// them against) showed "no sites recorded (the browser extension records them)": untrue, as
    /// the extension had recorded them, and silent about the recorder a site's time needs.
    @Test func bugSitesSeenWithoutTheRecorderSaidNoneWereRecorded() throws {
        let w = try StoreWorkspace()
        try Self.write(w) { store in
            for at in [Self.t0, Self.t0 + 5_000_000] { try store.siteSeen("docs.python.org", browser: "chromium", device: "laptop", at: at) }
        }
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "--width", "200", "-c", "sites"])
        #expect(r.stdout == "Sites · Monday, March 2, 2026\n  \(Self.noSiteTime)\n", "\(r.stdout)")
        #expect(r.status == 0 && r.stderr == "")
    }

    static let noSiteTime = "no site time: sites count while usage-shell record sees their browser in front"

    /// `limit localhost 1h` said only "no app named 'localhost' in the loaded data", though
    /// `sites` lists localhost: a name without a dot is an app's, and now the refusal says so.
    @Test func bugALimitOnADotlessSiteSaidOnlyThatNoAppHadThatName() throws {
        let w = try Self.seeded()
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "limit localhost 1h"], environment: ["XDG_CONFIG_HOME": w.url.appendingPathComponent("config").path])
        #expect(r.stderr == "error: line 1: no app named 'localhost' in the loaded data (a site's limit needs a name with a dot, such as youtube.com)\n", "\(r.stderr)")
        #expect(r.status == 1 && r.stdout == "")
    }

    /// A site's refusal said a port was refused, though every command that takes a site
    /// (`category rule`, `web ignore`, `limit`) drops a port and takes the host name.
    @Test func bugASiteRefusalSaidAPortWasRefused() throws {
        let w = try Self.seeded()
        let base = ["--db", w.db, "--tz", "UTC", "--day", "2026-03-02"]
        let port = try Binary.run(base + ["-c", "category rule Example.org:8080 Shopping"])
        #expect(port.stdout == "example.org is in Shopping\n")
        #expect(port.status == 0 && port.stderr == "")
        let bad = try Binary.run(base + ["-c", "category rule https://example.org:8080/a Web"])
        #expect(
            bad.stderr.hasPrefix(
                "error: line 1: category: 'https://example.org:8080/a' is not a site: give a host name such as docs.python.org, or *.example.org (no scheme or path; a port is dropped)"),
            "\(bad.stderr)")
        #expect(bad.status == 1)
    }

    /// `save` of the day screen: the HTML report has the top sites under the apps.
    @Test func theSavedDayReportHasTheTopSites() throws {
        let w = try Self.seeded()
        let html = w.url.appendingPathComponent("day.html").path
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "show", "-c", "save \(html)"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains(">Top sites</h2>\n<p>Chromium: docs.python.org 30m · example.org 20m</p>"), "\(page.suffix(400))")
    }

    @Test func sitesRefusesWhatIsNoDayOrRange() throws {
        let w = try Self.seeded()
        let r = try Binary.run(["--db", w.db, "-c", "sites fortnight"])
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("error: line 1: sites: 'fortnight' is not"), "\(r.stderr)")
        #expect(r.status == 1)
    }

    /// `set web off` and `web ignore` are kept in the store: the native host's next write
    /// (here the store's own, as `usage-shell web-host` makes it) records nothing of them.
    @Test func setWebOffAndWebIgnoreStopTheHostsWrites() throws {
        let w = try Self.seeded()
        let off = try Binary.run(["--db", w.db, "-c", "set web off", "-c", "web"])
        // `set` shows every setting after the change, web's last.
        #expect(off.stdout.contains("\nweb         off (no site is recorded)\nweb off"), "\(off.stdout)")
        #expect(off.stdout.hasSuffix("web off: no site is recorded (set web on records them again)\nno site is ignored (web ignore SITE)\n"))
        #expect(off.stderr == "" && off.status == 0)
        let later = Self.t0 + 7_200_000_000
        try Self.write(w) { store in
            // Chromium in front from `later` for a minute: whatever is recorded there counts.
            try store.record(
                [RecordedSession(app: "Chromium", category: "Other", start: later, end: later + 60_000_000, startOffset: 0, endOffset: 0)], device: "laptop",
                now: later + 60_000_000, mark: nil)
            try store.siteSeen("news.example", browser: "chromium", device: "laptop", at: later)
            try store.siteSeen("news.example", browser: "chromium", device: "laptop", at: later + 5_000_000)
        }
        #expect(try Self.visits(w) == 3)
        #expect(try Binary.run(["--db", w.db, "-c", "set web on"]).status == 0)
        let ignore = try Binary.run(["--db", w.db, "-c", "web ignore *.Bank.example", "-c", "web ignore *.BANK.example", "-c", "web", "--format", "json"])
        #expect(
            ignore.stdout
                == #"{"ignored":"*.bank.example","added":true}"# + "\n" + #"{"ignored":"*.bank.example","added":false}"# + "\n"
                + #"{"recording":true,"ignored":["*.bank.example"]}"# + "\n")
        #expect(ignore.status == 0 && ignore.stderr == "")
        let text = try Binary.run(["--db", w.db, "-c", "web ignore a.example", "-c", "web ignore A.example:443"])
        #expect(text.stdout == "ignoring a.example: its visits are never recorded\na.example was ignored already\n")
        #expect(text.status == 0 && text.stderr == "")
        try Self.write(w) { store in
            for site in ["www.bank.example", "news.example"] {
                try store.siteSeen(site, browser: "chromium", device: "laptop", at: later + 10_000_000)
                try store.siteSeen(site, browser: "chromium", device: "laptop", at: later + 15_000_000)
            }
        }
        #expect(try Self.visits(w) == 4, "news.example only")
        let unignore = try Binary.run(["--db", w.db, "-c", "web unignore *.bank.example", "-c", "web unignore *.bank.example"])
        #expect(unignore.stdout == "*.bank.example is recorded again\n")
        #expect(unignore.stderr.hasPrefix("error: line 2: *.bank.example is not ignored (web lists those that are)"), "\(unignore.stderr)")
        #expect(unignore.status == 1)
        let bad = try Binary.run(["--db", w.db, "-c", "web ignore https://bank.example/login"])
        #expect(bad.stderr.hasPrefix("error: line 1: web: 'https://bank.example/login' is not a site: give a host name such as docs.python.org, or *.example.org (no scheme or path; a port is dropped)"), "\(bad.stderr)")
        #expect(bad.status == 1)
    }

    /// `app Chromium` listed the browser's sites without the category `category rule` gives
    /// them, which `sites` shows after the visits.
    @Test func bugAppOfABrowserShowedItsSitesWithoutTheirCategory() throws {
        let w = try Self.seeded()
        let base = ["--db", w.db, "--tz", "UTC", "--day", "2026-03-02"]
        let r = try Binary.run(base + ["-c", "category rule *.python.org Reference", "-c", "app Chromium"])
        #expect(r.stdout.hasSuffix("\n\nSites\n  docs.python.org  30m  2 visits · Reference\n  example.org      20m  1 visit\n  50m in 2 sites\n"), "\(r.stdout)")
        #expect(r.stderr == "" && r.status == 0)
        let json = try Binary.json(base + ["-c", "app Chromium"])
        let sites = try #require(json["sites"] as? [[String: Any]])
        #expect(sites.map { "\($0["site"]!) \($0["category"]!)" } == ["docs.python.org Reference", "example.org <null>"])
    }

    /// With no limits, `limits` said how to set an app's or a category's limit, not a site's.
    @Test func bugNoLimitsNeverSaidASiteCanHaveOne() throws {
        let w = try Self.seeded()
        let env = ["XDG_CONFIG_HOME": w.url.appendingPathComponent("config").path]
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "limits"], environment: env)
        #expect(r.stdout == "Limits · Mon 2026-03-02\n  no limits: 'limit APP 30m', 'limit youtube.com 1h' or 'limit category NAME 1h'\n")
        #expect(r.status == 0 && r.stderr == "", "\(r.stderr)")
    }

    /// `week --format json` had neither its time zone nor the top sites the text `week` ends with.
    @Test func bugTheWeeksJSONHadNoTimeZoneAndNoSites() throws {
        let w = try Self.seeded()
        let base = ["--db", w.db, "--tz", "UTC", "--day", "2026-03-04"]
        let json = try Binary.json(base + ["-c", "week"])
        #expect(json["time_zone"] as? String == "UTC")
        let sites = try #require(json["sites"] as? [[String: Any]], "\(json)")
        #expect(
            sites.map { "\($0["browser"]!) \($0["site"]!) \($0["seconds"]!) \($0["sessions"]!) \($0["category"]!)" }
                == ["Chromium docs.python.org 1800 2 <null>", "Chromium example.org 1200 1 <null>"])
        // CSV: the rows are the days, with the time zone on each; the sites are `sites week`'s table.
        let csv = try Binary.run(base + ["--format", "csv", "-c", "week"])
        let lines = csv.stdout.components(separatedBy: "\r\n")
        #expect(lines[0].hasPrefix("from,to,time_zone,day,total_seconds,screen_time_seconds"), "\(lines[0])")
        #expect(lines[1].hasPrefix("2026-03-02,2026-03-08,UTC,2026-03-02,"), "\(lines[1])")
        #expect(!csv.stdout.contains("docs.python.org"))
        #expect(csv.status == 0 && csv.stderr == "")
    }

    /// `devices` said "last imported" of a device whose sessions were only recorded here.
    @Test func bugARecordedDeviceWasSaidToBeLastImported() throws {
        let w = try Self.seeded()
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "-c", "devices"])
        #expect(r.stdout.contains("laptop  3 sessions, 3 site visits, last recorded 2026-03-02 10:00\n"), "\(r.stdout)")
        #expect(!r.stdout.contains("imported"), "\(r.stdout)")
        let json = try Binary.run(["--db", w.db, "--tz", "UTC", "--format", "json", "-c", "devices"])
        #expect(json.stdout.contains(#""last_import":"2026-03-02T10:00:00Z","last_recorded":"2026-03-02T10:00:00Z""#), "\(json.stdout)")
    }

    /// The workspace's store, written as the native host writes it.
    private static func write(_ w: StoreWorkspace, _ body: (any StoreWriter) throws -> Void) throws {
        let stores = OpenStores()
        defer { stores.closeAll() }
        try body(try stores.writer(StoreLocation(w.db)))
    }

    /// How many visits counted, every day's.
    private static func visits(_ w: StoreWorkspace) throws -> Int {
        let stores = OpenStores()
        defer { stores.closeAll() }
        return try stores.reader(StoreLocation(w.db)).siteTimes(from: 0, to: Micros.max / 2, device: nil).reduce(0) { $0 + $1.sessions }
    }
}
