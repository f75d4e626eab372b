// LocalDate.swift — a calendar date with no time or zone: proleptic Gregorian arithmetic, ISO parsing and weekdays.

/// A calendar day (`2026-02-23`) with no time zone attached.
///
/// Arithmetic uses the days-from-civil algorithm (Howard Hinnant), so no `Calendar` is needed
/// and nothing depends on the process's locale.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, or `nil` when the month or day does not exist (`2026-02-30`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date that is `days` days after 1970-01-01 (negative: before).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// The days the program works with: four-digit years, as `YYYY-MM-DD` and RFC 3339 write them.
    public static let supported = LocalDate(year: 0, month: 1, day: 1)!...LocalDate(year: 9999, month: 12, day: 31)!

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        LocalDate.daysFromCivil(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 of a year, month and day assumed valid.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month of a year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The date `n` days later (earlier when negative).
    public func adding(days n: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + n)
    }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int {
        other.daysSinceEpoch - daysSinceEpoch
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        let w = (daysSinceEpoch + 3) % 7
        return (w < 0 ? w + 7 : w) + 1
    }

    /// `2026-02-23` (`-0001-12-31` for years before 0, which only arithmetic can reach).
    public var description: String {
        let y = year < 0 ? "-" + String(-year).leftPadded(to: 4) : String(year).leftPadded(to: 4)
        return "\(y)-\(String(month).leftPadded(to: 2))-\(String(day).leftPadded(to: 2))"
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for anything else or an impossible date.
    public init?(iso text: some StringProtocol) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { bytes -> (Int, Int, Int)? in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                let y = Digits.value(bytes, 0, 4), let m = Digits.value(bytes, 5, 2),
                let d = Digits.value(bytes, 8, 2)
            else { return nil }
            return (y, m, d)
        }
        guard let (y, m, d) = parsed else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// Small helpers for fixed-width ASCII digit fields.
public enum Digits {
    /// The decimal value of `count` ASCII digits at `start`, or `nil` if any is not a digit.
    /// (Not generic: the readers call it for every timestamp, from another module, and a generic
    /// function not specialised there would box every index.)
    @inlinable @inline(__always)
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var v = 0
        for i in start..<(start + count) {
            let c = bytes[i]
            guard c >= 0x30, c <= 0x39 else { return nil }
            v = v * 10 + Int(c - 0x30)
        }
        return v
    }
}

extension String {
    /// The string left-padded with zeros to at least `width` characters.
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
