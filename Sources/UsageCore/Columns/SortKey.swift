// SortKey.swift — a session's place in (start, end) order with its names, the bucket sort of keys, and the sort of one bucket both of the load's sorts use.

/// A session's place in (start, end) order with its names; the position breaks ties, so the
/// order is the input's.
package struct SortKey: Sendable {
    package var start: Micros
    package var end: Micros
    package var index: Int32
    package var app: Int32
    package var category: Int32

    @inline(__always) package static func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        return a.index < b.index
    }

    /// Sorts keys that are in position order: a counting pass spreads them into buckets of
    /// nearby starts (stable, so positions stay in order), then each small bucket is sorted.
    /// Near linear for session data, whose starts spread over days; a pile of equal starts
    /// only makes one bucket bigger, which the library sort then handles.
    package static func sort(_ keys: inout [SortKey]) {
        let n = keys.count
        guard n > 256 else { return keys.sort(by: precedes) }
        var low = keys[0].start
        var high = low
        for key in keys {
            low = Swift.min(low, key.start)
            high = Swift.max(high, key.start)
        }
        let span = UInt64(bitPattern: high &- low)
        let bucketBits = Swift.max(1, (n / 4).bitWidth - (n / 4).leadingZeroBitCount)
        let spanBits = span.bitWidth - span.leadingZeroBitCount
        let shift = UInt64(Swift.max(0, spanBits - bucketBits))
        let buckets = Int(span >> shift) + 1
        var starts = [Int](repeating: 0, count: buckets + 1)
        for key in keys { starts[Int(UInt64(bitPattern: key.start &- low) >> shift) + 1] += 1 }
        for b in 0..<buckets { starts[b + 1] += starts[b] }
        let bounds = starts
        keys = [SortKey](unsafeUninitializedCapacity: n) { out, initialized in
            for key in keys {
                let b = Int(UInt64(bitPattern: key.start &- low) >> shift)
                out[starts[b]] = key
                starts[b] += 1
            }
            initialized = n
        }
        keys.withUnsafeMutableBufferPointer { all in
            for b in 0..<buckets { sortBucket(all, from: bounds[b], to: bounds[b + 1], by: precedes) }
        }
    }
}

/// Sorts one bucket of a bucket sort, `all[from..<to]`: by insertion when it holds a handful
/// of keys (as nearly all do), else by the library's sort. Both of the load's sorts use it.
@inline(__always)
package func sortBucket<Key>(_ all: UnsafeMutableBufferPointer<Key>, from: Int, to: Int, by precedes: (Key, Key) -> Bool) {
    guard to - from > 1 else { return }
    if to - from <= 24 {
        for j in (from + 1)..<to {
            let key = all[j]
            var k = j
            while k > from, precedes(key, all[k - 1]) {
                all[k] = all[k - 1]
                k -= 1
            }
            all[k] = key
        }
    } else {
        var bucket = UnsafeMutableBufferPointer(rebasing: all[from..<to])
        bucket.sort(by: precedes)
    }
}
