// InputOrderColumns.swift — what follows a session in input order through sorting and merging: its id as bytes, its timestamps' offsets, whether it runs.

/// Session ids as UTF-8 bytes back to back, in input order, the offsets of their timestamps,
/// and which sessions are running (kept with the ids because, like them, they follow a session
/// through sorting and merging).
package struct InputOrderColumns: Sendable {
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

    /// Whether every row is alike: no id, unknown offsets, none running (a store's window read
    /// without ids), so that rows may change places without these following them.
    package var isBlank: Bool {
        let unknown = UTCOffsets.unknown.packed
        return bytes.isEmpty && running.isEmpty && !present.contains(true) && !offsets.contains { $0 != unknown }
    }

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

    /// Calls `body` with the ids' bytes, where each ends, whether each is there, and the packed
    /// offsets.
    package func withStorage<R>(
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<Bool>, UnsafeBufferPointer<UInt32>) throws -> R
    ) rethrows -> R {
        try bytes.withUnsafeBufferPointer { bytes in
            try ends.withUnsafeBufferPointer { ends in
                try present.withUnsafeBufferPointer { present in
                    try offsets.withUnsafeBufferPointer { offsets in try body(bytes, ends, present, offsets) }
                }
            }
        }
    }

    package func withBytes<R>(at k: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard present[k] else { return try body(nil) }
        let from = k == 0 ? 0 : Int(ends[k - 1])
        return try bytes.withUnsafeBufferPointer { all in try body(UnsafeBufferPointer(rebasing: all[from..<Int(ends[k])])) }
    }

    /// Appends id `k` of another store, with its offsets and whether it runs.
    package mutating func append(from other: InputOrderColumns, at k: Int) {
        let offsets = other.offsets(at: k)
        let running = other.hasRunning && other.isRunning(at: k)
        guard other.present[k] else { return append(nil, offsets: offsets, running: running) }
        let from = k == 0 ? 0 : Int(other.ends[k - 1])
        other.bytes.withUnsafeBufferPointer {
            append(UnsafeBufferPointer(rebasing: $0[from..<Int(other.ends[k])]), offsets: offsets, running: running)
        }
    }

    /// Appends another store's ids (offsets, running) after these.
    package mutating func append(contentsOf other: InputOrderColumns) {
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

    package static func concatenated(_ stores: [InputOrderColumns]) -> InputOrderColumns {
        guard var out = stores.first else { return InputOrderColumns() }
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
