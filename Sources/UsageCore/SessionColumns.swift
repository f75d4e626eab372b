// SessionColumns.swift — the columnar session store: times as integers, names as ids, sorted by start for range queries; ids kept as bytes.

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
    mutating func append(
        start: Micros, end: Micros, app: Int32, category: Int32, idBytes id: UnsafeBufferPointer<UInt8>?,
        offsets: UTCOffsets = .unknown, running: Bool = false
    ) {
        starts.append(start)
        ends.append(end)
        apps.append(app)
        categories.append(category)
        ids.append(id, offsets: offsets, running: running)
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
    func remapped(apps appMap: [Int32], categories categoryMap: [Int32]) -> SessionColumns {
        var copy = self
        copy.apps = apps.map { appMap[Int($0)] }
        copy.categories = categories.map { categoryMap[Int($0)] }
        return copy
    }

    /// The same sessions with each category id replaced (category rules).
    func replacingCategories(_ categories: [Int32]) -> SessionColumns {
        precondition(categories.count == count)
        var copy = self
        copy.categories = categories
        return copy
    }

    /// Whether the sessions are already in (start, end) order, as most exports are.
    var isSortedByStart: Bool {
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
    func sortedKeys(offset: Int32 = 0) -> [SortKey] {
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
    static func merging(
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

    var packed: UInt32 { UInt32(UInt16(bitPattern: startMinutes)) << 16 | UInt32(UInt16(bitPattern: endMinutes)) }
    init(packed: UInt32) {
        self.init(startMinutes: Int16(bitPattern: UInt16(packed >> 16)), endMinutes: Int16(bitPattern: UInt16(packed & 0xFFFF)))
    }
}

/// Session ids as UTF-8 bytes back to back, in input order, the offsets of their timestamps,
/// and which sessions are running (kept with the ids because, like them, they follow a session
/// through sorting and merging).
struct IDStore: Sendable {
    private var bytes: [UInt8] = []
    /// Where id k ends in `bytes`.
    private var ends: [UInt32] = []
    /// Whether row k had an id at all (an empty id is not a missing one).
    private var present: [Bool] = []
    /// Row k's UTC offsets, packed.
    private var offsets: [UInt32] = []
    /// The rows (input order) of the sessions still running: a handful at most, usually none.
    private var running: Set<Int> = []

    var hasRunning: Bool { !running.isEmpty }

    func isRunning(at k: Int) -> Bool { running.contains(k) }

    mutating func reserve(_ count: Int) {
        ends.reserveCapacity(count)
        present.reserveCapacity(count)
        offsets.reserveCapacity(count)
        bytes.reserveCapacity(count * 10)
    }

    mutating func append(_ id: UnsafeBufferPointer<UInt8>?, offsets: UTCOffsets = .unknown, running isRunning: Bool = false) {
        if isRunning { running.insert(ends.count) }
        if let id { bytes.append(contentsOf: id) }
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
        present.append(id != nil)
        self.offsets.append(offsets.packed)
    }

    func offsets(at k: Int) -> UTCOffsets { UTCOffsets(packed: offsets[k]) }

    func withBytes<R>(at k: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard present[k] else { return try body(nil) }
        let from = k == 0 ? 0 : Int(ends[k - 1])
        return try bytes.withUnsafeBufferPointer { all in try body(UnsafeBufferPointer(rebasing: all[from..<Int(ends[k])])) }
    }

    func text(at k: Int) -> String? {
        guard present[k] else { return nil }
        let from = k == 0 ? 0 : Int(ends[k - 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[from..<Int(ends[k])]), as: UTF8.self) }
    }

    static func concatenated(_ stores: [IDStore]) -> IDStore {
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
struct SortKey: Sendable {
    var start: Micros
    var end: Micros
    var index: Int32
    var app: Int32
    var category: Int32

    @inline(__always) static func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        return a.index < b.index
    }

    /// Sorts keys that are in position order: a counting pass spreads them into buckets of
    /// nearby starts (stable, so positions stay in order), then each small bucket is sorted.
    /// Near linear for session data, whose starts spread over days; a pile of equal starts
    /// only makes one bucket bigger, which the library sort then handles.
    static func sort(_ keys: inout [SortKey]) {
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
            for b in 0..<buckets {
                let from = bounds[b]
                let to = bounds[b + 1]
                guard to - from > 1 else { continue }
                if to - from <= 24 {
                    // Insertion sort: buckets hold a handful of keys.
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
        }
    }
}
