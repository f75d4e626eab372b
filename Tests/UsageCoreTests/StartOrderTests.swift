// StartOrderTests.swift — SessionColumns.putInStartOrder (a store's window put in order in place) against the library's sort of (start, end, position): rows in start order with runs of one start out of end order, equal (start, end) pairs kept in their order, and the rows it must leave to the full sort (out of start order, with ids, with offsets).
import Testing
@testable import UsageCore
import TestSupport

@Suite struct StartOrderTests {
    /// `n` rows in start order (several to a start), each run's ends in no order; app and
    /// category tell equal (start, end) pairs apart.
    static func startOrdered(_ n: Int, seed: UInt64) -> SessionColumns {
        var g = SplitMix64(seed: seed)
        var c = SessionColumns()
        var start: Micros = 1_771_800_000_000_000
        for _ in 0..<n {
            if g.below(3) == 0 { start += Micros(1 + g.below(5)) * 1_000_000 }
            let end = start + Micros(1 + g.below(4)) * 1_000_000
            c.append(start: start, end: end, app: Int32(g.below(50)), category: Int32(g.below(9)), id: nil)
        }
        return c
    }

    /// (start, end, app, category) of each row, in the library sort's order of (start, end, position).
    static func expected(_ c: SessionColumns) -> [[Int64]] {
        c.starts.indices.sorted { a, b in (c.starts[a], c.ends[a], a) < (c.starts[b], c.ends[b], b) }
            .map { [c.starts[$0], c.ends[$0], Int64(c.apps[$0]), Int64(c.categories[$0])] }
    }

    static func rows(_ c: SessionColumns) -> [[Int64]] {
        c.starts.indices.map { [c.starts[$0], c.ends[$0], Int64(c.apps[$0]), Int64(c.categories[$0])] }
    }

    @Test(arguments: [(1, 1), (2, 2), (50, 3), (5_000, 4), (100_000, 5)] as [(Int, UInt64)])
    func runsOfOneStartArePutInEndOrderAsTheLibrarySortPutsThem(n: Int, seed: UInt64) {
        var c = Self.startOrdered(n, seed: seed)
        let want = Self.expected(c)
        c.putInStartOrder()
        #expect(Self.rows(c) == want)
        #expect(c.isSortedByStart)
    }

    @Test func equalStartsAndEndsKeepTheirOrder() {
        var c = SessionColumns()
        for (end, app) in [(9, 0), (7, 1), (9, 2), (7, 3), (8, 4)] as [(Micros, Int32)] {
            c.append(start: 5, end: end, app: app, category: 0, id: nil)
        }
        c.putInStartOrder()
        #expect(c.ends == [7, 7, 8, 9, 9])
        #expect(c.apps == [1, 3, 4, 0, 2])
    }

    /// Out of start order, or carrying ids or offsets that must follow their rows: the full sort.
    @Test func rowsItCannotPutInPlaceGetTheFullSortWithTheirIDs() {
        var outOfOrder = Self.startOrdered(2_000, seed: 9)
        outOfOrder.append(start: 1, end: 2, app: 3, category: 4, id: nil)
        let want = Self.expected(outOfOrder)
        outOfOrder.putInStartOrder()
        #expect(Self.rows(outOfOrder) == want)

        var withIDs = SessionColumns()
        for (k, end) in ([3, 1, 2] as [Micros]).enumerated() { withIDs.append(start: 0, end: end, app: Int32(k), category: 0, id: "s\(k)") }
        withIDs.putInStartOrder()
        #expect(withIDs.ends == [1, 2, 3])
        #expect((0..<3).map { withIDs.id(at: $0) } == ["s1", "s2", "s0"])

        var withOffsets = SessionColumns()
        withOffsets.append(start: 0, end: 3, app: 0, category: 0, idBytes: nil, offsets: UTCOffsets(startMinutes: 60, endMinutes: 60))
        withOffsets.append(start: 0, end: 1, app: 1, category: 0, idBytes: nil)
        withOffsets.putInStartOrder()
        #expect(withOffsets.apps == [1, 0])
        #expect(withOffsets.offsets(at: 1) == UTCOffsets(startMinutes: 60, endMinutes: 60))
    }
}
