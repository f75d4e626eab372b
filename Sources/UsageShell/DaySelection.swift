// DaySelection.swift — how the selected day was chosen, and how it follows the clock: a date never moves; `today` is always today; no day chosen on live or stored data moves to the new day at midnight when the day shown was today.
import UsageCore

/// How the selected day was chosen.
public enum DaySelection: Equatable, Sendable {
    /// No day chosen: docs/DATA.md §3's default (the latest day with data), which on live or
    /// stored data follows the clock from the day shown being today (see `DayFollow`).
    case automatic
    /// Given as `today` (`--day today`, `day today`): the clock's day, whatever it is now.
    case today
    /// A date (or a day reached from one: `prev`, `-7`, `monday`, `yesterday`): it never moves.
    case fixed(LocalDate)
}

/// The clock followed from one reading to the next (between commands, at each `watch` tick).
///
/// - `today` needs nothing: it is read from the clock each time.
/// - `automatic` on live or stored data (ActivityWatch, URLs, the store, tracked time): when
///   midnight passes while the day shown is the day that just ended, the day shown becomes the
///   new one, though it holds no data yet (ActivityWatch has not sent the first event of the
///   day). The data's own latest day still wins once it is later.
/// - a fixed date, and the default day of a file, never move.
public struct DayFollow: Equatable, Sendable {
    /// The day the clock said at the last reading.
    public private(set) var lastToday: LocalDate?
    /// The least day `automatic` shows on live data: the day it moved to at midnight.
    public private(set) var floor: LocalDate?

    public init() {}

    /// The day `automatic` shows, given the data's own default day.
    public func automaticDay(dataDefault: LocalDate) -> LocalDate {
        guard let floor else { return dataDefault }
        return max(floor, dataDefault)
    }

    /// Reads the clock's `today`; returns whether the selected day moved. `shown` is the day
    /// shown before this reading (computed with the floor so far).
    public mutating func observe(today: LocalDate, selection: DaySelection, live: Bool, shown: LocalDate) -> Bool {
        defer { lastToday = today }
        guard let last = lastToday, today != last else { return false }
        switch selection {
        case .today:
            return true
        case .automatic:
            // Only a day shown as today follows; an older one (a store imported last week) stays.
            guard live, shown == last, today > last else { return false }
            floor = today
            return true
        case .fixed:
            return false
        }
    }

    /// Forgets what was followed (a new load, a day chosen).
    public mutating func reset(today: LocalDate) {
        lastToday = today
        floor = nil
    }
}
