// SessionIDs.swift — the ids of a window's sessions as UTF-8 bytes, read by writers without a String per id.

/// The ids of a window's sessions as UTF-8 bytes, valid only inside `SessionWindow.withIDs`:
/// what a writer reads for each session without a `String` or a closure call per id. Threads
/// may read it at once (nothing changes the columns meanwhile).
public struct SessionIDs: @unchecked Sendable {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package let ends: UnsafeBufferPointer<UInt32>
    @usableFromInline package let present: UnsafeBufferPointer<Bool>
    /// For session k of the columns, its row in input order, where its id is kept (nil: k itself).
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
