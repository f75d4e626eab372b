// PostgresBinaryRowsTests.swift — the reader of binary COPY output, from bytes written here by hand: the header (with and without an extension), tuples alone and several to a message, NULL and text fields, the trailer, and every malformation refused with its own words.
import Testing
@testable import UsageStore

private let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
private let trailer: [UInt8] = [0xFF, 0xFF]

/// A tuple of `bigint`s (nil: NULL) and one text field, in the format's bytes.
private func tuple(_ values: [Int64?], text: String? = nil) -> [UInt8] {
    var bytes: [UInt8] = [0, UInt8(values.count + 1)]
    for value in values {
        guard let value else {
            bytes += [0xFF, 0xFF, 0xFF, 0xFF]
            continue
        }
        bytes += [0, 0, 0, 8] + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (56 - 8 * $0)) }
    }
    if let text {
        let utf8 = Array(text.utf8)
        bytes += [0, 0, 0, UInt8(utf8.count)] + utf8
    } else {
        bytes += [0xFF, 0xFF, 0xFF, 0xFF]
    }
    return bytes
}

/// What the reader makes of `messages`: each tuple as its fields in words, and whether it
/// finished; or the error's words.
private func read(_ messages: [[UInt8]], columns: Int = 3) -> (rows: [String], finished: Bool, error: String?) {
    var reader = PostgresBinaryRows(columns: columns)
    var rows: [String] = []
    do {
        for message in messages {
            try message.withUnsafeBufferPointer { bytes in
                try reader.read(bytes) { t in
                    rows.append((0..<columns).map { k in
                        t.isNull(k) ? "NULL" : k == columns - 1 ? String(decoding: t.bytes(k), as: UTF8.self) : String(t.int64(k))
                    }.joined(separator: " "))
                }
            }
        }
    } catch {
        return (rows, reader.finished, "\(error)")
    }
    return (rows, reader.finished, nil)
}

struct PostgresBinaryRowsTests {
    @Test func tuplesAloneOrSeveralToAMessageAreReadWithTheirNullsAndText() {
        let one = read([header + tuple([1_771_459_200_000_000, -5], text: "é"), tuple([nil, Int64.min], text: nil) + tuple([0, Int64.max], text: "") + trailer])
        #expect(one.rows == ["1771459200000000 -5 é", "NULL -9223372036854775808 NULL", "0 9223372036854775807 "])
        #expect(one.finished)
        #expect(one.error == nil)
    }

    @Test func anEmptyResultIsTheHeaderAndTheTrailer() {
        let empty = read([header + trailer])
        #expect(empty.rows == [])
        #expect(empty.finished)
        #expect(read([header]).finished == false, "no trailer: the caller says the data ended early")
    }

    @Test func aHeaderExtensionIsSkipped() {
        var extended = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 3, 7, 7, 7]
        extended += tuple([2, 3], text: "x") + trailer
        #expect(read([extended]).rows == ["2 3 x"])
    }

    @Test(arguments: [
        (name: "no signature", messages: [Array("PGCOPY\r".utf8) + [0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]],
         error: "the server's COPY data was not as expected: no binary COPY signature"),
        (name: "a short header", messages: [Array(header.prefix(15))],
         error: "the server's COPY data was not as expected: no binary COPY signature"),
        (name: "an extension past the message", messages: [Array(header.prefix(15)) + [0, 0, 0, 9, 1]],
         error: "the server's COPY data was not as expected: a header extension past the message"),
        (name: "a row of another width", messages: [header + tuple([1], text: "x")],
         error: "the server's COPY data was not as expected: a row of 2 fields where 3 were asked for"),
        (name: "a field past its message", messages: [header + Array(tuple([1, 2], text: "abc").dropLast())],
         error: "the server's COPY data was not as expected: a field runs past its message"),
        (name: "a message ending inside a row", messages: [header + [0]],
         error: "the server's COPY data was not as expected: a message ends inside a row"),
        (name: "a length below -1", messages: [header + [0, 3, 0xFF, 0xFF, 0xFF, 0xFE]],
         error: "the server's COPY data was not as expected: a field runs past its message"),
        (name: "data after the trailer", messages: [header + trailer + tuple([1, 2], text: "x")],
         error: "the server's COPY data was not as expected: data after the trailer"),
    ])
    func malformedDataAreRefusedInTheirOwnWords(name: String, messages: [[UInt8]], error: String) {
        let result = read(messages)
        #expect(result.error == error + " (SQLSTATE 08P01)", "\(name)")
        #expect(result.rows == [], "\(name)")
    }
}
