// CellTimestamp.swift — a time as other tools write it in a CSV cell: RFC 3339, or a date and a clock time with or without an offset; times without one are read as wall-clock times of a zone.
import UsageCore

/// Reads a time cell. In order:
///
/// 1. RFC 3339, exactly as the sessions JSON requires (`2026-02-23T09:35:00Z`,
///    `2026-02-23T09:35:00.250+01:00`);
/// 2. a date, `T` or a space, and a clock time with or without seconds and a fraction, then
///    optionally an offset (`Z`, `+01:00`, `+0100`, `+01`, or ` UTC`/` GMT`):
///    `2026-02-23 09:35:00`, `2026-02-23 09:35`, `2026-02-23T09:35:00 +0100`;
/// 3. without an offset, the time is a wall-clock time of `zone` (see
///    `Zone.instant(ofWallSeconds:)` for the hour the clocks skip or repeat). Without a zone it
///    cannot be placed.
public enum CellTimestamp {
    /// What a cell said.
    public enum Reading: Equatable, Sendable {
        /// An instant given with its offset.
        case instant(Micros)
        /// A wall-clock time without an offset, placed in the zone given.
        case local(Micros)
        /// A well-formed time without an offset, and no zone to read it in.
        case noOffset
        /// Not a time.
        case invalid

        /// The instant, when there is one.
        public var micros: Micros? {
            switch self {
            case .instant(let t), .local(let t): return t
            case .noOffset, .invalid: return nil
            }
        }
    }

    public static func read(_ text: String, zone: Zone?) -> Reading {
        if let t = RFC3339.parse(text) { return .instant(t) }
        let b = Array(Normalise.trim(text).utf8)
        guard let (wall, fraction, next) = dateAndClock(b) else { return .invalid }
        guard next < b.count else {
            guard let zone else { return .noOffset }
            return .local(zone.instant(ofWallSeconds: wall) * 1_000_000 + fraction)
        }
        guard let offset = offsetSeconds(b[next...]) else { return .invalid }
        return .instant((wall - offset) * 1_000_000 + fraction)
    }

    /// `YYYY-MM-DD(T| )HH:MM[:SS[.fraction]]` at the start: the wall time as seconds since
    /// 1970-01-01 00:00, the fraction in microseconds, and where the rest begins.
    static func dateAndClock(_ b: [UInt8]) -> (wall: Int64, fraction: Int64, next: Int)? {
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard b.count >= 16, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[10]), b[13] == UInt8(ascii: ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), (1...12).contains(month), day >= 1,
            day <= LocalDate.daysIn(month: month, year: year), let hour = digits(11, 2), let minute = digits(14, 2),
            hour <= 23, minute <= 59
        else { return nil }
        var i = 16
        var second = 0
        var fraction: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ":") {
            guard let s = digits(i + 1, 2), s <= 59 else { return nil }
            second = s
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                var count = 0
                while i < b.count, (0x30...0x39).contains(b[i]) {
                    if count < 6 { fraction = fraction * 10 + Int64(b[i] - 0x30) }
                    count += 1
                    i += 1
                }
                guard (1...9).contains(count) else { return nil }
                for _ in min(count, 6)..<6 { fraction *= 10 }
            }
        }
        let days = Int64(LocalDate.daysFromCivil(year: year, month: month, day: day))
        return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second), fraction, i)
    }

    /// An offset after the clock time, a space before it allowed: `Z`, `±HH:MM`, `±HHMM`,
    /// `±HH`, `UTC`, `GMT`; seconds east of UTC.
    static func offsetSeconds(_ rest: ArraySlice<UInt8>) -> Int64? {
        var r = rest
        if r.first == UInt8(ascii: " ") { r = r.dropFirst() }
        let text = String(decoding: r, as: UTF8.self)
        if ["Z", "z", "UTC", "GMT"].contains(text) { return 0 }
        guard let sign = r.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let body = Array(r.dropFirst())
        func isDigit(_ k: Int) -> Bool { (0x30...0x39).contains(body[k]) }
        func number(_ k: Int) -> Int64 { Int64(body[k] - 0x30) * 10 + Int64(body[k + 1] - 0x30) }
        let hours: Int64
        var minutes: Int64 = 0
        switch body.count {
        case 2 where isDigit(0) && isDigit(1):  // +01
            hours = number(0)
        case 4 where (0..<4).allSatisfy(isDigit):  // +0100
            hours = number(0)
            minutes = number(2)
        case 5 where isDigit(0) && isDigit(1) && body[2] == UInt8(ascii: ":") && isDigit(3) && isDigit(4):  // +01:00
            hours = number(0)
            minutes = number(3)
        default:
            return nil
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        return (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
}
