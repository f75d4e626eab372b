// Fuzz/TimewarriorFuzz.swift — libFuzzer target: the byte-level Timewarrior reader, read in chunks drawn from the input, against the tests' own reference reader (RefTimewarrior, sharing no parsing code with it); built by scripts/fuzz.

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// 1. The input read by `TimewarriorJSON.decode` in chunks (segments and reads of 1 to 64
//    bytes, one to three workers, drawn from the input) gives exactly what it gives read whole.
// 2. Read whole, it gives what `RefTimewarrior.read` (Tests/UsageFormatsTests/Reference:
//    RefJSON, RefRFC3339, docs/DATA.md §9.4 written plainly) gives, compared as the unit tests'
//    differential compares them (`RefFacts`): the same sessions in the same order (running ones
//    included: the clock is drawn from the input, sometimes none), the same skipped rows and
//    examples with their lines, the same repaired count; or an error of the same kind, a
//    syntax error at the same line and column. Strictly both ways: nothing is excused.

public func fuzzTimewarrior(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TimewarriorFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum TimewarriorFuzz {
    static func read(_ bytes: [UInt8], now: Micros?, _ chunking: Chunking) -> Result<Dataset, IngestError> {
        Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try TimewarriorJSON.decode(b, source: "fuzz", now: now, chunking: chunking)
            }
        }
    }

    static func check(_ bytes: [UInt8]) {
        // The clock: none for one input in three, else a fixed instant (before some intervals).
        let now: Micros? = bytes.count % 3 == 0 ? nil : 1_771_840_800_000_000  // 2026-02-23T10:00:00Z
        fuzzCheckReader(
            bytes, chunking: fuzzChunking(for: bytes), read: { read(bytes, now: now, $0) }, reference: "RefTimewarrior, now \(now as Any)"
        ) {
            RefTimewarrior.read(bytes, now: now)
        }
    }
}
