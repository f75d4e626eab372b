// Zone.swift — a time zone's rules for the program: offsets, local dates of instants, and day windows with hour slots (docs/DATA.md §3).
import Foundation

/// A time zone (IANA name or `UTC`), the only place that asks Foundation about offsets.
public struct Zone: Sendable, Hashable {
    /// The name shown to people and in JSON (`America/New_York`, `UTC`).
    public let identifier: String
    private let timeZone: TimeZone

    /// The zone of an IANA name (`Europe/Paris`, `Etc/GMT+5`) or `UTC`; `nil` for anything else.
    ///
    /// Offset spellings such as `GMT+5` or `UTC+3` are refused: Foundation reads them with the
    /// opposite sign to POSIX `TZ`, so accepting them would silently shift every day.
    public init?(identifier raw: String) {
        let name = raw.hasPrefix(":") ? String(raw.dropFirst()) : raw
        guard !name.isEmpty, let tz = TimeZone(identifier: name), tz.identifier == name || name == "UTC" else {
            return nil
        }
        self.timeZone = tz
        self.identifier = (name == "UTC" || name == "Etc/UTC") ? "UTC" : name
    }

    /// UTC.
    public static let utc = Zone(identifier: "UTC")!

    /// Every zone name `init(identifier:)` accepts that the system's tz database lists, sorted,
    /// with `UTC` (for completing `set tz`).
    public static let knownIdentifiers: [String] = {
        let names = TimeZone.knownTimeZoneIdentifiers.filter { Zone(identifier: $0) != nil }
        return Array(Set(names + ["UTC"])).sorted()
    }()

    /// The zone of docs/DATA.md §3 when no `--tz` is given: `TZ` if it names a zone, else the system's
    /// zone (`systemIdentifier`, read by the caller from `/etc/localtime`), else UTC.
    public static func fromEnvironment(_ environment: [String: String], systemIdentifier: String?) -> Zone {
        if let tz = environment["TZ"], let zone = Zone(identifier: tz) { return zone }
        return systemIdentifier.flatMap { Zone(identifier: $0) } ?? .utc
    }

    /// Seconds east of UTC at an instant.
    public func offsetSeconds(at t: Micros) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t.floorDiv(1_000_000))))
    }

    /// The instant at which this zone's clocks show the wall time that UTC clocks show at `t`
    /// (used to place the bundled sample, written in wall-clock time, in the user's zone).
    public func instant(showingWallTimeOfUTC t: Micros) -> Micros {
        let first = t - Int64(offsetSeconds(at: t)) * 1_000_000
        return t - Int64(offsetSeconds(at: first)) * 1_000_000
    }

    /// The instant (seconds since the epoch) at which this zone's clocks show `wall`: a
    /// wall-clock time written as seconds since 1970-01-01 00:00 *local* (a CSV's `2026-02-23
    /// 09:30:00` without an offset). A time the clocks skip (spring forward) is moved on by the
    /// gap, as the clocks were (`02:30` becomes `03:30` new time); a time they show twice (fall
    /// back) is the first of the two, as most tools read it.
    public func instant(ofWallSeconds wall: Int64) -> Int64 {
        func offset(_ t: Int64) -> Int64 { Int64(offsetSeconds(at: t &* 1_000_000)) }
        // Offsets in force around the wall time: a change of offset near it is at most a day away.
        let before = offset(wall - 86_400)
        var best: Int64?
        for candidate in [before, offset(wall), offset(wall + 86_400)] {
            let t = wall - candidate
            if offset(t) == candidate { best = min(best ?? t, t) }
        }
        return best ?? wall - before
    }

    /// The local calendar date of an instant.
    public func localDate(of t: Micros) -> LocalDate {
        let local = t.floorDiv(1_000_000) + Int64(offsetSeconds(at: t))
        return LocalDate(daysSinceEpoch: Int(local.floorDiv(86_400)))
    }

    /// The first instant of a local day (local midnight, or the end of a gap that swallows it).
    public func startOfDay(_ date: LocalDate) -> Micros {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noonGuess = Int64(date.daysSinceEpoch) * 86_400 + 12 * 3600
        let noon = noonGuess - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(noonGuess))))
        let start = calendar.startOfDay(for: Date(timeIntervalSince1970: TimeInterval(noon)))
        return Int64(start.timeIntervalSince1970.rounded()) * 1_000_000
    }

    /// The day `[D 00:00, D+1 00:00)` with its hour slots.
    public func window(for date: LocalDate) -> DayWindow {
        let start = startOfDay(date)
        let end = startOfDay(date.adding(days: 1))
        var slots: [HourSlot] = []
        var slotStart = start
        while slotStart < end {
            let offset = offsetSeconds(at: slotStart)
            let localSeconds = slotStart.floorDiv(1_000_000) + Int64(offset)
            let hour = Int(localSeconds.floorMod(86_400) / 3600)
            slots.append(HourSlot(start: slotStart, end: min(slotStart + DayWindow.hour, end), hour: hour, utcOffsetSeconds: offset))
            slotStart += DayWindow.hour
        }
        return DayWindow(date: date, start: start, end: end, slots: slots)
    }
}

/// One local day as an interval of instants, split into one-hour slots from its start.
public struct DayWindow: Sendable, Hashable {
    /// One hour in microseconds.
    public static let hour: Micros = 3_600_000_000

    public let date: LocalDate
    /// First instant of the day.
    public let start: Micros
    /// First instant of the next day (exclusive end).
    public let end: Micros
    /// Consecutive one-hour slots: 23, 24 or 25 of them (the last may be shorter in odd zones).
    public let slots: [HourSlot]

    /// The day's length in microseconds.
    public var length: Micros { end - start }
}

/// One hour slot of a day: its interval and the local hour it shows.
public struct HourSlot: Sendable, Hashable {
    public let start: Micros
    public let end: Micros
    /// Local hour (0…23) at the slot's start; repeated on a fall-back day.
    public let hour: Int
    /// UTC offset at the slot's start, for printing its local time.
    public let utcOffsetSeconds: Int
}

extension Int64 {
    /// Division rounding toward negative infinity.
    @inline(__always) func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }

    /// Remainder with the sign of the divisor.
    @inline(__always) func floorMod(_ d: Int64) -> Int64 {
        let r = self % d
        return r != 0 && (r < 0) != (d < 0) ? r + d : r
    }
}
