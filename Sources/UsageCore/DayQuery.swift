// DayQuery.swift — what a user may type to pick a day, parsed without a clock and resolved with an injected one.

/// A day as typed: parsed first, resolved later against `now`, the zone and the data (ARCHITECTURE habit 8).
public enum DayQuery: Hashable, Sendable {
    /// `2026-02-23`.
    case date(LocalDate)
    /// `today` (0), `yesterday` (-1).
    case relativeToToday(Int)
    /// `prev` (-1), `next` (+1), `+N`, `-N`: relative to the selected day.
    case relativeToSelected(Int)
    /// `first`: the first day with data.
    case first
    /// `last`: the last day with data.
    case last
    /// `monday` … `sunday`: the latest such day on or before the selected day.
    case weekday(Int)

    /// The words accepted besides dates, for help and completion.
    public static let words = [
        "today", "yesterday", "tomorrow", "prev", "next", "first", "last",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    /// Parses a day expression; `nil` when it is none of the accepted forms. Words may be
    /// shortened to any prefix that means one day (`y`, `p`, `mon`; not `t`: today, tuesday or thursday?).
    public init?(_ text: String) {
        let word = text.lowercased()
        if let date = LocalDate(iso: word) {
            self = .date(date)
            return
        }
        let digits = word.dropFirst()
        if let sign = word.first, sign == "+" || sign == "-", (1...7).contains(digits.count),
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits)
        {
            self = .relativeToSelected(sign == "-" ? -n : n)
            return
        }
        let candidates = (Self.words + ["previous"]).map { PrefixMatch.Candidate(Self.meaning(ofWord: $0)!, spellings: [$0]) }
        guard case .match(let meaning) = PrefixMatch.resolve(word, among: candidates) else { return nil }
        self = meaning
    }

    /// What is wrong with a word that is no day: `'t' could be today, tuesday or thursday` when
    /// it begins several day words, else `'x' is not a day`.
    public static func problem(_ text: String) -> String {
        let begun = PrefixMatch.ambiguity(text, among: words + ["previous"]).filter { $0 != "previous" }
        return begun.count > 1 ? PrefixMatch.couldBe(text, begun) : "'\(text)' is not a day"
    }

    /// The query a whole word means (`previous` is `prev`).
    private static func meaning(ofWord word: String) -> DayQuery? {
        switch word {
        case "today": return .relativeToToday(0)
        case "yesterday": return .relativeToToday(-1)
        case "tomorrow": return .relativeToToday(1)
        case "prev", "previous": return .relativeToSelected(-1)
        case "next": return .relativeToSelected(1)
        case "first": return .first
        case "last": return .last
        default:
            let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            return days.firstIndex(of: word).map { .weekday($0 + 1) }
        }
    }

    /// The day meant, given the clock's `today`, the selected day and the data's range.
    /// It may lie outside `LocalDate.supported` (`next` on 9999-12-31); callers check.
    public func resolve(today: LocalDate, selected: LocalDate, dataRange: ClosedRange<LocalDate>?) -> LocalDate {
        switch self {
        case .date(let d): return d
        case .relativeToToday(let n): return today.adding(days: n)
        case .relativeToSelected(let n): return selected.adding(days: n)
        case .first: return dataRange?.lowerBound ?? today
        case .last: return dataRange?.upperBound ?? today
        case .weekday(let w):
            let back = (selected.isoWeekday - w + 7) % 7
            return selected.adding(days: -back)
        }
    }
}
