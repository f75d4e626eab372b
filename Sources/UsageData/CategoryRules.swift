// CategoryRules.swift — the category rules file (`$XDG_CONFIG_HOME/usage-shell/categories.json`): regular expressions on app names naming categories for uncategorised sessions.
import Foundation
import UsageCore
import UsageFormats

/// One rule: app names that `pattern` matches (anywhere in the name, case ignored) get
/// `category`; a name made of tags (a Timewarrior tag set, `fun, gaming`) also matches when
/// the pattern matches any one tag (so `^gaming$` categorises it).
public struct CategoryRule: Equatable, Sendable {
    public let pattern: String
    public let category: String

    public init(pattern: String, category: String) {
        self.pattern = pattern
        self.category = category
    }
}

/// Rules in order; the first rule that matches an app name wins.
public struct CategoryRules {
    public let rules: [CategoryRule]
    private let regexes: [Regex<AnyRegexOutput>]

    /// Compiles the rules; a pattern that is not a regular expression names its rule.
    public init(_ rules: [CategoryRule]) throws(RulesFileError.Problem) {
        var regexes: [Regex<AnyRegexOutput>] = []
        for (k, rule) in rules.enumerated() {
            do {
                regexes.append(try Regex(rule.pattern).ignoresCase())
            } catch {
                throw .init("rule \(k + 1): '\(rule.pattern)' is not a regular expression")
            }
        }
        self.rules = rules
        self.regexes = regexes
    }

    /// The index of the first rule matching `app` (or, for a tag set, one of its tags), or nil.
    public func ruleIndex(for app: String) -> Int? {
        let tags = TagSet.tags(of: app)
        return regexes.firstIndex { regex in app.contains(regex) || (tags.count > 1 && tags.contains { $0.contains(regex) }) }
    }

    /// The category the rules give `app`, or nil.
    public func category(for app: String) -> String? {
        ruleIndex(for: app).map { rules[$0].category }
    }

    /// What the rules do to `history` (as loaded, before any rules): per rule, the apps it
    /// categorised and their time; and the time still uncategorised, by app, largest first.
    public func effect(on history: some SessionHistory) -> RulesEffect {
        var perRule = [(apps: Set<Int32>, micros: Micros)](repeating: ([], 0), count: rules.count)
        var left: [Int32: Micros] = [:]
        guard let other = history.categories.firstIndex(of: Normalise.otherCategory).map(Int32.init) else {
            return RulesEffect(perRule: perRule.map { _ in (0, 0) }, uncategorised: [])
        }
        var ruleOfApp = [Int??](repeating: nil, count: history.apps.count)
        for s in history.all {
            guard s.category == other else { continue }
            if ruleOfApp[Int(s.app)] == nil { ruleOfApp[Int(s.app)] = .some(ruleIndex(for: history.apps[Int(s.app)])) }
            // A rule naming `Other` leaves the app uncategorised (and `categorising` changes nothing).
            if let r = ruleOfApp[Int(s.app)]!, Normalise.category(rules[r].category) != Normalise.otherCategory {
                perRule[r].apps.insert(s.app)
                perRule[r].micros += s.length
            } else {
                left[s.app, default: 0] += s.length
            }
        }
        let uncategorised = left.map { (app: history.apps[Int($0.key)], micros: $0.value) }
            .sorted { $0.micros != $1.micros ? $0.micros > $1.micros : $0.app.unicodeScalars.lexicographicallyPrecedes($1.app.unicodeScalars) }
        return RulesEffect(perRule: perRule.map { ($0.apps.count, $0.micros) }, uncategorised: uncategorised)
    }
}

/// What rules did to a dataset (for `rules`).
public struct RulesEffect {
    /// Per rule: how many apps it categorised and their time (all days).
    public let perRule: [(apps: Int, micros: Micros)]
    /// Apps whose time is still uncategorised, largest first.
    public let uncategorised: [(app: String, micros: Micros)]
}

/// Why the rules file could not be used.
public enum RulesFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// It is not a rules file (left in place: it is the user's to fix).
    case invalid(path: String, problem: String)

    /// What is wrong inside a rules file.
    public struct Problem: Error, Equatable, Sendable {
        public let text: String
        init(_ text: String) { self.text = text }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read the category rules '\(path)': \(reason)"
        case .invalid(let path, let problem): return "the category rules '\(path)' are not valid: \(problem)"
        }
    }
}

/// `{"rules":[{"match":"firefox|chrom","category":"Browsing"}]}` — the user writes it; we only
/// read it. A bad or unreadable file is left exactly where it is (unlike history and limits,
/// which we rewrite and so must move a corrupt file out of the way): moving a hand-written file
/// would make the user's work seem to vanish, and since we never write here, leaving it costs
/// nothing. The shell ignores it, warning once per problem and version of the file.
public struct CategoryRulesFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_CONFIG_HOME/usage-shell/categories.json` (an absolute XDG_CONFIG_HOME), else
    /// `~/.config/usage-shell/categories.json`; nil without a home.
    public static func defaultPath(environment: [String: String]) -> String? {
        AtomicFile.xdgPath("categories.json", variable: "XDG_CONFIG_HOME", fallback: ".config", environment: environment)
    }

    /// The rules, or nil when there is no file.
    public func load() throws(RulesFileError) -> CategoryRules? {
        let bytes: [UInt8]
        do throws(FileFailure) {
            guard let contents = try AtomicFile.contentsIfPresent(of: path) else { return nil }
            bytes = contents
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        if let problem = AtomicFile.textProblem(bytes) { throw .invalid(path: path, problem: problem) }
        do {
            return try CategoryRules(Self.decode(bytes))
        } catch {
            throw .invalid(path: path, problem: error.text)
        }
    }

    static func decode(_ bytes: [UInt8]) throws(RulesFileError.Problem) -> [CategoryRule] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) else { throw .init("not JSON") }
        guard let rows = (object as? [String: Any])?["rules"] as? [Any] else { throw .init("no \"rules\" array") }
        return try rows.enumerated().map { (k, row) throws(RulesFileError.Problem) -> CategoryRule in
            guard let fields = row as? [String: Any], let match = fields["match"] as? String, !match.isEmpty,
                let category = fields["category"] as? String, !Normalise.trim(category).isEmpty
            else { throw .init("rule \(k + 1) needs a \"match\" pattern and a \"category\"") }
            return CategoryRule(pattern: match, category: category)
        }
    }
}
