// DateRange.swift — a stretch of local days as people ask for one (`week`, `month`, `year`, `2026-10`, `2026`, `FROM..TO`, `last N`, `last month`): parsed without a clock, resolved with one like DayQuery, and the range just before it that it is compared with.

/// Consecutive local days, both ends included, and what kind of stretch they are (which
/// decides the range it is compared with and how it is titled).
public struct DateRange: Hashable, Sendable {
    /// What a range is: a calendar week (Monday to Sunday, or Sunday to Saturday), month or year,
    /// or a number of days.
    public enum Kind: Hashable, Sendable {
        case week
        case month
        case year
        /// `last N`: the N days ending on a day.
        case lastDays
        /// `FROM..TO`.
        case span
    }

    public let from: LocalDate
    /// The last day, included.
    public let to: LocalDate
    public let kind: Kind

    public init(from: LocalDate, to: LocalDate, kind: Kind) {
        precondition(from <= to, "a range ends on or after its first day")
        self.from = from
        self.to = to
        self.kind = kind
    }

    /// How many days it holds.
    public var dayCount: Int { from.days(to: to) + 1 }

    /// Its days as a closed range.
    public var days: ClosedRange<LocalDate> { from...to }

    /// Whether it holds `day`.
    public func contains(_ day: LocalDate) -> Bool { from <= day && day <= to }

    /// The range of the same length just before: the previous week, month or year for a
    /// calendar one (a month is compared with the month before, whatever their lengths), the
    /// same number of days before for any other. Nil when it would begin before 0000-01-01.
    public var previous: DateRange? {
        let range: DateRange
        switch kind {
        case .week: range = DateRange(from: from.adding(days: -7), to: from.adding(days: -1), kind: .week)
        case .month:
            let first = from.addingMonths(-1)
            range = DateRange(from: first, to: from.adding(days: -1), kind: .month)
        case .year:
            range = DateRange(from: LocalDate(year: from.year - 1, month: 1, day: 1)!, to: from.adding(days: -1), kind: .year)
        case .lastDays, .span:
            range = DateRange(from: from.adding(days: -dayCount), to: from.adding(days: -1), kind: kind)
        }
        return LocalDate.supported.contains(range.from) ? range : nil
    }

    /// The calendar week holding `day`: Monday to Sunday, or from `start`.
    public static func week(of day: LocalDate, start: WeekStart = .monday) -> DateRange {
        let first = start.first(ofWeekHolding: day)
        return DateRange(from: first, to: first.adding(days: 6), kind: .week)
    }

    /// The calendar month holding `day`.
    public static func month(of day: LocalDate) -> DateRange {
        month(year: day.year, month: day.month)
    }

    /// A calendar month.
    public static func month(year: Int, month: Int) -> DateRange {
        let first = LocalDate(year: year, month: month, day: 1)!
        return DateRange(from: first, to: first.adding(days: LocalDate.daysIn(month: month, year: year) - 1), kind: .month)
    }

    /// A calendar year.
    public static func year(_ year: Int) -> DateRange {
        DateRange(from: LocalDate(year: year, month: 1, day: 1)!, to: LocalDate(year: year, month: 12, day: 31)!, kind: .year)
    }
}

extension LocalDate {
    /// The first day of the month `n` months after this day's (before, when negative).
    public func addingMonths(_ n: Int) -> LocalDate {
        let index = year * 12 + (month - 1) + n
        let y = index >= 0 ? index / 12 : (index - 11) / 12
        return LocalDate(year: y, month: index - y * 12 + 1, day: 1)!
    }

    /// The same day of the month `n` months later (earlier when negative), the month's last
    /// day when it has no such day (31 March less a month is 28 or 29 February).
    public func movingMonths(_ n: Int) -> LocalDate {
        let first = addingMonths(n)
        return LocalDate(year: first.year, month: first.month, day: min(day, LocalDate.daysIn(month: first.month, year: first.year)))!
    }
}

/// One end of `FROM..TO`: a day (any word `day` takes), or a month or year, which begins the
/// range on its first day or ends it on its last (`2016..2026` is ten whole years and a bit).
public enum RangeBound: Hashable, Sendable {
    case day(DayQuery)
    case month(year: Int, month: Int)
    case year(Int)

    init?(_ text: String) {
        if let month = RangeQuery.month(text) {
            self = .month(year: month.year, month: month.month)
        } else if let year = RangeQuery.year(text) {
            self = .year(year)
        } else if let day = DayQuery(text) {
            self = .day(day)
        } else {
            return nil
        }
    }

    /// The whole days this end names.
    func resolve(today: LocalDate, selected: LocalDate, dataRange: ClosedRange<LocalDate>?) -> ClosedRange<LocalDate> {
        switch self {
        case .day(let query):
            let day = query.resolve(today: today, selected: selected, dataRange: dataRange)
            return day...day
        case .month(let year, let month): return DateRange.month(year: year, month: month).days
        case .year(let year): return DateRange.year(year).days
        }
    }
}

/// A range as typed, parsed first and resolved later against the clock, the selected day and
/// the data, as `DayQuery` is.
public enum RangeQuery: Hashable, Sendable {
    /// `week`, `month`, `year`: the one holding the selected day.
    case current(DateRange.Kind)
    /// `last week`, `last month`, `last year`: the one before it.
    case previousOf(DateRange.Kind)
    /// `2026-10`.
    case month(year: Int, month: Int)
    /// `2026`.
    case year(Int)
    /// `last N`: the N days ending on the selected day.
    case lastDays(Int)
    /// `FROM..TO`, both included.
    case span(RangeBound, RangeBound)

    /// The words a range may be besides dates (`last` begins `last N`).
    public static let words = ["week", "month", "year"]
    /// The most days `last N` takes (a hundred years).
    public static let maxDays = 36_525

    /// Parses one word: `week`, `month`, `year` (or a beginning of one: `w`, `mo`, `y`),
    /// `YYYY-MM`, `YYYY`, or `FROM..TO` (each end a date, a day word, `YYYY-MM` or `YYYY`); nil
    /// for anything else.
    public init?(_ text: String) {
        let word = text.lowercased()
        switch Self.unit(word) {
        case .week: self = .current(.week)
        case .month: self = .current(.month)
        case .year: self = .current(.year)
        default:
            if let month = Self.month(word) {
                self = .month(year: month.year, month: month.month)
            } else if let year = Self.year(word) {
                self = .year(year)
            } else if let dots = word.range(of: ".."), let from = RangeBound(String(word[..<dots.lowerBound])),
                let to = RangeBound(String(word[dots.upperBound...]))
            {
                self = .span(from, to)
            } else {
                return nil
            }
        }
    }

    /// Parses what follows `last`: a number of days (1 to 36,525), written bare or as an age
    /// (`7d`, `2w`: days or weeks, as `tasks due` and `retention` take one), or `week`, `month`, `year`.
    public init?(last text: String) {
        let word = text.lowercased()
        switch Self.unit(word) {
        case .week: self = .previousOf(.week)
        case .month: self = .previousOf(.month)
        case .year: self = .previousOf(.year)
        default:
            var digits = Substring(word)
            var scale = 1
            if digits.hasSuffix("d") {
                digits = digits.dropLast()
            } else if digits.hasSuffix("w") {
                (digits, scale) = (digits.dropLast(), 7)
            }
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits),
                (1...Self.maxDays).contains(n * scale)
            else { return nil }
            self = .lastDays(n * scale)
        }
    }

    /// The calendar unit a word names whole or by its beginning (`w`, `mo`, `ye`); nil for any other.
    static func unit(_ word: String) -> DateRange.Kind? {
        let units: [(String, DateRange.Kind)] = [("week", .week), ("month", .month), ("year", .year)]
        let candidates = units.map { PrefixMatch.Candidate($0.1, spellings: [$0.0]) }
        guard case .match(let kind) = PrefixMatch.resolve(word, among: candidates) else { return nil }
        return kind
    }

    /// What is wrong with a word that is no range.
    public static func problem(_ text: String) -> String {
        if let dots = text.range(of: "..") {
            for end in [String(text[..<dots.lowerBound]), String(text[dots.upperBound...])] where RangeBound(end) == nil {
                return end.isEmpty ? "'\(text)' needs a first and a last day (FROM..TO)" : "'\(end)' is not a day, month or year"
            }
        }
        let forms = "'\(text)' is not a range (\(Self.forms))"
        // `lastweek`: the two words run together.
        let lower = text.lowercased()
        if lower.hasPrefix("last"), lower.count > 4, RangeQuery(last: String(lower.dropFirst(4))) != nil {
            return forms + " — did you mean 'last \(lower.dropFirst(4))'?"
        }
        return forms
    }

    /// Every form a range takes, as the errors list them.
    public static let forms = "week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO"


    /// What is wrong with what followed `last`.
    public static func lastProblem(_ text: String) -> String {
        "'\(text)' is not a number of days from 1 to \(maxDays), week, month or year"
    }

    /// `2026-10` as a year and a month.
    static func month(_ text: String) -> (year: Int, month: Int)? {
        guard text.count == 7, let date = LocalDate(iso: text + "-01") else { return nil }
        return (date.year, date.month)
    }

    /// `2026` as a year.
    static func year(_ text: String) -> Int? {
        guard text.count == 4, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// The days meant, given the clock's `today`, the selected day and the data's range (weeks
    /// beginning on `weekStart`); a problem when the range ends before it begins or reaches past
    /// the days the program works with.
    public func resolve(
        today: LocalDate, selected: LocalDate, dataRange: ClosedRange<LocalDate>?, weekStart: WeekStart = .monday
    ) -> Result<DateRange, RangeProblem> {
        let range: DateRange
        switch self {
        case .current(let kind): range = Self.calendar(kind, holding: selected, weekStart: weekStart)
        case .previousOf(let kind):
            guard let before = Self.calendar(kind, holding: selected, weekStart: weekStart).previous else { return .failure(.outOfDays) }
            range = before
        case .month(let year, let month): range = DateRange.month(year: year, month: month)
        case .year(let year): range = DateRange.year(year)
        case .lastDays(let n):
            let first = selected.adding(days: -(n - 1))
            guard LocalDate.supported.contains(first) else { return .failure(.outOfDays) }
            range = DateRange(from: first, to: selected, kind: .lastDays)
        case .span(let fromBound, let toBound):
            let from = fromBound.resolve(today: today, selected: selected, dataRange: dataRange).lowerBound
            let to = toBound.resolve(today: today, selected: selected, dataRange: dataRange).upperBound
            guard LocalDate.supported.contains(from), LocalDate.supported.contains(to) else { return .failure(.outOfDays) }
            guard from <= to else { return .failure(.endsBeforeItBegins(from: from, to: to)) }
            range = DateRange(from: from, to: to, kind: .span)
        }
        guard LocalDate.supported.contains(range.from), LocalDate.supported.contains(range.to) else { return .failure(.outOfDays) }
        return .success(range)
    }

    /// The calendar week, month or year holding `day` (a number of days is a week here: never asked).
    private static func calendar(_ kind: DateRange.Kind, holding day: LocalDate, weekStart: WeekStart) -> DateRange {
        switch kind {
        case .month: return .month(of: day)
        case .year: return .year(day.year)
        default: return .week(of: day, start: weekStart)
        }
    }
}

/// Why a typed range means no days.
public enum RangeProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case endsBeforeItBegins(from: LocalDate, to: LocalDate)
    case outOfDays

    public var description: String {
        switch self {
        case .endsBeforeItBegins(let from, let to): return "the range ends (\(to)) before it begins (\(from))"
        case .outOfDays: return "the range reaches past the days of four-digit years (0000-01-01 to 9999-12-31)"
        }
    }
}
