// PrefixMatch.swift — the one rule for words that may be shortened (commands, keywords, setting names and values, day words): a whole spelling, else the only candidate it begins.

/// Resolves a typed word among candidates that each have one or more spellings.
public enum PrefixMatch {
    /// What a typed word names.
    public enum Outcome<ID: Hashable & Sendable>: Equatable, Sendable {
        /// The one candidate it names.
        case match(ID)
        /// It begins several candidates' spellings (in candidate order).
        case ambiguous([ID])
        /// It names none.
        case none
    }

    /// One candidate: its identity, the spellings that name it, and whether only a whole
    /// spelling does (`wholeOnly`: no beginning of it counts).
    public struct Candidate<ID: Hashable> {
        public let id: ID
        public let spellings: [String]
        public let wholeOnly: Bool

        public init(_ id: ID, spellings: [String], wholeOnly: Bool = false) {
            self.id = id
            self.spellings = spellings
            self.wholeOnly = wholeOnly
        }
    }

    /// The candidate `typed` names, ignoring case: one of whose spellings it is; else the only
    /// candidate one of whose spellings it begins (candidates with the same id count once:
    /// `p` is `prev` although `previous` begins so too). An empty word names nothing.
    public static func resolve<ID: Hashable & Sendable>(_ typed: String, among candidates: [Candidate<ID>]) -> Outcome<ID> {
        let word = typed.lowercased()
        guard !word.isEmpty else { return .none }
        if let whole = candidates.first(where: { $0.spellings.contains { $0.lowercased() == word } }) {
            return .match(whole.id)
        }
        var begun: [ID] = []
        for candidate in candidates where !candidate.wholeOnly && candidate.spellings.contains(where: { $0.lowercased().hasPrefix(word) }) {
            if !begun.contains(candidate.id) { begun.append(candidate.id) }
        }
        switch begun.count {
        case 0: return .none
        case 1: return .match(begun[0])
        default: return .ambiguous(begun)
        }
    }

    /// The word among `words` that `typed` is or uniquely begins, ignoring case; nil otherwise.
    public static func unique(_ typed: String, among words: [String]) -> String? {
        if case .match(let word) = resolve(typed, among: words.map { Candidate($0, spellings: [$0]) }) { return word }
        return nil
    }

    /// `'t' could be today, tuesday or thursday`: what is said of a word that begins several.
    public static func couldBe(_ typed: String, _ words: [String]) -> String {
        let list = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words.last! : words.joined()
        return "'\(typed)' could be \(list)"
    }

    /// The words among `words` that `typed` begins, when it begins more than one and is none of
    /// them whole (ignoring case); empty otherwise.
    public static func ambiguity(_ typed: String, among words: [String]) -> [String] {
        if case .ambiguous(let begun) = resolve(typed, among: words.map { Candidate($0, spellings: [$0]) }) { return begun }
        return []
    }
}
