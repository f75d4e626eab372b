// WeekStart.swift — the day a calendar week begins on (`set week-start`): Monday, as ISO 8601, Timewarrior and Watson count, or Sunday; where a day stands in its week, and the week's first day.

/// The first day of a calendar week.
public enum WeekStart: String, CaseIterable, Sendable {
    case monday
    case sunday

    /// How many days `day` is after the first day of its week (0 to 6).
    public func offset(_ day: LocalDate) -> Int {
        switch self {
        case .monday: return day.isoWeekday - 1
        case .sunday: return day.isoWeekday % 7
        }
    }

    /// The first day of the week holding `day`.
    public func first(ofWeekHolding day: LocalDate) -> LocalDate {
        day.adding(days: -offset(day))
    }

    /// The weekdays' short names in the week's order (`Mon` … `Sun`, or `Sun` … `Sat`).
    public var shortNames: [String] {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return self == .monday ? names : ["Sun"] + names.dropLast()
    }
}
