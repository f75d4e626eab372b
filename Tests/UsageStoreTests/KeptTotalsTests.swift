// KeptTotalsTests.swift — the totals the store keeps: a range's totals from them equal the same sessions' windows summed (random ranges, zones with DST, half-hour and 45-minute offsets, an old local mean time off the quarter hour, sessions longer than a day); the tables stay what the sessions make them through imports, updates in place, forget and retention; a store made before them (of the version with devices) gets them when opened, the newest migration; a history opened before an import still agrees with its windows.
import Foundation
import GRDB
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats
@testable import UsageStore

struct KeptTotalsTests {
    static let zones = ["UTC", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe"].map { Zone(identifier: $0)! }

    /// The kept tables as they are, and as the session table makes them from scratch.
    static func tables(_ store: SQLiteStore) throws -> (kept: [String], fresh: [String]) {
        try store.readDatabase { db in
            let kept = try String.fetchAll(db, sql: "SELECT 'q' || quarter || ':' || device || '=' || micros FROM quarter_total ORDER BY quarter, device")
                + String.fetchAll(
                    db, sql: "SELECT 'd' || day || ':' || device || '/' || app || '/' || category || '=' || micros || '/' || starts FROM day_total ORDER BY day, device, app, category")
            var delta = TotalsDelta()
            for row in try Row.fetchAll(db, sql: "SELECT start, length, device, app, category FROM session") {
                let start: Int64 = row[0]
                let length: Int64 = row[1]
                delta.add(start: start, end: start + length, device: row[2], app: row[3], category: row[4])
            }
            let fresh = delta.quarters.filter { $0.value != 0 }.sorted { ($0.key.quarter, $0.key.device) < ($1.key.quarter, $1.key.device) }
                .map { "q\($0.key.quarter):\($0.key.device)=\($0.value)" }
                + delta.days.filter { $0.value.micros != 0 || $0.value.starts != 0 }
                .sorted { ($0.key.day, $0.key.device, $0.key.app, $0.key.category) < ($1.key.day, $1.key.device, $1.key.app, $1.key.category) }
                .map { "d\($0.key.day):\($0.key.device)/\($0.key.app)/\($0.key.category)=\($0.value.micros)/\($0.value.starts)" }
            return (kept, fresh)
        }
    }

    /// The store's answer for random ranges equals its sessions' windows summed.
    static func checkRanges(_ store: SQLiteStore, seed: UInt64, zones: [Zone] = zones, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let history = try store.history(source: "store")
        guard let span = history.span else { return }
        var random = SplitMix64(seed)
        for zone in zones {
            let days = zone.localDate(of: span.start).adding(days: -2)...zone.localDate(of: span.end).adding(days: 2)
            for _ in 0..<5 {
                let from = days.lowerBound.adding(days: random.below(days.lowerBound.days(to: days.upperBound) + 1))
                let to = min(days.upperBound, from.adding(days: random.below(25)))
                let bounds = DayBounds(from...to, zone: zone)
                let windows = history.summingRangeTotals(bounds, detail: true)
                #expect(try store.rangeTotals(bounds, detail: true) == windows, "\(from)...\(to) \(zone.identifier)", sourceLocation: sourceLocation)
                #expect(history.rangeTotals(bounds, detail: false).days == windows.days, sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aRangesTotalsFromTheStoreEqualItsSessionsSummed(seed: UInt64) throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, randomSessions(seed: seed, count: 2500))
        let (kept, fresh) = try Self.tables(store)
        #expect(kept == fresh)
        try Self.checkRanges(store, seed: seed)
        // And the file's own windows say the same.
        let file = randomSessions(seed: seed, count: 2500)
        let bounds = DayBounds(LocalDate(iso: "2026-03-01")!...LocalDate(iso: "2026-11-10")!, zone: Zone(identifier: "America/New_York")!)
        #expect(try store.rangeTotals(bounds, detail: true) == file.rangeTotals(bounds, detail: true))
    }

    @Test func theTablesStayExactThroughUpdatesForgetAndRetention() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        var list = (0..<300).map { k in
            let start = instant("2026-03-01T00:00:00Z") + Micros(k) * 2_345_000_000
            return row("e\(k)", "App\(k % 7)", ["Work", "Web", nil][k % 3], RFC3339.text(start), RFC3339.text(start + Micros(60 + k * 37) * 1_000_000))
        }
        try importInto(store, dataset(rows(list)))
        #expect(try Self.tables(store).kept == Self.tables(store).fresh)
        // Events that grew, changed app and grew past a day: each updated in place.
        for k in stride(from: 0, to: 300, by: 9) {
            let start = instant("2026-03-01T00:00:00Z") + Micros(k) * 2_345_000_000
            let length: Micros = k % 27 == 0 ? 2 * 86_400_000_000 : Micros(600 + k) * 1_000_000
            list[k] = row("e\(k)", "Grown\(k % 2)", "Web", RFC3339.text(start), RFC3339.text(start + length))
        }
        let updated = try importInto(store, dataset(rows(list)))
        #expect(updated.sources[0].updated == 34)
        #expect(try Self.tables(store).kept == Self.tables(store).fresh)
        try Self.checkRanges(store, seed: 4)
        // Another source, then forget before a cut in the middle of a day.
        try importInto(store, randomSessions(seed: 5, count: 800), identity: "/other.json")
        #expect(try Self.tables(store).kept == Self.tables(store).fresh)
        let cut = instant("2026-03-04T13:17:00Z")
        #expect(try store.forget(endingBefore: cut) > 0)
        #expect(try Self.tables(store).kept == Self.tables(store).fresh)
        try Self.checkRanges(store, seed: 6)
        // Retention, applied inside the next import.
        try store.setRetention(days: 230)
        let summary = try importInto(store, randomSessions(seed: 7, count: 100), identity: "/third.json", now: instant("2026-11-20T08:00:00Z"))
        #expect(summary.forgotten > 0)
        #expect(try Self.tables(store).kept == Self.tables(store).fresh)
        try Self.checkRanges(store, seed: 8)
        // Everything forgotten: no totals are left.
        try store.forget(endingBefore: instant("2030-01-01T00:00:00Z"))
        #expect(try Self.tables(store).kept == [])
    }

    @Test func aStoreMadeBeforeTheTotalsGetsThemWhenItIsOpened() throws {
        let made = try TemporaryFolder("store")
        let source = try SQLiteStore.open(path: made.store, create: true)
        try importInto(source, randomSessions(seed: 9, count: 1500))
        source.close()
        // A store as the version before wrote it: up to devices, the same sessions.
        let old = try TemporaryFolder("store")
        let queue = try DatabaseQueue(path: old.store)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try SQLiteSchema.migrator.migrate(queue, upTo: "v5: devices")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS made", arguments: [made.store])
            for table in ["meta", "app", "category", "device", "source", "session", "app_latest"] {
                try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM made.\(table)")
            }
            try db.execute(sql: "DETACH DATABASE made")
        }
        #expect(try queue.read { try $0.tableExists("quarter_total") } == false)
        try queue.close()
        let store = try SQLiteStore.open(path: old.store, create: false)
        let (kept, fresh) = try Self.tables(store)
        #expect(!kept.isEmpty && kept == fresh)
        try Self.checkRanges(store, seed: 10)
        #expect(
            SQLiteSchema.known.suffix(6)
                == [
                    "v7: recorded time in the kept totals", "v9: imports", "v10: site visits", "v11: a session is its device's, whatever file brought it",
                    "v12: site categories", "v13: site visits by import",
                ])
    }

    @Test func aDayBoundaryOffTheQuarterHourSplitsItsQuarterExactly() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        // Liberia kept UTC−0:44:30 until 1972: its days then begin 44½ minutes after a quarter hour.
        let list = (0..<400).map { k in
            let start = instant("1965-06-01T00:00:00Z") + Micros(k) * 977_000_000 + Micros(k % 5) * 86_400_000_000
            return row("m\(k)", "App\(k % 4)", "Cat\(k % 3)", RFC3339.text(start), RFC3339.text(start + Micros(30 + k * 11) * 1_000_000))
        }
        try importInto(store, dataset(rows(list)))
        let monrovia = Zone(identifier: "Africa/Monrovia")!
        #expect(monrovia.startOfDay(LocalDate(iso: "1965-06-02")!) % TotalsDelta.quarter != 0)
        try Self.checkRanges(store, seed: 11, zones: [monrovia, .utc])
        // Any boundaries at all: seven minutes and a second off.
        let history = try store.history(source: "store")
        let base = instant("1965-06-01T00:07:01Z")
        let odd = DayBounds(first: LocalDate(iso: "1965-06-01")!, starts: (0...6).map { base + Micros($0) * 86_400_000_000 + Micros($0 * 13) * 1_000_000 })
        #expect(try store.rangeTotals(odd, detail: true) == history.summingRangeTotals(odd, detail: true))
    }

    @Test func aSessionOfCenturiesIsReadFromItsOwnIndexNotKeptQuarterByQuarter() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, dataset(rows([
            row("long", "Stuck", "Clock", "0100-01-01T00:00:00Z", "9000-01-01T00:00:00Z"),
            row("short", "Mail", "Work", "2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z"),
        ])))
        #expect(try Self.tables(store).kept.count == 3)  // the short session's two quarter hours and its day
        let bounds = DayBounds(LocalDate(iso: "2026-02-20")!...LocalDate(iso: "2026-02-25")!, zone: Zone(identifier: "Asia/Kolkata")!)
        let totals = try store.rangeTotals(bounds, detail: true)
        #expect(totals == (try store.history(source: "s")).summingRangeTotals(bounds, detail: true))
        #expect(totals.sessions.map(\.count) == [1, 1])
        #expect(totals.total == 6 * 86_400_000_000 + 1_800_000_000)
    }

    @Test func aHistoryOpenedBeforeAnImportAgreesWithItsOwnWindows() throws {
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, randomSessions(seed: 12, count: 300))
        let history = try store.history(source: "store")
        try importInto(store, randomSessions(seed: 13, count: 300), identity: "/later.json")
        let bounds = DayBounds(LocalDate(iso: "2026-03-01")!...LocalDate(iso: "2026-11-10")!, zone: .utc)
        #expect(history.rangeTotals(bounds, detail: true) == history.summingRangeTotals(bounds, detail: true))
        #expect(try store.rangeTotals(bounds, detail: true) != history.rangeTotals(bounds, detail: true))
        #expect(try store.rangeTotals(bounds, detail: true) == (try store.history(source: "store")).rangeTotals(bounds, detail: true))
    }
}
