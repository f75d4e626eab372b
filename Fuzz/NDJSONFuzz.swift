// Fuzz/NDJSONFuzz.swift — libFuzzer target: the line-by-line NDJSON reader, read in chunks drawn from the input, against the old reader that joined the lines into an array (Fuzz/Reference); built with the UsageCore sources by scripts/fuzz.

// What one input is checked for (any failure traps, and libFuzzer keeps the input): the input
// read by `SessionsJSON.decodeNDJSON` (segments and reads of 1 to 64 bytes, drawn from the
// input) and by `LegacyNDJSON.decode` give the same sessions, skipped rows with their lines,
// name tables and repaired strings; or both fail, on the same line.
//
// The column and words of an error may differ on purpose only where the old reader misplaced
// them: it compared a column (in characters) with the line's length in bytes, and counted the
// columns of "the line ends before its JSON value does" in grapheme clusters, so on lines with
// non-ASCII text they differ; a `]` in a line closed the array the old reader wrapped it in
// (`[1]x` was "unexpected data" at `x`, or "the line ends before…"), where the new one names
// that `]`; and the old reader saw `\n]` after every line, so a value cut by the line's end
// (`"\udc`) was "the line ends before…" where the new one may name what is cut (four hex
// digits expected). On other lines the error must be the same in every word. And a value
// over two lines that the old reader's glue comma made whole (`{"a": 1` then `"b": 2}`) it
// read as one; the new one says the first line ends before its value does. A line of several
// values separated by commas the old reader read as several rows; the new one says where the
// line goes on after its one value.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    NDJSONFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum NDJSONFuzz {
    static func check(_ bytes: [UInt8]) {
        let chunking = fuzzChunking(for: bytes)
        let new = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try SessionsJSON.decodeNDJSON(b, source: "fuzz", chunking: chunking)
            }
        })
        let old = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyNDJSON.decode(b, source: "fuzz", cancellation: CancellationToken())
            }
        })
        if new == old { return }
        // A value over two lines, broken where the comma the old reader glued after each line
        // made it whole again (`{"a": 1` + `"b": 2}`), was read as one: the new reader says the
        // first line ends before its value does, as NDJSON has it.
        if old.error == nil, case .syntax(_, _, "the line ends before its JSON value does")? = new.error { return }
        // A line of several values separated by commas (`{…}, {…}`), which the old reader's
        // array took as elements: NDJSON is one JSON text a line, and the new reader says where
        // the line goes on after its value (docs/DATA.md §9.1).
        if case .syntax(let at, _, "unexpected data after the end of the JSON value")? = new.error {
            if old.error == nil { return }
            if case .syntax(let b, _, _)? = old.error, b >= at { return }
        }
        if case .syntax(let a, _, _)? = new.error, case .syntax(let b, _, let message)? = old.error, a == b {
            if message == "the line ends before its JSON value does" { return }
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            if a <= lines.count, lines[a - 1].contains(where: { $0 >= 0x80 || $0 == 0x5D }) { return }
        }
        fuzzFailure("the NDJSON reader (\(chunking)) differs from the old one:\n  new: \(new)\n  old: \(old)", input: bytes)
    }
}
