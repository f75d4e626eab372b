// Fuzz/ActivityWatchFuzz.swift — libFuzzer target: the byte-level ActivityWatch reader, read in chunks drawn from the input, against the Foundation-based reader it replaced (Fuzz/Reference); built with the UsageCore sources by scripts/fuzz.
import Foundation

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// 1. The input read as an export by `ActivityWatchRead` in chunks (segments and reads of 1 to
//    64 bytes, drawn from the input) gives exactly what it gives read whole.
// 2. Its JSON is judged as the sessions scanner judges it (the JSON target fuzzes that one
//    against JSONSerialization): a syntax error is the scanner's, at the same line and column
//    with the same words; what it reads, the scanner reads as valid JSON.
// 3. On valid JSON, it and `LegacyActivityWatch.decodeExport` (the Foundation-based reader it
//    replaced) give the same sessions in the same order, the same skipped rows and examples,
//    the same name tables, and fail alike when the shape is wrong. On invalid JSON only 2
//    holds: Foundation reads lazily, so it passed broken strings and numbers in values it never
//    decoded (a title, an unknown key), and called a shape wrong before finding the JSON broken.
//
// The other differences that are deliberate, and how each is taken into account:
//
// - Invalid UTF-8 inside strings: the old reader replaced each invalid byte by U+FFFD, the new
//   one each invalid sequence (as the sessions scanner and `String(decoding:)` do). The old
//   reader reads a copy in which they are already replaced; the repaired count is the old
//   count on the original bytes.
// - Foundation gives up on nesting deeper than 512 and numbers beyond Double's range ("its
//   JSON could not be read"), and accepts trailing commas: nothing more is compared then.
// - When several places are of the wrong shape, Foundation names the first it meets in its
//   dictionary's (hashed) order, the new reader the first in the file: both must fail as
//   malformed, naming any place.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzActivityWatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ActivityWatchFuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum ActivityWatchFuzz {
    static func check(_ bytes: [UInt8]) {
        let chunking = fuzzChunking(for: bytes)
        let new = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: chunking).dataset(source: "fuzz")
            }
        })
        // The same input read whole must give the same.
        let whole = LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export).dataset(source: "fuzz")
            }
        })
        if new != whole { fuzzFailure("read in chunks (\(chunking)) differs from read whole:\n  chunks: \(new)\n  whole: \(whole)", input: bytes) }

        // Its JSON is judged as the sessions scanner (fuzzed against JSONSerialization) judges it.
        let json = Result { () throws(IngestError) in
            _ = try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.scanOnce(b) }
        }
        switch (new.error, json) {
        case (.syntax?, .failure(let e)) where e == new.error!: break
        case (.empty?, .failure(.empty)): break
        case (.syntax?, _), (.empty?, _): fuzzFailure("the reader's error \(new) is not the scanner's (\(json))", input: bytes)
        case (_, .failure(.notAnArray)), (_, .success): break  // valid JSON
        default: fuzzFailure("the reader gave \(new), but the scanner says \(json)", input: bytes)
        }

        if case .syntax? = new.error { return }
        if case .empty? = new.error { return }
        let copy = invalidUTF8Replaced(bytes)
        let old = LoadFacts(Result { () throws(IngestError) in
            try copy.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyActivityWatch.decodeExport(b, source: "fuzz", cancellation: CancellationToken())
            }
        })
        if new.ignoringRepaired() == old.ignoringRepaired() {
            guard new.error == nil else { return }
            let expected = bytes.withUnsafeBufferPointer { LegacyJSONRepair.repair($0).repairedStrings }
            if new.repaired != expected { fuzzFailure("repaired \(new.repaired), the old reader counts \(expected)", input: bytes) }
            return
        }
        if case .malformed(_, let problem)? = old.error, problem.hasPrefix("its JSON could not be read") { return }
        if case .malformed? = old.error, case .malformed? = new.error { return }
        if hasTrailingComma(bytes) { return }
        fuzzFailure("the byte-level reader differs from the old one:\n  new: \(new)\n  old: \(old)", input: bytes)
    }

    /// Whether a `,` is followed (after white space) by `]` or `}` outside strings.
    static func hasTrailingComma(_ b: [UInt8]) -> Bool {
        var inString = false
        var escaped = false
        var lastComma = false
        for c in b {
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true; lastComma = false
            case 0x2C: lastComma = true
            case 0x5D, 0x7D: if lastComma { return true }
            case 0x20, 0x0A, 0x0D, 0x09: break
            default: lastComma = false
            }
        }
        return false
    }
}
