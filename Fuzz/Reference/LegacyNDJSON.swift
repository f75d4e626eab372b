// Fuzz/Reference/LegacyNDJSON.swift — the NDJSON reader the line-by-line one replaced, which joined the lines into the array they stand for and scanned that (names its first bad line), kept only for the tests of where they differ on purpose (no longer a reference: it calls SessionsJSON); never part of the program.

#if canImport(UsageCore)
    import UsageCore
#endif
#if canImport(UsageFormats)
    import UsageFormats
#endif

/// NDJSON: one session object per line; blank lines are ignored.
///
/// The lines are joined into the JSON array they stand for (`[`, a comma after each line but
/// the last, `]`) with every newline kept, so the sessions scanner applies the very same rules
/// and reports lines that are the file's own lines.
public enum LegacyNDJSON {
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        let array = asArray(bytes)
        do {
            return try array.withUnsafeBufferPointer { buffer throws(IngestError) in
                try SessionsJSON.decode(buffer, source: source, cancellation: cancellation)
            }
        } catch .syntax(let line, let column, let message) {
            // The joined array can place the error after a line that is not a whole value (at the
            // comma or `]` added after it): the first line that is not one whole value is the one
            // to name, with its own column.
            throw firstBadLine(bytes) ?? .syntax(line: line, column: line == 1 ? max(1, column - 1) : column, message: message)
        }
    }

    /// The syntax error of the first non-blank line that is not one whole JSON value alone.
    static func firstBadLine(_ bytes: UnsafeBufferPointer<UInt8>) -> IngestError? {
        var start = LegacyNDJSON.skipBOM(bytes)
        var number = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if LegacyNDJSON.skipWhitespace(line, from: 0) < line.count {
                let alone = [UInt8(ascii: "[")] + Array(line) + [0x0A, UInt8(ascii: "]")]
                let result = alone.withUnsafeBufferPointer { buffer in
                    Result { () throws(IngestError) in try SessionsJSON.scan(buffer) }
                }
                if case .failure(.syntax(let at, let column, let message)) = result {
                    // Past the line's end is where the line stopped short: say so at its end.
                    let past = at > 1 || column > line.count + 1
                    return .syntax(
                        line: number, column: past ? Self.columns(line) + 1 : max(1, column - 1),
                        message: past ? "the line ends before its JSON value does" : message)
                }
            }
            start = end + 1
            number += 1
        }
        return nil
    }

    /// Characters in a line (columns count characters, as the scanner's do).
    private static func columns(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        String(decoding: line, as: UTF8.self).count
    }

    /// `[` + the lines, a comma after each non-blank line that has a non-blank line after it + `]`.
    static func asArray(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var lines: [Range<Int>] = []
        var start = LegacyNDJSON.skipBOM(bytes)
        var lastNonBlank = -1
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if LegacyNDJSON.skipWhitespace(UnsafeBufferPointer(rebasing: bytes[start..<end]), from: 0) < end - start {
                lastNonBlank = lines.count
            }
            lines.append(start..<end)
            start = end + 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + lines.count + 2)
        out.append(UInt8(ascii: "["))
        for (n, range) in lines.enumerated() {
            out.append(contentsOf: bytes[range])
            let blank = LegacyNDJSON.skipWhitespace(UnsafeBufferPointer(rebasing: bytes[range]), from: 0) == range.count
            if !blank, n < lastNonBlank { out.append(UInt8(ascii: ",")) }
            if range.upperBound < bytes.count { out.append(0x0A) }
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    static func skipBOM(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
    }

    static func skipWhitespace(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        return i
    }
}
