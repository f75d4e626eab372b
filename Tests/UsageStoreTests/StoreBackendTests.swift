// StoreBackendTests.swift — the same store cases on every backend (SQLite, and PostgreSQL on the tests' server): imports each session once, day reports equal the file's, the tracker's rules, retention, devices apart and merged, hostile names kept exactly, a newer schema refused, copies between backends, the change token; a range's kept totals equal its windows summed, per device and merged, through imports, updates, forget, retention, the migration and copies.
import Foundation
import GRDB
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
import UsageData
@testable import UsageStore

private let zone = Zone(identifier: "Europe/Paris")!
private func at(_ text: String) -> Stamp {
    let t = RFC3339.parse(text)!
    return Stamp(instant: t, offsetMinutes: zone.offsetSeconds(at: t) / 60, zone: zone.identifier)
}

private func imported(_ store: any StoreWriter, _ d: Dataset, identity: String = "/data.json", device: String = "laptop") throws -> ImportSummary {
    try store.importSessions([ImportSource(identity: identity, shown: d.source, dataset: d, device: device)], now: importNow, zone: .utc)
}

struct StoreBackendTests {
    @Test(arguments: Backend.allCases)
    func eachSessionGoesInOnceAndAGrownOneIsUpdated(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let first = try imported(s.store, dataset(StoreImportTests.day))
        #expect(first.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[3, 0, 0]])
        let again = try imported(s.store, dataset(StoreImportTests.day))
        #expect(again.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[0, 0, 3]])
        let grown = rows([
            row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:30:00Z"),
            row("b", "Mail", "Work", "2026-02-23T12:00:00.000001Z", "2026-02-23T12:30:00Z"),
            row(nil, "Notes", nil, "2026-02-22T23:30:00+01:00", "2026-02-23T00:15:00Z"),
        ])
        let third = try imported(s.store, dataset(grown))
        #expect(third.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[0, 1, 2]])
        #expect(third.sessions == 3)
        let all = Array(try s.store.history(source: "store").all)
        #expect(all.map(\.sessionEnd).max() == RFC3339.parse("2026-02-23T12:30:00Z"))
        #expect(all.first { $0.sessionStart == RFC3339.parse("2026-02-23T10:00:00Z") }?.sessionEnd == RFC3339.parse("2026-02-23T11:30:00Z"))
    }

    @Test(arguments: Backend.allCases)
    func everyDaysReportFromTheStoreEqualsTheFiles(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let file = randomSessions(seed: 7, count: 1500)
        _ = try imported(s.store, file)
        let store = try s.store.history(source: "store")
        #expect(store.sessionCount == file.sessionCount)
        for zone in StoreReportsTests.zones {
            let range = try #require(file.dayRange(in: zone))
            #expect(store.dayRange(in: zone) == range)
            var day = range.lowerBound.adding(days: -1)
            while day <= range.upperBound.adding(days: 1) {
                #expect(DayReport(history: store, date: day, zone: zone) == DayReport(history: file, date: day, zone: zone), "\(day) \(zone.identifier)")
                day = day.adding(days: 1)
            }
        }
        #expect(store.takeReadFailure() == nil)
    }

    @Test(arguments: Backend.allCases)
    func theTrackersRulesHoldAndRefusalsNameTheIntervalInTheWay(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        let first = try store.start("Write", at: at("2026-02-23T09:00:00Z"))
        #expect(first.createdTask && first.started?.task.id == 1)
        let second = try store.start("Mail", at: at("2026-02-23T10:15:00Z"))
        #expect(second.stopped?.task.name == "Write")
        #expect(second.stopped?.interval.end == RFC3339.parse("2026-02-23T10:15:00Z"))
        #expect(second.started?.interval.start == RFC3339.parse("2026-02-23T10:15:00Z"))
        #expect(try store.stopwatchState().runningTask?.name == "Mail")
        _ = try store.pause(at: at("2026-02-23T10:45:00Z"))
        #expect(throws: TrackingError.overlap(session: 1, task: "Write", start: RFC3339.parse("2026-02-23T09:00:00Z")!, end: RFC3339.parse("2026-02-23T10:15:00Z")!)) {
            try store.track("New", from: at("2026-02-23T09:30:00Z"), to: at("2026-02-23T11:00:00Z"))
        }
        #expect(throws: TrackingError.endNotAfterStart(start: RFC3339.parse("2026-02-23T12:00:00Z")!, end: RFC3339.parse("2026-02-23T11:00:00Z")!)) {
            try store.track("New", from: at("2026-02-23T12:00:00Z"), to: at("2026-02-23T11:00:00Z"))
        }
        // A refusal changes nothing: not even the new task was made (its number is the next one).
        _ = try store.resume(at: at("2026-02-23T11:00:00Z"))
        _ = try store.stop(at: at("2026-02-23T11:30:00Z"))
        #expect(throws: TrackingError.nothingRunning) { try store.stop(at: at("2026-02-23T12:00:00Z")) }
        let tracked = try store.track("Plan", from: at("2026-02-23T12:00:00Z"), to: at("2026-02-23T12:30:00Z"))
        #expect(tracked.started?.task.id == 3)
        try store.addCategory("Work", now: 1)
        _ = try store.editTask("Write", .category("work"), now: 2)
        #expect(throws: TrackingError.categoryExists("WORK")) { try store.addCategory("WORK", now: 3) }
        #expect(try store.renameCategory("work", to: "Job") == "Work")
        #expect(try store.categoryRenames() == ["Work": "Job"])
        #expect(try store.deleteCategory("job") == ("Job", 1))
        try store.deleteTask(id: 1, withTime: false, now: 10, offsetMinutes: 60)
        let snapshot = try store.trackerSnapshot()
        #expect(snapshot.tasks.map(\.name) == ["Write", "Mail", "Plan"])
        #expect(snapshot.tasks[0].deleted == 10 && snapshot.tasks[0].category == nil)
        #expect(snapshot.intervals.count == 4)
        // The database itself holds the rules, past every Swift check.
        #expect(throws: (any Error).self) { try s.raw("INSERT INTO tracked (id, task, start, start_offset, zone) VALUES (99, 2, 1, 0, 'UTC'); INSERT INTO tracked (id, task, start, start_offset, zone) VALUES (98, 2, 2, 0, 'UTC')") }
        #expect(throws: (any Error).self) {
            try s.raw("INSERT INTO tracked (id, task, start, \"end\", start_offset, end_offset, zone) VALUES (97, 2, \(RFC3339.parse("2026-02-23T09:10:00Z")!), \(RFC3339.parse("2026-02-23T09:20:00Z")!), 0, 0, 'UTC')")
        }
        #expect(try store.trackerSnapshot().intervals.count == 4)
    }

    @Test(arguments: Backend.allCases)
    func forgetKeepsWhatCrossesTheCutWholeAndTheCountsTrue(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try imported(s.store, dataset(StoreRetentionTests.spread))
        let cut = RFC3339.parse("2026-02-20T00:00:00Z")!
        let counted = try s.store.countEnding(before: cut)
        #expect(counted.matching == 1 && counted.total == 3)
        #expect(try s.store.forget(endingBefore: cut) == 1)
        #expect(try s.store.history(source: "store").sessionCount == 2)
        #expect(try s.store.devices().map(\.sessions) == [2])
        try s.store.setRetention(days: 30)
        #expect(try s.store.retentionDays() == 30)
    }

    @Test(arguments: Backend.allCases)
    func devicesAreKeptApartAndMergedTheSameAppAtOnceCountsOnceInScreenTime(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let d = dataset(StoreImportTests.day)
        _ = try imported(s.store, d, device: "laptop")
        _ = try imported(s.store, d, device: "desktop")
        // The same path on two devices is two sources.
        #expect(try s.store.summary(zone: .utc).sources.count == 2)
        #expect(Set(try s.store.devices().map(\.name)) == ["laptop", "desktop"])
        #expect(try s.store.devices().map(\.sessions) == [3, 3])
        let day = LocalDate(iso: "2026-02-23")!
        let laptop = DayReport(history: try s.store.history(source: "store", device: "laptop"), date: day, zone: .utc)
        let both = DayReport(history: try s.store.history(source: "store"), date: day, zone: .utc)
        #expect(laptop == DayReport(history: d, date: day, zone: .utc))
        #expect(both.totalMicros == 2 * laptop.totalMicros)
        #expect(both.screenTimeMicros == laptop.screenTimeMicros)
        #expect(try s.store.history(source: "store", device: "laptop").sessionCount == 3)
        #expect(throws: StoreError.unknownDevice(path: s.location.description, name: "phone")) {
            try s.store.history(source: "store", device: "phone")
        }
    }

    /// Names written to hurt: quotes and a statement, a NUL (PostgreSQL's text cannot hold one),
    /// the escape the PostgreSQL store carries it with, control characters, a long one.
    static let hostile = ["x'); DROP TABLE session;--", "a\u{0}b", "\u{FFFE}0", "'\\\"\n\t", "\u{202E}evil", String(repeating: "é", count: 3000)]

    @Test(arguments: Backend.allCases)
    func hostileNamesAreStoredAndComeBackExactly(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        var list: [String] = []
        for (k, name) in Self.hostile.enumerated() {
            let json = String(decoding: try JSONEncoder().encode(name), as: UTF8.self)
            list.append(#"{"session_id":\#(json),"app_name":\#(json),"category":\#(json),"start_timestamp":"2026-02-23T1\#(k):00:00Z","end_timestamp":"2026-02-23T1\#(k):30:00Z"}"#)
        }
        _ = try imported(s.store, dataset("[" + list.joined(separator: ",") + "]"), device: Self.hostile[0])
        let history = try s.store.history(source: "store")
        let window = history.window(from: .min, to: .max, ids: true)
        for session in window {
            let k = Int((session.sessionStart - RFC3339.parse("2026-02-23T10:00:00Z")!) / 3_600_000_000)
            // Names are kept exactly but for the trim of docs/DATA.md §2.
            #expect(history.apps[Int(session.app)].sameScalars(as: Normalise.appName(Self.hostile[k])))
            #expect(history.categories[Int(session.category)].sameScalars(as: Normalise.category(Self.hostile[k])))
            #expect(window.id(of: session).map { $0.sameScalars(as: Self.hostile[k]) } == true)
        }
        #expect(try s.store.devices().map(\.name) == [Self.hostile[0]])
        for name in Self.hostile.filter({ !$0.contains("\u{0}") }) {
            _ = try s.store.addTask(TaskDraft(name: name), now: 1)
        }
        #expect(try s.store.trackerSnapshot().tasks.map(\.name) == Self.hostile.filter { !$0.contains("\u{0}") })
    }

    @Test(arguments: Backend.allCases)
    func aStoreOfANewerSchemaIsRefusedAndLeftAlone(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try imported(s.store, dataset(StoreImportTests.day))
        switch backend {
        case .sqlite: try s.raw("INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')")
        case .postgres: try s.raw("INSERT INTO migrations (ordinal, identifier) VALUES (99, 'v9: from the future')")
        }
        #expect(throws: StoreError.newerSchema(path: s.location.description, found: ["v9: from the future"])) {
            try OpenStores().reader(s.location)
        }
    }

    @Test(arguments: Backend.allCases)
    func theChangeTokenMovesWithEveryCommitAndOnlyThen(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let first = try s.store.changeToken()
        #expect(try s.store.changeToken() == first)
        try s.store.setRetention(days: 30)
        let second = try s.store.changeToken()
        #expect(second != first, "this store's own change")
        try s.another().setRetention(days: 60)
        #expect(try s.store.changeToken() != second, "another connection's change")
    }

    @Test(arguments: Backend.allCases)
    func oneScreensWindowsAreOneStateWhateverAnotherConnectionCommits(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try imported(s.store, dataset(OpenStoresTests.twoDays))
        let other = try s.another()
        let history = try s.store.history(source: "store")
        func count(_ from: String, _ to: String) -> Int { history.window(from: instant(from), to: instant(to)).reduce(0) { n, _ in n + 1 } }
        let seen = history.readingAsOne { () -> [Int] in
            let monday = count("2026-02-23T00:00:00Z", "2026-02-24T00:00:00Z")
            _ = try? other.forget(endingBefore: instant("2026-02-25T00:00:00Z"))
            return [monday, count("2026-02-24T00:00:00Z", "2026-02-25T00:00:00Z")]
        }
        #expect(seen == [1, 1])
        #expect(count("2026-02-24T00:00:00Z", "2026-02-25T00:00:00Z") == 0)
    }

    /// A SQLite store copied into PostgreSQL and back holds the same: sessions with their keys
    /// and devices, the tracker; copying again adds nothing.
    @Test(arguments: Backend.allCases)
    func undoPutsTheTrackerBackOneChangeAtATime(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        func state() throws -> String {
            let t = try store.trackerSnapshot()
            return "\(t.tasks) \(t.intervals) \(t.categories) \(try store.categoryRenames())"
        }
        var states = [try state()]
        let steps: [(String, () throws -> Void)] = [
            ("track", { _ = try store.track("Write", from: at("2026-02-23T09:00:00Z"), to: at("2026-02-23T10:00:00Z")) }),
            ("start", { _ = try store.start("Mail", at: at("2026-02-23T10:00:00Z")) }),
            ("session split", { _ = try store.splitSession(2, at: at("2026-02-23T10:30:00Z"), now: RFC3339.parse("2026-02-23T11:00:00Z")!) }),
            ("start", { _ = try store.start("Write", at: at("2026-02-23T11:00:00Z")) }),
            ("session join", { _ = try store.joinSessions(2, 3) }),
            ("session delete", { _ = try store.deleteSession(1) }),
            ("task add", { _ = try store.addTask(TaskDraft(name: "Plan", category: "Home"), now: 5) }),
            ("category rename", { _ = try store.renameCategory("Home", to: "House") }),
            ("task delete", { try store.deleteTask(id: 2, withTime: true, now: 6, offsetMinutes: 0) }),
        ]
        for (_, step) in steps {
            try step()
            states.append(try state())
        }
        for k in steps.indices.reversed() {
            #expect(try store.undo().note.command == steps[k].0)
            #expect(try state() == states[k], "after undoing \(steps[k].0)")
        }
        #expect(throws: TrackingError.nothingToUndo) { try store.undo() }
        // A copy's tracked time is one change: undo takes it out again, the sessions stay.
        let other = try BackendStore(.sqlite)
        _ = try other.store.track("Read", from: at("2026-02-24T09:00:00Z"), to: at("2026-02-24T10:00:00Z"))
        _ = try imported(other.store, dataset(StoreImportTests.day))
        _ = try store.copyIn(try other.store.contents(), from: "other", now: importNow)
        #expect(try store.trackerSnapshot().tasks.map(\.name) == ["Read"])
        let undone = try store.undo()
        #expect(undone.note == ChangeNote("import store", name: other.location.description))
        #expect(try state() == states[0])
        #expect(Array(try store.history(source: "store").all).count == 3)
    }

    @Test func aStoreCopiedFromSQLiteToPostgreSQLAndBackHoldsTheSame() throws {
        guard available(.postgres) else { return }
        let sqlite = try BackendStore(.sqlite)
        _ = try imported(sqlite.store, randomSessions(seed: 3, count: 500), device: "laptop")
        _ = try imported(sqlite.store, dataset(StoreImportTests.day), identity: "/phone.json", device: "phone")
        _ = try sqlite.store.track("Write", from: at("2026-02-23T09:00:00Z"), to: at("2026-02-23T10:00:00Z"))
        _ = try sqlite.store.addTask(TaskDraft(name: "Plan", category: "Work", priority: .high), now: 5)
        let postgres = try BackendStore(.postgres)
        let copied = try postgres.store.copyIn(try sqlite.store.contents(), from: "a", now: importNow)
        #expect((copied.sessionsAdded, copied.sessionsKept, copied.tasksAdded, copied.intervalsAdded) == (503, 0, 2, 1))
        let again = try postgres.store.copyIn(try sqlite.store.contents(), from: "a", now: importNow)
        #expect((again.sessionsAdded, again.sessionsKept, again.tasksAdded, again.intervalsAdded, again.intervalsKept) == (0, 503, 0, 0, 1))
        let back = try BackendStore(.sqlite)
        _ = try back.store.copyIn(try postgres.store.contents(), from: "b", now: importNow)
        for store in [postgres.store, back.store] {
            #expect(Set(try store.devices().map(\.name)) == ["laptop", "phone"])
            let a = Array(try sqlite.store.history(source: "store").all).map { [$0.sessionStart, $0.sessionEnd] }
            let b = Array(try store.history(source: "store").all).map { [$0.sessionStart, $0.sessionEnd] }
            #expect(a == b)
            #expect(try store.trackerSnapshot().tasks.map(\.name) == ["Write", "Plan"])
            #expect(try store.trackerSnapshot().intervals.map(\.start) == [RFC3339.parse("2026-02-23T09:00:00Z")!])
        }
        // The same file imported into the copy later finds its sessions (their keys came along).
        let later = try imported(back.store, dataset(StoreImportTests.day), identity: "/phone.json", device: "phone")
        #expect(later.sources.map { [$0.added, $0.unchanged] } == [[0, 3]])
    }

    /// GRDB reads text up to its first NUL, and a copy read a SQLite store's names and ids
    /// through it: `App\0tail` arrived as `App`. The SQLite store's rows are now stepped with
    /// their text's length.
    @Test(arguments: Backend.allCases)
    func bugACopyOfASQLiteStoreCutNamesAndIDsAtANUL(backend: Backend) throws {
        guard available(backend) else { return }
        let sqlite = try BackendStore(.sqlite)
        _ = try imported(sqlite.store, dataset(rows([row("id\\u0000tail", "App\\u0000tail", "Cat\\u0000tail", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])))
        let target = try BackendStore(backend)
        _ = try target.store.copyIn(try sqlite.store.contents(), from: "a", now: importNow)
        let history = try target.store.history(source: "store")
        let window = history.window(from: .min, to: .max, ids: true)
        #expect(window.map { history.apps[Int($0.app)] } == ["App\u{0}tail"])
        #expect(window.map { history.categories[Int($0.category)] } == ["Cat\u{0}tail"])
        #expect(window.map { window.id(of: $0) } == ["id\u{0}tail"])
    }

    /// GRDB binds a `String` as a C string too: a device name with a NUL was stored cut.
    @Test(arguments: Backend.allCases)
    func bugASQLiteStoreCutADeviceNameAtANULWhereItWasWritten(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try imported(s.store, dataset(StoreImportTests.day), device: "desk\u{0}top")
        #expect(try s.store.devices().map(\.name) == ["desk\u{0}top"])
    }

    // MARK: A range's kept totals (issue 32), per device and merged

    /// The kept tables as they are, and as the session rows make them anew (shared SQL).
    static func keptTables(_ store: any StoreWriter) throws -> (kept: [String], fresh: [String]) {
        try (store as! any SQLStore).read { tx in
            let kept = try tx.rows("SELECT quarter, device, micros FROM quarter_total ORDER BY quarter, device", []).map {
                "q\($0[0].integer!):\($0[1].integer!)=\($0[2].integer!)"
            } + tx.rows("SELECT day, device, app, category, micros, starts FROM day_total ORDER BY day, device, app, category", []).map {
                "d\($0[0].integer!):\($0[1].integer!)/\($0[2].integer!)/\($0[3].integer!)=\($0[4].integer!)/\($0[5].integer!)"
            }
            var delta = TotalsDelta()
            for row in try tx.rows("SELECT start, length, device, app, category FROM session", []) {
                delta.add(start: row[0].integer!, end: row[0].integer! + row[1].integer!, device: row[2].integer!, app: row[3].integer!, category: row[4].integer!)
            }
            let fresh = delta.quarters.filter { $0.value != 0 }.sorted { ($0.key.quarter, $0.key.device) < ($1.key.quarter, $1.key.device) }
                .map { "q\($0.key.quarter):\($0.key.device)=\($0.value)" }
                + delta.days.filter { $0.value.micros != 0 || $0.value.starts != 0 }
                .sorted { ($0.key.day, $0.key.device, $0.key.app, $0.key.category) < ($1.key.day, $1.key.device, $1.key.app, $1.key.category) }
                .map { "d\($0.key.day):\($0.key.device)/\($0.key.app)/\($0.key.category)=\($0.value.micros)/\($0.value.starts)" }
            return (kept, fresh)
        }
    }

    /// Random ranges: each device's totals and every device's, from the store and from a
    /// history of it, equal that history's windows summed; every device's are the devices' added.
    static func checkRanges(_ store: any StoreWriter, seed: UInt64, _ note: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try keptTables(store).kept == keptTables(store).fresh, "\(note)", sourceLocation: sourceLocation)
        let devices = try store.devices().map(\.name).filter { try store.history(source: "s", device: $0).sessionCount > 0 }
        guard let span = try store.history(source: "store").span else { return }
        var random = SplitMix64(seed)
        for zone in [Zone.utc, Zone(identifier: "America/New_York")!, Zone(identifier: "Asia/Kathmandu")!] {
            let days = zone.localDate(of: span.start).adding(days: -1)...zone.localDate(of: span.end).adding(days: 1)
            for _ in 0..<3 {
                let from = days.lowerBound.adding(days: random.below(days.lowerBound.days(to: days.upperBound) + 1))
                let bounds = DayBounds(from...min(days.upperBound, from.adding(days: random.below(12))), zone: zone)
                var each: [RangeTotals] = []
                for device in [nil] + devices.map(Optional.some) {
                    let history = try store.history(source: "store", device: device)
                    let windows = history.summingRangeTotals(bounds, detail: true)
                    let what = "\(note): \(bounds.first)+\(bounds.count) \(zone.identifier) \(device ?? "all")"
                    #expect(try store.rangeTotals(bounds, detail: true, device: device) == windows, "\(what)", sourceLocation: sourceLocation)
                    #expect(history.rangeTotals(bounds, detail: true) == windows, "\(what)", sourceLocation: sourceLocation)
                    #expect(history.rangeTotals(bounds, detail: false).days == windows.days, "\(what)", sourceLocation: sourceLocation)
                    if device != nil { each.append(windows) }
                }
                #expect(try store.rangeTotals(bounds, detail: true) == RangeTotals.adding(each), "\(note)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aRangesKeptTotalsAreItsWindowsSummedPerDeviceAndMergedThroughEveryChange(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try imported(s.store, randomSessions(seed: 21, count: 700), device: "laptop")
        _ = try imported(s.store, randomSessions(seed: 22, count: 500), identity: "/desktop.json", device: "desktop")
        // The same sessions on two devices: twice the app time, once the screen time (the day screens' rule).
        _ = try imported(s.store, dataset(StoreImportTests.day), identity: "/day.json", device: "laptop")
        _ = try imported(s.store, dataset(StoreImportTests.day), identity: "/day.json", device: "desktop")
        try Self.checkRanges(s.store, seed: 1, "imports")
        let day = LocalDate(iso: "2026-02-23")!
        let bounds = DayBounds(day...day, zone: .utc)
        let laptop = try s.store.rangeTotals(bounds, detail: true, device: "laptop")
        #expect(try s.store.rangeTotals(bounds, detail: true).days == laptop.days.map { 2 * $0 })
        #expect(RangeSummary(history: try s.store.history(source: "store"), range: DateRange(from: day, to: day, kind: .lastDays), zone: .utc).totalMicros
            == DayReport(history: try s.store.history(source: "store"), date: day, zone: .utc).totalMicros)
        #expect(throws: StoreError.unknownDevice(path: s.location.description, name: "phone")) {
            try s.store.rangeTotals(bounds, detail: true, device: "phone")
        }
        // Updated in place: a grown session, one moved to another app.
        let grown = rows([
            row("a", "Safari", "Web", "2026-02-23T10:00:00Z", "2026-02-23T11:30:00Z"),
            row("b", "Maps", "Work", "2026-02-23T12:00:00.000001Z", "2026-02-23T12:30:00Z"),
            row(nil, "Notes", nil, "2026-02-22T23:30:00+01:00", "2026-02-23T00:15:00Z"),
        ])
        #expect(try imported(s.store, dataset(grown), identity: "/day.json", device: "desktop").sources[0].updated == 2)
        try Self.checkRanges(s.store, seed: 2, "updates")
        // Forget mid-day, then retention inside an import.
        #expect(try s.store.forget(endingBefore: instant("2026-03-08T13:17:00Z")) > 0)
        try Self.checkRanges(s.store, seed: 3, "forget")
        try s.store.setRetention(days: 20)
        let later = randomSessions(seed: 23, count: 200)
        let summary = try s.store.importSessions(
            [ImportSource(identity: "/later.json", shown: later.source, dataset: later, device: "tablet")], now: instant("2026-11-20T08:00:00Z"), zone: .utc)
        #expect(summary.forgotten > 0)
        try Self.checkRanges(s.store, seed: 4, "retention")
        // The migration of a store made before the totals: they are made from its sessions.
        switch backend {
        case .sqlite: try s.raw("DROP TABLE quarter_total; DROP TABLE day_total; DELETE FROM grdb_migrations WHERE identifier = 'v6: day totals'")
        case .postgres: try s.raw("DROP TABLE quarter_total; DROP TABLE day_total; DELETE FROM migrations WHERE identifier = 'v6: day totals'")
        }
        let reopened = try s.another()
        try Self.checkRanges(reopened, seed: 5, "migration")
        #expect(try Self.keptTables(reopened).kept.isEmpty == false)
    }

    @Test(arguments: Backend.allCases)
    func aStoreCopyLeavesTheTargetsKeptTotalsRight(backend: Backend) throws {
        guard available(backend) else { return }
        // Into this backend from the other one (SQLite into itself when PostgreSQL is the other).
        let origin = try BackendStore(backend == .sqlite && available(.postgres) ? .postgres : .sqlite)
        _ = try imported(origin.store, randomSessions(seed: 31, count: 400), device: "laptop")
        _ = try imported(origin.store, randomSessions(seed: 32, count: 300), identity: "/phone.json", device: "phone")
        let s = try BackendStore(backend)
        // The target holds part of it already (its own import of the phone's file) and more.
        _ = try imported(s.store, randomSessions(seed: 32, count: 300), identity: "/phone.json", device: "phone")
        _ = try imported(s.store, dataset(StoreImportTests.day), identity: "/day.json", device: "laptop")
        let copied = try s.store.copyIn(try origin.store.contents(), from: "origin", now: importNow)
        #expect(copied.sessionsAdded == 400)
        try Self.checkRanges(s.store, seed: 6, "copy")
        let before = try Self.keptTables(s.store).kept
        #expect(try s.store.copyIn(try origin.store.contents(), from: "origin", now: importNow).sessionsAdded == 0)
        #expect(try Self.keptTables(s.store).kept == before)
        // And back the other way: the copy of a copy keeps them right too.
        let back = try BackendStore(.sqlite)
        _ = try back.store.copyIn(try s.store.contents(), from: "target", now: importNow)
        try Self.checkRanges(back.store, seed: 7, "copy back")
    }
}
