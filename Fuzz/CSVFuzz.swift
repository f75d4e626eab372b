// Fuzz/CSVFuzz.swift — libFuzzer target: the byte-level CSV reader, read in chunks drawn from the input, against the CSV.swift-based reader it replaced (Fuzz/Reference); built by scripts/fuzz with the UsageCore sources, UsageData's CSV header and format files, and CSV.swift.

// What one input is checked for (any failure traps, and libFuzzer keeps the input): the input
// read by `CSVFormat.decode` in chunks (segments and reads of 1 to 64 bytes, one to three
// workers, drawn from the input) gives exactly what it gives read whole, and exactly what
// `LegacyCSV.decode` (CSV.swift's records, issue 20's rules for the cells) gives: the same
// sessions with their names and ids, the same skipped rows with their lines, the same name
// tables, repaired cells and times read in a zone; or the same error. The options are drawn
// from the input too: no zone, Paris, or UTC with a column mapping. Every record is split as
// CSV.swift split it, stray quotes included.
//
// One difference is deliberate: the old reader marked invalid UTF-8 with the noncharacter
// U+10FFFE before splitting, then, when the input had any, turned every U+10FFFE of a cell into
// U+FFFD and counted the cell as repaired — a U+10FFFE the data really held included, depending
// on bytes anywhere in the file. The new reader repairs what is invalid and keeps what is
// there. Inputs holding U+10FFFE (F4 8F BF BE) are compared only for chunks against whole.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CSVFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum CSVFuzz {
    static let options = [
        ReadOptions(), ReadOptions(localZone: Zone(identifier: "Europe/Paris")),
        ReadOptions(localZone: .utc, columns: try! ColumnMapping(parsing: "app=Program,start=From,end=To,duration=Length")),
    ]

    static func check(_ bytes: [UInt8]) {
        let chunking = fuzzChunking(for: bytes)
        let options = Self.options[bytes.count % Self.options.count]
        let new = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try CSVFormat.decode(b, source: "fuzz", options: options, cancellation: nil, chunking: chunking)
            }
        })
        let whole = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try CSVFormat.decode(b, source: "fuzz", options: options, cancellation: nil)
            }
        })
        if new != whole { fuzzFailure("read in chunks (\(chunking)) differs from read whole:\n  chunks: \(new)\n  whole: \(whole)", input: bytes) }
        if containsNoncharacter(bytes) { return }
        let old = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyCSV.decode(b, source: "fuzz", options: options, cancellation: CancellationToken())
            }
        })
        if new != old { fuzzFailure("the byte-level reader differs from the old one:\n  new: \(new)\n  old: \(old)", input: bytes) }
    }

    /// Whether the bytes hold U+10FFFE (what the old reader took for its marker).
    static func containsNoncharacter(_ b: [UInt8]) -> Bool {
        guard b.count >= 4 else { return false }
        for k in 0...(b.count - 4) where b[k] == 0xF4 && b[k + 1] == 0x8F && b[k + 2] == 0xBF && b[k + 3] == 0xBE { return true }
        return false
    }
}
