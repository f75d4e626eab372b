// SitePattern.swift — a site as a person names one in a rule, a limit or an ignore: a host name exactly, or `*.example.org` for that domain and every name under it.

/// A host name, or a domain with its subdomains (`*.example.org`).
public struct SitePattern: Hashable, Sendable, CustomStringConvertible {
    /// The host name (for `*.example.org`, `example.org`).
    public let host: String
    /// Whether the names under `host` match too.
    public let subdomains: Bool

    /// The pattern `text` spells, or nil when it names no host (`*.` before a host name is
    /// the only wildcard).
    public init?(_ text: String) {
        let wild = text.hasPrefix("*.")
        guard let host = SiteName.normalized(wild ? String(text.dropFirst(2)) : text) else { return nil }
        self.host = host
        subdomains = wild
    }

    /// As a person writes it.
    public var description: String { subdomains ? "*." + host : host }

    /// Whether `site` (a normalized host name) is this one, or under it.
    public func matches(_ site: String) -> Bool {
        site == host || (subdomains && site.hasSuffix("." + host))
    }
}
