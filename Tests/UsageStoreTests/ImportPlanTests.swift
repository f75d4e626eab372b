// ImportPlanTests.swift — the import's fast path for identities that are all distinct gives the keys and decisions of its general rule: new, again, grown, by id, by content and by start; a repeated identity takes the general rule; rows written in batches come back whole.
import Foundation
import GRDB
import Testing
import TestSupport
import UsageCore
@testable import UsageStore

struct ImportPlanTests {
    /// A store's ids for a dataset's names, as the import makes them (here: positions).
    func ids(_ names: [String]) -> [Int64] { names.indices.map { Int64($0 + 1) } }

    /// The keys the general rule gives on an empty store.
    func generalKeys(_ d: Dataset) throws -> [Int64] {
        var plan = ImportPlan(count: d.sessionCount)
        var stored: [Int64: StoredSession] = [:]
        try plan.decideEach(d, apps: ids(d.apps), categories: ids(d.categories), stored: &stored) { _, _ in false }
        return plan.keys
    }

    static let byID = rows((0..<200).map { k in
        row("e\(k)", "App\(k % 7)", k % 3 == 0 ? "Work" : nil, "2026-02-23T09:\(String(format: "%02d", k % 60)):00Z", "2026-02-23T10:\(String(format: "%02d", k % 60)):00Z")
    })
    static let byContent = rows((0..<200).map { k in
        row(nil, "App\(k % 7)", nil, "2026-02-\(10 + k % 9)T09:\(String(format: "%02d", k % 60)):00Z", "2026-02-\(10 + k % 9)T11:00:00Z")
    })
    static let mixed = rows((0..<200).map { k in
        row(k % 2 == 0 ? "m\(k)" : nil, "App", nil, "2026-02-23T0\(k / 60):\(String(format: "%02d", k % 60)):00Z", "2026-02-23T12:00:00Z")
    })

    @Test(arguments: [byID, byContent, mixed])
    func distinctIdentitiesGetTheGeneralRulesKeys(_ json: String) throws {
        let d = dataset(json)
        let fast = try #require(ImportKeys.distinct(d, apps: ids(d.apps)))
        let general = try generalKeys(d)
        #expect(fast == general)
    }

    @Test func startsAsIdentityGetTheGeneralRulesKeys() throws {
        var d = dataset(Self.byID)
        d.identity = .byStart
        // Starts repeat here (k % 60): the general rule then decides.
        #expect(ImportKeys.distinct(d, apps: ids(d.apps)) == nil)
        var unique = dataset(Self.byContent)
        unique.identity = .byStart
        let fast = ImportKeys.distinct(unique, apps: ids(unique.apps))
        let general = try generalKeys(unique)
        #expect(fast == nil || fast == general)
    }

    @Test func aRepeatedIdentityTakesTheGeneralRule() throws {
        let d = dataset(
            rows([
                row("same", "A", nil, "2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z"),
                row("same", "B", nil, "2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z"),
            ]))
        #expect(ImportKeys.distinct(d, apps: ids(d.apps)) == nil)
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        #expect(try importInto(store, d).sources[0].added == 2)
        #expect(try importInto(store, d).sources[0].unchanged == 2)
    }

    @Test func bothPathsDecideTheSameOnAStoreThatHoldsTheSource() throws {
        let first = dataset(Self.byID)
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        try importInto(store, first)
        // Again, with one event grown and one new.
        var list = (0..<200).map { k in
            row("e\(k)", "App\(k % 7)", k % 3 == 0 ? "Work" : nil, "2026-02-23T09:\(String(format: "%02d", k % 60)):00Z",
                k == 5 ? "2026-02-23T11:59:00Z" : "2026-02-23T10:\(String(format: "%02d", k % 60)):00Z")
        }
        list.append(row("new", "App1", nil, "2026-02-24T09:00:00Z", "2026-02-24T09:10:00Z"))
        let again = try importInto(store, dataset(rows(list))).sources[0]
        #expect((again.added, again.updated, again.unchanged) == (1, 1, 200 - 1))
        #expect(try store.readDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM session") } == 201)
    }

    /// 64 rows go in a statement: a load of 64 × 3 + 5 sessions, with ids, offsets and none,
    /// comes back whole and in order.
    @Test func rowsWrittenInBatchesComeBackWhole() throws {
        let list = (0..<(64 * 3 + 5)).map { k in
            let minute = String(format: "%02d", k % 60)
            let hour = String(format: "%02d", k / 60)
            let id = k % 4 == 0 ? nil : "b\(k)"
            return row(id, "App\(k % 5)", nil, "2026-02-23T\(hour):\(minute):00+01:00", "2026-02-23T\(hour):\(minute):30+01:00")
        }
        let d = dataset(rows(list))
        let folder = try TemporaryFolder("store")
        let store = try SQLiteStore.open(path: folder.store, create: true)
        #expect(try importInto(store, d).sources[0].added == list.count)
        let back = try store.readDatabase { db in
            try Row.fetchAll(db, sql: "SELECT ext_id, start, length, start_offset, end_offset FROM session ORDER BY start, id")
        }
        #expect(back.count == list.count)
        let sessions = d.sessions
        for (k, stored) in back.enumerated() {
            #expect(stored["ext_id"] as String? == sessions.id(at: k))
            #expect(stored["start"] as Int64 == sessions.starts[k])
            #expect(stored["length"] as Int64 == sessions.ends[k] - sessions.starts[k])
            #expect(stored["start_offset"] as Int? == 60)
            #expect(stored["end_offset"] as Int? == 60)
        }
    }

    /// A by-start key has its kind in the sign bit: the fast path must still read it as 2.
    @Test func bugAGrownTimewarriorIntervalLeftTheFastPath() throws {
        // Timewarrior's intervals are known by their starts (here all distinct).
        var unique = dataset(rows((0..<60).map { k in
            row("@\(k)", "App\(k % 7)", nil, "2026-02-10T09:\(String(format: "%02d", k)):00Z", "2026-02-10T11:00:00Z")
        }))
        unique.identity = .byStart
        let keys = try #require(ImportKeys.distinct(unique, apps: ids(unique.apps)))
        #expect(keys.allSatisfy { ($0 >> 62) & 3 == 2 })
        // Stored as they are, but session 3 shorter: it grew since.
        var stored: [Int64: StoredSession] = [:]
        for k in unique.sessions.indices {
            let (start, end, app, category) = unique.sessions.core(k)
            stored[keys[k]] = StoredSession(
                row: Int64(k + 1), app: ids(unique.apps)[Int(app)], category: ids(unique.categories)[Int(category)], start: start,
                length: end - start - (k == 3 ? 60_000_000 : 0))
        }
        var plan = ImportPlan(count: unique.sessionCount)
        let fast = try plan.decideDistinct(unique, keys: keys, apps: ids(unique.apps), categories: ids(unique.categories), stored: stored) { _, _ in
            Issue.record("a start needs no id read")
            return false
        }
        #expect(fast)
        #expect((plan.added, plan.updated, plan.unchanged) == (0, 1, 59))
        #expect(plan.updates[3] == 4)
    }
}
