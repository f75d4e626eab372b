// Fuzz/TimewarriorFuzz.swift — libFuzzer target: the byte-level Timewarrior reader, read in chunks drawn from the input, against the Foundation-based reader it replaced (Fuzz/Reference); built with the UsageCore sources by scripts/fuzz.
import Foundation

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// 1. The input read by `TimewarriorJSON.decode` in chunks (segments and reads of 1 to 64
//    bytes, one to three workers, drawn from the input) gives exactly what it gives read whole.
// 2. Its JSON is judged as the sessions scanner judges it (the JSON target fuzzes that one
//    against JSONSerialization): a syntax error is the scanner's, at the same line and column
//    with the same words.
// 3. On valid JSON, it and `LegacyTimewarrior.decode` (the reader it replaced, issue 20's
//    rules) give the same sessions in the same order (running ones included: the clock is
//    drawn from the input, sometimes none), the same skipped rows and examples with their
//    lines, the same name tables, and the same repaired count.
//
// The differences that are deliberate, as for ActivityWatch (both old readers were Foundation's):
//
// - Foundation reads lazily: broken strings and numbers in values it never decoded (an
//   annotation, an unknown key) and trailing commas passed; the new reader says where the JSON
//   is broken (2 holds, and nothing more is compared).
// - Invalid UTF-8 inside strings: the old reader replaced each invalid byte, the new one each
//   invalid sequence; the old reader reads a copy in which they are already replaced, and the
//   repaired count is the old count on the original bytes.
// - Foundation gives up on nesting deeper than 512 and numbers beyond Double's range ("its
//   JSON could not be read"): nothing more is compared then.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimewarrior(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TimewarriorFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum TimewarriorFuzz {
    static func check(_ bytes: [UInt8]) {
        let chunking = fuzzChunking(for: bytes)
        // The clock: none for one input in three, else a fixed instant (before some intervals).
        let now: Micros? = bytes.count % 3 == 0 ? nil : 1_771_840_800_000_000  // 2026-02-23T10:00:00Z
        let new = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try TimewarriorJSON.decode(b, source: "fuzz", now: now, chunking: chunking)
            }
        })
        let whole = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try TimewarriorJSON.decode(b, source: "fuzz", now: now)
            }
        })
        if new != whole { fuzzFailure("read in chunks (\(chunking)) differs from read whole:\n  chunks: \(new)\n  whole: \(whole)", input: bytes) }

        let json = Result { () throws(IngestError) in
            _ = try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.scanOnce(b) }
        }
        switch (new.error, json) {
        case (.syntax?, .failure(let e)) where e == new.error!: return
        case (.empty?, .failure(.empty)): return
        case (.syntax?, _), (.empty?, _): fuzzFailure("the reader's error \(new) is not the scanner's (\(json))", input: bytes)
        case (_, .failure(.notAnArray)), (_, .success): break  // valid JSON
        default: fuzzFailure("the reader gave \(new), but the scanner says \(json)", input: bytes)
        }

        let copy = invalidUTF8Replaced(bytes)
        let old = LoadFacts(Result { () throws(IngestError) in
            try copy.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyTimewarrior.decode(b, source: "fuzz", now: now, cancellation: CancellationToken())
            }
        })
        if new.ignoringRepaired() == old.ignoringRepaired() {
            guard new.error == nil else { return }
            let expected = bytes.withUnsafeBufferPointer { LegacyJSONRepair.repair($0).repairedStrings }
            if new.repaired != expected { fuzzFailure("repaired \(new.repaired), the old reader counts \(expected)", input: bytes) }
            return
        }
        if case .malformed(_, let problem)? = old.error, problem.hasPrefix("its JSON could not be read") { return }
        fuzzFailure("the byte-level reader differs from the old one:\n  new: \(new)\n  old: \(old)", input: bytes)
    }
}
