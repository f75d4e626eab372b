// SessionIDs.swift — the ids of a window's sessions as UTF-8 bytes (and their timestamps' UTC offsets), read by writers without a String or a copy of the columns per session.

/// The ids of a window's sessions as UTF-8 bytes, valid only inside `SessionWindow.withIDs`
/// (or `SessionColumns.withIDs`, for an import's rows):
/// what a writer reads for each session without a `String` or a closure call per id. Threads
/// may read it at once (nothing changes the columns meanwhile).
public struct SessionIDs: @unchecked Sendable {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package let ends: UnsafeBufferPointer<UInt32>
    @usableFromInline package let present: UnsafeBufferPointer<Bool>
    /// Each row's UTC offsets, packed (`UTCOffsets.packed`), in input order as the ids.
    @usableFromInline package let offsets: UnsafeBufferPointer<UInt32>
    /// For session k of the columns, its row in input order, where its id is kept (nil: k itself).
    @usableFromInline package let position: UnsafeBufferPointer<Int32>?

    package init(
        bytes: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<UInt32>, present: UnsafeBufferPointer<Bool>,
        offsets: UnsafeBufferPointer<UInt32>, position: UnsafeBufferPointer<Int32>?
    ) {
        (self.bytes, self.ends, self.present, self.offsets, self.position) = (bytes, ends, present, offsets, position)
    }

    /// The id of a session the window yielded, or nil when its row had none.
    @inlinable public subscript(session: ClippedSession) -> UnsafeBufferPointer<UInt8>? {
        id(at: session.position)
    }

    /// The id of the columns' session `k` (in their order), or nil when its row had none.
    @inlinable package func id(at k: Int) -> UnsafeBufferPointer<UInt8>? {
        let row = position.map { Int($0[k]) } ?? k
        guard present[row] else { return nil }
        let from = row == 0 ? 0 : Int(ends[row - 1])
        return UnsafeBufferPointer(rebasing: bytes[from..<Int(ends[row])])
    }

    /// The UTC offsets of the columns' session `k`'s timestamps.
    @inlinable package func offsets(at k: Int) -> UTCOffsets {
        UTCOffsets(packed: offsets[position.map { Int($0[k]) } ?? k])
    }
}
