// TotalsDelta.swift — what a change does to the totals the store keeps (time per UTC quarter hour and device; time and sessions per UTC day, device, app and category), summed in memory from the sessions it adds or removes and then written in one go; the same for every backend.
import UsageCore

/// The store's kept totals, as changes to them. A session up to a day long (`keeps`) counts in
/// them, split exactly (integer microseconds) among the quarter hours and the UTC days it
/// touches; a longer one is left out of them and read from its own index instead (a session of
/// years would otherwise make a row per quarter hour of those years).
struct TotalsDelta {
    /// A quarter hour in microseconds: every zone's offsets since 1980 are whole quarter
    /// hours, so every local day of them begins and ends on one.
    static let quarter: Micros = 900_000_000
    /// A UTC day in microseconds.
    static let day: Micros = 86_400_000_000

    /// One device's time in one quarter hour (quarter hours since 1970, UTC).
    struct QuarterKey: Hashable {
        let quarter: Int64
        let device: Int64
    }

    /// One app's time in one category on one UTC day (days since 1970-01-01), on one device.
    struct DayKey: Hashable {
        let day: Int64
        let device: Int64
        let app: Int64
        let category: Int64
    }

    /// Time, and sessions that start then.
    struct DayAmount {
        var micros: Micros = 0
        var starts: Int64 = 0
    }

    /// Time per quarter hour and device.
    var quarters: [QuarterKey: Micros] = [:]
    var days: [DayKey: DayAmount] = [:]

    var isEmpty: Bool { quarters.isEmpty && days.isEmpty }

    /// Adds another delta's amounts to these.
    mutating func merge(_ other: TotalsDelta) {
        quarters.merge(other.quarters, uniquingKeysWith: +)
        days.merge(other.days) { DayAmount(micros: $0.micros + $1.micros, starts: $0.starts + $1.starts) }
    }

    /// Whether a session of this length is in the kept totals (else it is read from the
    /// long sessions' index): the same bound the windows read back by.
    static func keeps(length: Micros) -> Bool { length <= StoreHistory.longSession }

    /// Adds a session `[start, end)` of `app` in `category` on `device` (store ids), or takes
    /// it away (`sign` -1); a session the totals do not keep changes nothing.
    mutating func add(start: Micros, end: Micros, device: Int64, app: Int64, category: Int64, sign: Int64 = 1) {
        guard end > start, Self.keeps(length: end - start) else { return }
        var q = start.floorDivided(by: Self.quarter)
        while q * Self.quarter < end {
            let from = max(start, q * Self.quarter)
            let to = min(end, (q + 1) * Self.quarter)
            quarters[QuarterKey(quarter: q, device: device), default: 0] += sign * (to - from)
            q += 1
        }
        var d = start.floorDivided(by: Self.day)
        var first = true
        while d * Self.day < end {
            let from = max(start, d * Self.day)
            let to = min(end, (d + 1) * Self.day)
            let key = DayKey(day: d, device: device, app: app, category: category)
            var amount = days[key, default: DayAmount()]
            amount.micros += sign * (to - from)
            if first { amount.starts += sign }
            days[key] = amount
            first = false
            d += 1
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }

    /// Division rounding toward positive infinity.
    func ceilDivided(by d: Int64) -> Int64 {
        -((-self).floorDivided(by: d))
    }
}
