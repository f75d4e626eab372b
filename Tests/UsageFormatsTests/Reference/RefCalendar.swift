// RefCalendar.swift — dates of the proleptic Gregorian calendar as day numbers from 1970-01-01 and back, counted the long way (the references' own calendar).

/// Days and seconds of the proleptic Gregorian calendar, counted the long way.
enum RefCalendar {
    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (negative before it), by whole years, then months.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        // Leap days before `y` counted from year 0: y/4 - y/100 + y/400 (of the years 0..<y).
        func daysBefore(_ y: Int) -> Int64 {
            let p = Int64(y) - 1
            let leaps = y > 0 ? p / 4 - p / 100 + p / 400 + 1 : 0
            return Int64(y) * 365 + leaps
        }
        var n = daysBefore(year) - daysBefore(1970)
        for m in 1..<month { n += Int64(daysIn(month: m, year: year)) }
        return n + Int64(day - 1)
    }

    /// The date a day number is (the inverse of `days`), for the tests' own checks.
    static func date(ofDay day: Int64) -> (year: Int, month: Int, day: Int) {
        var year = 1970
        var rest = day
        while rest < 0 {
            year -= 1
            rest += isLeap(year) ? 366 : 365
        }
        while rest >= (isLeap(year) ? 366 : 365) {
            rest -= isLeap(year) ? 366 : 365
            year += 1
        }
        var month = 1
        while rest >= Int64(daysIn(month: month, year: year)) {
            rest -= Int64(daysIn(month: month, year: year))
            month += 1
        }
        return (year, month, Int(rest) + 1)
    }
}
