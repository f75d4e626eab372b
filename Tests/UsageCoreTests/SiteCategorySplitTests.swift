// SiteCategorySplitTests.swift — a browser's time split by its sites' categories (SiteCategorySplit): a ruled site's time moved from the browser's category to the site's, the rest left, the whole unchanged (a property test over random days).
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats

struct SiteCategorySplitTests {
    typealias Part = SiteCategorySplit.AppPart
    static let rules = SiteCategories([(SitePattern("docs.python.org")!, "Work"), (SitePattern("*.example.org")!, "Reading")])

    static func minutes(_ m: Int64) -> Micros { m * 60_000_000 }
    static func shown(_ c: [(name: String, micros: Micros)]) -> [String] { c.map { "\($0.name) \($0.micros / 60_000_000)m" } }

    /// `category rule docs.python.org Work`: Chromium's 30 minutes there count as Work, the rest
    /// of its time stays in Chromium's own category.
    @Test func aRuledSitesTimeMovesFromItsBrowsersCategoryToItsOwn() {
        let categories = [("Productivity", Self.minutes(120)), ("Games", Self.minutes(40))]
        let parts = [Part(app: "Chromium", category: "Productivity", micros: Self.minutes(90)), Part(app: "Editor", category: "Productivity", micros: Self.minutes(30))]
        let sites = [
            SiteTime(site: "docs.python.org", browser: "chromium", micros: Self.minutes(30), sessions: 2),
            SiteTime(site: "news.example", browser: "chromium", micros: Self.minutes(20), sessions: 1),
        ]
        let split = SiteCategorySplit.split(categories.map { (name: $0.0, micros: $0.1) }, parts: parts, sites: sites, rules: Self.rules)
        #expect(Self.shown(split) == ["Productivity 90m", "Games 40m", "Work 30m"])
    }

    /// A site under `*.example.org` goes to that rule's category; one whose rule names the
    /// browser's own category moves nothing; without rules, the categories are as they were.
    @Test func aDomainsRuleAndTheBrowsersOwnCategoryAndNoRules() {
        let categories = [(name: "Web", micros: Self.minutes(60))]
        let parts = [Part(app: "firefox-esr", category: "Web", micros: Self.minutes(60))]
        let sites = [SiteTime(site: "blog.example.org", browser: "firefox", micros: Self.minutes(25), sessions: 1)]
        #expect(Self.shown(SiteCategorySplit.split(categories, parts: parts, sites: sites, rules: Self.rules)) == ["Web 35m", "Reading 25m"])
        let same = SiteCategories([(SitePattern("*.example.org")!, "Web")])
        #expect(Self.shown(SiteCategorySplit.split(categories, parts: parts, sites: sites, rules: same)) == ["Web 60m"])
        #expect(Self.shown(SiteCategorySplit.split(categories, parts: parts, sites: sites, rules: SiteCategories([]))) == ["Web 60m"])
    }

    /// A site's time is taken only from its own browser's apps, and never more than they have.
    @Test func aSiteTakesOnlyWhatItsBrowserHas() {
        let categories = [(name: "Productivity", micros: Self.minutes(10)), (name: "Browsing", micros: Self.minutes(50))]
        let parts = [Part(app: "Google Chrome", category: "Productivity", micros: Self.minutes(10)), Part(app: "Firefox", category: "Browsing", micros: Self.minutes(50))]
        // Chrome's site claims more than Chrome had (sites counted against other data): 10 moves.
        let sites = [SiteTime(site: "docs.python.org", browser: "chrome", micros: Self.minutes(45), sessions: 1)]
        #expect(Self.shown(SiteCategorySplit.split(categories, parts: parts, sites: sites, rules: Self.rules)) == ["Browsing 50m", "Work 10m"])
        // A browser with no app in the day: nothing moves.
        let chromium = [SiteTime(site: "docs.python.org", browser: "chromium", micros: Self.minutes(5), sessions: 1)]
        #expect(Self.shown(SiteCategorySplit.split(categories, parts: parts, sites: chromium, rules: Self.rules)) == ["Browsing 50m", "Productivity 10m"])
    }

    /// Property: on random days, the split categories add up to the day's total, none is
    /// negative, a category gains no more than its ruled sites' time, and a site without a rule
    /// changes nothing.
    @Test func theCategoriesStillAddUpToTheDaysTotal() {
        var g = SplitMix64(seed: 53)
        let names = ["Work", "Reading", "Productivity", "Social", "Games"]
        let apps = ["Chromium", "Google Chrome", "Firefox ESR", "Editor", "Terminal"]
        let hosts = ["docs.python.org", "a.example.org", "example.org", "news.example", "b.a.example.org"]
        let families = ["chromium", "chrome", "firefox"]
        for _ in 0..<500 {
            var parts: [Part] = []
            for app in apps where g.chance(0.8) {
                for _ in 0..<g.int(1...2) { parts.append(Part(app: app, category: g.pick(names), micros: g.int64(1...10_000) * 1_000_000)) }
            }
            var sums: [String: Micros] = [:]
            for p in parts { sums[p.category, default: 0] += p.micros }
            let categories = sums.map { (name: $0.key, micros: $0.value) }
            let total = categories.reduce(0) { $0 + $1.micros }
            var sites: [SiteTime] = []
            for host in hosts where g.chance(0.6) {
                sites.append(SiteTime(site: host, browser: g.pick(families), micros: g.int64(1...6_000) * 1_000_000, sessions: 1))
            }
            var rules: [(pattern: SitePattern, category: String)] = []
            for pattern in ["docs.python.org", "*.example.org", "news.example"] where g.chance(0.6) { rules.append((SitePattern(pattern)!, g.pick(names))) }
            let ruled = SiteCategories(rules)
            let split = SiteCategorySplit.split(categories, parts: parts, sites: sites, rules: ruled)
            #expect(split.reduce(0) { $0 + $1.micros } == total)
            #expect(split.allSatisfy { $0.micros > 0 })
            #expect(Set(split.map(\.name)).count == split.count)
            let gains = Dictionary(grouping: sites.compactMap { s in ruled.category(of: s.site).map { ($0, s.micros) } }, by: \.0).mapValues { $0.reduce(0) { $0 + $1.1 } }
            for c in split {
                #expect(c.micros <= (sums[c.name] ?? 0) + (gains[c.name] ?? 0))
            }
            let unruled = SiteCategorySplit.split(categories, parts: parts, sites: sites.filter { ruled.category(of: $0.site) == nil }, rules: ruled)
            #expect(Dictionary(uniqueKeysWithValues: unruled.map { ($0.name, $0.micros) }) == sums)
        }
    }

    /// The day's report keeps its apps, hours and totals; its categories' shares are of its total.
    @Test func aDaysReportKeepsEverythingButItsCategories() {
        let d = try! SessionsJSON.decode(
            """
            [{"session_id":"a","app_name":"Chromium","category":"Productivity","start_timestamp":"2026-03-02T09:00:00Z","end_timestamp":"2026-03-02T10:00:00Z"},
             {"session_id":"b","app_name":"Terminal","category":"Developer Tools","start_timestamp":"2026-03-02T10:00:00Z","end_timestamp":"2026-03-02T10:30:00Z"}]
            """)
        let r = DayReport(history: d, date: LocalDate(iso: "2026-03-02")!, zone: .utc)
        let sites = [SiteTime(site: "docs.python.org", browser: "chromium", micros: Self.minutes(15), sessions: 1)]
        let split = SiteCategorySplit.split(r, sites: sites, rules: Self.rules)
        #expect(split.categories.map { "\($0.name) \($0.micros / 60_000_000)m \(Int(($0.share * 100).rounded()))%" } == [
            "Productivity 45m 50%", "Developer Tools 30m 33%", "Work 15m 17%",
        ])
        #expect(split.apps == r.apps && split.hours == r.hours && split.totalMicros == r.totalMicros && split.screenTimeMicros == r.screenTimeMicros)
    }
}
