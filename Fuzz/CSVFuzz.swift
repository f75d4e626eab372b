// Fuzz/CSVFuzz.swift — libFuzzer target: the byte-level CSV reader, read in chunks drawn from the input, against the tests' own reference reader (RefCSV, sharing no parsing code with it); built by scripts/fuzz.

// What one input is checked for (any failure traps, and libFuzzer keeps the input), with options
// drawn from the input too (no zone; Paris; UTC with a column mapping):
//
// 1. The input read by `CSVFormat.decode` in chunks (segments and reads of 1 to 64 bytes, one
//    to three workers, drawn from the input) gives exactly what it gives read whole: the same
//    sessions with their names and ids, skipped rows with their lines, name tables, repaired
//    cells and times read in a zone; or the same error.
// 2. Read whole, it gives what `RefCSV.read` (Tests/UsageFormatsTests/Reference: RefCSVRecords,
//    RefCSVHeader, RefTimeCell, RefDurationCell, RefRFC3339; docs/DATA.md §9.2 written plainly,
//    times in a zone placed by Foundation's calendar) gives, compared as the unit tests'
//    differential compares them (`RefFacts`). Strictly both ways: a file one of them refuses
//    and the other reads, or a cell one reads and the other calls bad, is a failure.

public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CSVFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum CSVFuzz {
    static let options = [
        ReadOptions(), ReadOptions(localZone: Zone(identifier: "Europe/Paris")),
        ReadOptions(localZone: .utc, columns: try! ColumnMapping(parsing: "app=Program,start=From,end=To,duration=Length")),
    ]

    static func read(_ bytes: [UInt8], _ options: ReadOptions, _ chunking: Chunking) -> Result<Dataset, IngestError> {
        Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try CSVFormat.decode(b, source: "fuzz", options: options, cancellation: nil, chunking: chunking)
            }
        }
    }

    static func check(_ bytes: [UInt8]) {
        let options = Self.options[bytes.count % Self.options.count]
        fuzzCheckReader(bytes, chunking: fuzzChunking(for: bytes), read: { read(bytes, options, $0) }, reference: "RefCSV, \(options)") {
            RefCSV.read(bytes, options: options)
        }
    }
}
