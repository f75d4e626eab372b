// PostgresBinaryCopy.swift — rows written in COPY's binary format (the header, a tuple's field count, 8- and 4-byte integers in network order, text as its bytes, NULL, the trailer): the server reads them without parsing any text.
import UsageCore

/// A buffer of `COPY … FROM STDIN (FORMAT binary)` data, filled a field at a time.
struct PostgresBinaryCopy {
    private(set) var bytes: [UInt8] = []

    /// Starts with the format's signature, flags and header extension (none).
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes += Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// Begins a row of `fields` fields.
    mutating func row(fields: Int16) { append(UInt16(bitPattern: fields)) }

    /// A `bigint` field.
    mutating func bigint(_ value: Int64) {
        append(UInt32(8))
        append(UInt64(bitPattern: value))
    }

    /// An `integer` field, or NULL.
    mutating func integer(_ value: Int32?) {
        guard let value else { return null() }
        append(UInt32(4))
        append(UInt32(bitPattern: value))
    }

    /// A `text` field from UTF-8 bytes, as the store keeps text (`PostgresSQL.escaped`: no NUL;
    /// invalid UTF-8 repaired), or NULL. ASCII without NUL, the common case, is copied as it is.
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>?) {
        guard let utf8 else { return null() }
        if utf8.allSatisfy({ $0 != 0 && $0 < 0x80 }) {
            append(UInt32(utf8.count))
            bytes += utf8
        } else {
            let kept = Array(PostgresSQL.escaped(String(decoding: utf8, as: UTF8.self)).utf8)
            append(UInt32(kept.count))
            bytes += kept
        }
    }

    mutating func null() { append(UInt32.max) }

    /// The end of the data (a field count of -1).
    mutating func finish() { append(UInt16.max) }

    /// Empties the buffer, keeping its room (after its bytes were sent).
    mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
