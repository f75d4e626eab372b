// RefTimeCell.swift — the tests' own reading of a CSV time cell (docs/DATA.md §9.2): RFC 3339, or a date, `T` or a space and a clock time with an optional offset; a time without one placed in a zone by Foundation's calendar, its date proleptic Gregorian (§3: a skipped time moved on by the gap, a repeated one the first).
import Foundation

enum RefTimeCell {
    enum Reading: Equatable {
        case instant(Int64)
        case local(Int64)
        case invalid
    }

    static func read(_ cell: [UInt8], zone: TimeZone?) -> Reading {
        if let t = RefRFC3339.read(cell) { return .instant(t.micros) }
        let c = Array(RefRows.trimmed(String(decoding: cell, as: UTF8.self)).utf8)
        func number(_ k: Int, _ n: Int) -> Int? {
            guard k + n <= c.count else { return nil }
            var v = 0
            for i in k..<(k + n) {
                guard c[i] >= 0x30, c[i] <= 0x39 else { return nil }
                v = v * 10 + Int(c[i] - 0x30)
            }
            return v
        }
        func at(_ k: Int, _ chars: String) -> Bool { k < c.count && chars.utf8.contains(c[k]) }
        guard let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2), at(10, "Tt "),
            let hour = number(11, 2), at(13, ":"), let minute = number(14, 2), (1...12).contains(month), day >= 1,
            day <= RefCalendar.daysIn(month: month, year: year), hour <= 23, minute <= 59
        else { return .invalid }
        var k = 16
        var second = 0
        var fraction: Int64 = 0
        if at(k, ":") {
            guard let s = number(k + 1, 2), s <= 59 else { return .invalid }
            second = s
            k += 3
            if at(k, ".") {
                k += 1
                var digits = 0
                while let d = number(k, 1) {
                    if digits < 6 { fraction = fraction * 10 + Int64(d) }
                    digits += 1
                    k += 1
                }
                guard (1...9).contains(digits) else { return .invalid }
                for _ in min(digits, 6)..<6 { fraction *= 10 }
            }
        }
        let days = RefCalendar.days(year: year, month: month, day: day)
        let wall = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        guard k < c.count else {
            guard let zone else { return .invalid }
            return .local(placed(year: year, month: month, day: day, hour: hour, minute: minute, second: second, in: zone) * 1_000_000 + fraction)
        }
        guard let offset = offsetSeconds(Array(c[k...])) else { return .invalid }
        return .instant((wall - offset) * 1_000_000 + fraction)
    }

    /// ` ` at most once, then `Z`, `UTC`, `GMT`, `±HH:MM`, `±HHMM` or `±HH` (hours to 23, minutes to 59).
    static func offsetSeconds(_ rest: [UInt8]) -> Int64? {
        var r = rest
        if r.first == UInt8(ascii: " ") { r.removeFirst() }
        if ["Z", "z", "UTC", "GMT"].contains(String(decoding: r, as: UTF8.self)) { return 0 }
        guard let sign = r.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let body = String(decoding: r.dropFirst(), as: UTF8.self)
        let parts: (String, String)
        switch body.count {
        case 2: parts = (body, "00")
        case 4: parts = (String(body.prefix(2)), String(body.suffix(2)))
        case 5 where body.dropFirst(2).first == ":": parts = (String(body.prefix(2)), String(body.suffix(2)))
        default: return nil
        }
        guard parts.0.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), parts.1.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let h = Int64(parts.0), let m = Int64(parts.1), h <= 23, m <= 59
        else { return nil }
        return (h * 3600 + m * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }

    /// A wall-clock time of `zone` as seconds since 1970, by Foundation's calendar. The date is
    /// proleptic Gregorian (§1), but Foundation's Gregorian calendar is Julian before
    /// 1582-10-15: the day is found by `RefCalendar` and named as Foundation names it (era,
    /// year, month, day in UTC), then placed in the zone with its time.
    static func placed(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, in zone: TimeZone) -> Int64 {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let midnight = Date(timeIntervalSince1970: TimeInterval(RefCalendar.days(year: year, month: month, day: day) * 86_400))
        let named = utc.dateComponents([.era, .year, .month, .day], from: midnight)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = calendar.date(
            from: DateComponents(
                era: named.era, year: named.year, month: named.month, day: named.day, hour: hour, minute: minute, second: second))!
        return Int64(date.timeIntervalSince1970.rounded())
    }
}
