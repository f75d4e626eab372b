// SessionColumns.swift — the columnar sessions: times as integers, names as ids, sorted by start for range queries; ids, offsets and running flags kept in input order beside them (InputOrderColumns).
import Dispatch
import Synchronization

/// Valid sessions stored by column (24 bytes a session for times and names, no object per
/// session), read as a collection of `Session` values sorted by (start, end).
public struct SessionColumns: RandomAccessCollection, Sendable {
    /// Start instants, inclusive.
    public internal(set) var starts: [Micros] = []
    /// End instants, exclusive.
    public internal(set) var ends: [Micros] = []
    /// App ids (into `Dataset.apps`).
    public internal(set) var apps: [Int32] = []
    /// Category ids (into `Dataset.categories`).
    public internal(set) var categories: [Int32] = []
    /// The sessions' ids as the rows had them, in input order (ids are only read when shown).
    var ids = InputOrderColumns()
    /// For session k, its place in `ids`; `nil` when that is k itself.
    var inputRow: [Int32]?

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
        ids.text(at: inputRow.map { Int($0[k]) } ?? k)
    }

    /// The UTC offsets session `k`'s timestamps were written with, when its source said.
    public func offsets(at k: Int) -> UTCOffsets {
        ids.offsets(at: inputRow.map { Int($0[k]) } ?? k)
    }

    /// Calls `body` with the UTF-8 bytes of session `k`'s id (nil when its row had none),
    /// making no `String`.
    public func withID<R>(at k: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        try ids.withBytes(at: inputRow.map { Int($0[k]) } ?? k, body)
    }

    /// Calls `body` with every session's id as bytes (see `SessionIDs`).
    package func withIDs<R>(_ body: (SessionIDs) throws -> R) rethrows -> R {
        try ids.withStorage { bytes, ends, present, offsets in
            guard let inputRow else {
                return try body(SessionIDs(bytes: bytes, ends: ends, present: present, offsets: offsets, position: nil))
            }
            return try inputRow.withUnsafeBufferPointer { position in
                try body(SessionIDs(bytes: bytes, ends: ends, present: present, offsets: offsets, position: position))
            }
        }
    }

    /// Whether session `k` is still running: its source had no end for it and the load counted
    /// it up to its clock (a Timewarrior interval being tracked).
    public func isRunning(at k: Int) -> Bool {
        ids.hasRunning && ids.isRunning(at: inputRow.map { Int($0[k]) } ?? k)
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

    /// Appends another's sessions (input order, `inputRow` unused on both), its app and
    /// category ids mapped through the tables.
    package mutating func append(contentsOf other: SessionColumns, appMap: [Int32], categoryMap: [Int32]) {
        precondition(inputRow == nil && other.inputRow == nil, "input order only")
        starts.append(contentsOf: other.starts)
        ends.append(contentsOf: other.ends)
        appMap.withUnsafeBufferPointer { map in apps.append(contentsOf: other.apps.lazy.map { map[Int($0)] }) }
        categoryMap.withUnsafeBufferPointer { map in
            categories.append(contentsOf: other.categories.lazy.map { map[Int($0)] })
        }
        ids.append(contentsOf: other.ids)
    }

    /// Appends a session whose id is id `k` of another store (no `String` made).
    package mutating func append(start: Micros, end: Micros, app: Int32, category: Int32, from store: InputOrderColumns, at k: Int) {
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

    /// Puts the sessions in the order `sortedByStart` gives, in place. Rows a store sends in
    /// start order with nothing of their own in input order (no ids, offsets or running marks)
    /// need only each run of one start put in end order: an insertion sort, linear while such
    /// runs are short, where the full sort makes keys, sorts and gathers every column again.
    package mutating func putInStartOrder() {
        if isSortedByStart { return }
        guard inputRow == nil, ids.isBlank, !zip(starts, starts.dropFirst()).contains(where: { $0 > $1 }) else {
            self = sortedByStart()
            return
        }
        starts.withUnsafeBufferPointer { starts in
            ends.withUnsafeMutableBufferPointer { ends in
                apps.withUnsafeMutableBufferPointer { apps in
                    categories.withUnsafeMutableBufferPointer { categories in
                        for k in 1..<starts.count where ends[k] < ends[k - 1] && starts[k] == starts[k - 1] {
                            let (end, app, category) = (ends[k], apps[k], categories[k])
                            var j = k
                            while j > 0, starts[j - 1] == starts[k], ends[j - 1] > end {
                                (ends[j], apps[j], categories[j]) = (ends[j - 1], apps[j - 1], categories[j - 1])
                                j -= 1
                            }
                            (ends[j], apps[j], categories[j]) = (end, app, category)
                        }
                    }
                }
            }
        }
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
                let position = inputRow.map { $0[k] } ?? Int32(k)
                buffer[k] = SortKey(start: starts[k], end: ends[k], index: position + offset, app: apps[k], category: categories[k])
            }
            initialized = starts.count
        }
        if !isSortedByStart { SortKey.sort(&keys) }
        return keys
    }
}
