// Command.swift — one shell command, declared once: its name, grammar, summary, examples and handler; the usage line, completion and the parse of its arguments all come from the grammar.
import UsageCore
import UsageRender

/// One shell command.
public struct Command: Sendable {
    public let name: String
    public let aliases: [String]
    /// Prefixes that name this command although other commands share them (`ch` is `chart`,
    /// not `check`), as gdb gives `c` to `continue`.
    public let abbreviations: [String]
    /// The arguments it takes.
    public let syntax: Syntax
    public let summary: String
    /// Typical uses, shown by `help COMMAND` (and in the README).
    public let examples: [String]
    /// What is said of a word past a complete set of arguments.
    let tooMany: String
    /// Problems worded for this command's typical mistakes (given the words and how they do
    /// not fit the grammar; a value refused by its slot is said by the slot); nil keeps the
    /// grammar's own.
    let explain: (@Sendable ([String], SyntaxFailure) -> String?)?
    /// Reads the words itself instead of the grammar (`set`: its pairs come from the settings table).
    let parse: (@Sendable ([String]) throws(ShellError) -> Arguments)?
    /// What `watch` may do with it, given its words (`task 3` shows, `task add …` changes).
    let watchRole: @Sendable ([String]) -> WatchRole
    let handler: @Sendable (Shell, Arguments) throws(ShellError) -> CommandOutcome

    init(
        _ name: String, aliases: [String] = [], abbreviations: [String] = [], syntax: Syntax = .none, summary: String,
        examples: [String], tooMany: String = "too many arguments",
        explain: (@Sendable ([String], SyntaxFailure) -> String?)? = nil,
        parse: (@Sendable ([String]) throws(ShellError) -> Arguments)? = nil,
        watch: WatchRole = .refused, watchRole: (@Sendable ([String]) -> WatchRole)? = nil,
        run handler: @escaping @Sendable (Shell, Arguments) throws(ShellError) -> CommandOutcome
    ) {
        self.watchRole = watchRole ?? { _ in watch }
        self.name = name
        self.aliases = aliases
        self.abbreviations = abbreviations
        self.syntax = syntax
        self.summary = summary
        self.examples = examples
        self.tooMany = tooMany
        self.explain = explain
        self.parse = parse
        self.handler = handler
    }

    /// The usage line: `apps [top N] [category NAME]`; one form per alternative, comma-separated.
    public var usage: String {
        syntax.forms.map { $0.isEmpty ? name : "\(name) \($0)" }.joined(separator: ", ")
    }

    /// Reads the words and runs the handler.
    func run(_ shell: Shell, _ words: [String]) throws(ShellError) -> CommandOutcome {
        try handler(shell, arguments(words))
    }

    /// The arguments of `words`, or the usage error that says what is wrong with them.
    func arguments(_ words: [String]) throws(ShellError) -> Arguments {
        if let parse { return try parse(words) }
        switch SyntaxMatch.parse(words, syntax: syntax) {
        case .success(let arguments): return arguments
        case .failure(.refused(.error(let error))): throw error
        case .failure(.refused(.problem(let problem))): throw usageError(problem)
        case .failure(let failure):
            throw usageError(explain?(words, failure) ?? problem(failure))
        }
    }

    /// `NAME: PROBLEM (usage: …)`.
    func usageError(_ problem: String) -> ShellError {
        .usage(command: name, problem: problem, usage: usage)
    }

    /// What the grammar says of words that do not fit it.
    private func problem(_ failure: SyntaxFailure) -> String {
        switch failure {
        case .refused(.problem(let problem)): return problem
        case .refused(.error(let error)): return error.description
        case .ambiguous(let word, let candidates): return PrefixMatch.couldBe(word, candidates)
        case .slip(let word, let keyword): return "unexpected '\(word)' — did you mean '\(keyword)'?"
        case .unexpected(let word, let expected):
            if syntax.isNone { return "takes no arguments" }
            for case .choice(let choice) in expected { return choice.invalid(word) }
            for case .word(_, let hint?) in expected { return hint }
            if expected.contains(where: { if case .word = $0 { return true } else { return false } }) {
                return "unexpected '\(word)'"
            }
            return tooMany
        case .missing(let expected, let after):
            for case .value(let slot) in expected { if let missing = slot.missing { return missing } }
            for case .choice(let choice) in expected { if let missing = choice.missing { return missing } }
            if let after { return "'\(after)' needs a value" }
            for case .value(let slot) in expected { return "which \(slot.name)?" }
            return "incomplete"
        }
    }

    /// What completes the word after `typed` (the words already typed after the command).
    public func completions(after typed: [String]) -> [ArgumentKind] {
        var kinds: [ArgumentKind] = []
        var keywords: [String] = []
        for head in SyntaxMatch.expected(after: typed, syntax: syntax) {
            switch head {
            case .word(let keyword, _): keywords.append(keyword.word)
            case .choice(let choice): keywords += choice.keywords.map(\.word)
            case .value(let slot):
                for kind in slot.completion {
                    if case .keywords(let words) = kind { keywords += words } else if !kinds.contains(kind) { kinds.append(kind) }
                }
            case .end: break
            }
        }
        // Flags go after the arguments: offered once something is typed.
        if !typed.isEmpty { keywords += syntax.flags.filter { !typed.contains($0) } }
        var seen = Set<String>()
        keywords = keywords.filter { seen.insert($0).inserted }
        return keywords.isEmpty ? kinds : kinds + [.keywords(keywords)]
    }
}
