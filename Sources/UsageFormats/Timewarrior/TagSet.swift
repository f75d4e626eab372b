// TagSet.swift — a Timewarrior interval's tags as one activity name, the way Timewarrior shows them (`fun, gaming`), and back to tags for the category rules.
import UsageCore

/// The activity of a Timewarrior interval is its whole tag set, as `timew summary` shows it:
/// the tags once each, in Timewarrior's order (by their bytes, so `Beta` before `alpha`),
/// joined by `, `. Timewarrior keeps tags in that order itself, so an interval tracked as
/// `timew track … gaming fun` is `fun, gaming` wherever it is shown, and two intervals with the
/// same tags are one activity whatever order they were typed in.
public enum TagSet {
    /// What separates tags in a name.
    public static let separator = ", "

    /// The name of a tag set (nil for no tags: the interval has no activity name). Tags are
    /// trimmed of white space first, and blank ones dropped, as names are.
    public static func name(_ tags: [String]) -> String? {
        let kept = tags.map(Normalise.trim).filter { !$0.isEmpty }
        guard !kept.isEmpty else { return nil }
        let unique = Set(kept.map(ExactTag.init)).map(\.text)
        return unique.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: separator)
    }

    /// The tags a name is made of (the name itself when it has no separator). A tag holding
    /// `, ` itself cannot be told apart, as in Timewarrior's own summary.
    public static func tags(of name: String) -> [String] {
        guard name.contains(separator) else { return [name] }
        return name.components(separatedBy: separator)
    }
}

/// A tag compared by its bytes, as Timewarrior compares them (Swift's `==` would merge `é`
/// written two ways).
private struct ExactTag: Hashable {
    let text: String
    static func == (a: ExactTag, b: ExactTag) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    func hash(into hasher: inout Hasher) { hasher.combine(Array(text.utf8)) }
}
