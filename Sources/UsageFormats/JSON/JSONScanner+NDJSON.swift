// JSONScanner+NDJSON.swift — NDJSON lines scanned as the sessions array's elements would be, each error placed on its line and column.
import UsageCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONScanner {

    /// Scans the bytes as NDJSON lines (a segment ends after a line break, or is final). Each
    /// non-blank line is one JSON value: an object is a row, anything else not an object; rows
    /// know their line (1-based, of these bytes). An error names its line and its column on
    /// that line; a value the line ends before (a line break inside it) is "the line ends before
    /// its JSON value does".
    mutating func scanNDJSON<Sink: RowSink>(
        into builder: inout Sink, skippingBOM: Bool, cancellation: CancellationToken?
    ) throws(ScanStop) {
        let segment = bytes
        let final = isFinal
        defer {
            bytes = segment
            isFinal = final
        }
        guard let base = segment.baseAddress else { return }
        var start = skippingBOM && segment.count >= 3 && segment[0] == 0xEF && segment[1] == 0xBB && segment[2] == 0xBF ? 3 : 0
        // The byte order mark is the file's first character: line 1's columns count it, as every reader's do.
        let bomColumns = start == 3 ? 1 : 0
        var line = 1
        var rows = 0
        var lineBreaks = 0
        defer { newlines = lineBreaks }
        while start < segment.count {
            let end: Int
            do {
                if let newline = memchr(base + start, 0x0A, segment.count - start) {
                    end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    lineBreaks += 1
                    try scanLine(
                        UnsafeBufferPointer(rebasing: segment[start...end]), number: line, columnsBefore: line == 1 ? bomColumns : 0,
                        into: &builder)
                } else {
                    // The last line has no line break: it is scanned with one, as every other line.
                    end = segment.count
                    let withBreak = Array(segment[start...]) + [0x0A]
                    try withBreak.withUnsafeBufferPointer { (bytes) throws(ScanStop) in
                        try scanLine(bytes, number: line, columnsBefore: line == 1 ? bomColumns : 0, into: &builder)
                    }
                }
            }
            rows += 1
            if rows & 0xFFF == 0, cancellation?.isCancelled == true { throw .cancelled }
            start = end + 1
            line += 1
        }
    }

    /// One line (its bytes and line break): its values, or its error placed on the line
    /// (`columnsBefore`: characters of the line before `bytes`, the byte order mark's).
    mutating func scanLine<Sink: RowSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, number line: Int, columnsBefore: Int, into builder: inout Sink
    ) throws(ScanStop) {
        self.bytes = bytes
        offset = 0
        do throws(ScanStop) {
            try scanLineValues(into: &builder, line: line)
        } catch .syntax(let offset, let message) {
            let content = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 1)])
            // Past the line's end, or a string's escape whose backslash is the line's last byte
            // (the scanner names the backslash, as for any bad escape): the line break is inside the value.
            let cutEscape = offset + 1 == content.count && content[offset] == UInt8(ascii: "\\") && message.hasPrefix("invalid escape")
            let past = offset >= content.count || cutEscape
            let column = columnsBefore + Self.scalars(in: UnsafeBufferPointer(rebasing: content[..<(past ? content.count : offset)])) + 1
            throw .located(line: line, column: column, message: past ? "the line ends before its JSON value does" : message)
        }
    }

    /// The value of one line (`bytes` is the line and its line break): one JSON text, as
    /// NDJSON has it (docs/DATA.md §9.1); anything after it on the line is an error.
    mutating func scanLineValues<Sink: RowSink>(into builder: inout Sink, line: Int) throws(ScanStop) {
        skipWhitespace()
        if offset == bytes.count { return }  // a blank line
        var row = RowFields()
        let rowStart = offset
        let isObject = peek() == UInt8(ascii: "{")
        if isObject { try scanRow(&row) } else { try skipValue() }
        skipWhitespace()
        guard offset == bytes.count else { throw error("unexpected data after the end of the JSON value") }
        if isObject {
            builder.addRow(id: row.id, app: row.app, category: row.category, start: row.start, end: row.end, offset: rowStart, line: line)
        } else {
            builder.addNonObject(offset: rowStart, line: line)
        }
    }

    /// Unicode scalars in UTF-8 bytes (columns count them).
    static func scalars(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for byte in bytes where byte & 0xC0 != 0x80 { n += 1 }
        return n
    }
}
