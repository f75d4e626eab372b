// Syntax.swift — a command's arguments declared once, as a small grammar: keywords, keyword choices, typed value slots, optional parts, alternatives; the usage line, Tab completion and the parse all come from it.
import UsageCore

/// A fixed word of a grammar (`top`, `by`, `report`, `prev`). Typed exactly (any case) or, unless
/// `exact`, as a unique beginning of one of the words possible at that point; aliases mean the
/// same word (`previous` is `prev`).
public struct Keyword: Sendable, Hashable, ExpressibleByStringLiteral {
    public let word: String
    public let aliases: [String]
    /// Only the whole word names it: a beginning of it is left to be a value (`limit cat 30m`
    /// limits the app Cat…, `limit category Social 1h` a category).
    public let exact: Bool

    public init(_ word: String, aliases: [String] = [], exact: Bool = false) {
        self.word = word
        self.aliases = aliases
        self.exact = exact
    }

    public init(stringLiteral word: String) { self.init(word) }

    /// The spellings that name it whole.
    var spellings: [String] { [word] + aliases }
}

/// One of several keywords, kept under `key` (`prev|next`, `category|hourly`).
public struct Choice: Sendable {
    public let key: String
    public let keywords: [Keyword]
    /// What is said of a word that is none of them; by default `'x' is not prev or next`.
    let invalid: @Sendable (String) -> String
    /// What is said when the line ends where one of them was needed.
    let missing: String?

    public init(_ key: String, _ keywords: [Keyword], noun: String? = nil, missing: String? = nil) {
        self.key = key
        self.keywords = keywords
        let words = keywords.map(\.word)
        let list = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words.last! : words.joined()
        let what = noun ?? list
        self.invalid = { "'\($0)' is not \(what)" }
        self.missing = missing
    }
}

/// Why a typed value is refused: a problem shown as the command's usage error, or an error of its own.
public enum SlotRefusal: Sendable {
    case problem(String)
    case error(ShellError)
}

/// A value a command takes, declared once: its placeholder in the usage line (`N`, `NAME`),
/// what completes it, how it is read and what is said when it cannot be.
public struct Slot<Value: Sendable>: Sendable {
    /// The placeholder shown in the usage line; also the key the value is kept under.
    public let name: String
    let completion: [ArgumentKind]
    let read: @Sendable (String) -> Value?
    let refusal: @Sendable (String) -> SlotRefusal
    /// What is said when the line ends where this value was needed (default: `'WORD' needs a
    /// value` after a keyword).
    let missing: String?

    public init(
        _ name: String, completion: [ArgumentKind] = [], missing: String? = nil,
        invalid: @escaping @Sendable (String) -> String, read: @escaping @Sendable (String) -> Value?
    ) {
        self.init(name, completion: completion, missing: missing, refusal: { .problem(invalid($0)) }, read: read)
    }

    public init(
        _ name: String, completion: [ArgumentKind] = [], missing: String? = nil,
        refusal: @escaping @Sendable (String) -> SlotRefusal, read: @escaping @Sendable (String) -> Value?
    ) {
        self.name = name
        self.completion = completion
        self.read = read
        self.refusal = refusal
        self.missing = missing
    }

    /// The value `word` gives, or what `command`'s syntax says when it cannot (for a typed
    /// request, whose words no syntax reads: `usage-shell import` and `export`).
    func value(_ word: String, of command: Command) throws(ShellError) -> Value {
        if let value = read(word) { return value }
        switch refusal(word) {
        case .problem(let problem): throw command.usageError(problem)
        case .error(let error): throw error
        }
    }

    /// A count from 1 to `limit` (`top N`, `--count N`): a number above it (however many
    /// digits) is said to be too large, with the limit; anything else is `invalid`.
    public static func count(_ name: String, limit: Int = 1_000_000, invalid: @escaping @Sendable (String) -> String) -> Slot<Int> {
        Slot<Int>(
            name,
            refusal: { word in
                let digits = word.hasPrefix("+") ? word.dropFirst() : Substring(word)
                let tooLarge = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && Int(digits).map { $0 > limit } != false
                return .problem(tooLarge ? "'\(word)' is too large: \(name) is at most \(limit)" : invalid(word))
            },
            read: { Int($0).flatMap { (1...limit).contains($0) ? $0 : nil } })
    }

    /// Any word, as typed.
    public static func text(_ name: String, completion: [ArgumentKind] = [], missing: String? = nil) -> Slot<String> {
        Slot<String>(name, completion: completion, missing: missing, invalid: { "'\($0)' is not valid" }, read: { $0 })
    }

    var erased: AnySlot {
        let read = self.read
        return AnySlot(
            name: name, completion: completion, missing: missing, refusal: refusal, read: { read($0) })
    }
}

/// A slot with its value's type erased, as the grammar holds it.
public struct AnySlot: Sendable {
    let name: String
    let completion: [ArgumentKind]
    let missing: String?
    let refusal: @Sendable (String) -> SlotRefusal
    let read: @Sendable (String) -> (any Sendable)?
}

/// A command's grammar.
///
/// Only `optional` is `indirect` (the one case that holds a `Syntax` itself; the others hold
/// arrays, which are already boxes). A wholly `indirect` enum keeps its case in spare bits of
/// each payload box's pointer, which LeakSanitizer cannot recognise as a pointer: every
/// command's grammar, held for the life of the process by the command table, was reported as
/// leaked by every run under scripts/test-asan.
public enum Syntax: Sendable {
    /// A fixed word (`top`, `by`, `report`); `hint` is what is said of another word where it was expected.
    case word(Keyword, hint: String? = nil)
    /// One of several keywords, kept.
    case choice(Choice)
    /// A value, read by its slot and kept (written `.value(slot)`).
    case slot(AnySlot)
    /// Any number of values of one slot (`SOURCE...`; written `.many(slot)`).
    case slots(AnySlot)
    /// A flag (`--force`, `--yes`): typed anywhere after the command, kept as present.
    case flag(String)
    /// Parts one after another.
    case sequence([Syntax])
    /// A part that may be left out.
    indirect case optional(Syntax)
    /// Forms of the command, tried in order (shown as separate usages).
    case alternatives([Syntax])
    /// Parts that may each be given once, in any order, or left out (`[top N] [category NAME]`).
    case anyOrder([Syntax])

    /// No arguments.
    public static let none = Syntax.sequence([])

    /// A value of `slot`.
    public static func value<Value>(_ slot: Slot<Value>) -> Syntax { .slot(slot.erased) }
    /// Any number of values of `slot`.
    public static func many<Value>(_ slot: Slot<Value>) -> Syntax { .slots(slot.erased) }

    /// Whether the grammar takes no arguments at all.
    var isNone: Bool {
        if case .sequence(let parts) = self { return parts.isEmpty }
        return false
    }

    /// The usage forms after the command's name: one, or one per alternative.
    var forms: [String] {
        if case .alternatives(let forms) = self { return forms.map(\.text) }
        return [text]
    }

    /// The grammar as written in a usage line.
    var text: String {
        switch self {
        case .word(let keyword, _): return keyword.word
        case .choice(let choice): return choice.keywords.map(\.word).joined(separator: "|")
        case .slot(let slot): return slot.name
        case .slots(let slot): return "[\(slot.name)...]"
        case .flag(let flag): return "[\(flag)]"
        case .sequence(let parts): return parts.map(\.text).filter { !$0.isEmpty }.joined(separator: " ")
        case .optional(let part): return "[\(part.text)]"
        case .alternatives(let forms): return forms.map(\.text).joined(separator: "|")
        case .anyOrder(let parts): return parts.map { "[\($0.text)]" }.joined(separator: " ")
        }
    }

    /// Every flag the grammar declares.
    var flags: [String] {
        switch self {
        case .flag(let flag): return [flag]
        case .sequence(let parts), .alternatives(let parts), .anyOrder(let parts): return parts.flatMap(\.flags)
        case .optional(let part): return part.flags
        case .word, .choice, .slot, .slots: return []
        }
    }
}
