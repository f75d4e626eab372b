// Fuzz/RFC3339Fuzz.swift — libFuzzer target: RFC3339.parse against the tests' own reference (RefRFC3339), itself checked against a second one (regular expression + Foundation's calendar), with and without the parser's date cache; built by scripts/fuzz.
import Foundation

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// - The whole input as one timestamp: `RFC3339.parse(bytes)` accepts exactly what the unit
//   tests' reference `RefRFC3339.read` (Tests/UsageFormatsTests/Reference, by hand, with its
//   own calendar) accepts, with the same microseconds; the `String` entry point agrees with the
//   byte one on UTF-8 input. The reference itself must agree with `ReferenceRFC3339`
//   (Fuzz/Support: a regular expression and Foundation's calendar): where the two references
//   disagree, one of them is wrong, and that is a failure too.
// - The input split at line feeds into several timestamps parsed in turn with one
//   `RFC3339.DateCache` (as the ingest does, row after row): each result is the cache-free one.
//
// An input that begins with byte 0xFF (never part of a timestamp) is also read as the numbers
// of a timestamp — year, month 0–13, day 0–32, hour 0–25, minute and second 0–61, 0 to 10
// fraction digits, `Z`, an offset up to ±25:61 or none — which is then checked like the rest:
// random bytes rarely spell a date, and this walks every field across its edges.
//
// Each text is handed over in a buffer of its own exact size, so that AddressSanitizer sees
// any read past its end.

public func fuzzRFC3339(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    RFC3339Fuzz.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum RFC3339Fuzz {
    static func check(_ bytes: [UInt8]) {
        compare(bytes)
        if bytes.first == 0xFF { compare(structured(bytes.dropFirst())) }
    }

    static func compare(_ bytes: [UInt8]) {
        let whole = parseAlone(bytes)
        let reference = RefRFC3339.read(bytes)?.micros
        if whole != reference {
            fuzzFailure("RFC3339.parse gave \(show(whole)), the reference (RefRFC3339) \(show(reference))", input: bytes)
        }
        let second = ReferenceRFC3339.parse(bytes)
        if second != reference {
            fuzzFailure("the references disagree: RefRFC3339 gave \(show(reference)), ReferenceRFC3339 \(show(second))", input: bytes)
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
            let reference = RefRFC3339.read(Array(part))?.micros
            if alone != reference {
                fuzzFailure(
                    "\(swiftLiteral(Array(part))): RFC3339.parse gave \(show(alone)), the reference (RefRFC3339) \(show(reference))",
                    input: bytes)
            }
        }
    }

    /// A timestamp spelled from the numbers in `b` (zeros where it runs out).
    static func structured(_ b: ArraySlice<UInt8>) -> [UInt8] {
        var rest = b
        func next() -> Int { rest.popFirst().map(Int.init) ?? 0 }
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let year = (next() << 8 | next()) % 10_000
        let (month, day, hour) = (next() % 14, next() % 33, next() % 26)
        let (minute, second, flags) = (next() % 62, next() % 62, next())
        let (offsetHour, offsetMinute) = (next() % 26, next() % 62)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))\(flags & 1 == 0 ? "T" : "t")"
        text += "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        let digits = (flags >> 4) % 11
        if digits > 0 { text += "." + (0..<digits).map { _ in String(next() % 10) }.joined() }
        switch (flags >> 2) & 3 {
        case 0: text += flags & 2 == 0 ? "Z" : "z"
        case 1: text += "+\(pad(offsetHour, 2)):\(pad(offsetMinute, 2))"
        case 2: text += "-\(pad(offsetHour, 2)):\(pad(offsetMinute, 2))"
        default: break
        }
        return Array(text.utf8)
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
