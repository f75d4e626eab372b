// CellDuration.swift — a session's length as other tools write it in a CSV cell: seconds (`3900`, `12.5`), a clock (`1:05:00`), or units (`1h 5m`, `45 min`).
import UsageCore

/// Reads a duration cell into microseconds. The forms:
///
/// - seconds: `3900`, `12.5` (to the microsecond; further digits are dropped);
/// - a clock, hours first: `H:MM:SS` or `HH:MM:SS`, with a fraction of a second allowed
///   (`1:05:00`, `26:00:00.5`). Two parts (`12:34`) are refused: minutes and seconds or hours
///   and minutes? Tools disagree, and a guess would be wrong half the time;
/// - units, largest first, each at most once, spaces allowed: `1h 5m`, `1h5m30s`, `90m`,
///   `2.5h`, `45 min`, `1 hour 5 minutes` (`h hr hrs hour hours`, `m min mins minute minutes`,
///   `s sec secs second seconds`).
///
/// Negative values, and anything else, are nil. Zero is a duration (a row of it then ends
/// where it starts, and is skipped as `end_not_after_start`).
public enum CellDuration {
    /// Longer than any session: 100,000 hours (11 years); more is refused rather than overflow.
    static let maxMicros: Micros = 100_000 * 3_600_000_000

    /// The duration in microseconds, or nil when the text is none of the forms.
    public static func micros(_ text: String) -> Micros? {
        let t = Normalise.trim(text).lowercased()
        guard !t.isEmpty else { return nil }
        let value = seconds(t) ?? clock(t) ?? units(t)
        guard let value, value >= 0, value <= maxMicros else { return nil }
        return value
    }

    /// `3900`, `12.5`: a decimal number of seconds.
    static func seconds(_ t: String) -> Micros? {
        decimal(Substring(t), unit: 1_000_000)
    }

    /// `H:MM:SS[.fraction]`: hours of any length, minutes and seconds 00–59.
    static func clock(_ t: String) -> Micros? {
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...6).contains(parts[0].count), parts[0].allSatisfy(\.isASCIIDigit),
            parts[1].count == 2, parts[1].allSatisfy(\.isASCIIDigit), let hours = Micros(parts[0]), let minutes = Micros(parts[1]),
            minutes < 60
        else { return nil }
        let secondsPart = parts[2]
        let whole = secondsPart.prefix { $0 != "." }
        guard whole.count == 2, let seconds = decimal(secondsPart, unit: 1_000_000), seconds < 60_000_000 else { return nil }
        return hours * 3_600_000_000 + minutes * 60_000_000 + seconds
    }

    /// `1h 5m 30s`, `90 min`, `2.5h`: numbers with units, largest unit first, each once.
    static func units(_ t: String) -> Micros? {
        let units: [(names: [String], micros: Micros)] = [
            (["hours", "hour", "hrs", "hr", "h"], 3_600_000_000),
            (["minutes", "minute", "mins", "min", "m"], 60_000_000),
            (["seconds", "second", "secs", "sec", "s"], 1_000_000),
        ]
        var rest = Substring(t)
        var total: Micros = 0
        var next = 0  // the first unit still allowed (largest first)
        var any = false
        while true {
            rest = rest.drop { $0 == " " }
            if rest.isEmpty { break }
            let number = rest.prefix { $0.isASCIIDigit || $0 == "." }
            guard !number.isEmpty else { return nil }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            let word = rest.prefix { $0.isLetter }
            guard let k = units.indices.first(where: { units[$0].names.contains(String(word)) }), k >= next,
                let amount = decimal(number, unit: units[k].micros)
            else { return nil }
            rest = rest.dropFirst(word.count)
            total += amount
            guard total <= maxMicros else { return nil }
            next = k + 1
            any = true
        }
        return any ? total : nil
    }

    /// A non-negative decimal (`12`, `12.5`, `.5`) times `unit`, truncated to whole
    /// microseconds; nil for anything else or a number too large.
    static func decimal(_ text: Substring, unit: Micros) -> Micros? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.count <= 12, whole.allSatisfy(\.isASCIIDigit),
            fraction.allSatisfy(\.isASCIIDigit), parts.count == 1 || !fraction.isEmpty
        else { return nil }
        let (wholeMicros, overflow) = (Micros(whole) ?? 0).multipliedReportingOverflow(by: unit)
        guard !overflow, wholeMicros <= maxMicros else { return nil }
        // The fraction, truncated to the microsecond: digits × unit / 10^digits. Nine digits
        // at most are read (more cannot change a microsecond of an hour), so nothing overflows.
        var numerator: Micros = 0
        var scale: Micros = 1
        for digit in fraction.prefix(9) {
            numerator = numerator * 10 + Micros(digit.asciiValue! - 48)
            scale *= 10
        }
        return wholeMicros + numerator * unit / scale
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
