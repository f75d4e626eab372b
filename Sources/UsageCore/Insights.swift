// Insights.swift — the facts `insights` states about the week ending on a day: top app and category, average, longest session, busiest hour, trend, advice.

/// Where the last three days are heading.
public enum Trend: String, Sendable {
    /// The last day is more than 20% above the first.
    case increasing
    /// The last day is more than 20% below the first.
    case decreasing
    case stable

    /// The trend from `first` to `last`: 20% either way counts; from nothing, any use is a rise.
    public init(first: Micros, last: Micros) {
        if first == 0 {
            self = last > 0 ? .increasing : .stable
        } else if Double(last) > 1.2 * Double(first) {
            self = .increasing
        } else if Double(last) < 0.8 * Double(first) {
            self = .decreasing
        } else {
            self = .stable
        }
    }
}

/// The facts of `insights` over the 7 days ending on a day.
public struct Insights: Sendable {
    public let days: [DaySummary]
    public let topApp: (name: String, micros: Micros)?
    public let topCategory: (name: String, micros: Micros)?
    public let totalMicros: Micros
    /// The daily average over the days with data (`DaySummary.average`).
    public var averageMicros: Micros { DaySummary.average(days).micros }
    /// The days of the week that have data.
    public var daysWithData: Int { DaySummary.average(days).daysWithData }
    /// The longest session in the week (its part inside the week), with its app and start.
    public let longest: (app: String, start: Micros, micros: Micros)?
    /// The selected day's busiest hour slot, by app time (`DayReport.busiestHour`, the hourly chart's tallest bar).
    public let busiestHour: HourUsage?
    public let trend: Trend
    /// The advice: a limit on the top app when use is rising, breaks above 3 hours a day.
    public let advice: [Advice]

    public enum Advice: Sendable, Equatable {
        case limit(app: String)
        case breaks
    }

    /// Above this daily average, take breaks.
    public static let heavyDay: Micros = 3 * 3_600_000_000

    /// The week's facts, made here: the last day's report (for its busiest hour), and each
    /// other day's totals in one lean pass over its part of the week's sessions.
    public init(history: some SessionHistory, endingOn last: LocalDate, zone: Zone) {
        let week = Self.week(endingOn: last, history: history, zone: zone)
        let report = DayReport(history: history, date: last, zone: zone, within: week)
        let days = (1..<7).reversed().map { DayTotals.of(last.adding(days: -$0), history: history, within: week, zone: zone) }
        self.init(history: history, week: week, days: days + [DayTotals(report)], lastReport: report)
    }

    /// The sessions of the week ending on `last`: what its days' totals are made from.
    public static func week(endingOn last: LocalDate, history: some SessionHistory, zone: Zone) -> SessionWindow {
        history.window(from: zone.startOfDay(last.adding(days: -6)), to: zone.startOfDay(last.adding(days: 1)))
    }

    /// The week's facts from its seven days' totals, oldest first, and its last day's report
    /// (made before: a shell keeps them); only the longest session is looked for in `week`'s
    /// sessions.
    public init(history: some SessionHistory, week: SessionWindow, days: [DayTotals], lastReport: DayReport) {
        precondition(
            days.count == 7 && days.last?.day == lastReport.day && zip(days, days.dropFirst()).allSatisfy { $0.day.adding(days: 1) == $1.day },
            "the seven days of the week, oldest first")
        self.days = days.map(\.summary)
        totalMicros = days.reduce(0) { $0 + $1.summary.totalMicros }

        topApp = DayReport.ranked(days.lazy.flatMap(\.apps)).first
        topCategory = DayReport.ranked(days.lazy.flatMap { $0.summary.categories.map { ($0.name, $0.micros) } }).first

        self.longest = week.longestClipped.map { (history.apps[Int($0.app)], $0.start, $0.length) }
        busiestHour = lastReport.busiestHour
        trend = Trend(first: days[4].summary.totalMicros, last: days[6].summary.totalMicros)

        var advice: [Advice] = []
        if trend == .increasing, let app = topApp?.name { advice.append(.limit(app: app)) }
        if totalMicros / 7 > Self.heavyDay { advice.append(.breaks) }
        self.advice = advice
    }
}
