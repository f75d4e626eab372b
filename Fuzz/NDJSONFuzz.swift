// Fuzz/NDJSONFuzz.swift — libFuzzer target: the line-by-line NDJSON reader, read in chunks drawn from the input, against the tests' own reference reader (RefNDJSON, sharing no parsing code with it); built by scripts/fuzz.

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// 1. The input read by `SessionsJSON.decodeNDJSON` in chunks (segments and reads of 1 to 64
//    bytes, one to three workers, drawn from the input) gives exactly what it gives read whole.
// 2. Read whole, it gives what `RefNDJSON.read` (Tests/UsageFormatsTests/Reference: RefJSON on
//    each line, RefSessionRow, RefRFC3339; docs/DATA.md §1 and §9.1 written plainly) gives,
//    compared as the unit tests' differential compares them (`RefFacts`): the same sessions with
//    their offsets, skipped rows with their lines, repaired strings; or an error of the same
//    kind, a syntax error on the same line at the same column. Strictly both ways: nothing is
//    excused.

public func fuzzNDJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    NDJSONFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum NDJSONFuzz {
    static func read(_ bytes: [UInt8], _ chunking: Chunking) -> Result<Dataset, IngestError> {
        Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try SessionsJSON.decodeNDJSON(b, source: "fuzz", chunking: chunking)
            }
        }
    }

    static func check(_ bytes: [UInt8]) {
        fuzzCheckReader(bytes, chunking: fuzzChunking(for: bytes), read: { read(bytes, $0) }, reference: "RefNDJSON") {
            RefNDJSON.read(bytes)
        }
    }
}
