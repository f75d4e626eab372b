// SyntaxMatch.swift — reads typed words against a Syntax: every way the grammar can go is followed at once, a word that names a keyword possible there is that keyword, any other word is a value; the result is the arguments, or where and why the words do not fit, or what may come next (completion).
import UsageCore

/// A command's arguments as the grammar read them.
public struct Arguments: Sendable {
    /// The words after the command, as typed (flags included).
    public let words: [String]
    private let values: [String: [any Sendable]]
    private let choices: [String: String]
    private let flags: Set<String>

    init(words: [String], values: [String: [any Sendable]], choices: [String: String], flags: Set<String>) {
        self.words = words
        self.values = values
        self.choices = choices
        self.flags = flags
    }

    /// The value given for `slot` (the first, when it may repeat), or nil.
    public subscript<Value>(_ slot: Slot<Value>) -> Value? {
        values[slot.name]?.first as? Value
    }

    /// Every value given for `slot`, in order.
    public func all<Value>(_ slot: Slot<Value>) -> [Value] {
        (values[slot.name] ?? []).compactMap { $0 as? Value }
    }

    /// The keyword chosen for `choice` (its main spelling), or nil.
    public subscript(_ choice: Choice) -> String? {
        choices[choice.key]
    }

    /// Whether `flag` was typed.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Where and why typed words do not fit a grammar.
enum SyntaxFailure: Error {
    /// `word` stands where none of `expected` can.
    case unexpected(word: String, expected: [SyntaxMatch.Head])
    /// The line ends where one of `expected` was needed; `after` is the keyword typed just before, if any.
    case missing(expected: [SyntaxMatch.Head], after: String?)
    /// The words fit, but a value cannot be read.
    case refused(SlotRefusal)
    /// `word` begins several keywords possible where it stands, and no value may stand there.
    case ambiguous(word: String, candidates: [String])
    /// The words do not fit, and `word` stood where `keyword` could, a slip away from it
    /// (`apps tpo 5`: `top`), as a command's name gets a did-you-mean.
    case slip(word: String, keyword: String)
}

/// Follows every way through a grammar at once (a small NFA over its parts).
enum SyntaxMatch {
    /// What a way through the grammar needs next.
    enum Head: Sendable {
        case word(Keyword, hint: String?)
        case choice(Choice)
        case value(AnySlot)
        /// The end of the words.
        case end
    }

    /// One way through the grammar: what is still to match, and what it has kept.
    private struct Path {
        var rest: [Syntax]
        var values: [(slot: AnySlot, word: String)] = []
        var choices: [String: String] = [:]
        /// The keyword the last word was read as, as typed.
        var lastKeyword: String?

        var head: Head {
            switch rest.first {
            case .word(let keyword, let hint): return .word(keyword, hint: hint)
            case .choice(let choice): return .choice(choice)
            case .slot(let slot): return .value(slot)
            default: return .end
            }
        }
    }

    /// Reads `words` (flags taken out first) against `syntax`.
    static func parse(_ words: [String], syntax: Syntax) -> Result<Arguments, SyntaxFailure> {
        let flagWords = Set(syntax.flags)
        let flags = Set(words.filter { flagWords.contains($0) })
        let rest = words.filter { !flagWords.contains($0) }
        var paths = expand([Path(rest: [syntax])])
        // The first word that named no keyword where one a slip away from it could stand.
        var slip: SyntaxFailure?
        for word in rest {
            if let candidates = ambiguousKeyword(word, paths: paths) {
                return .failure(slip ?? .ambiguous(word: word, candidates: candidates))
            }
            if slip == nil { slip = slipped(word, paths: paths) }
            let next = advance(paths, over: word)
            guard !next.isEmpty else {
                // A word taken as a value that no way can read is what is wrong (`apps bottom 3`:
                // 'bottom' is no range), not the word after it.
                if let slip { return .failure(slip) }
                if let refusal = unreadable(paths) { return .failure(.refused(refusal)) }
                return .failure(.unexpected(word: word, expected: paths.map(\.head)))
            }
            paths = next
        }
        let complete = paths.filter { $0.rest.isEmpty }
        guard !complete.isEmpty else {
            return .failure(slip ?? .missing(expected: paths.map(\.head), after: paths.first?.lastKeyword))
        }
        // The words fit: now each value is read, in the order typed, by the first way whose
        // slots all read them (`tasks friday` is a due day where a range slot came first);
        // when none does, the first way's refusal is said.
        var refusal: SlotRefusal?
        ways: for done in complete {
            var values: [String: [any Sendable]] = [:]
            for (slot, word) in done.values {
                guard let value = slot.read(word) else {
                    refusal = refusal ?? slot.refusal(word)
                    continue ways
                }
                values[slot.name, default: []].append(value)
            }
            return .success(Arguments(words: words, values: values, choices: done.choices, flags: flags))
        }
        return .failure(slip ?? .refused(refusal!))
    }

    /// A slip from a keyword possible where `word` stands, when it names none of them.
    private static func slipped(_ word: String, paths: [Path]) -> SyntaxFailure? {
        let keywords = keywordCandidates(paths)
        guard !keywords.isEmpty, case .none = PrefixMatch.resolve(word, among: keywords) else { return nil }
        return NameMatch.closest(to: word, among: keywords.map(\.id)).map { .slip(word: word, keyword: $0) }
    }

    /// The refusal of the first value the first way cannot read, when every way has one it
    /// cannot read; nil when a way reads all its values so far.
    private static func unreadable(_ paths: [Path]) -> SlotRefusal? {
        var first: SlotRefusal?
        for path in paths {
            guard let (slot, word) = path.values.first(where: { $0.slot.read($0.word) == nil }) else { return nil }
            first = first ?? slot.refusal(word)
        }
        return first
    }

    /// What may come after `words` (the words typed before the one being completed): the heads
    /// of every way through the grammar that fits them; none when they do not fit.
    static func expected(after words: [String], syntax: Syntax) -> [Head] {
        let flagWords = Set(syntax.flags)
        var paths = expand([Path(rest: [syntax])])
        for word in words where !flagWords.contains(word) {
            paths = advance(paths, over: word)
        }
        return paths.map(\.head)
    }

    /// The keywords `word` could be, when it begins several of those possible here and no way
    /// through the grammar takes a value here (where one does, the word is that value).
    private static func ambiguousKeyword(_ word: String, paths: [Path]) -> [String]? {
        if paths.contains(where: { if case .value = $0.head { return true } else { return false } }) { return nil }
        if case .ambiguous(let candidates) = PrefixMatch.resolve(word, among: keywordCandidates(paths)) { return candidates }
        return nil
    }

    /// The keywords possible at the paths' heads.
    private static func keywordCandidates(_ paths: [Path]) -> [PrefixMatch.Candidate<String>] {
        var keywords: [PrefixMatch.Candidate<String>] = []
        for path in paths {
            switch path.head {
            case .word(let keyword, _): keywords.append(candidate(keyword))
            case .choice(let choice): keywords += choice.keywords.map(candidate)
            case .value, .end: break
            }
        }
        return keywords
    }

    /// The paths that can take `word`: a word naming a keyword possible here is that keyword
    /// (the ways that wanted a value here end); any other word is a value.
    private static func advance(_ paths: [Path], over word: String) -> [Path] {
        let keywords = keywordCandidates(paths)
        var next: [Path] = []
        if case .match(let keyword) = PrefixMatch.resolve(word, among: keywords) {
            for var path in paths {
                switch path.head {
                case .word(let k, _) where k.word == keyword:
                    path.rest.removeFirst()
                    path.lastKeyword = word
                    next.append(path)
                case .choice(let choice) where choice.keywords.contains(where: { $0.word == keyword }):
                    path.rest.removeFirst()
                    path.choices[choice.key] = keyword
                    path.lastKeyword = word
                    next.append(path)
                default: break
                }
            }
        } else {
            for var path in paths {
                guard case .value(let slot) = path.head else { continue }
                path.rest.removeFirst()
                path.values.append((slot, word))
                path.lastKeyword = nil
                next.append(path)
            }
        }
        return expand(next)
    }

    private static func candidate(_ keyword: Keyword) -> PrefixMatch.Candidate<String> {
        PrefixMatch.Candidate(keyword.word, spellings: keyword.spellings, wholeOnly: keyword.exact)
    }

    /// Unfolds each path until it waits for a word (or for the end), in order.
    private static func expand(_ paths: [Path]) -> [Path] {
        var out: [Path] = []
        var work = Array(paths.reversed())
        while var path = work.popLast() {
            guard let first = path.rest.first else {
                out.append(path)
                continue
            }
            var alternatives: [[Syntax]] = []
            let tail = Array(path.rest.dropFirst())
            switch first {
            case .word, .choice, .slot:
                out.append(path)
                continue
            case .flag:
                alternatives = [tail]
            case .sequence(let parts):
                alternatives = [parts + tail]
            case .optional(let part):
                alternatives = [[part] + tail, tail]
            case .alternatives(let forms):
                alternatives = forms.map { [$0] + tail }
            case .slots(let slot):
                alternatives = [[.slot(slot), .slots(slot)] + tail, tail]
            case .anyOrder(let parts):
                alternatives = parts.indices.map { k in
                    var others = parts
                    others.remove(at: k)
                    return [parts[k], .anyOrder(others)] + tail
                } + [tail]
            }
            // Pushed in reverse, so they are taken (and preferred) in order.
            for rest in alternatives.reversed() {
                path.rest = rest
                work.append(path)
            }
        }
        return out
    }
}
