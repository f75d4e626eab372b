// RefCSVRecords.swift — the tests' own RFC 4180 record splitting (docs/DATA.md §9.2), byte by byte and plain: quoted fields with `""`, delimiters and line breaks inside, LF, CR or CRLF record ends, and the documented reading of a stray quote.

/// One record: its fields' bytes, and where the next record begins.
struct RefCSVRecord {
    var fields: [[UInt8]]
    var next: Int
}

enum RefCSVRecords {
    /// The record at `start`, or nil when the input ends there.
    ///
    /// A field that begins with `"` is quoted: `""` inside it is one quote; it ends at a quote
    /// followed by the delimiter, a line end or the input's end (or at the input's end). A quote
    /// followed by anything else stays a quote, and the character after it is dropped (the
    /// reading of CSV.swift that docs/DATA.md §9.2 keeps). Any other field runs to the
    /// delimiter, a line end, or the end.
    static func record(_ b: [UInt8], at start: Int, delimiter: UInt8) -> RefCSVRecord? {
        guard start < b.count else { return nil }
        var fields: [[UInt8]] = []
        var i = start
        func lineEnd(_ k: Int) -> Int? {
            if b[k] == 0x0A { return k + 1 }
            if b[k] == 0x0D { return k + 1 < b.count && b[k + 1] == 0x0A ? k + 2 : k + 1 }
            return nil
        }
        while true {
            var field: [UInt8] = []
            if i < b.count, b[i] == UInt8(ascii: "\"") {
                i += 1
                while true {
                    if i == b.count {
                        fields.append(field)
                        return RefCSVRecord(fields: fields, next: i)
                    }
                    guard b[i] == UInt8(ascii: "\"") else {
                        field.append(b[i])
                        i += 1
                        continue
                    }
                    if i + 1 == b.count {
                        fields.append(field)
                        return RefCSVRecord(fields: fields, next: i + 1)
                    }
                    if let next = lineEnd(i + 1) {
                        fields.append(field)
                        return RefCSVRecord(fields: fields, next: next)
                    }
                    if b[i + 1] == delimiter {
                        i += 2
                        break
                    }
                    field.append(UInt8(ascii: "\""))
                    if b[i + 1] == UInt8(ascii: "\"") {
                        i += 2
                    } else {
                        // A stray quote: kept; the character after it (or the invalid UTF-8 sequence) dropped.
                        i += 1 + (b[i + 1] < 0x80 ? 1 : RefUTF8.decode(b, at: i + 1, end: b.count).1)
                    }
                }
                fields.append(field)
                continue
            }
            while i < b.count, b[i] != delimiter, b[i] != 0x0A, b[i] != 0x0D {
                field.append(b[i])
                i += 1
            }
            fields.append(field)
            if i == b.count { return RefCSVRecord(fields: fields, next: i) }
            if let next = lineEnd(i) { return RefCSVRecord(fields: fields, next: next) }
            i += 1  // the delimiter
        }
    }

    /// Line breaks inside a field's text (CRLF counts once).
    static func lineBreaks(_ field: [UInt8]) -> Int {
        var n = 0
        for (k, c) in field.enumerated() {
            if c == 0x0D || (c == 0x0A && (k == 0 || field[k - 1] != 0x0D)) { n += 1 }
        }
        return n
    }
}
