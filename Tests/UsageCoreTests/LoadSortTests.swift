// LoadSortTests.swift — the load's sort (SessionColumns.sortByStart) against the library's sort of (start, end, position): on one core and two, with starts piled together and lengths that do and do not fit in the keys.
import Testing
@testable import UsageCore
import TestSupport

@Suite struct LoadSortTests {
    /// Sessions with many equal starts, lengths short (in the keys), long (over 71 minutes:
    /// ends looked up), equal, and ends at or before their start.
    static func columns(_ n: Int, seed: UInt64) -> SessionColumns {
        var g = SplitMix64(seed: seed)
        var c = SessionColumns()
        let base: Micros = 1_771_800_000_000_000
        for k in 0..<n {
            let start = base + Micros(g.below(max(1, n / 3))) * 1_000_000 * Micros(1 + g.below(2))
            let length: Micros
            switch g.below(6) {
            case 0: length = Micros(g.below(5)) * 1_000_000  // equal lengths, zero included
            case 1: length = 4_294_967_295 + Micros(g.below(3))  // at and past the keys' limit
            case 2: length = Micros(g.below(3)) * 5_000_000_000  // hours
            case 3: length = -Micros(g.below(2_000_000))  // ending before it starts
            default: length = Micros(g.below(10_000_000_000))
            }
            c.append(start: start, end: start + length, app: Int32(g.below(7)), category: Int32(g.below(3)), id: "s\(k)")
        }
        return c
    }

    @Test(arguments: [(2, 1), (300, 2), (5_000, 3), (70_000, 4), (200_000, 5)] as [(Int, UInt64)])
    func theLoadSortIsTheLibrarySortOfStartEndAndPosition(n: Int, seed: UInt64) {
        let input = Self.columns(n, seed: seed)
        let expected = (0..<n).sorted { a, b in
            (input.starts[a], input.ends[a], a) < (input.starts[b], input.ends[b], b)
        }
        var sorted = input
        sorted.sortByStart()
        var mismatches = 0
        for (k, position) in expected.enumerated() {
            let same = sorted.starts[k] == input.starts[position] && sorted.ends[k] == input.ends[position]
                && sorted.apps[k] == input.apps[position] && sorted.categories[k] == input.categories[position]
                && sorted.id(at: k) == "s\(position)"
            if !same { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of \(n) sessions out of place")
    }

    @Test func aSortedInputIsLeftAsItIs() {
        var c = SessionColumns()
        for k in 0..<100 { c.append(start: Micros(k), end: Micros(k + 5), app: 0, category: 0, id: "s\(k)") }
        var sorted = c
        sorted.sortByStart()
        #expect(sorted.starts == c.starts)
        #expect(sorted.id(at: 42) == "s42")
    }
}
