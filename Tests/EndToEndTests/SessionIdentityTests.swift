// SessionIdentityTests.swift — issue 51, item 1, through the built binary on both backends: a session is its device's whatever file brought it (an export copied under another name adds nothing (in another import or the same one), weekly exports that overlap add only their new days, a session that grew updates in place), the same file for two devices stays two devices' sessions, `imports` says how many were already there, and `check` says which sessions a store holds twice and `check fix` removes them.
import Foundation
import Testing
import TestSupport

struct SessionIdentityTests {
    /// A JSON export of `rows` (app, category, start, end; no ids: sessions known by app and start).
    static func export(_ w: StoreWorkspace, _ name: String, _ rows: [(String, String, String, String)]) throws -> String {
        try w.write(
            name,
            "[\n"
                + rows.map { #"{"app_name":"\#($0.0)","category":"\#($0.1)","start_timestamp":"\#($0.2)","end_timestamp":"\#($0.3)"}"# }
                .joined(separator: ",\n") + "\n]\n")
    }

    /// A terminal wide enough that no line of the import's report wraps.
    static let wide = ["COLUMNS": "400"]

    /// The seconds of `day` (all devices).
    static func seconds(_ db: String, _ day: String) throws -> Double? {
        try Binary.json(["--db", db, "-c", "day \(day)"])["total_seconds"] as? Double
    }

    /// The README's promise, "each session once, however often you import it", held only for
    /// the same file name: a copy of an export under another name added every session again.
    @Test func bugTheSameExportUnderAnotherNameCountedTwice() throws {
        let w = try StoreWorkspace()
        let export = try w.sessions("phone.json", count: 1500, first: "2026-11-20T00:00:00Z", prefix: "p")
        let copy = w.url.appendingPathComponent("phone-export-2026-11-28.json").path
        try FileManager.default.copyItem(atPath: export, toPath: copy)
        for (name, db, keep) in ImportsForgetTests.stores(w) {
            _ = keep
            let first = try Binary.run(["--db", db, "import", export, "--device", "phone"], environment: Self.wide)
            #expect(first.stdout.hasPrefix("imported \(export): 1,500 added, 0 updated, 0 unchanged\n"), "\(name): \(first.stdout)")
            let days = ["2026-11-20", "2026-11-21", "2026-11-22"]
            let before = try days.map { try Self.seconds(db, $0) }
            let again = try Binary.run(["--db", db, "import", copy, "--device", "phone"], environment: Self.wide)
            #expect(again.status == 0, "\(name): \(again.stderr)")
            #expect(again.stdout.hasPrefix("imported \(copy): 0 added, 0 updated, 1,500 unchanged\n"), "\(name): \(again.stdout)")
            #expect(try days.map { try Self.seconds(db, $0) } == before, "\(name): the totals did not move")
            let list = try Binary.run(["--db", db, "--width", "200", "-c", "imports"]).stdout.split(separator: "\n").map(String.init)
            #expect(list.count == 3 && list[1].hasSuffix("  \(copy) as phone · nothing\u{A0}new, 1500\u{A0}already\u{A0}there"), "\(name): \(list)")
            #expect(list.count == 3 && list[2].hasSuffix("  \(export) as phone · 1500\u{A0}added"), "\(name): \(list)")
            // Nothing was stored twice, so check has nothing to say about it.
            let check = try Binary.run(["--db", db, "-c", "load store", "-c", "check"])
            #expect(!check.stdout.contains("the store holds"), "\(name): \(check.stdout)")
        }
    }

    /// An export and its copy named in one import: the copy's sessions, written by the same
    /// transaction a moment before (not yet in the kept totals), are found all the same.
    @Test func bugAnExportAndItsCopyInOneImportCountedTwice() throws {
        let w = try StoreWorkspace()
        let export = try w.sessions("laptop.json", count: 4, first: "2026-02-23T09:00:00Z", prefix: "l")
        let copy = w.url.appendingPathComponent("laptop-copy.json").path
        try FileManager.default.copyItem(atPath: export, toPath: copy)
        for (name, db, keep) in ImportsForgetTests.stores(w) {
            _ = keep
            let both = try Binary.run(["--db", db, "import", export, copy, "--device", "desk"], environment: Self.wide)
            #expect(
                both.stdout.hasPrefix("imported \(export): 4 added, 0 updated, 0 unchanged\nimported \(copy): 0 added, 0 updated, 4 unchanged\n"),
                "\(name): \(both.stdout) \(both.stderr)")
            #expect(try Self.seconds(db, "2026-02-23") == 240, "\(name)")
        }
    }

    /// Without ids, a session is its app and start: weekly exports whose days overlap add only
    /// the days they do not share, and a session that grew (or changed category) since the last
    /// export is updated in place, the day's total moved with it.
    @Test func bugOverlappingWeeklyExportsWithoutIDsCountedTheirCommonDaysTwice() throws {
        let w = try StoreWorkspace()
        func week(_ days: ClosedRange<Int>, _ name: String, grown: Int? = nil) throws -> String {
            try Self.export(
                w, name,
                days.map { d in
                    let day = "2026-02-\(d < 10 ? "0" : "")\(d)"
                    let end = d == grown ? "10:00:00Z" : "09:30:00Z"
                    return ("Mail", d == grown ? "Email" : "Work", "\(day)T09:00:00Z", "\(day)T\(end)")
                })
        }
        let first = try week(1...7, "week-1.json")
        let second = try week(5...11, "week-2.json", grown: 7)
        for (name, db, keep) in ImportsForgetTests.stores(w) {
            _ = keep
            #expect(try Binary.run(["--db", db, "import", first, "--device", "phone"], environment: Self.wide).status == 0, "\(name)")
            let again = try Binary.run(["--db", db, "import", second, "--device", "phone"], environment: Self.wide)
            #expect(again.stdout.hasPrefix("imported \(second): 4 added, 1 updated, 2 unchanged\n"), "\(name): \(again.stdout) \(again.stderr)")
            #expect(try Self.seconds(db, "2026-02-05") == 1800, "\(name): a shared day counted once")
            #expect(try Self.seconds(db, "2026-02-07") == 3600, "\(name): the session that grew, updated in place")
            #expect(try Self.seconds(db, "2026-02-11") == 1800, "\(name)")
            let apps = try Binary.run(["--db", db, "--format", "json", "-c", "load store", "-c", "summary 2026-02-01..2026-02-11"]).stdout
            #expect(apps.contains(#""total_seconds":21600"#), "\(name): eleven days, one of an hour: \(apps)")
        }
    }

    /// The same file imported for two devices is two devices' sessions, not one device's found again.
    @Test func theSameFileForTwoDevicesStaysTwoDevicesSessions() throws {
        let w = try StoreWorkspace()
        let file = try w.sessions("shared.json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "s")
        for (name, db, keep) in ImportsForgetTests.stores(w) {
            _ = keep
            #expect(try Binary.run(["--db", db, "import", file, "--device", "desk"], environment: Self.wide).stdout.hasPrefix("imported \(file): 3 added"), "\(name)")
            #expect(try Binary.run(["--db", db, "import", file, "--device", "lap"], environment: Self.wide).stdout.hasPrefix("imported \(file): 3 added"), "\(name)")
            let devices = try Binary.run(["--db", db, "-c", "devices"]).stdout
            #expect(devices.contains("  desk  3 sessions") && devices.contains("  lap   3 sessions"), "\(name): \(devices)")
            #expect(try Self.seconds(db, "2026-02-23") == 360, "\(name)")
        }
    }

    /// A store that holds sessions twice (as one written before a session was its device's
    /// does, after two files brought the same sessions): `check` says how many and why,
    /// `check fix` asks (a batch run needs --yes) and removes them, one of each kept.
    @Test func bugSessionsStoredTwiceAreSaidByCheckAndRemovedByCheckFix() throws {
        let w = try StoreWorkspace()
        let a = try w.sessions("a.json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "a")
        let b = try w.sessions("b.json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "b")
        #expect(try Binary.run(["--db", w.db, "import", a, b, "--device", "phone"]).status == 0)
        #expect(try Self.seconds(w.db, "2026-02-23") == 360)
        // b's sessions made a's under their ids, as two files of one export stored them before,
        // and the note the re-keying (v11) of such a store leaves.
        _ = try sqlite3(w.db, "UPDATE session SET ext_id = 'a' || substr(ext_id, 2), key = (SELECT s.key FROM session s WHERE s.ext_id = 'a' || substr(session.ext_id, 2)) WHERE ext_id LIKE 'b%'")
        let unnoted = try Binary.run(["--db", w.db, "--width", "200", "-c", "load store", "-c", "check"])
        #expect(!unnoted.stdout.contains("the store holds"), "counted only in a store the re-keying found them in: \(unnoted.stdout)")
        _ = try sqlite3(w.db, "INSERT INTO meta (key, value) VALUES ('stored_twice', 3)")
        let check = try Binary.run(["--db", w.db, "--width", "200", "-c", "load store", "-c", "check"])
        #expect(check.stdout.hasSuffix("the store holds 3 sessions twice (the same device and id): check fix removes the copies, one of each kept\n"), "\(check.stdout)")
        let refused = try Binary.run(["--db", w.db, "-c", "check fix"])
        #expect(refused.stderr == "error: line 1: this deletes data, and a batch run cannot ask: add --yes to go ahead (check fix --yes)\n")
        #expect(refused.status == 1)
        let fixed = try Binary.run(["--db", w.db, "-c", "check fix --yes", "-c", "check fix --yes"])
        #expect(fixed.stdout == "removed 3 sessions the store held twice\nnothing to fix: the store holds no session twice\n", "\(fixed.stdout) \(fixed.stderr)")
        #expect(fixed.status == 0)
        #expect(try Self.seconds(w.db, "2026-02-23") == 180, "counted once")
        #expect(try sqlite3(w.db, "SELECT count(*), min(ext_id), max(ext_id) FROM session") == "3|a0|a2")
        #expect(try sqlite3(w.db, "SELECT count(*) FROM meta WHERE key = 'stored_twice'") == "0")
    }
}
