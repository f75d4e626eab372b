// SiteName.swift — what the store keeps of a web page: its host name alone, lowercased, without a trailing dot or a port; anything that is not a host name (a URL, a path, a title, a space) is no site at all.

/// A site as the store keeps it: a host name (`docs.python.org`, `127.0.0.1`, `[::1]`).
public enum SiteName {
    /// The host name `text` names, lowercased, its trailing dot and port dropped; nil when `text`
    /// is not a host name (empty, too long, or holding a character no host name has: `/`, `?`,
    /// `#`, `@`, a space), so that nothing more than a host name can ever be kept.
    public static func normalized(_ text: String) -> String? {
        var host = text.lowercased()
        if host.hasPrefix("[") {
            // An IPv6 address in brackets, perhaps with a port after it.
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || isPort(rest) else { return nil }
            host = String(host[...close])
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            return host
        }
        if let colon = host.lastIndex(of: ":") {
            guard isPort(host[colon...]) else { return nil }
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty, host.utf8.count <= 253,
            host.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." || $0 == "_" }),
            !host.hasPrefix("."), !host.contains("..")
        else { return nil }
        return host
    }

    /// `:` and one to five digits.
    private static func isPort(_ text: Substring) -> Bool {
        text.first == ":" && (2...6).contains(text.count) && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
