// SiteTimesTests.swift — a site's time as a person saw it (SiteTimes): visits counted only while their browser's app was in front on their device, clipped to the range, and the property that a browser's sites add up to no more than its time within a day.
import Testing
import TestSupport
@testable import UsageCore

private let s: Micros = 1_000_000

private func visit(_ site: String, _ start: Micros, _ end: Micros, browser: String = "chromium", device: Int64 = 1) -> SiteVisit {
    SiteVisit(device: device, browser: browser, site: site, start: start * s, end: end * s)
}

private func span(_ app: String, _ start: Micros, _ end: Micros, device: Int64 = 1) -> AppSpan {
    AppSpan(device: device, app: app, start: start * s, end: end * s)
}

struct SiteTimesCase: CustomTestStringConvertible, Sendable {
    let name: String
    let visits: [SiteVisit]
    let sessions: [AppSpan]
    /// `site browser seconds sessions`, most time first.
    let times: [String]
    var testDescription: String { name }
}

struct SiteTimesTests {
    static let cases: [SiteTimesCase] = [
        SiteTimesCase(name: "a visit inside its browser's session counts whole", visits: [visit("a.org", 10, 20)], sessions: [span("Chromium", 0, 100)], times: ["a.org chromium 10 1"]),
        SiteTimesCase(
            name: "only while the browser is in front: another app's time and a gap count nothing",
            visits: [visit("a.org", 0, 100)], sessions: [span("Chromium", 0, 30), span("Terminal", 30, 60), span("chromium-browser", 80, 90)],
            times: ["a.org chromium 40 1"]),
        SiteTimesCase(
            name: "a browser's visits count only with that browser's app",
            visits: [visit("a.org", 0, 50), visit("b.org", 0, 50, browser: "firefox")], sessions: [span("Firefox ESR", 0, 20), span("Chromium", 20, 50)],
            times: ["a.org chromium 30 1", "b.org firefox 20 1"]),
        SiteTimesCase(
            name: "and on the visit's own device",
            visits: [visit("a.org", 0, 50, device: 2)], sessions: [span("Chromium", 0, 50, device: 1), span("Chromium", 10, 20, device: 2)],
            times: ["a.org chromium 10 1"]),
        SiteTimesCase(
            name: "overlapping sessions of the browser are counted once",
            visits: [visit("a.org", 0, 50)], sessions: [span("Chromium", 0, 30), span("chromium", 20, 40)], times: ["a.org chromium 40 1"]),
        SiteTimesCase(
            name: "visits add up per site and browser, most time first, then by name",
            visits: [visit("b.org", 0, 10), visit("a.org", 10, 20), visit("b.org", 20, 25), visit("c.org", 25, 40), visit("d.org", 40, 55)],
            sessions: [span("Google-chrome", 0, 100), span("Chromium", 0, 100)],
            times: ["a.org chromium 10 1", "b.org chromium 15 2", "c.org chromium 15 1", "d.org chromium 15 1"].sorted { a, b in
                let (x, y) = (Int(a.split(separator: " ")[2])!, Int(b.split(separator: " ")[2])!)
                return x != y ? x > y : a < b
            }),
        SiteTimesCase(
            name: "the range clips visits and sessions",
            visits: [visit("a.org", -50, 50), visit("b.org", 3_590, 3_700)], sessions: [span("Chromium", -100, 4_000)], times: ["b.org chromium 10 1", "a.org chromium 50 1"].reversed()),
        SiteTimesCase(
            name: "bugAnImportedVisitOverlappingARecordedOneCountedTwice: the same hours from the extension and an ActivityWatch import count once",
            visits: [visit("a.org", 0, 50), visit("a.org", 0, 50), visit("b.org", 40, 60)], sessions: [span("Chromium", 0, 100)],
            times: ["a.org chromium 40 1", "b.org chromium 20 1"]),
        SiteTimesCase(
            name: "a visit begun inside another is in front until it ends, then the other resumes",
            visits: [visit("a.org", 0, 100), visit("b.org", 20, 30)], sessions: [span("Chromium", 0, 100)],
            times: ["a.org chromium 90 1", "b.org chromium 10 1"]),
        SiteTimesCase(
            name: "but only within its own browser and device",
            visits: [visit("a.org", 0, 100), visit("b.org", 20, 30, browser: "firefox"), visit("c.org", 20, 30, device: 2)],
            sessions: [span("Chromium", 0, 100), span("firefox", 0, 100), span("Chromium", 0, 100, device: 2)],
            times: ["a.org chromium 100 1", "b.org firefox 10 1", "c.org chromium 10 1"]),
        SiteTimesCase(name: "a visit never in front is left out", visits: [visit("a.org", 0, 50)], sessions: [span("Terminal", 0, 50)], times: []),
    ]

    @Test(arguments: cases) func aSitesTimeIsItsVisitsWhileItsBrowserWasInFront(_ c: SiteTimesCase) {
        let times = SiteTimes.seen(c.visits, sessions: c.sessions, from: 0, to: 3_600 * s)
        #expect(times.map { "\($0.site) \($0.browser) \($0.micros / s) \($0.sessions)" } == c.times)
    }

    @Test func totalsAddEveryBrowsersTimeOfASite() {
        let times = [
            SiteTime(site: "a.org", browser: "chromium", micros: 10, sessions: 1), SiteTime(site: "b.org", browser: "chromium", micros: 12, sessions: 2),
            SiteTime(site: "a.org", browser: "firefox", micros: 5, sessions: 3),
        ]
        #expect(SiteTimes.totals(times) == [SiteTotal(site: "a.org", micros: 15, sessions: 4), SiteTotal(site: "b.org", micros: 12, sessions: 2)])
    }

    /// Within a day, a browser's sites add up to no more than the browser's time (its apps'
    /// sessions on each device, overlaps once), and a site to no more than its visits.
    @Test(arguments: 1...40 as ClosedRange<UInt64>) func aBrowsersSitesAddUpToNoMoreThanItsTime(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let day: Micros = 86_400 * s
        let apps = ["Chromium", "chromium-browser", "Google Chrome", "firefox", "Navigator", "Terminal", "Mail"]
        let sites = ["a.org", "b.org", "c.org", "d.org"]
        func stretch() -> (Micros, Micros) {
            let start = Micros(UInt64(random.below(Int(day + 7_200 * s)))) - 3_600 * s
            return (start, start + 1 + Micros(UInt64(random.below(Int(7_200 * s)))))
        }
        let sessions = (0..<60).map { _ in
            let (start, end) = stretch()
            return AppSpan(device: Int64(random.below(2)), app: apps[random.below(apps.count)], start: start, end: end)
        }
        let visits = (0..<80).map { _ in
            let (start, end) = stretch()
            return SiteVisit(
                device: Int64(random.below(2)), browser: BrowserApps.families[random.below(3)], site: sites[random.below(4)],
                start: start, end: end)
        }
        let times = SiteTimes.seen(visits, sessions: sessions, from: 0, to: day)
        for browser in BrowserApps.families {
            var own: Micros = 0
            for device in [0, 1] as [Int64] {
                let spans = sessions.filter { $0.device == device && BrowserApps.isApp($0.app, of: browser) }.map { (max($0.start, 0), min($0.end, day)) }
                    .filter { $0.0 < $0.1 }
                own += SiteTimes.merged(spans).reduce(0) { $0 + $1.1 - $1.0 }
            }
            let sitesTime = times.filter { $0.browser == browser }.reduce(0) { $0 + $1.micros }
            #expect(sitesTime <= own, "\(browser): its sites \(sitesTime) µs, its time \(own) µs")
            for time in times where time.browser == browser {
                let visited = visits.filter { $0.site == time.site && $0.browser == browser }.reduce(0) { $0 + max(0, min($1.end, day) - max($1.start, 0)) }
                #expect(time.micros <= visited)
            }
        }
        #expect(times.allSatisfy { $0.micros > 0 && $0.sessions > 0 })
    }

    /// On one device, a browser shows one site at a time: its spans never overlap, however
    /// much its visits do (an import beside the extension's own, two windows' reports).
    @Test(arguments: 1...40 as ClosedRange<UInt64>) func aBrowserShowsOneSiteAtATime(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let hour: Micros = 3_600 * s
        let sites = ["a.org", "b.org", "c.org"]
        let visits = (0..<40).map { _ in
            let start = Micros(UInt64(random.below(Int(hour))))
            return SiteVisit(
                device: 1, browser: BrowserApps.families[random.below(2)], site: sites[random.below(3)],
                start: start, end: start + 1 + Micros(UInt64(random.below(Int(hour / 2)))))
        }
        let sessions = [AppSpan(device: 1, app: "Chromium", start: 0, end: hour), AppSpan(device: 1, app: "Google Chrome", start: 0, end: hour / 2)]
        let spans = SiteTimes.spans(visits, sessions: sessions, from: 0, to: hour)
        for browser in BrowserApps.families {
            let own = spans.filter { $0.browser == browser }.sorted { $0.start < $1.start }
            for (a, b) in zip(own, own.dropFirst()) {
                #expect(a.end <= b.start, "\(browser): \(a.site) until \(a.end) overlaps \(b.site) from \(b.start)")
            }
            // Every moment some visit of the browser was open (and it was in front) counts.
            let open = SiteTimes.merged(visits.filter { $0.browser == browser }.map { ($0.start, $0.end) })
            let front = browser == "chromium" ? hour : (browser == "chrome" ? hour / 2 : 0)
            let covered = open.reduce(0) { $0 + max(0, min($1.1, front) - $1.0) }
            #expect(own.reduce(0) { $0 + $1.end - $1.start } == covered)
        }
    }
}
