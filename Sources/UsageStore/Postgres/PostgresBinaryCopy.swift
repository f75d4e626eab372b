// PostgresBinaryCopy.swift — rows written in COPY's binary format (the header, a tuple's field count, 8- and 4-byte integers in network order, text as its bytes, NULL, the trailer): the server reads them without parsing any text.
import UsageCore

/// A buffer of `COPY … FROM STDIN (FORMAT binary)` data, filled a field at a time. Fields are
/// stored straight into memory of its own, grown by doubling: an import writes eleven fields for
/// each of a million rows, and an array's bounds and uniqueness checks on every field cost the
/// import a tenth of a second. One owner at a time (an encoding thread, then the sender).
final class PostgresBinaryCopy: @unchecked Sendable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    /// Empty, with room for `capacity` bytes.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// The bytes written, lent to `body`.
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// The format's signature, flags and header extension (none): the data's first bytes.
    func header() {
        bytes(Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0])
    }

    /// Begins a row of `fields` fields.
    func row(fields: Int16) { put(UInt16(bitPattern: fields)) }

    /// A `bigint` field.
    func bigint(_ value: Int64) {
        put(UInt32(8))
        put(UInt64(bitPattern: value))
    }

    /// An `integer` field, or NULL.
    func integer(_ value: Int32?) {
        guard let value else { return null() }
        put(UInt32(4))
        put(UInt32(bitPattern: value))
    }

    /// A `text` field from UTF-8 bytes, as the store keeps text (`PostgresSQL.escaped`: no NUL;
    /// invalid UTF-8 repaired), or NULL. ASCII without NUL, the common case, is copied as it is.
    func text(_ utf8: UnsafeBufferPointer<UInt8>?) {
        guard let utf8 else { return null() }
        if utf8.allSatisfy({ $0 != 0 && $0 < 0x80 }) {
            put(UInt32(utf8.count))
            bytes(utf8)
        } else {
            let kept = Array(PostgresSQL.escaped(String(decoding: utf8, as: UTF8.self)).utf8)
            put(UInt32(kept.count))
            kept.withUnsafeBufferPointer { bytes($0) }
        }
    }

    func null() { put(UInt32.max) }

    /// The end of the data (a field count of -1).
    func finish() { put(UInt16.max) }

    /// Empties the buffer, keeping its room.
    func clear() { count = 0 }

    private func room(_ more: Int) {
        guard capacity - count < more else { return }
        let grown = Swift.max(capacity * 2, count + more)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        moved.copyMemory(from: base, byteCount: count)
        base.deallocate()
        (base, capacity) = (moved, grown)
    }

    private func put<T: FixedWidthInteger>(_ value: T) {
        room(MemoryLayout<T>.size)
        base.storeBytes(of: value.bigEndian, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    private func bytes(_ some: some Collection<UInt8>) {
        room(some.count)
        let into = UnsafeMutableRawBufferPointer(start: base + count, count: some.count)
        into.copyBytes(from: some)
        count += some.count
    }
}
