// TextFormat.swift — the text shown to people (docs/DATA.md §5): durations, shares, the date header and the totals line.
import UsageCore

/// Formats of docs/DATA.md §5, English whatever the locale.
public enum TextFormat {
    private static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// `4h 15m`, `45m`, `2h 0m`, `<1m` for 0 < s < 60, `0m`: floored to the minute.
    public static func duration(_ micros: Micros) -> String {
        if micros <= 0 { return "0m" }
        if micros < 60_000_000 { return "<1m" }
        let minutes = micros / 60_000_000
        return minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
    }

    /// Whole percent, rounded; one decimal below 1% (`0.4%`); `<0.1%` when it would round to 0.0.
    public static func share(_ fraction: Double) -> String {
        let p = fraction * 100
        if p <= 0 { return "0%" }
        if p < 0.05 { return "<0.1%" }
        if p < 1 {
            let tenths = Int((p * 10).rounded())
            return tenths >= 10 ? "1%" : "0.\(tenths)%"
        }
        return "\(Int(p.rounded()))%"
    }

    /// `Monday, February 23, 2026`.
    public static func longDate(_ d: LocalDate) -> String {
        "\(weekdays[d.isoWeekday - 1]), \(months[d.month - 1]) \(d.day), \(d.year)"
    }

    /// `February` (month 1–12).
    public static func monthName(_ month: Int) -> String { months[month - 1] }

    /// `Feb`.
    public static func shortMonth(_ d: LocalDate) -> String {
        String(months[d.month - 1].prefix(3))
    }

    /// `Mon`.
    public static func shortWeekday(_ d: LocalDate) -> String {
        String(weekdays[d.isoWeekday - 1].prefix(3))
    }

    /// `35h 14m total`, plus `· 16h 59m screen time` when the two differ as shown.
    public static func totals(total: Micros, screenTime: Micros) -> String {
        let t = duration(total)
        let s = duration(screenTime)
        return t == s ? "\(t) total" : "\(t) total · \(s) screen time"
    }

    /// `07:00`: a local clock time of an instant, given its UTC offset.
    public static func clock(_ t: Micros, offsetSeconds: Int) -> String {
        let local = (t / 1_000_000 + Int64(offsetSeconds)) % 86_400
        let l = local < 0 ? local + 86_400 : local
        return "\(String(l / 3600).leftPad(2)):\(String(l % 3600 / 60).leftPad(2))"
    }

    /// `2026-02-23T05:00:00+05:30` (`Z` for a zero offset): a slot start as local time, to the second.
    public static func localTimestamp(_ t: Micros, offsetSeconds: Int) -> String {
        let localSeconds = t.floorDivided(by: 1_000_000) + Int64(offsetSeconds)
        let days = localSeconds.floorDivided(by: 86_400)
        let secondOfDay = localSeconds - days * 86_400
        let date = LocalDate(daysSinceEpoch: Int(days))
        let hh = String(secondOfDay / 3600).leftPad(2)
        let mm = String(secondOfDay % 3600 / 60).leftPad(2)
        let ss = String(secondOfDay % 60).leftPad(2)
        return "\(date)T\(hh):\(mm):\(ss)\(offset(offsetSeconds))"
    }

    /// `Z`, `+05:30`, `-04:00`.
    public static func offset(_ seconds: Int) -> String {
        if seconds == 0 { return "Z" }
        let a = abs(seconds)
        return "\(seconds < 0 ? "-" : "+")\(String(a / 3600).leftPad(2)):\(String(a % 3600 / 60).leftPad(2))"
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Int64 {
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
