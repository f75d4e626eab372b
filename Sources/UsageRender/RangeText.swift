// RangeText.swift — how a range of days is named to people: its title (`October 2026`, `Mon 5 – Sun 11 Oct 2026`, `Last 30 days ending Mon 23 Feb 2026`) and the range it is compared with (`the previous month`).
import UsageCore

extension TextFormat {
    /// The range's title: a month's name, a year, `last N`'s days, or its first and last days
    /// (`Mon 5 – Sun 11 Oct 2026`, the month and year said once where they are shared).
    public static func rangeTitle(_ range: DateRange) -> String {
        switch range.kind {
        case .month: return "\(monthName(range.from.month)) \(range.from.year)"
        case .year: return String(range.from.year).leftPadded(to: 4)
        case .lastDays:
            let n = range.dayCount
            return "Last \(n) day\(n == 1 ? "" : "s") ending \(mediumDate(range.to))"
        case .week, .span: return span(range.from, range.to)
        }
    }

    /// `Mon 5 – Sun 11 Oct 2026`, `Mon 28 Sep – Sun 4 Oct 2026`, `Mon 29 Dec 2025 – Sun 4 Jan
    /// 2026`; one day alone is `Mon 23 Feb 2026`.
    public static func span(_ from: LocalDate, _ to: LocalDate) -> String {
        if from == to { return mediumDate(from) }
        let end = mediumDate(to)
        if from.year != to.year { return "\(mediumDate(from)) – \(end)" }
        if from.month != to.month { return "\(shortWeekday(from)) \(from.day) \(shortMonth(from)) – \(end)" }
        return "\(shortWeekday(from)) \(from.day) – \(end)"
    }

    /// The range a range is compared with, in words: `the previous week`, `the previous month`,
    /// `the previous year`, `the previous 30 days`, `the day before`.
    public static func previousName(_ range: DateRange) -> String {
        switch range.kind {
        case .week: return "the previous week"
        case .month: return "the previous month"
        case .year: return "the previous year"
        case .lastDays, .span: return range.dayCount == 1 ? "the day before" : "the previous \(range.dayCount) days"
        }
    }
}
