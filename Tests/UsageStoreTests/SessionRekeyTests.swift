// SessionRekeyTests.swift — issue 51, item 1, on every backend: a store written before a session was its device's (one export brought twice under two names, the second copy's sessions stored again under the first's device) is re-keyed when it is opened — every session under the key an import now gives it, none deleted — its sessions held twice are counted by what makes them the same and removed on request, leaving the store an import of the export once makes; the next import under a third name adds nothing.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct SessionRekeyTests {
    /// The key the version before gave a session known by its content (kind 1): its app,
    /// category, start and length, the n-th of the same content in its source its n-th occurrence.
    static func keyBefore(app: Int64, category: Int64, start: Int64, length: Int64, occurrence: Int) -> Int64 {
        var hash = IdentityHash()
        hash.add(app)
        hash.add(category)
        hash.add(start)
        hash.add(length)
        return hash.key(kind: 1, occurrence: occurrence, probe: 0)
    }

    @Test(arguments: Backend.allCases)
    func item1AStoreOfBeforeTheDeviceWideIdentityIsRekeyedAndItsSessionsHeldTwiceSaid(backend: Backend) throws {
        guard available(backend) else { return }
        let export = randomSessions(seed: 60, count: 80)
        let once = try BackendStore(backend)
        _ = try once.store.importSessions([ImportSource(identity: "/a.json", shown: "a.json", dataset: export, device: "laptop")], now: importNow, zone: .utc)

        // The store the version before left after `import a.json` and `import copy-of-a.json`:
        // both copies' sessions the laptop's, the kept totals and counts of them all. Made here
        // as two devices' (which this version keeps apart), then made one device's.
        let s = try BackendStore(backend)
        for (identity, device) in [("/a.json", "laptop"), ("/copy-of-a.json", "phone")] {
            _ = try s.store.importSessions([ImportSource(identity: identity, shown: identity, dataset: export, device: device)], now: importNow, zone: .utc)
        }
        let keysNow = try s.rows("SELECT id, key FROM session ORDER BY id")
        let laptop = "(SELECT id FROM device WHERE name = 'laptop')"
        let phone = "(SELECT id FROM device WHERE name = 'phone')"
        var sql = [
            "UPDATE session SET device = \(laptop) WHERE device = \(phone)",
            "UPDATE source SET device = \(laptop) WHERE device = \(phone)",
            "UPDATE device SET sessions = (SELECT count(*) FROM session WHERE device = device.id) WHERE name = 'laptop'",
            """
            INSERT INTO day_total SELECT day, \(laptop), app, category, micros, starts FROM day_total WHERE device = \(phone)
                ON CONFLICT (day, device, app, category) DO UPDATE SET micros = day_total.micros + excluded.micros, starts = day_total.starts + excluded.starts
            """,
            """
            INSERT INTO quarter_total SELECT quarter, \(laptop), micros FROM quarter_total WHERE device = \(phone)
                ON CONFLICT (quarter, device) DO UPDATE SET micros = quarter_total.micros + excluded.micros
            """,
            "DELETE FROM day_total WHERE device = \(phone)", "DELETE FROM quarter_total WHERE device = \(phone)",
            "DELETE FROM device WHERE name = 'phone'",
        ]
        // Content keys as the version before made them, within each source.
        var occurrences: [String: Int] = [:]
        for row in try s.rows("SELECT id, source, app, category, start, length FROM session WHERE key >= \(SessionRekey.contentKeys) ORDER BY source, start, length, id") {
            let v = row.split(separator: "|").map { Int64($0)! }
            let content = "\(v[1]) \(v[2]) \(v[3]) \(v[4]) \(v[5])"
            let occurrence = occurrences[content, default: 0]
            occurrences[content] = occurrence + 1
            sql.append("UPDATE session SET key = \(Self.keyBefore(app: v[2], category: v[3], start: v[4], length: v[5], occurrence: occurrence)) WHERE id = \(v[0])")
        }
        let ledger = backend == .sqlite ? "grdb_migrations" : "migrations"
        sql.append("DELETE FROM \(ledger) WHERE identifier = 'v11: a session is its device''s, whatever file brought it'")
        try s.raw(sql.joined(separator: ";\n"))
        let byContent = try Int(#require(s.rows("SELECT count(*) FROM session WHERE key >= \(SessionRekey.contentKeys)").first))!
        #expect(byContent > 0 && byContent < 160, "some sessions without an id, most with one")
        #expect(try s.rows("SELECT id, key FROM session ORDER BY id") != keysNow)
        let before = try importedState(s.store)

        let upgraded = try s.reopened()
        // Re-keyed as an import now keys them, and nothing deleted.
        #expect(try s.rows("SELECT id, key FROM session ORDER BY id") == keysNow)
        #expect(try importedState(upgraded) == before)
        #expect(try upgraded.storedTwice() == StoredTwice(sameID: 80 - byContent / 2, sameAppAndStart: byContent / 2))
        #expect(try s.rows("SELECT value FROM meta WHERE key = 'stored_twice'") == ["80"], "noted by the migration")
        #expect(try upgraded.removeStoredTwice() == 80)
        #expect(try upgraded.storedTwice() == StoredTwice())
        #expect(try s.rows("SELECT value FROM meta WHERE key = 'stored_twice'") == [])
        // What importing the export once leaves: sessions, sources, devices, counts, kept totals.
        #expect(try importedState(upgraded) == importedState(once.store))
        let third = try upgraded.importSessions(
            [ImportSource(identity: "/export-2026-11-28.json", shown: "export-2026-11-28.json", dataset: export, device: "laptop")], now: importNow, zone: .utc)
        #expect(third.sources.map { [$0.added, $0.updated, $0.unchanged] } == [[0, 0, 80]])
    }
}
