// SiteViewsEndToEndTests.swift — a browser's sites in the views through the binary: the top sites in the saved day and app list (SVG, HTML) and week (SVG, HTML), and a site's category rule splitting its browser's time in the day's, the week's and a range's categories.
import Foundation
import Testing
import UsageCore
import UsageStore

struct SiteViewsEndToEndTests {
    /// `show`, then `save day.svg`: Chromium's top sites on a line under its row.
    @Test func theSavedDaySVGHasTheTopSitesUnderTheBrowser() throws {
        let w = try SitesEndToEndTests.seeded()
        let svg = w.url.appendingPathComponent("day.svg").path
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "show", "-c", "save \(svg)"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(page.contains(">83%</text><text x=\"46\" y=\"77\" font-size=\"11\" fill=\"#59636e\" class=\"mu\">docs.python.org 30m · example.org 20m</text>"))
        #expect(page.contains("Apps: Chromium 50m 83% (sites: docs.python.org 30m · example.org 20m), xterm 10m 17%"))
    }

    /// `apps`, then `save apps.svg` and `save apps.html`: the sites under Chromium's row, and in Top sites.
    @Test func theSavedAppListHasTheTopSites() throws {
        let w = try SitesEndToEndTests.seeded()
        let svg = w.url.appendingPathComponent("apps.svg").path
        let html = w.url.appendingPathComponent("apps.html").path
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "apps", "-c", "save \(svg)", "-c", "save \(html)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("Apps: Chromium 50m 83% (sites: docs.python.org 30m · example.org 20m), xterm 10m 17%"))
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains(">Top sites</h2>\n<p>Chromium: docs.python.org 30m · example.org 20m</p>"))
    }

    /// `week`, then `save week.svg` and `save week.html`: the week's top sites after its days.
    @Test func theSavedWeekHasItsTopSites() throws {
        let w = try SitesEndToEndTests.seeded()
        let svg = w.url.appendingPathComponent("week.svg").path
        let html = w.url.appendingPathComponent("week.html").path
        let r = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-04", "-c", "week", "-c", "save \(svg)", "-c", "save \(html)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\nTop sites\n  Chromium\n    docs.python.org 30m · example.org 20m\nsaved week as SVG to "), "\(r.stdout)")
        let drawing = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawing.contains("<desc id=\"chart2-desc\">Top sites: docs.python.org 30m, example.org 20m</desc>"), "\(drawing.suffix(1500))")
        #expect(drawing.contains(">docs.python.org</text><text x=\"46\" y=\"62\" font-size=\"11\" fill=\"#59636e\" class=\"mu\">Chromium · 2 visits</text>"))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains(">Top sites</h2>"), "\(page.suffix(1500))")
        #expect(page.contains("<td>example.org<span class=\"detail\">Chromium · 1 visit</span></td>"))
    }

    /// `category rule docs.python.org Work`: Chromium's 30 minutes there count as Work in the
    /// day's categories, the week's and `summary`'s; its other 20 minutes and the terminal's 10 stay in Other;
    /// the day's total is the same. Before the change every minute stayed in Other.
    @Test func bugACategoryRuleForASiteLeftItsTimeInTheBrowsersCategory() throws {
        let w = try SitesEndToEndTests.seeded()
        let before = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "chart category"])
        #expect(before.stdout.contains("Other  1h  100%"), "\(before.stdout)")
        let rule = try Binary.run(["--db", w.db, "-c", "category rule docs.python.org Work"])
        #expect(rule.stdout == "docs.python.org is in Work\n" && rule.status == 0, "\(rule.stderr)")
        let chart = try Binary.run(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "--format", "json", "-c", "chart category"])
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(chart.stdout.contains(#""categories":[{"name":"Other","seconds":1800,"share":0.5},{"name":"Work","seconds":1800,"share":0.5}]"#), "\(chart.stdout)")
        let show = try Binary.json(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "show"])
        #expect(show["total_seconds"] as? Int == 3600)
        let categories = try #require(show["categories"] as? [[String: Any]])
        #expect(categories.map { "\($0["name"]!) \($0["seconds"]!)" } == ["Other 1800", "Work 1800"])
        let apps = try #require(show["apps"] as? [[String: Any]])
        #expect(apps.map { "\($0["name"]!) \($0["category"]!) \($0["seconds"]!)" } == ["Chromium Other 3000", "xterm Other 600"])
        let week = try Binary.json(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "week"])
        let days = try #require(week["days"] as? [[String: Any]])
        let monday = try #require(days.first { $0["day"] as? String == "2026-03-02" })
        #expect(monday["categories"] as? [String: Int] == ["Other": 1800, "Work": 1800], "\(monday)")
        #expect(monday["total_seconds"] as? Int == 3600)
        let summary = try Binary.json(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", "-c", "summary week"])
        let totals = try #require(summary["categories"] as? [[String: Any]])
        #expect(totals.map { "\($0["name"]!) \($0["seconds"]!)" } == ["Other 1800", "Work 1800"], "\(summary)")
        #expect(summary["total_seconds"] as? Int == 3600)
        // A file loaded beside the store is not the store's browsers: its Chromium is not split.
        let file = w.url.appendingPathComponent("day.json").path
        try #"[{"session_id":"f1","app_name":"Chromium","category":"Other","start_timestamp":"2026-03-02T09:00:00Z","end_timestamp":"2026-03-02T10:00:00Z"}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try Binary.json(["--db", w.db, "--tz", "UTC", "--day", "2026-03-02", file, "-c", "chart category"])
        #expect((loaded["categories"] as? [[String: Any]])?.map { "\($0["name"]!) \($0["seconds"]!)" } == ["Other 3600"], "\(loaded)")
    }
}
