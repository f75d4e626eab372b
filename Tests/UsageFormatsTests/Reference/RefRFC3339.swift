// RefRFC3339.swift — the tests' own reading of RFC 3339 instants (docs/DATA.md §1), slow and plain, sharing no code with Sources: the differential tests' reference for every reader's timestamps.

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`: `T` and `Z` in either case, a fraction of 1 to 9
/// digits kept to the microsecond (further digits dropped), offsets of either sign up to
/// 23:59; no leap second (`:60`), no impossible date, nothing before or after.
enum RefRFC3339 {
    struct Instant: Equatable {
        var micros: Int64
        /// Minutes east of UTC as written (`Z` is 0).
        var offsetMinutes: Int
    }

    static func parse(_ text: String) -> Int64? { read(Array(text.utf8))?.micros }

    static func read(_ c: [UInt8]) -> Instant? {
        func digit(_ k: Int) -> Int? {
            guard k < c.count, c[k] >= 0x30, c[k] <= 0x39 else { return nil }
            return Int(c[k] - 0x30)
        }
        func number(_ k: Int, _ n: Int) -> Int? {
            var v = 0
            for i in k..<(k + n) {
                guard let d = digit(i) else { return nil }
                v = v * 10 + d
            }
            return v
        }
        func at(_ k: Int, _ chars: String) -> Bool { k < c.count && chars.utf8.contains(c[k]) }
        guard c.count >= 20, let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2),
            at(10, "Tt"), let hour = number(11, 2), at(13, ":"), let minute = number(14, 2), at(16, ":"),
            let second = number(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= RefCalendar.daysIn(month: month, year: year), hour <= 23, minute <= 59,
            second <= 59
        else { return nil }
        var k = 19
        var fraction: Int64 = 0
        if at(k, ".") {
            k += 1
            var count = 0
            while let d = digit(k) {
                if count < 6 { fraction = fraction * 10 + Int64(d) }
                count += 1
                k += 1
            }
            guard count >= 1, count <= 9 else { return nil }
            for _ in min(count, 6)..<6 { fraction *= 10 }
        }
        var offset = 0
        if at(k, "Zz"), k + 1 == c.count {
            offset = 0
        } else if at(k, "+-"), k + 6 == c.count, let h = number(k + 1, 2), at(k + 3, ":"), let m = number(k + 4, 2), h <= 23, m <= 59 {
            offset = (h * 60 + m) * (c[k] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let days = RefCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        return Instant(micros: seconds * 1_000_000 + fraction, offsetMinutes: offset)
    }
}
