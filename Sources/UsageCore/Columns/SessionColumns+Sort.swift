// SessionColumns+Sort.swift — the load's lean sort of columns in input order: a permutation found by bucketing (start, length, row) keys on two cores, the columns gathered through it.
import Dispatch
import Synchronization

extension SessionColumns {
    /// Below this many sessions the sort stays on one core.
    package static let parallelSortThreshold = 1 << 16

    /// Sorts sessions in input order by (start, end), ties in input order, using little memory:
    /// a permutation (4 bytes a session, which becomes `inputRow`, so ids stay where they
    /// are) is found by spreading (start, length, position) keys into buckets of nearby starts
    /// and sorting each small bucket; the sorted starts are written over the old ones from the
    /// keys, then the other columns are gathered through the permutation, on two cores. Memory
    /// added: the keys (16 bytes a session) and the permutation while the starts are sorted,
    /// then the permutation and the two columns being gathered, each old column freed once
    /// its new one is made.
    package mutating func sortByStart() {
        precondition(inputRow == nil, "input order only")
        let n = count
        guard n > 1, !isSortedByStart else { return }
        let parallel = n >= Self.parallelSortThreshold
        // The box holds the only copy of each column, so each old one is freed once replaced.
        let box = SortColumns(self)
        starts = []
        ends = []
        apps = []
        categories = []
        let perm = box.sortStarts(parallel: parallel)
        // Gathers, each old column freed once gathered: ends on one core, apps and categories
        // on the other.
        perm.withUnsafeBufferPointer { p in
            let order = UnsafeSendable(p)
            DispatchQueue.concurrentPerform(iterations: parallel ? 2 : 1) { k in
                if k == 0 || !parallel { box.ends = Self.gather(box.take(\.ends), order.value) }
                if k == 1 || !parallel {
                    box.apps = Self.gather(box.take(\.apps), order.value)
                    box.categories = Self.gather(box.take(\.categories), order.value)
                }
            }
        }
        (starts, ends, apps, categories) = (box.starts, box.ends, box.apps, box.categories)
        inputRow = perm
    }

    /// `values` in the order `perm` gives.
    fileprivate static func gather<T>(_ values: [T], _ perm: UnsafeBufferPointer<Int32>) -> [T] {
        values.withUnsafeBufferPointer { v in
            [T](unsafeUninitializedCapacity: perm.count) { out, initialized in
                for k in 0..<perm.count { out.initializeElement(at: k, to: v[Int(perm[k])]) }
                initialized = perm.count
            }
        }
    }
}

/// What the load's sort moves around for a session (16 bytes): its start, its input position,
/// and its length when that fits in 32 bits of microseconds (71 minutes), so that sessions
/// starting together are ordered without reading their ends (which are elsewhere in memory).
private struct SortedStart {
    var start: Micros
    var position: Int32
    /// The length in microseconds, or `unknown`: longer (or ending before the start).
    var length: UInt32

    static let unknown = UInt32.max

    init(start: Micros, end: Micros, position: Int32) {
        self.start = start
        self.position = position
        let (length, overflow) = end.subtractingReportingOverflow(start)
        self.length = !overflow && length >= 0 && length < Int64(Self.unknown) ? UInt32(length) : Self.unknown
    }
}

/// The four columns while they are sorted: each thread replaces only its own, and each old
/// column is released as soon as its new one is made.
private final class SortColumns: @unchecked Sendable {
    var starts: [Micros]
    var ends: [Micros]
    var apps: [Int32]
    var categories: [Int32]

    init(_ c: SessionColumns) {
        (starts, ends, apps, categories) = (c.starts, c.ends, c.apps, c.categories)
    }

    /// A column, left empty here (so the caller holds its only copy).
    func take<T>(_ column: ReferenceWritableKeyPath<SortColumns, [T]>) -> [T] {
        let values = self[keyPath: column]
        self[keyPath: column] = []
        return values
    }

    /// Sorts `starts` and returns the positions of the sessions in (start, end, position) order.
    func sortStarts(parallel: Bool) -> [Int32] {
        let n = starts.count
        var lowest = starts[0]
        var high = lowest
        for t in starts {
            lowest = Swift.min(lowest, t)
            high = Swift.max(high, t)
        }
        let low = lowest
        // About four sessions a bucket.
        let span = UInt64(bitPattern: high &- low)
        let bucketBits = Swift.max(1, (n / 4).bitWidth - (n / 4).leadingZeroBitCount)
        let spanBits = span.bitWidth - span.leadingZeroBitCount
        let shift = UInt64(Swift.max(0, spanBits - bucketBits))
        let buckets = Int(span >> shift) + 1
        let halves = parallel ? 2 : 1
        let bounds = (0...halves).map { n * $0 / halves }
        // Bucket sizes, per half of the input.
        var counts = [[Int32]](repeating: [], count: halves)
        starts.withUnsafeBufferPointer { st in
            let input = UnsafeSendable(st)
            let result = CountsOutput(halves: halves)
            DispatchQueue.concurrentPerform(iterations: halves) { h in
                var c = [Int32](repeating: 0, count: buckets + 1)
                for k in bounds[h]..<bounds[h + 1] { c[Int(UInt64(bitPattern: input.value[k] &- low) >> shift)] += 1 }
                result.set(h, c)
            }
            counts = result.take()
        }
        // Where each half's sessions of each bucket go: the first half's before the second's.
        var cursors = [[Int32](repeating: 0, count: buckets + 1), [Int32](repeating: 0, count: halves > 1 ? buckets + 1 : 0)]
        var bucketStart = [Int32](repeating: 0, count: buckets + 1)
        var total: Int32 = 0
        for b in 0..<buckets {
            bucketStart[b] = total
            for h in 0..<halves {
                cursors[h][b] = total
                total += counts[h][b]
            }
        }
        bucketStart[buckets] = total
        counts = []
        var keys = [SortedStart](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        starts.withUnsafeBufferPointer { st in
            ends.withUnsafeBufferPointer { en in
                keys.withUnsafeMutableBufferPointer { out in
                    let (input, inputEnds, target) = (UnsafeSendable(st), UnsafeSendable(en), UnsafeSendable(out))
                    let cursorsCopy = cursors
                    DispatchQueue.concurrentPerform(iterations: halves) { h in
                        var cursor = cursorsCopy[h]
                        for k in bounds[h]..<bounds[h + 1] {
                            let t = input.value[k]
                            let b = Int(UInt64(bitPattern: t &- low) >> shift)
                            target.value[Int(cursor[b])] = SortedStart(start: t, end: inputEnds.value[k], position: Int32(k))
                            cursor[b] += 1
                        }
                    }
                }
            }
        }
        cursors = []
        // Each bucket in (start, end, position) order (its keys are in position order already);
        // then the starts written over the old ones, and the positions taken, in two halves.
        let bucketBounds = bucketStart
        bucketStart = []
        var perm = [Int32](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        keys.withUnsafeMutableBufferPointer { all in
            ends.withUnsafeBufferPointer { en in
                starts.withUnsafeMutableBufferPointer { st in
                    perm.withUnsafeMutableBufferPointer { pm in
                        let (keys, endsOf, sorted, positions) = (UnsafeSendable(all), UnsafeSendable(en), UnsafeSendable(st), UnsafeSendable(pm))
                        let middle = halves > 1 ? buckets / 2 : buckets
                        let ranges = halves > 1 ? [0..<middle, middle..<buckets] : [0..<buckets]
                        DispatchQueue.concurrentPerform(iterations: ranges.count) { r in
                            let all = keys.value
                            let ends = endsOf.value
                            @inline(__always) func precedes(_ x: SortedStart, _ y: SortedStart) -> Bool {
                                if x.start != y.start { return x.start < y.start }
                                if x.length != SortedStart.unknown, y.length != SortedStart.unknown {
                                    return x.length != y.length ? x.length < y.length : x.position < y.position
                                }
                                let (ex, ey) = (ends[Int(x.position)], ends[Int(y.position)])
                                if ex != ey { return ex < ey }
                                return x.position < y.position
                            }
                            for b in ranges[r] {
                                sortBucket(all, from: Int(bucketBounds[b]), to: Int(bucketBounds[b + 1]), by: precedes)
                            }
                            let range = Int(bucketBounds[ranges[r].lowerBound])..<Int(bucketBounds[ranges[r].upperBound])
                            for k in range {
                                sorted.value[k] = all[k].start
                                positions.value[k] = all[k].position
                            }
                        }
                    }
                }
            }
        }
        return perm
    }
}

/// Per-half bucket counts, handed back from the threads of `concurrentPerform`.
private final class CountsOutput: Sendable {
    private let counts: Mutex<[[Int32]]>

    init(halves: Int) {
        counts = Mutex(Array(repeating: [], count: halves))
    }

    func set(_ h: Int, _ c: [Int32]) { counts.withLock { $0[h] = c } }
    func take() -> [[Int32]] { counts.withLock { $0 } }
}
