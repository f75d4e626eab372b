// Fuzz/RFC3339Fuzz.swift — libFuzzer target: RFC3339.parse against the reference parser (regular expression + Foundation's calendar), with and without its date cache; built with the UsageCore sources by scripts/fuzz.
import Foundation

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// - The whole input as one timestamp: `RFC3339.parse(bytes)` accepts exactly what
//   `ReferenceRFC3339.parse` accepts, with the same microseconds; the `String` entry point
//   agrees with the byte one on UTF-8 input.
// - The input split at line feeds into several timestamps parsed in turn with one
//   `RFC3339.DateCache` (as the ingest does, row after row): each result is the cache-free one.
//
// Each text is handed over in a buffer of its own exact size, so that AddressSanitizer sees
// any read past its end.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRFC3339(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    RFC3339Fuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum RFC3339Fuzz {
    static func check(_ bytes: [UInt8]) {
        let whole = parseAlone(bytes)
        let reference = ReferenceRFC3339.parse(bytes)
        if whole != reference {
            fuzzFailure("RFC3339.parse gave \(show(whole)), the reference \(show(reference))", input: bytes)
        }
        if let text = String(validating: bytes, as: UTF8.self), RFC3339.parse(text) != whole {
            fuzzFailure("RFC3339.parse(String) gave \(show(RFC3339.parse(text))), the bytes \(show(whole))", input: bytes)
        }

        let parts = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard parts.count > 1 else { return }
        var cache = RFC3339.DateCache()
        for part in parts {
            let alone = parseAlone(Array(part))
            let cached = withExactBuffer(Array(part)) { RFC3339.parse($0, cache: &cache) }
            if cached != alone {
                fuzzFailure(
                    "with the date cache \(swiftLiteral(Array(part))) gave \(show(cached)), alone \(show(alone))", input: bytes)
            }
            if alone != ReferenceRFC3339.parse(Array(part)) {
                fuzzFailure(
                    "\(swiftLiteral(Array(part))): RFC3339.parse gave \(show(alone)), the reference \(show(ReferenceRFC3339.parse(Array(part))))",
                    input: bytes)
            }
        }
    }

    static func parseAlone(_ bytes: [UInt8]) -> Int64? {
        withExactBuffer(bytes) { RFC3339.parse($0) }
    }

    /// Runs `body` on a heap copy of exactly `bytes.count` bytes.
    static func withExactBuffer<R>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { buffer.deallocate() }
        _ = buffer.initialize(from: bytes)
        return body(UnsafeBufferPointer(buffer))
    }

    static func show(_ micros: Int64?) -> String {
        guard let micros else { return "invalid" }
        return "\(micros) µs"
    }
}
