// RFC3339.swift — parses RFC 3339 timestamps from bytes into microseconds since the epoch.
import UsageCore

/// The RFC 3339 parser of docs/DATA.md §1: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
///
/// - The fraction has 1 to 9 digits; it is kept to the microsecond (further digits are truncated).
/// - `T` and `Z` may be lower case, as RFC 3339 §5.6 allows; nothing else is lenient:
///   no space separator, no missing offset, no leap second `:60`, no impossible date.
public enum RFC3339 {
    /// Parses a timestamp, or returns `nil` when it is not valid per docs/DATA.md §1.
    public static func parse(_ text: String) -> Micros? {
        var copy = text
        return copy.withUTF8 { buffer in parse(buffer) }
    }

    /// The last date part parsed (`YYYY-MM-DD`, as raw bytes) and its day number: a file's
    /// timestamps share few dates, and a session's end usually has its start's.
    public struct DateCache: Sendable {
        var head: UInt64 = 0
        var tail: UInt16 = 0
        var days = 0
        var filled = false

        public init() {}
    }

    /// Parses a timestamp held in UTF-8 bytes, or returns `nil` when it is not valid.
    public static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Micros? {
        var cache = DateCache()
        return parse(b, cache: &cache)
    }

    /// Parses a timestamp held in UTF-8 bytes, reusing the date of the previous call when the
    /// bytes are the same (it was valid then, so it is valid now).
    public static func parse(_ b: UnsafeBufferPointer<UInt8>, cache: inout DateCache) -> Micros? {
        let n = b.count
        guard n >= 20, let base = b.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let head = raw.loadUnaligned(as: UInt64.self)
        let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        let days: Int
        if cache.filled, cache.head == head, cache.tail == tail {
            days = cache.days
        } else {
            guard b[4] == 0x2D, b[7] == 0x2D, let year = Digits.value(b, 0, 4), let month = Digits.value(b, 5, 2),
                let day = Digits.value(b, 8, 2), (1...12).contains(month), day >= 1,
                day <= LocalDate.daysIn(month: month, year: year)
            else { return nil }
            days = LocalDate.daysFromCivil(year: year, month: month, day: day)
            cache.head = head
            cache.tail = tail
            cache.days = days
            cache.filled = true
        }
        guard b[10] == 0x54 || b[10] == 0x74, b[13] == 0x3A, b[16] == 0x3A,
            let hour = Digits.value(b, 11, 2), let minute = Digits.value(b, 14, 2), let second = Digits.value(b, 17, 2),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var i = 19
        var fraction: Int64 = 0
        if b[i] == 0x2E {  // "."
            i += 1
            var digits = 0
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 6 { fraction = fraction * 10 + Int64(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard (1...9).contains(digits) else { return nil }
            if digits < 6 { for _ in digits..<6 { fraction *= 10 } }
        }
        guard i < n else { return nil }

        var offsetSeconds = 0
        switch b[i] {
        case 0x5A, 0x7A:  // "Z", "z"
            i += 1
        case 0x2B, 0x2D:  // "+", "-"
            guard n - i == 6, b[i + 3] == 0x3A, let oh = Digits.value(b, i + 1, 2),
                let om = Digits.value(b, i + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
            i += 6
        default:
            return nil
        }
        guard i == n else { return nil }

        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return seconds * 1_000_000 + fraction
    }

    /// The UTC offset, in minutes, of a timestamp `parse` accepted: 0 for `Z`, else its
    /// `±HH:MM` (the last six bytes).
    static func offsetMinutes(_ b: UnsafeBufferPointer<UInt8>) -> Int16 {
        guard b.count >= 6, let last = b.last, last != UInt8(ascii: "Z"), last != UInt8(ascii: "z") else { return 0 }
        let at = b.count - 6
        guard let h = Digits.value(b, at + 1, 2), let m = Digits.value(b, at + 4, 2) else { return .min }
        return Int16(b[at] == UInt8(ascii: "-") ? -(h * 60 + m) : h * 60 + m)
    }
}
