// Fuzz/Support/ReferenceRFC3339.swift — the fuzz targets' reference for docs/DATA.md §1 timestamps: a regular expression for the form, Foundation's Gregorian calendar for the date, written apart from Sources/UsageCore/RFC3339.swift.
import Foundation

/// docs/DATA.md §1's timestamp rule written plainly: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, ASCII
/// only, `T` and `Z` in either case, a fraction of 1 to 9 digits kept to the microsecond
/// (truncated, as `RFC3339.parse` documents), hours 00–23, minutes and seconds 00–59, an offset
/// of at most 23:59, and a date that exists in the proleptic Gregorian calendar.
enum ReferenceRFC3339 {
    /// The whole text must match (`wholeMatch`), scalar by scalar (no grapheme clustering).
    nonisolated(unsafe) static let pattern = try! Regex(
        #"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"#
    ).matchingSemantics(.unicodeScalar)

    /// UTC Gregorian calendar. Foundation's Gregorian calendar switches to the Julian one before
    /// 1582-10-15, so years are first moved into 2000–2399: the Gregorian calendar repeats every
    /// 400 years (146 097 days), and RFC 3339 dates are proleptic Gregorian.
    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    static let daysPer400Years: Int64 = 146_097

    /// Microseconds since the epoch, or `nil` when `bytes` is not a valid timestamp.
    static func parse(_ bytes: [UInt8]) -> Int64? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let m = try? pattern.wholeMatch(in: text) else { return nil }
        func group(_ k: Int) -> String? { m.output[k].substring.map(String.init) }
        func number(_ k: Int) -> Int { Int(group(k)!)! }
        let (year, month, day) = (number(1), number(2), number(3))
        let (hour, minute, second) = (number(4), number(5), number(6))

        // The date and time through Foundation, which rolls impossible values over (Feb 30 →
        // Mar 2, 24:00 → the next day): a value that does not come back unchanged did not exist.
        let shift = Int64((year - 2000 >= 0 ? year - 2000 : year - 2000 - 399) / 400)
        let components = DateComponents(
            year: year - Int(shift) * 400, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard back.year == components.year, back.month == month, back.day == day, back.hour == hour,
            back.minute == minute, back.second == second
        else { return nil }

        var offset: Int64 = 0
        if let sign = group(8) {
            let (oh, om) = (number(9), number(10))
            guard oh <= 23, om <= 59 else { return nil }
            offset = Int64(oh * 3600 + om * 60) * (sign == "-" ? -1 : 1)
        }
        var micros: Int64 = 0
        if let fraction = group(7) {
            let digits = fraction.dropFirst()  // the "."
            micros = Int64(String((digits + "000000").prefix(6)))!
        }
        let seconds = Int64(date.timeIntervalSince1970.rounded()) + shift * daysPer400Years * 86_400 - offset
        return seconds * 1_000_000 + micros
    }
}
