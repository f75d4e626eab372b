// Fuzz/ActivityWatchFuzz.swift — libFuzzer target: the byte-level ActivityWatch reader, read in chunks drawn from the input, against the tests' own reference reader (RefActivityWatch, sharing no parsing code with it); built by scripts/fuzz.

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// 1. The input read as an export by `ActivityWatchRead` in chunks (segments and reads of 1 to
//    64 bytes, one to three workers, drawn from the input) gives exactly what it gives read
//    whole: the same sessions, skipped rows, name tables and repaired count, or the same error.
// 2. Read whole, it gives what `RefActivityWatch.read` (Tests/UsageFormatsTests/Reference:
//    RefJSON, RefRFC3339, docs/DATA.md §9.3 written plainly) gives, compared as the unit tests'
//    differential compares them (`RefFacts`): the same sessions in the same order with their
//    names and ids, the same skipped rows and examples, the same repaired count; or an error
//    of the same kind, a syntax error at the same line and column. Strictly both ways: an
//    input one of them calls invalid and the other reads is a failure, and nothing is excused.
// 3. Read whole and valid, its aw-watcher-web buckets' site visits (`ActivityWatchRead.visits`:
//    each event's host name, browser family and span) are those `RefActivityWatchWeb.visits`
//    gives (docs/DATA.md §9.5 written plainly), in the same order; and read in chunks, the same.

public func fuzzActivityWatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ActivityWatchFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum ActivityWatchFuzz {
    static func read(_ bytes: [UInt8], _ chunking: Chunking) -> Result<Dataset, IngestError> {
        Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: chunking).dataset(source: "fuzz")
            }
        }
    }

    static func visits(_ bytes: [UInt8], _ chunking: Chunking) -> [BrowserVisit]? {
        try? bytes.withUnsafeBufferPointer { b throws(IngestError) in try ActivityWatchRead.read(b, document: .export, chunking: chunking).visits }
    }

    static func check(_ bytes: [UInt8]) {
        let chunking = fuzzChunking(for: bytes)
        fuzzCheckReader(bytes, chunking: chunking, read: { read(bytes, $0) }, reference: "RefActivityWatch") {
            RefActivityWatch.read(bytes)
        }
        guard let whole = visits(bytes, .standard) else { return }
        if visits(bytes, chunking) != whole {
            fuzzFailure("the visits read in chunks (\(chunking)) differ from those read whole", input: bytes)
        }
        let wanted = RefActivityWatchWeb.visits(bytes)
        if wanted != whole {
            fuzzFailure("the visits differ from the reference (RefActivityWatchWeb):\n  reader:    \(whole)\n  reference: \(String(describing: wanted))", input: bytes)
        }
    }
}
