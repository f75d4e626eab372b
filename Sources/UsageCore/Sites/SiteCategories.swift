// SiteCategories.swift — the categories people give sites (`category rule SITE CATEGORY`): a host's own rule first, else the rule of the nearest domain above it.

/// The rules giving sites categories, and the category each site gets.
public struct SiteCategories: Equatable, Sendable {
    /// The rules, as kept, in the order of their patterns.
    public let rules: [(pattern: SitePattern, category: String)]

    public init(_ rules: [(pattern: SitePattern, category: String)]) {
        self.rules = rules
    }

    public static func == (a: SiteCategories, b: SiteCategories) -> Bool {
        a.rules.map { "\($0.pattern)=\($0.category)" } == b.rules.map { "\($0.pattern)=\($0.category)" }
    }

    /// The category of `site`: a rule naming it exactly, else the `*.domain` rule of the longest
    /// domain it is in; nil when none matches.
    public func category(of site: String) -> String? {
        if let exact = rules.first(where: { !$0.pattern.subdomains && $0.pattern.host == site }) { return exact.category }
        return rules.filter { $0.pattern.subdomains && $0.pattern.matches(site) }.max { $0.pattern.host.count < $1.pattern.host.count }?.category
    }
}
