// DayReportReferenceTests.swift — the day report's table-based sums (issue 19) against a plain reference made here with dictionaries keyed by name: random days in several zones (DST days included), sessions across midnight and across hours, a few apps and thousands of them (the dictionary fallback), and `DaySummary`'s lean pass against the report.
import Testing
@testable import UsageCore
@testable import UsageFormats
import TestSupport

enum DayReportReference {
    /// What a day report must hold, worked out the plain way: every clipped session's time
    /// summed by name into dictionaries, then sorted by docs/DATA.md §4's order.
    struct Expected: Equatable {
        var total: Micros = 0
        var apps: [String] = []  // "name|category|micros|sessions"
        var categories: [String] = []  // "name|micros"
        var hours: [String] = []  // "hour|micros|apps…|categories…"
    }

    static func expected(_ d: Dataset, day: LocalDate, zone: Zone) -> Expected {
        let window = zone.window(for: day)
        // Keyed by exact scalars (Swift's String == would merge `é` with `e` + U+0301).
        var appTime: [ExactName: Micros] = [:]
        var appCount: [ExactName: Int] = [:]
        var appCategory: [ExactName: [ExactName: Micros]] = [:]
        var categoryTime: [ExactName: Micros] = [:]
        var slotApp = [[ExactName: Micros]](repeating: [:], count: window.slots.count)
        var slotCategory = [[ExactName: Micros]](repeating: [:], count: window.slots.count)
        var e = Expected()
        for s in d.all {
            let start = max(s.start, window.start)
            let end = min(s.end, window.end)
            guard end > start else { continue }
            let app = ExactName(d.apps[Int(s.app)])
            let category = ExactName(d.categories[Int(s.category)])
            e.total += end - start
            appTime[app, default: 0] += end - start
            appCount[app, default: 0] += 1
            appCategory[app, default: [:]][category, default: 0] += end - start
            categoryTime[category, default: 0] += end - start
            for (n, slot) in window.slots.enumerated() {
                let overlap = min(end, slot.end) - max(start, slot.start)
                if overlap > 0 {
                    slotApp[n][app, default: 0] += overlap
                    slotCategory[n][category, default: 0] += overlap
                }
            }
        }
        func ordered(_ sums: [ExactName: Micros]) -> [(name: String, micros: Micros)] {
            sums.map { (name: $0.key.text, micros: $0.value) }.sorted(by: DayReport.mostFirst)
        }
        e.apps = ordered(appTime).map { app in
            let key = ExactName(app.name)
            return "\(app.name)|\(ordered(appCategory[key]!)[0].name)|\(app.micros)|\(appCount[key]!)"
        }
        e.categories = ordered(categoryTime).map { "\($0.name)|\($0.micros)" }
        e.hours = window.slots.indices.map { n in
            let apps = ordered(slotApp[n])
            return "\(window.slots[n].hour)|\(apps.reduce(0) { $0 + $1.micros })|"
                + apps.map { "\($0.name)=\($0.micros)" }.joined(separator: ",") + "|"
                + ordered(slotCategory[n]).map { "\($0.name)=\($0.micros)" }.joined(separator: ",")
        }
        return e
    }

    /// The first difference between two, in a line (nil when equal): never the whole reports.
    static func difference(_ a: Expected, _ b: Expected) -> String? {
        if a.total != b.total { return "total \(a.total) != \(b.total)" }
        for (name, x, y) in [("apps", a.apps, b.apps), ("categories", a.categories, b.categories), ("hours", a.hours, b.hours)] {
            if x.count != y.count { return "\(name): \(x.count) != \(y.count) entries" }
            if let k = x.indices.first(where: { x[$0] != y[$0] }) { return "\(name)[\(k)]: \(x[k].prefix(300)) != \(y[k].prefix(300))" }
        }
        return nil
    }

    static func actual(_ r: DayReport) -> Expected {
        Expected(
            total: r.totalMicros,
            apps: r.apps.map { "\($0.name)|\($0.category)|\($0.micros)|\($0.sessions)" },
            categories: r.categories.map { "\($0.name)|\($0.micros)" },
            hours: r.hours.map { h in
                "\(h.slot.hour)|\(h.micros)|" + h.apps.map { "\($0.name)=\($0.micros)" }.joined(separator: ",") + "|"
                    + h.categories.map { "\($0.name)=\($0.micros)" }.joined(separator: ",")
            })
    }

    /// Random sessions around `day`: up to 30 hours long, starting up to a day before it.
    static func dataset(seed: UInt64, sessions: Int, apps: Int, categories: Int, around day: LocalDate) throws -> Dataset {
        var g = SplitMix64(seed: seed)
        let base = Zone.utc.startOfDay(day) - 36 * 3_600_000_000
        let rows = (0..<sessions).map { k -> String in
            let start = base + Micros(g.int(0...(96 * 3600))) * 1_000_000 + Micros(g.int(0...999_999))
            let length = g.chance(0.1) ? Micros(g.int(1...(30 * 3600))) * 1_000_000 : Micros(g.int(1...5400)) * 1_000_000
            // Names that differ only by a combining mark stay two apps (compared by scalars).
            let app = g.chance(0.02) ? "e\u{301}" : g.chance(0.02) ? "\u{E9}" : "app \(g.int(0...(apps - 1)))"
            return "{\"session_id\":\"\(k)\",\"app_name\":\"\(app)\",\"category\":\"cat \(g.int(0...(categories - 1)))\","
                + "\"start_timestamp\":\"\(RFC3339Text.utc(start))\",\"end_timestamp\":\"\(RFC3339Text.utc(start + length))\"}"
        }
        return try SessionsJSON.decode("[" + rows.joined(separator: ",\n") + "]")
    }
}

/// RFC 3339 text of an instant in UTC with microseconds (test data only).
enum RFC3339Text {
    static func utc(_ t: Micros) -> String {
        let seconds = t.floorDiv(1_000_000)
        let days = seconds.floorDiv(86_400)
        let s = Int(seconds - days * 86_400)
        let micros = Int(t - seconds * 1_000_000)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = String(micros + 1_000_000).dropFirst()
        return "\(LocalDate(daysSinceEpoch: Int(days)))T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60)).\(fraction)Z"
    }
}

struct DayReportReferenceTests {
    static let zones = ["UTC", "America/New_York", "Europe/Paris", "Asia/Kolkata", "Australia/Lord_Howe"]
    static let days = ["2026-02-23", "2026-03-08", "2026-03-29", "2026-11-01", "2026-10-25", "2026-04-05"]

    @Test(arguments: 0..<12)
    func theReportEqualsThePlainSums(seed: Int) throws {
        let zone = try #require(Zone(identifier: Self.zones[seed % Self.zones.count]))
        let date = LocalDate(iso: Self.days[seed % Self.days.count])!
        let d = try DayReportReference.dataset(seed: UInt64(seed), sessions: 400, apps: 1 + seed * 3, categories: 1 + seed % 5, around: date)
        for day in [date.adding(days: -1), date, date.adding(days: 1)] {
            let r = DayReport(history: d, date: day, zone: zone)
            let difference = DayReportReference.difference(DayReportReference.actual(r), DayReportReference.expected(d, day: day, zone: zone))
            #expect(difference == nil, "seed \(seed), \(day)")
            let lean = DaySummary.summaries(of: [day], history: d, zone: zone)[0]
            #expect(lean == DaySummary(r), "the lean summary is the report's (seed \(seed), \(day))")
        }
    }

    /// Thousands of apps in a day: the (hour, app) sums no longer fit a small table.
    @Test func aDayOfThousandsOfAppsTakesTheDictionaryPath() throws {
        let date = LocalDate(iso: "2026-02-23")!
        let d = try DayReportReference.dataset(seed: 99, sessions: 30_000, apps: 20_000, categories: 40, around: date)
        let r = DayReport(history: d, date: date, zone: .utc)
        #expect(r.apps.count > 65536 / 24, "more apps than a small table holds")
        #expect(DayReportReference.difference(DayReportReference.actual(r), DayReportReference.expected(d, day: date, zone: .utc)) == nil)
    }

    @Test func anEmptyDay() throws {
        let date = LocalDate(iso: "2026-02-23")!
        let d = try DayReportReference.dataset(seed: 5, sessions: 50, apps: 3, categories: 2, around: date)
        let far = date.adding(days: 400)
        let r = DayReport(history: d, date: far, zone: .utc)
        #expect(r.isEmpty && r.apps.isEmpty && r.categories.isEmpty && r.hours.count == 24)
        #expect(DayReportReference.actual(r) == DayReportReference.expected(d, day: far, zone: .utc))
    }
}
