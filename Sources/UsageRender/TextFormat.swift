// TextFormat.swift — the text shown to people (docs/DATA.md §5): durations, shares, the date header and the totals line.
import UsageCore

/// Formats of docs/DATA.md §5, English whatever the locale.
public enum TextFormat {
    private static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// `4,500 sessions`, `1 session`: a count and its noun, the count's thousands separated by
    /// commas, the one way every count of sessions is printed (the banner's as `store`'s).
    public static func count(_ n: Int, _ noun: String) -> String {
        "\(TextReport.grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// `4h 15m`, `45m`, `2h`, `<1m`, `0m`: `DurationText.duration`, the one rule.
    public static func duration(_ micros: Micros) -> String { DurationText.duration(micros) }

    /// A stopwatch's run as `stop` and `pause` say it: under an hour to the second (`34s`,
    /// `1m 34s`: a short run rounded to minutes said `2m` for 94 seconds), from an hour as
    /// `duration` rounds it (`1h 2m`).
    public static func runDuration(_ micros: Micros) -> String {
        guard micros < 3_600_000_000 else { return duration(micros) }
        let seconds = max(0, micros) / 1_000_000
        if seconds < 60 { return "\(seconds)s" }
        return seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds / 60)m \(seconds % 60)s"
    }

    /// A number of minutes as `duration` writes it; `<1m` when it is 0 but `micros` is not.
    static func duration(minutes: Int64, of micros: Micros) -> String { DurationText.duration(minutes: minutes, of: micros) }

    /// The whole minutes nearest to `micros` (half a minute up); 0 for none or less.
    public static func minutes(_ micros: Micros) -> Int64 { DurationText.minutes(micros) }

    /// The rows of a list in whole minutes that add up to the rounded sum of all of them: each
    /// row is floored, and the minutes left over go one each to the rows with the largest
    /// remainders (the first of equal remainders first), so no row is more than a minute off
    /// and the rows add up to the total the list shows. A row under half a minute is never
    /// given one: it stays `<1m`, as `duration` (and the tracker) shows it, never `1m`; the
    /// minute that several such rows make together stays with them, so the total is then
    /// the rows' minutes plus at most one for each `<1m` row.
    public static func minutes(adding values: [Micros]) -> [Int64] {
        let minute: Micros = 60_000_000
        let clean = values.map { max(0, $0) }
        var result = clean.map { $0 / minute }
        let left = minutes(clean.reduce(0, +)) - result.reduce(0, +)
        guard left > 0 else { return result }
        let order = clean.indices.filter { clean[$0] % minute > 0 && clean[$0] >= minute / 2 }
            .sorted { (clean[$0] % minute, $1) > (clean[$1] % minute, $0) }
        for k in order.prefix(Int(left)) { result[k] += 1 }
        return result
    }

    /// `minutes(adding:)` written as durations: the rows of a list that add up to its total.
    public static func durations(_ values: [Micros]) -> [String] {
        zip(minutes(adding: values), values).map { duration(minutes: $0, of: $1) }
    }

    /// The parts of a whole whose minutes are already shown (a day of a week, an hour of a day,
    /// each rounded with its siblings by `minutes(adding:)`), in whole minutes that add up to
    /// those `shown` minutes: each part floored, the minutes left over one each to the largest
    /// remainders (those under half a minute last, so `<1m` stays where it can), or taken back
    /// from the smallest remainders (the last of equal ones first) when the whole was rounded down. Each part stays within a
    /// minute of its value; with no shown minutes to match (nil), `minutes(adding:)`.
    public static func minutes(adding values: [Micros], shown: Int64?) -> [Int64] {
        guard let shown else { return minutes(adding: values) }
        let minute: Micros = 60_000_000
        let clean = values.map { max(0, $0) }
        var result = minutes(adding: clean)
        var left = shown - result.reduce(0, +)
        // Up: parts still at their floor, the largest remainder first (half a minute and more before less).
        let remainder = clean.map { $0 % minute }
        let key = { (k: Int) -> Micros in (remainder[k] >= minute / 2 ? minute : 0) + remainder[k] }
        let up = clean.indices.filter { remainder[$0] > 0 && result[$0] == clean[$0] / minute }
            .sorted { a, b in key(a) != key(b) ? key(a) > key(b) : a < b }
        for k in up where left > 0 {
            result[k] += 1
            left -= 1
        }
        // Down: parts rounded up, the smallest remainder first.
        let down = clean.indices.filter { remainder[$0] > 0 && result[$0] > clean[$0] / minute }
            .sorted { a, b in remainder[a] != remainder[b] ? remainder[a] < remainder[b] : a > b }
        for k in down where left < 0 {
            result[k] -= 1
            left += 1
        }
        return result
    }

    /// `minutes(adding:shown:)` written as durations: the parts of a whole shown as `shown` minutes.
    public static func durations(_ values: [Micros], shown: Int64?) -> [String] {
        zip(minutes(adding: values, shown: shown), values).map { duration(minutes: $0, of: $1) }
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

    /// `Mon 23 Feb 2026`: the long date's short form, for a title that would be cut.
    public static func mediumDate(_ d: LocalDate) -> String {
        "\(shortWeekday(d)) \(d.day) \(shortMonth(d)) \(d.year)"
    }

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
