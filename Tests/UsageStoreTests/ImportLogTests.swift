// ImportLogTests.swift — issue 44, item 4, on every backend: every import (and store copy) kept as an entry; `forget import N` takes back exactly the sessions it added, `forget device NAME` a device's, each leaving the store as it would be without them (sessions, sources, devices, counts and kept totals); a forgotten session's id is never given again; a store of before v9 is upgraded to it.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

/// What a store holds, by names rather than ids (two stores' ids differ, and so do the keys made
/// from the names' ids): sessions, sources, devices, the counts kept, the kept totals.
func importedState(_ store: any StoreWriter) throws -> [String] {
    try (store as! any SQLStore).read { tx in
        let sessions = try tx.rows(
            """
            SELECT s.start, s.length, s.ext_id, a.name AS app, c.name AS category, d.name AS device, r.name AS source
            FROM session s JOIN app a ON a.id = s.app JOIN category c ON c.id = s.category JOIN device d ON d.id = s.device
            JOIN source r ON r.id = s.source
            """, []
        ).map { "session \($0[0].integer!) \($0[1].integer!) \($0[2].text ?? "-") \($0.text("app")!) \($0.text("category")!) \($0.text("device")!) \($0.text("source")!)" }
        let sources = try tx.rows("SELECT r.name, d.name AS device, r.sessions FROM source r JOIN device d ON d.id = r.device", [])
            .map { "source \($0[0].text ?? "") \($0.text("device")!) \($0[2].integer!)" }
        let devices = try tx.rows("SELECT name, sessions FROM device", []).map { "device \($0[0].text!) \($0[1].integer!)" }
        let quarters = try tx.rows("SELECT q.quarter, d.name, q.micros FROM quarter_total q JOIN device d ON d.id = q.device", [])
            .map { "q \($0[0].integer!) \($0[1].text!) \($0[2].integer!)" }
        let days = try tx.rows(
            """
            SELECT t.day, d.name, a.name, c.name, t.micros, t.starts FROM day_total t JOIN device d ON d.id = t.device
            JOIN app a ON a.id = t.app JOIN category c ON c.id = t.category
            """, []
        ).map { "d \($0[0].integer!) \($0[1].text!) \($0[2].text!) \($0[3].text!) \($0[4].integer!) \($0[5].integer!)" }
        let count = try Meta.get(tx, Meta.sessions) ?? 0
        return (sessions + sources + devices + quarters + days).sorted() + ["sessions \(count)"]
    }
}

private func importing(_ store: any StoreWriter, _ d: Dataset, identity: String, device: String, at: Micros = importNow) throws -> ImportSummary {
    try store.importSessions([ImportSource(identity: identity, shown: d.source, dataset: d, device: device)], now: at, zone: .utc)
}

struct ImportLogTests {
    /// A file imported once without `--device` (or under the wrong name) counted its sessions
    /// twice, and nothing removed them. `forget import N` takes back exactly what import N added:
    /// the store is then the store without that import.
    @Test(arguments: Backend.allCases)
    func item4ForgetImportTakesBackExactlyWhatItAdded(backend: Backend) throws {
        guard available(backend) else { return }
        let a = randomSessions(seed: 41, count: 300, ids: "r41-")
        let b = randomSessions(seed: 42, count: 200, ids: "r42-")
        let without = try BackendStore(backend)
        _ = try importing(without.store, a, identity: "/a.json", device: "laptop")
        _ = try importing(without.store, b, identity: "/b.json", device: "laptop")
        let with = try BackendStore(backend)
        _ = try importing(with.store, a, identity: "/a.json", device: "laptop")
        // The same file again under another device's name: every session a second time.
        #expect(try importing(with.store, a, identity: "/a.json", device: "phone").sources.map(\.added) == [300])
        _ = try importing(with.store, b, identity: "/b.json", device: "laptop")
        let entries = try with.store.imports()
        #expect(entries.map(\.id) == [3, 2, 1])
        #expect(entries.map(\.added) == [200, 300, 300])
        #expect(entries[1].parts == [ImportEntry.Part(source: a.source, device: "phone", added: 300, updated: 0, unchanged: 0)])
        #expect(entries.allSatisfy { $0.at == importNow && $0.forgotten == nil })

        #expect(try with.store.forget(import: 2, now: importNow + 60_000_000).sessions == 300)
        #expect(try importedState(with.store) == importedState(without.store))
        #expect(try StoreBackendTests.keptTables(with.store).kept == StoreBackendTests.keptTables(with.store).fresh)
        #expect(try with.store.imports().first { $0.id == 2 }?.forgotten == importNow + 60_000_000)
        #expect(try with.store.devices().map(\.name) == ["laptop"], "the device it alone held is gone")
        #expect(throws: ForgetRefusal.importForgotten(2, at: importNow + 60_000_000)) { try with.store.forget(import: 2, now: importNow) }
        #expect(throws: ForgetRefusal.unknownImport(9)) { try with.store.forget(import: 9, now: importNow) }
        // An import that added nothing has no sessions to take back; its entry is kept all the same.
        #expect(try importing(with.store, b, identity: "/b.json", device: "laptop").sources.map(\.added) == [0])
        #expect(try with.store.forget(import: 4, now: importNow).sessions == 0)
        #expect(try importedState(with.store) == importedState(without.store))
    }

    /// `forget device NAME` takes every session of a device, its sources, its row and its kept
    /// totals; the other devices' stay as they were.
    @Test(arguments: Backend.allCases)
    func item4ForgetDeviceTakesItsSessionsSourcesAndTotals(backend: Backend) throws {
        guard available(backend) else { return }
        let a = randomSessions(seed: 43, count: 250, ids: "r43-")
        let b = randomSessions(seed: 44, count: 150, ids: "r44-")
        let without = try BackendStore(backend)
        _ = try importing(without.store, a, identity: "/a.json", device: "laptop")
        let with = try BackendStore(backend)
        _ = try importing(with.store, b, identity: "/b.json", device: "phone")
        _ = try importing(with.store, a, identity: "/a.json", device: "laptop")
        _ = try importing(with.store, a, identity: "/a.json", device: "phone")
        #expect(try with.store.forget(device: "phone", now: importNow) == 400)
        let (left, right) = (try importedState(with.store), try importedState(without.store))
        #expect(left == right, "\(Set(left).symmetricDifference(Set(right)).sorted().prefix(6))")
        #expect(try with.store.imports().map { $0.forgotten != nil } == [true, false, true], "the imports that went to the device alone")
        #expect(throws: ForgetRefusal.unknownDevice("phone")) { try with.store.forget(device: "phone", now: importNow) }
    }

    /// An id is one past the largest ever given: after the newest import is forgotten, the next
    /// one's sessions do not take its ids again (its range would hold them, and `forget import`
    /// of the old one would take the new sessions). The recorder takes ids the same way.
    @Test(arguments: Backend.allCases)
    func item4AForgottenSessionsIDIsNeverGivenAgain(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try importing(s.store, randomSessions(seed: 45, count: 50, ids: "r45-"), identity: "/a.json", device: "laptop")
        _ = try importing(s.store, randomSessions(seed: 46, count: 40, ids: "r46-"), identity: "/b.json", device: "laptop")
        #expect(try s.store.forget(import: 2, now: importNow).sessions == 40)
        _ = try importing(s.store, randomSessions(seed: 47, count: 30, ids: "r47-"), identity: "/c.json", device: "laptop")
        let ids = try (s.store as! any SQLStore).read { tx in try tx.rows("SELECT id FROM session ORDER BY id", []).map { $0[0].integer! } }
        #expect(ids == Array(1...50) + Array(91...120))
        try s.store.record(
            [RecordedSession(app: "Editor", category: "Work", start: instant("2026-03-02T09:00:00Z"), end: instant("2026-03-02T09:30:00Z"), startOffset: 0, endOffset: 0)],
            device: "laptop", now: importNow, mark: nil)
        #expect(try (s.store as! any SQLStore).read { tx in try tx.int("SELECT max(id) FROM session") } == 121)
        #expect(try s.store.forget(import: 3, now: importNow).sessions == 30)
        #expect(try s.store.history(source: "store").sessionCount == 51, "the first import's and the recorded one stay")
    }

    /// A store copied in is an import too, one entry, per device: `forget import N` takes the copy back.
    @Test(arguments: Backend.allCases)
    func item4AStoreCopyIsAnEntryAndCanBeTakenBack(backend: Backend) throws {
        guard available(backend) else { return }
        let other = try BackendStore(backend)
        _ = try importing(other.store, randomSessions(seed: 48, count: 60, ids: "r48-"), identity: "/a.json", device: "desk")
        let s = try BackendStore(backend)
        _ = try importing(s.store, randomSessions(seed: 49, count: 20, ids: "r49-"), identity: "/b.json", device: "laptop")
        let before = try importedState(s.store)
        _ = try s.store.copyIn(try other.store.contents(), from: other.location.description, now: importNow)
        let entry = try #require(try s.store.imports().first)
        #expect(entry.parts == [ImportEntry.Part(source: "store:" + other.location.description, device: "desk", added: 60, updated: 0, unchanged: 0)])
        #expect(try s.store.forget(import: entry.id, now: importNow).sessions == 60)
        #expect(try importedState(s.store) == before)
    }

    /// A store made before v9 (no import log, no `session_high`) is upgraded when it is opened:
    /// its log starts empty (imports before it were not kept), the largest id it holds is the
    /// largest given, and the next import is an entry that can be taken back.
    @Test(arguments: Backend.allCases)
    func item4AStoreOfBeforeTheImportLogIsUpgraded(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        _ = try importing(s.store, randomSessions(seed: 50, count: 40, ids: "r50-"), identity: "/a.json", device: "laptop")
        let ledger = backend == .sqlite ? "grdb_migrations" : "migrations"
        try s.raw(
            "DROP TABLE import_part; DROP TABLE import_entry; DELETE FROM meta WHERE key = 'session_high'; "
                + "ALTER TABLE site_visit DROP COLUMN import_entry; "
                + "DELETE FROM \(ledger) WHERE identifier IN ('v9: imports', 'v13: site visits by import')")
        let upgraded = try s.another()
        #expect(try upgraded.imports() == [])
        #expect(try (upgraded as! any SQLStore).read { tx in try Meta.get(tx, SessionIDs.high) } == 40)
        // The newest sessions forgotten (retention's way): their ids are still not given again.
        try upgraded.forget(endingBefore: instant("2030-01-01T00:00:00Z"))
        _ = try importing(upgraded, randomSessions(seed: 51, count: 10, ids: "r51-"), identity: "/b.json", device: "laptop")
        let ids = try (upgraded as! any SQLStore).read { tx in try tx.rows("SELECT id FROM session ORDER BY id", []).map { $0[0].integer! } }
        #expect(ids == Array(41...50))
        #expect(try upgraded.imports().map(\.added) == [10])
        #expect(try upgraded.forget(import: 1, now: importNow).sessions == 10)
    }
}
