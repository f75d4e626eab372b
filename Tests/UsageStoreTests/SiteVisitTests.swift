// SiteVisitTests.swift — the native host's write (`siteSeen`) on every backend, table-driven: the open visit extended, ended and begun, each browser and device its own, a stale visit left as it was, names kept as host names alone, `set web off` and `web ignore` applied inside the write; and a store of before the site tables upgraded.
import Foundation
import Testing
import TestSupport
import UsageCore
@testable import UsageStore

private let t0 = instant("2026-03-02T09:00:00Z")

/// One thing done to the store, at a second after t0.
enum SiteStep: Sendable {
    case seen(String?, browser: String = "chromium", device: String = "laptop", at: Int64)
    case web(Bool, at: Int64)
    case ignore(String, at: Int64)
    case unignore(String)

    func run(_ store: any StoreWriter) throws {
        switch self {
        case .seen(let site, let browser, let device, let at): try store.siteSeen(site, browser: browser, device: device, at: t0 + at * 1_000_000)
        case .web(let on, let at): try store.setWebRecording(on, now: t0 + at * 1_000_000)
        case .ignore(let pattern, let at): try store.ignoreSites(SitePattern(pattern)!, now: t0 + at * 1_000_000)
        case .unignore(let pattern): try store.unignoreSites(SitePattern(pattern)!)
        }
    }
}

struct SiteVisitCase: CustomTestStringConvertible, Sendable {
    let name: String
    let steps: [SiteStep]
    /// Each visit: `device browser site start..end` in seconds after t0, by device (first seen first), browser and start.
    let visits: [String]
    var testDescription: String { name }
    init(_ name: String, _ steps: [SiteStep], _ visits: [String]) {
        self.name = name
        self.steps = steps
        self.visits = visits
    }
}

struct SiteVisitTests {
    static let cases: [SiteVisitCase] = [
        SiteVisitCase(
            "the same site extends the open visit", [.seen("docs.python.org", at: 0), .seen("docs.python.org", at: 5), .seen("docs.python.org", at: 10)],
            ["laptop chromium docs.python.org 0..10"]),
        SiteVisitCase(
            "another site ends the open visit and begins there",
            [.seen("a.org", at: 0), .seen("a.org", at: 5), .seen("b.org", at: 7), .seen("b.org", at: 12)],
            ["laptop chromium a.org 0..7", "laptop chromium b.org 7..12"]),
        SiteVisitCase(
            "no site ends the open visit and begins nothing", [.seen("a.org", at: 0), .seen(nil, at: 4), .seen(nil, at: 9), .seen("a.org", at: 12), .seen("a.org", at: 13)],
            ["laptop chromium a.org 0..4", "laptop chromium a.org 12..13"]),
        SiteVisitCase("a site seen once and never again holds no time", [.seen("a.org", at: 0), .seen("b.org", at: 0), .seen(nil, at: 0)], []),
        SiteVisitCase(
            "a host name is kept lowercased without its port or trailing dot",
            [.seen("Docs.Python.ORG.:8000", at: 0), .seen("docs.python.org", at: 5), .seen("[::1]:8080", at: 6), .seen("[::1]", at: 8)],
            ["laptop chromium docs.python.org 0..6", "laptop chromium [::1] 6..8"]),
        SiteVisitCase(
            "a URL, a path or a title is no site and is never kept",
            [.seen("a.org", at: 0), .seen("https://a.org/private/path?q=1", at: 3), .seen("a.org/path", at: 4), .seen("My Bank — Account", at: 5),
             .seen("user@a.org", at: 6), .seen("", at: 7)],
            ["laptop chromium a.org 0..3"]),
        SiteVisitCase(
            "each browser and each device has its own open visit",
            [.seen("a.org", at: 0), .seen("b.org", browser: "firefox", at: 1), .seen("a.org", device: "desk", at: 2), .seen("a.org", at: 5),
             .seen("b.org", browser: "firefox", at: 6), .seen("c.org", device: "desk", at: 4), .seen("c.org", device: "desk", at: 9)],
            ["laptop chromium a.org 0..5", "laptop firefox b.org 1..6", "desk chromium a.org 2..4", "desk chromium c.org 4..9"]),
        SiteVisitCase(
            "a visit last seen too long ago is not extended over the gap",
            [.seen("a.org", at: 0), .seen("a.org", at: 5), .seen("a.org", at: 60), .seen("a.org", at: 65), .seen("a.org", at: 85)],
            ["laptop chromium a.org 0..5", "laptop chromium a.org 60..85"]),
        SiteVisitCase(
            "a clock gone back begins a new visit", [.seen("a.org", at: 10), .seen("a.org", at: 15), .seen("a.org", at: 5), .seen("a.org", at: 8)],
            ["laptop chromium a.org 5..8", "laptop chromium a.org 10..15"]),
        SiteVisitCase(
            "web off ends the open visit and writes every site as no site until web on",
            [.seen("a.org", at: 0), .seen("a.org", at: 2), .web(false, at: 3), .seen("a.org", at: 5), .seen("a.org", at: 10), .web(true, at: 15),
             .seen("a.org", at: 20), .seen("a.org", at: 25)],
            ["laptop chromium a.org 0..3", "laptop chromium a.org 20..25"]),
        SiteVisitCase(
            "an ignored site is no site; *.domain ignores it and its subdomains",
            [.ignore("*.example.org", at: 0), .seen("example.org", at: 0), .seen("www.example.org", at: 1), .seen("other.org", at: 2),
             .seen("www.example.org", at: 3), .seen("notexample.org", at: 4), .seen("notexample.org", at: 6)],
            ["laptop chromium other.org 2..3", "laptop chromium notexample.org 4..6"]),
        SiteVisitCase(
            "ignoring the open visit's site ends it; unignoring records it again",
            [.seen("a.org", at: 0), .seen("b.org", browser: "firefox", at: 0), .seen("a.org", at: 5), .seen("b.org", browser: "firefox", at: 5),
             .ignore("a.org", at: 7), .seen("a.org", at: 10), .seen("b.org", browser: "firefox", at: 10), .unignore("a.org"), .seen("a.org", at: 11),
             .seen("a.org", at: 12)],
            ["laptop chromium a.org 0..7", "laptop chromium a.org 11..12", "laptop firefox b.org 0..10"]),
    ]

    @Test(arguments: Backend.allCases, cases)
    func siteSeenKeepsVisitsAsAPersonSawThem(backend: Backend, c: SiteVisitCase) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        for step in c.steps { try step.run(s.store) }
        let rows = try s.rows(
            """
            SELECT d.name || ' ' || v.browser || ' ' || s.name || ' ' || ((v.start - \(t0)) / 1000000) || '..' || ((v.start + v.length - \(t0)) / 1000000)
            FROM site_visit v JOIN site s ON s.id = v.site JOIN device d ON d.id = v.device ORDER BY d.id, v.browser, v.start
            """)
        // GRDB describes a text value in quotes.
        #expect(rows.map { $0.trimmingCharacters(in: ["\""]) } == c.visits)
    }

    @Test(arguments: Backend.allCases)
    func bugADeviceWithOnlySiteVisitsWasListedWithNothingButNoSessions(backend: Backend) throws {
        // `devices` said "0 sessions" of a machine whose browser extension wrote visits and
        // nothing else; each device now carries its visits.
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        for step: SiteStep in [
            .seen("a.org", device: "browser-only", at: 0), .seen("b.org", device: "browser-only", at: 5), .seen("b.org", device: "browser-only", at: 9),
            .seen(nil, device: "quiet", at: 0),
        ] { try step.run(s.store) }
        let devices = try s.store.devices()
        #expect(devices.map { "\($0.name) \($0.sessions) \($0.siteVisits)" }.sorted() == ["browser-only 0 2", "quiet 0 0"])
    }

    @Test(arguments: Backend.allCases)
    func theSettingsAreReadBackAsTheyWereSet(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        #expect(try s.store.webRecording())
        #expect(try s.store.ignoredSites() == [])
        try s.store.setWebRecording(false, now: t0)
        #expect(try !s.store.webRecording())
        #expect(try s.another().webRecording() == false, "another process (the native host) sees it")
        try s.store.setWebRecording(true, now: t0)
        #expect(try s.store.webRecording())
        #expect(try s.store.ignoreSites(SitePattern("*.Example.org")!, now: t0))
        #expect(try !s.store.ignoreSites(SitePattern("*.example.org")!, now: t0), "already ignored")
        #expect(try s.store.ignoreSites(SitePattern("a.org")!, now: t0))
        #expect(try s.store.ignoredSites().map(\.description) == ["*.example.org", "a.org"])
        #expect(try s.store.unignoreSites(SitePattern("a.org")!))
        #expect(try !s.store.unignoreSites(SitePattern("a.org")!))
        #expect(try s.store.ignoredSites().map(\.description) == ["*.example.org"])
    }

    /// A store made before the site tables gets them when it is opened.
    @Test(arguments: Backend.allCases)
    func aStoreOfBeforeTheSiteTablesIsUpgraded(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        try s.store.record(
            [RecordedSession(app: "Chromium", category: "Other", start: t0, end: t0 + 5_000_000, startOffset: 0, endOffset: 0)], device: "laptop",
            now: t0 + 5_000_000, mark: nil)
        let ledger = backend == .sqlite ? "grdb_migrations" : "migrations"
        try s.raw("DROP TABLE site_category; DROP TABLE site_ignored; DROP TABLE site_visit; DROP TABLE site; ALTER TABLE import_part DROP COLUMN visits; DELETE FROM \(ledger) WHERE identifier IN ('v10: site visits', 'v12: site categories', 'v13: site visits by import')")
        let upgraded = try s.another()
        try upgraded.siteSeen("a.org", browser: "chromium", device: "laptop", at: t0)
        try upgraded.siteSeen("a.org", browser: "chromium", device: "laptop", at: t0 + 5_000_000)
        #expect(try s.rows("SELECT count(*), sum(length) FROM site_visit") == ["1|5000000"])
        #expect(Array(try upgraded.history(source: "store").all).count == 1)
    }

    /// A device's sites' visits point at its row: forgetting its last import, the device, or
    /// old sessions by retention must neither fail on that reference nor leave visits of a
    /// device that is gone.
    @Test(arguments: Backend.allCases)
    func forgettingADeviceItsImportsOrOldTimeWithSiteVisitsKeepsTheStoreWhole(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let d = randomSessions(seed: 7, count: 20)
        _ = try s.store.importSessions([ImportSource(identity: "/a.json", shown: d.source, dataset: d, device: "phone")], now: t0, zone: .utc)
        for at in [0, 5, 10] as [Int64] { try s.store.siteSeen("a.org", browser: "firefox", device: "phone", at: t0 + at * 1_000_000) }
        try s.store.siteSeen("b.org", browser: "chromium", device: "laptop", at: t0)
        try s.store.siteSeen("b.org", browser: "chromium", device: "laptop", at: t0 + 5_000_000)
        #expect(try s.store.forget(import: 1, now: t0).sessions == 20)
        #expect(try s.rows("SELECT d.name, count(*) FROM site_visit v JOIN device d ON d.id = v.device GROUP BY d.name ORDER BY d.name").map {
            $0.replacingOccurrences(of: "\"", with: "")
        } == ["laptop|1", "phone|1"], "the device stays while its visits do")
        #expect(try s.store.forget(device: "phone", now: t0) == 0)
        #expect(try s.rows("SELECT count(*) FROM site_visit") == ["1"])
        #expect(try s.rows("SELECT count(*) FROM meta WHERE key LIKE 'site_open:%'") == ["1"], "the phone's open visit went with it")
        #expect(try s.store.forget(endingBefore: t0 + 5_000_000) == 0)
        #expect(try s.rows("SELECT count(*) FROM site_visit") == ["0"], "retention's cut takes old visits too")
    }

    /// The read of a range: a site counts only while its browser was the app in front on its
    /// device (the recorder's sessions), clipped to the range, per device or every device's.
    @Test(arguments: Backend.allCases)
    func siteTimesCountVisitsWhileTheirBrowserWasInFront(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        func session(_ app: String, _ from: Int64, _ to: Int64) -> RecordedSession {
            RecordedSession(app: app, category: "Other", start: t0 + from * 1_000_000, end: t0 + to * 1_000_000, startOffset: 0, endOffset: 0)
        }
        try s.store.record([session("Chromium", 0, 30), session("Terminal", 30, 60), session("Chromium", 60, 100)], device: "laptop", now: t0 + 100_000_000, mark: nil)
        try s.store.record([session("firefox-esr", 0, 100)], device: "desk", now: t0 + 100_000_000, mark: nil)
        for (site, at) in [("a.org", 0), ("a.org", 5), ("a.org", 20), ("b.org", 25), ("b.org", 45), ("b.org", 65), ("a.org", 70), ("a.org", 80)] as [(String, Int64)] {
            try s.store.siteSeen(site, browser: "chromium", device: "laptop", at: t0 + at * 1_000_000)
        }
        for at in stride(from: Int64(0), through: 100, by: 5) {
            try s.store.siteSeen("a.org", browser: "firefox", device: "desk", at: t0 + at * 1_000_000)
        }
        let described = { (times: [SiteTime]) in times.map { "\($0.site) \($0.browser) \($0.micros / 1_000_000) \($0.sessions)" } }
        // laptop: a.org 0..25 (25 s in front) and 70..80 (10 s); b.org 25..70 minus the terminal's 30..60 (15 s).
        #expect(
            described(try s.store.siteTimes(from: t0, to: t0 + 3_600_000_000, device: nil))
                == ["a.org firefox 100 1", "a.org chromium 35 2", "b.org chromium 15 1"])
        #expect(described(try s.store.siteTimes(from: t0, to: t0 + 3_600_000_000, device: "laptop")) == ["a.org chromium 35 2", "b.org chromium 15 1"])
        #expect(described(try s.store.siteTimes(from: t0 + 10_000_000, to: t0 + 30_000_000, device: "laptop")) == ["a.org chromium 15 1", "b.org chromium 5 1"])
        #expect(try s.store.siteTimes(from: t0, to: t0 + 3_600_000_000, device: "phone") == [])
    }
}
