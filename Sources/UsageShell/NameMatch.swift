// NameMatch.swift — finds the app or category a typed word means: exact, then ignoring case, then a unique prefix; else "did you mean" (for day words too).
import UsageCore

/// Resolves typed names against the names of the loaded data.
enum NameMatch {
    /// The name `word` means among `names`: the exact name; else the one equal ignoring case;
    /// else the only one it begins (ignoring case). `kind` (`app`, `category`) words the error.
    static func resolve(_ word: String, among names: [String], kind: String) -> Result<String, ShellError> {
        if let exact = names.first(where: { $0.sameScalars(as: word) }) { return .success(exact) }
        let lower = word.lowercased()
        // Only the start of a name can match a typed word: fold no more of it (a name may be 200 MB).
        let room = lower.unicodeScalars.count + 8
        let starts = names.map { (name: $0, start: Self.folded($0, scalars: room)) }
        let equal = starts.filter { $0.start.whole && $0.start.text == lower }
        if equal.count == 1 { return .success(equal[0].name) }
        let prefixed = lower.isEmpty ? [] : starts.filter { $0.start.text.hasPrefix(lower) }
        if prefixed.count == 1 { return .success(prefixed[0].name) }
        if prefixed.count > 1 {
            return .failure(.ambiguousName(kind: kind, word, candidates: prefixed.sorted { $0.start.text < $1.start.text }.map { $0.name }))
        }
        return .failure(.unknownName(kind: kind, word, suggestion: closest(to: lower, among: names)))
    }

    /// The first `scalars` scalars of `name` lowercased, and whether that is the whole name.
    /// Lowercasing maps each scalar to one or more, so a longer name never equals a shorter word.
    static func folded(_ name: String, scalars: Int) -> (text: String, whole: Bool) {
        let all = name.unicodeScalars
        guard let end = all.index(all.startIndex, offsetBy: scalars, limitedBy: all.endIndex), end < all.endIndex else {
            return (name.lowercased(), true)
        }
        return (String(all[..<end]).lowercased(), false)
    }

    /// The name closest to `word` (ignoring case), if one is a small slip away: one edit for a
    /// word of up to 5 characters, two for a longer one, none for one of 1 or 2 (an edit is a
    /// character added, removed, changed, or two neighbours swapped). `start` is 2 edits from
    /// `chart`: too far to be a slip.
    static func closest(to word: String, among names: [String]) -> String? {
        let lower = word.lowercased()
        let allowed = Self.allowedEdits(lower.count)
        guard allowed > 0 else { return nil }
        // A name more characters longer than the edits allowed is farther: skip it unmeasured.
        let scored = names.filter { $0.prefix(lower.count + allowed + 1).count <= lower.count + allowed }
            .map { ($0, editDistance(lower, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowed else { return nil }
        return best.0
    }

    /// The edits a typed word of `length` characters may be away from a suggestion.
    static func allowedEdits(_ length: Int) -> Int {
        length <= 2 ? 0 : length <= 5 ? 1 : 2
    }

    /// Edits between two words, over characters: adding, removing or changing one, or swapping
    /// two neighbours (the optimal string alignment distance: `shwo` is one edit from `show`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the table: two back (for swaps), the previous and the current.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}

extension DayQuery {
    /// What is wrong with a word that is no day (`DayQuery.problem`), with the day word it is
    /// a slip from, as names get one: `'yestreday' is not a day — did you mean 'yesterday'?`.
    public static func problemSuggesting(_ text: String) -> String {
        let problem = Self.problem(text)
        guard problem == "'\(text)' is not a day", let close = NameMatch.closest(to: text, among: words) else { return problem }
        return "\(problem) — did you mean '\(close)'?"
    }
}
