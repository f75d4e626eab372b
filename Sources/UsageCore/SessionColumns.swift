// SessionColumns.swift — the columnar session store: times as integers, names as ids, sorted by start for range queries (the ingest's lean two-core sort); ids kept as bytes.
import Dispatch
import Synchronization

/// Valid sessions stored by column (24 bytes a session for times and names, no object per
/// session), read as a collection of `Session` values sorted by (start, end).
public struct SessionColumns: RandomAccessCollection, Sendable {
    /// Start instants, inclusive.
    public private(set) var starts: [Micros] = []
    /// End instants, exclusive.
    public private(set) var ends: [Micros] = []
    /// App ids (into `Dataset.apps`).
    public private(set) var apps: [Int32] = []
    /// Category ids (into `Dataset.categories`).
    public private(set) var categories: [Int32] = []
    /// The sessions' ids as the rows had them, in input order (ids are only read when shown).
    private var ids = IDStore()
    /// For session k, its place in `ids`; `nil` when that is k itself.
    private var idPosition: [Int32]?

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts.count }

    /// Session `k`; its id is made into a `String` only here, when asked for.
    public subscript(k: Int) -> Session {
        Session(start: starts[k], end: ends[k], app: apps[k], category: categories[k], id: id(at: k), running: isRunning(at: k))
    }

    /// Session `k` without its id (what reports read: no `String` made).
    @inline(__always) public func core(_ k: Int) -> (start: Micros, end: Micros, app: Int32, category: Int32) {
        (starts[k], ends[k], apps[k], categories[k])
    }

    /// The id of session `k`, or `nil` when its row had none.
    public func id(at k: Int) -> String? {
        ids.text(at: idPosition.map { Int($0[k]) } ?? k)
    }

    /// The UTC offsets session `k`'s timestamps were written with, when its source said.
    public func offsets(at k: Int) -> UTCOffsets {
        ids.offsets(at: idPosition.map { Int($0[k]) } ?? k)
    }

    /// Calls `body` with the UTF-8 bytes of session `k`'s id (nil when its row had none),
    /// making no `String`.
    public func withID<R>(at k: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        try ids.withBytes(at: idPosition.map { Int($0[k]) } ?? k, body)
    }

    /// Calls `body` with every session's id as bytes (see `SessionIDs`).
    package func withIDs<R>(_ body: (SessionIDs) throws -> R) rethrows -> R {
        try ids.withStorage { bytes, ends, present in
            guard let idPosition else {
                return try body(SessionIDs(bytes: bytes, ends: ends, present: present, position: nil))
            }
            return try idPosition.withUnsafeBufferPointer { position in
                try body(SessionIDs(bytes: bytes, ends: ends, present: present, position: position))
            }
        }
    }

    /// Whether session `k` is still running: its source had no end for it and the load counted
    /// it up to its clock (a Timewarrior interval being tracked).
    public func isRunning(at k: Int) -> Bool {
        ids.hasRunning && ids.isRunning(at: idPosition.map { Int($0[k]) } ?? k)
    }

    /// Whether any session is still running.
    public var hasRunning: Bool { ids.hasRunning }

    /// The longest session's length (0 when empty) and the latest end (`nil` when empty), in one pass.
    public var extent: (longest: Micros, latestEnd: Micros?) {
        var longest: Micros = 0
        var latest: Micros?
        for k in starts.indices {
            longest = Swift.max(longest, ends[k] - starts[k])
            latest = Swift.max(latest ?? ends[k], ends[k])
        }
        return (longest, latest)
    }

    /// Makes room for `count` sessions.
    public mutating func reserve(_ count: Int) {
        starts.reserveCapacity(count)
        ends.reserveCapacity(count)
        apps.reserveCapacity(count)
        categories.reserveCapacity(count)
        ids.reserve(count)
    }

    /// Appends a session (input order) whose id is UTF-8 bytes, or absent; `running` marks a
    /// session counted up to the load's clock.
    package mutating func append(
        start: Micros, end: Micros, app: Int32, category: Int32, idBytes id: UnsafeBufferPointer<UInt8>?,
        offsets: UTCOffsets = .unknown, running: Bool = false
    ) {
        starts.append(start)
        ends.append(end)
        apps.append(app)
        categories.append(category)
        ids.append(id, offsets: offsets, running: running)
    }

    /// Appends another's sessions (input order, `idPosition` unused on both), its app and
    /// category ids mapped through the tables.
    package mutating func append(contentsOf other: SessionColumns, appMap: [Int32], categoryMap: [Int32]) {
        precondition(idPosition == nil && other.idPosition == nil, "input order only")
        starts.append(contentsOf: other.starts)
        ends.append(contentsOf: other.ends)
        appMap.withUnsafeBufferPointer { map in apps.append(contentsOf: other.apps.lazy.map { map[Int($0)] }) }
        categoryMap.withUnsafeBufferPointer { map in
            categories.append(contentsOf: other.categories.lazy.map { map[Int($0)] })
        }
        ids.append(contentsOf: other.ids)
    }

    /// Appends a session whose id is id `k` of another store (no `String` made).
    package mutating func append(start: Micros, end: Micros, app: Int32, category: Int32, from store: IDStore, at k: Int) {
        starts.append(start)
        ends.append(end)
        apps.append(app)
        categories.append(category)
        ids.append(from: store, at: k)
    }

    /// Appends a session (input order); `end > start`, and the ids index the names of the history
    /// the columns belong to.
    public mutating func append(start: Micros, end: Micros, app: Int32, category: Int32, id: String?, running: Bool = false) {
        guard var id else {
            return append(start: start, end: end, app: app, category: category, idBytes: nil, running: running)
        }
        id.withUTF8 { append(start: start, end: end, app: app, category: category, idBytes: $0, running: running) }
    }

    /// The same sessions with app and category ids mapped through tables (merging sources).
    package func remapped(apps appMap: [Int32], categories categoryMap: [Int32]) -> SessionColumns {
        var copy = self
        copy.apps = apps.map { appMap[Int($0)] }
        copy.categories = categories.map { categoryMap[Int($0)] }
        return copy
    }

    /// The same sessions with each category id replaced (category rules).
    package func replacingCategories(_ categories: [Int32]) -> SessionColumns {
        precondition(categories.count == count)
        var copy = self
        copy.categories = categories
        return copy
    }

    /// Whether the sessions are already in (start, end) order, as most exports are.
    package var isSortedByStart: Bool {
        for k in starts.indices.dropFirst() where (starts[k - 1], ends[k - 1]) > (starts[k], ends[k]) { return false }
        return true
    }

    /// The sessions in (start, end) order; ties keep their order.
    public func sortedByStart() -> SessionColumns {
        if isSortedByStart { return self }
        return Self.merging([self], keys: [sortedKeys()], appMaps: [nil], categoryMaps: [nil])
    }

    /// One key per session in (start, end, position) order; positions (of the ids, in input
    /// order) start at `offset`.
    package func sortedKeys(offset: Int32 = 0) -> [SortKey] {
        var keys = [SortKey](unsafeUninitializedCapacity: count) { buffer, initialized in
            for k in starts.indices {
                let position = idPosition.map { $0[k] } ?? Int32(k)
                buffer[k] = SortKey(start: starts[k], end: ends[k], index: position + offset, app: apps[k], category: categories[k])
            }
            initialized = starts.count
        }
        if !isSortedByStart { SortKey.sort(&keys) }
        return keys
    }

    /// The sessions of `parts` (back to back, as the keys' positions count them) in one (start,
    /// end) order, given each part's sorted keys; each part's app and category ids mapped
    /// through its table when it has one. Keys carry the names, so nothing is read at random,
    /// and the merge writes the columns in one pass.
    package static func merging(
        _ parts: [SessionColumns], keys: [[SortKey]], appMaps: [[Int32]?], categoryMaps: [[Int32]?]
    ) -> SessionColumns {
        precondition(!keys.isEmpty && keys.count <= 2, "one or two parts")
        let n = keys.reduce(0) { $0 + $1.count }
        var out = SessionColumns()
        var starts = [Micros](repeating: 0, count: n)
        var ends = [Micros](repeating: 0, count: n)
        var apps = [Int32](repeating: 0, count: n)
        var categories = [Int32](repeating: 0, count: n)
        var positions = [Int32](repeating: 0, count: n)
        let empty: [SortKey] = []
        let a = keys[0]
        let b = keys.count > 1 ? keys[1] : empty
        let noMap: [Int32] = []
        let appMap = appMaps.count > 1 ? appMaps[1] ?? noMap : noMap
        let categoryMap = categoryMaps.count > 1 ? categoryMaps[1] ?? noMap : noMap
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var i = 0
                var j = 0
                for k in 0..<n {
                    let key: SortKey
                    var app: Int32
                    var category: Int32
                    if j >= b.count || (i < a.count && !SortKey.precedes(b[j], a[i])) {
                        key = a[i]
                        i += 1
                        app = key.app
                        category = key.category
                    } else {
                        key = b[j]
                        j += 1
                        app = appMap.isEmpty ? key.app : appMap[Int(key.app)]
                        category = categoryMap.isEmpty ? key.category : categoryMap[Int(key.category)]
                    }
                    starts[k] = key.start
                    ends[k] = key.end
                    apps[k] = app
                    categories[k] = category
                    positions[k] = key.index
                }
            }
        }
        out.starts = starts
        out.ends = ends
        out.apps = apps
        out.categories = categories
        out.ids = IDStore.concatenated(parts.map(\.ids))
        out.idPosition = positions
        return out
    }
}

extension SessionColumns {
    /// Below this many sessions the sort stays on one core.
    package static let parallelSortThreshold = 1 << 16

    /// Sorts sessions in input order by (start, end), ties in input order, using little memory:
    /// a permutation (4 bytes a session, which becomes `idPosition`, so ids stay where they
    /// are) is found by spreading (start, length, position) keys into buckets of nearby starts
    /// and sorting each small bucket; the sorted starts are written over the old ones from the
    /// keys, then the other columns are gathered through the permutation, on two cores. Memory
    /// added: the keys (16 bytes a session) and the permutation while the starts are sorted,
    /// then the permutation and the two columns being gathered, each old column freed once
    /// its new one is made.
    package mutating func sortByStart() {
        precondition(idPosition == nil, "input order only")
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
        idPosition = perm
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
    package var start: Micros
    package var position: Int32
    /// The length in microseconds, or `unknown`: longer (or ending before the start).
    package var length: UInt32

    package static let unknown = UInt32.max

    package init(start: Micros, end: Micros, position: Int32) {
        self.start = start
        self.position = position
        let (length, overflow) = end.subtractingReportingOverflow(start)
        self.length = !overflow && length >= 0 && length < Int64(Self.unknown) ? UInt32(length) : Self.unknown
    }
}

/// The four columns while they are sorted: each thread replaces only its own, and each old
/// column is released as soon as its new one is made.
private final class SortColumns: @unchecked Sendable {
    package var starts: [Micros]
    package var ends: [Micros]
    package var apps: [Int32]
    package var categories: [Int32]

    package init(_ c: SessionColumns) {
        (starts, ends, apps, categories) = (c.starts, c.ends, c.apps, c.categories)
    }

    /// A column, left empty here (so the caller holds its only copy).
    package func take<T>(_ column: ReferenceWritableKeyPath<SortColumns, [T]>) -> [T] {
        let values = self[keyPath: column]
        self[keyPath: column] = []
        return values
    }

    /// Sorts `starts` and returns the positions of the sessions in (start, end, position) order.
    package func sortStarts(parallel: Bool) -> [Int32] {
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

    package init(halves: Int) {
        counts = Mutex(Array(repeating: [], count: halves))
    }

    package func set(_ h: Int, _ c: [Int32]) { counts.withLock { $0[h] = c } }
    package func take() -> [[Int32]] { counts.withLock { $0 } }
}

/// The ids of a window's sessions as UTF-8 bytes, valid only inside `SessionWindow.withIDs`:
/// what a writer reads for each session without a `String` or a closure call per id. Threads
/// may read it at once (nothing changes the columns meanwhile).
public struct SessionIDs: @unchecked Sendable {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package let ends: UnsafeBufferPointer<UInt32>
    @usableFromInline package let present: UnsafeBufferPointer<Bool>
    /// For session k of the columns, its place in the id store (nil: k itself).
    @usableFromInline package let position: UnsafeBufferPointer<Int32>?

    package init(
        bytes: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<UInt32>, present: UnsafeBufferPointer<Bool>,
        position: UnsafeBufferPointer<Int32>?
    ) {
        (self.bytes, self.ends, self.present, self.position) = (bytes, ends, present, position)
    }

    /// The id of a session the window yielded, or nil when its row had none.
    @inlinable public subscript(session: ClippedSession) -> UnsafeBufferPointer<UInt8>? {
        let k = position.map { Int($0[session.position]) } ?? session.position
        guard present[k] else { return nil }
        let from = k == 0 ? 0 : Int(ends[k - 1])
        return UnsafeBufferPointer(rebasing: bytes[from..<Int(ends[k])])
    }
}

/// The UTC offsets a session's start and end were written with (`+01:00` is 60), when its
/// source wrote them in its text; kept so that nothing of a timestamp is lost.
public struct UTCOffsets: Sendable, Hashable {
    /// Minutes east of UTC, or `Int16.min` when unknown.
    public let startMinutes: Int16
    public let endMinutes: Int16

    public init(startMinutes: Int16, endMinutes: Int16) {
        self.startMinutes = startMinutes
        self.endMinutes = endMinutes
    }

    public static let unknown = UTCOffsets(startMinutes: .min, endMinutes: .min)

    /// The start's offset in minutes, or nil when the source did not say.
    public var start: Int? { startMinutes == .min ? nil : Int(startMinutes) }
    public var end: Int? { endMinutes == .min ? nil : Int(endMinutes) }

    package var packed: UInt32 { UInt32(UInt16(bitPattern: startMinutes)) << 16 | UInt32(UInt16(bitPattern: endMinutes)) }
    package init(packed: UInt32) {
        self.init(startMinutes: Int16(bitPattern: UInt16(packed >> 16)), endMinutes: Int16(bitPattern: UInt16(packed & 0xFFFF)))
    }
}

/// Session ids as UTF-8 bytes back to back, in input order, the offsets of their timestamps,
/// and which sessions are running (kept with the ids because, like them, they follow a session
/// through sorting and merging).
package struct IDStore: Sendable {
    package init() {}
    private var bytes: [UInt8] = []
    /// Where id k ends in `bytes`.
    private var ends: [UInt32] = []
    /// Whether row k had an id at all (an empty id is not a missing one).
    private var present: [Bool] = []
    /// Row k's UTC offsets, packed.
    private var offsets: [UInt32] = []
    /// The rows (input order) of the sessions still running: a handful at most, usually none.
    private var running: Set<Int> = []

    package var hasRunning: Bool { !running.isEmpty }

    package func isRunning(at k: Int) -> Bool { running.contains(k) }

    package mutating func reserve(_ count: Int) {
        ends.reserveCapacity(count)
        present.reserveCapacity(count)
        offsets.reserveCapacity(count)
        bytes.reserveCapacity(count * 10)
    }

    package mutating func append(_ id: UnsafeBufferPointer<UInt8>?, offsets: UTCOffsets = .unknown, running isRunning: Bool = false) {
        if isRunning { running.insert(ends.count) }
        if let id { bytes.append(contentsOf: id) }
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
        present.append(id != nil)
        self.offsets.append(offsets.packed)
    }

    package func offsets(at k: Int) -> UTCOffsets { UTCOffsets(packed: offsets[k]) }

    /// Calls `body` with the ids' bytes, where each ends, and whether each is there.
    package func withStorage<R>(
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<Bool>) throws -> R
    ) rethrows -> R {
        try bytes.withUnsafeBufferPointer { bytes in
            try ends.withUnsafeBufferPointer { ends in
                try present.withUnsafeBufferPointer { present in try body(bytes, ends, present) }
            }
        }
    }

    package func withBytes<R>(at k: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard present[k] else { return try body(nil) }
        let from = k == 0 ? 0 : Int(ends[k - 1])
        return try bytes.withUnsafeBufferPointer { all in try body(UnsafeBufferPointer(rebasing: all[from..<Int(ends[k])])) }
    }

    /// Appends id `k` of another store, with its offsets and whether it runs.
    package mutating func append(from other: IDStore, at k: Int) {
        let offsets = other.offsets(at: k)
        let running = other.hasRunning && other.isRunning(at: k)
        guard other.present[k] else { return append(nil, offsets: offsets, running: running) }
        let from = k == 0 ? 0 : Int(other.ends[k - 1])
        other.bytes.withUnsafeBufferPointer {
            append(UnsafeBufferPointer(rebasing: $0[from..<Int(other.ends[k])]), offsets: offsets, running: running)
        }
    }

    /// Appends another store's ids (offsets, running) after these.
    package mutating func append(contentsOf other: IDStore) {
        let shift = UInt32(truncatingIfNeeded: bytes.count)
        let rows = ends.count
        running.formUnion(other.running.lazy.map { $0 + rows })
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 &+ shift })
        present.append(contentsOf: other.present)
        offsets.append(contentsOf: other.offsets)
    }

    package func text(at k: Int) -> String? {
        guard present[k] else { return nil }
        let from = k == 0 ? 0 : Int(ends[k - 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[from..<Int(ends[k])]), as: UTF8.self) }
    }

    package static func concatenated(_ stores: [IDStore]) -> IDStore {
        guard var out = stores.first else { return IDStore() }
        for store in stores.dropFirst() {
            let shift = UInt32(truncatingIfNeeded: out.bytes.count)
            let rows = out.ends.count
            out.running.formUnion(store.running.lazy.map { $0 + rows })
            out.bytes.append(contentsOf: store.bytes)
            out.ends.append(contentsOf: store.ends.lazy.map { $0 &+ shift })
            out.present.append(contentsOf: store.present)
            out.offsets.append(contentsOf: store.offsets)
        }
        return out
    }
}

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
