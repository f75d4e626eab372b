// DurationText.swift — a duration as people type it (`30m`, `1h30m`, `45s`) and as they read it (`4h 15m`, `45m`, `<1m`, rounded to the nearest minute): the one rule every view, the recorder's notifications and the shell's messages write durations by.

/// Durations as typed (limits, estimates) and as shown, in whole minutes, English whatever the locale (docs/DATA.md §5).
public enum DurationText {
    /// The duration, or nil when the text is not hours, minutes and seconds in that order (each
    /// at most once, at least one) or is zero.
    public static func parse(_ text: String) -> Micros? {
        var rest = Substring(text.lowercased())
        var total: Micros = 0
        var seen = ""
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 6, let n = Micros(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first, "hms".contains(unit), !seen.contains(unit) else { return nil }
            // In order: h before m before s.
            if let last = seen.last, "hms".firstIndex(of: last)! > "hms".firstIndex(of: unit)! { return nil }
            seen.append(unit)
            rest = rest.dropFirst()
            total += n * (unit == "h" ? 3_600_000_000 : unit == "m" ? 60_000_000 : 1_000_000)
        }
        return total > 0 ? total : nil
    }

    /// `4h 15m`, `45m`, `2h`, `<1m` for less than half a minute (but more than none), `0m`:
    /// rounded to the nearest minute (half a minute up), so that a total and the rows that make
    /// it up are rounded alike.
    public static func duration(_ micros: Micros) -> String {
        duration(minutes: minutes(micros), of: micros)
    }

    /// A number of minutes as `duration` writes it; `<1m` when it is 0 but `micros` is not.
    public static func duration(minutes: Int64, of micros: Micros) -> String {
        if minutes <= 0 { return micros > 0 ? "<1m" : "0m" }
        if minutes < 60 { return "\(minutes)m" }
        return minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h \(minutes % 60)m"
    }

    /// The whole minutes nearest to `micros` (half a minute up); 0 for none or less.
    public static func minutes(_ micros: Micros) -> Int64 {
        micros <= 0 ? 0 : (micros + 30_000_000) / 60_000_000
    }
}
