// PostgresBinaryRows.swift — rows read from `COPY … TO STDOUT (FORMAT binary)` messages: the header checked once, each tuple's fields found in place (8-byte integers in network order, text as its bytes, NULL), the trailer, and a malformed stream said as an error rather than read wrong.

/// Reads the messages of one binary `COPY … TO STDOUT`, in order, a tuple at a time. Nothing is
/// copied: a tuple's fields are read where the message holds them, during the call.
struct PostgresBinaryRows {
    /// The format's signature, then 4 bytes of flags and 4 of header-extension length.
    static let signature: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]

    private var headerRead = false
    /// Whether the trailer (a field count of -1) came.
    private(set) var finished = false
    /// Each field's offset in the message and length (-1: NULL), reused for every tuple.
    private var fields: [(offset: Int, length: Int)]

    /// Tuples of `columns` fields (the COPY's select list).
    init(columns: Int) {
        fields = Array(repeating: (0, 0), count: columns)
    }

    /// One tuple, valid only during the call that hands it over.
    struct Tuple {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let fields: UnsafeBufferPointer<(offset: Int, length: Int)>

        func isNull(_ field: Int) -> Bool { fields[field].length < 0 }

        /// A `bigint` field (0 when NULL: ask `isNull` first where NULL can come).
        func int64(_ field: Int) -> Int64 {
            let (offset, length) = fields[field]
            guard length == 8 else { return 0 }
            var value: UInt64 = 0
            for k in offset..<offset + 8 { value = value << 8 | UInt64(bytes[k]) }
            return Int64(bitPattern: value)
        }

        /// A field's bytes (a `text` field's UTF-8), empty when NULL.
        func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> {
            let (offset, length) = fields[field]
            return length < 0 ? UnsafeBufferPointer(start: nil, count: 0) : UnsafeBufferPointer(rebasing: bytes[offset..<offset + length])
        }
    }

    /// Reads one message: the header when it is the first, then its tuples, each handed to
    /// `tuple`, or the trailer.
    ///
    /// - Throws: a protocol violation (SQLSTATE 08P01) naming what was wrong: no signature, a
    ///   tuple of another width, a field running past the message, data after the trailer.
    mutating func read(_ message: UnsafeBufferPointer<UInt8>, _ tuple: (Tuple) throws -> Void) throws {
        var at = 0
        func malformed(_ what: String) -> PostgresFailure {
            PostgresFailure(state: "08P01", message: "the server's COPY data was not as expected: \(what)")
        }
        func integer(_ size: Int) throws(PostgresFailure) -> Int {
            guard at + size <= message.count else { throw malformed("a message ends inside a row") }
            var value: UInt32 = 0
            for k in at..<at + size { value = value << 8 | UInt32(message[k]) }
            at += size
            return size == 2 ? Int(Int16(truncatingIfNeeded: value)) : Int(Int32(bitPattern: value))
        }
        if !headerRead {
            guard message.count >= Self.signature.count + 8, message.prefix(Self.signature.count).elementsEqual(Self.signature) else {
                throw malformed("no binary COPY signature")
            }
            at = Self.signature.count + 4
            let extensionLength = try integer(4)
            guard extensionLength >= 0, at + extensionLength <= message.count else { throw malformed("a header extension past the message") }
            at += extensionLength
            headerRead = true
        }
        while at < message.count {
            guard !finished else { throw malformed("data after the trailer") }
            let count = try integer(2)
            if count == -1 {
                finished = true
                continue
            }
            guard count == fields.count else { throw malformed("a row of \(count) fields where \(fields.count) were asked for") }
            for k in 0..<count {
                let length = try integer(4)
                guard length >= -1, at + max(length, 0) <= message.count else { throw malformed("a field runs past its message") }
                fields[k] = (at, length)
                at += max(length, 0)
            }
            try fields.withUnsafeBufferPointer { try tuple(Tuple(bytes: message, fields: $0)) }
        }
    }
}
