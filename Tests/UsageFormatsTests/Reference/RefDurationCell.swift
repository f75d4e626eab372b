// RefDurationCell.swift — the tests' own reading of a CSV duration cell (docs/DATA.md §9.2): seconds, an `H:MM:SS` clock, or units largest first, each at most once; truncated to the microsecond; nothing negative, nothing over 100,000 hours.

enum RefDurationCell {
    static let maxMicros: Int64 = 100_000 * 3_600_000_000

    /// The duration in microseconds, or nil.
    static func micros(_ cell: [UInt8]) -> Int64? {
        let t = RefRows.trimmed(String(decoding: cell, as: UTF8.self)).lowercased()
        guard !t.isEmpty else { return nil }
        guard let value = decimal(t, unit: 1_000_000) ?? clock(t) ?? units(t), value <= maxMicros else { return nil }
        return value
    }

    /// `12`, `12.5`, `.5` times `unit`, truncated to whole microseconds (at most 12 digits before the point).
    static func decimal(_ t: String, unit: Int64) -> Int64? {
        let parts = t.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return nil }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard whole.count <= 12, !(whole.isEmpty && fraction.isEmpty), parts.count == 1 || !fraction.isEmpty else { return nil }
        let (w, overflow) = (Int64(whole) ?? 0).multipliedReportingOverflow(by: unit)
        guard !overflow, w <= maxMicros else { return nil }
        // The fraction's first nine digits n as n / 10^9-or-fewer of the unit, truncated.
        var n: Int64 = 0
        var ten: Int64 = 1
        for d in fraction.utf8.prefix(9) {
            n = n * 10 + Int64(d - 0x30)
            ten *= 10
        }
        let micros = n * unit / ten
        return w + micros
    }

    /// `H:MM:SS[.fraction]`: hours of 1 to 6 digits, minutes and seconds two digits each, below 60.
    static func clock(_ t: String) -> Int64? {
        let parts = t.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, (1...6).contains(parts[0].count), parts[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            parts[1].count == 2, let h = Int64(parts[0]), let m = Int64(parts[1]), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            m < 60, parts[2].prefix(while: { $0 != "." }).count == 2, let s = decimal(parts[2], unit: 1_000_000), s < 60_000_000
        else { return nil }
        return h * 3_600_000_000 + m * 60_000_000 + s
    }

    /// `1h 5m 30s`, `90 min`, `2.5h`, `1 hour 5 minutes`.
    static func units(_ t: String) -> Int64? {
        let table: [([String], Int64)] = [
            (["h", "hr", "hrs", "hour", "hours"], 3_600_000_000),
            (["m", "min", "mins", "minute", "minutes"], 60_000_000),
            (["s", "sec", "secs", "second", "seconds"], 1_000_000),
        ]
        var c = Array(t)
        var total: Int64 = 0
        var allowed = 0
        var any = false
        while true {
            while c.first == " " { c.removeFirst() }
            if c.isEmpty { break }
            let number = String(c.prefix { ($0.isASCII && $0.isNumber) || $0 == "." })
            guard !number.isEmpty else { return nil }
            c.removeFirst(number.count)
            while c.first == " " { c.removeFirst() }
            let word = String(c.prefix { $0.isLetter })
            guard let k = table.indices.first(where: { table[$0].0.contains(word) }), k >= allowed,
                let amount = decimal(number, unit: table[k].1)
            else { return nil }
            c.removeFirst(word.count)
            total += amount
            guard total <= maxMicros else { return nil }
            allowed = k + 1
            any = true
        }
        return any ? total : nil
    }
}
