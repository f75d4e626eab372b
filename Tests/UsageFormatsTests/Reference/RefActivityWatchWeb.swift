// RefActivityWatchWeb.swift — the tests' own reading of aw-watcher-web's buckets (docs/DATA.md §9.5), built on RefJSON and RefActivityWatch's spans, sharing no parsing code with Sources: each web bucket's events as site visits, the host name alone.
import Foundation
import UsageCore

enum RefActivityWatchWeb {
    /// The visits of a valid export (nil when it is not one), as (browser, site, start, end).
    static func visits(_ b: [UInt8]) -> [BrowserVisit]? {
        var p = RefJSONParser(b, range: (b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0)..<b.count)
        p.skipSpace()
        guard !p.atEnd, let document = try? p.value(keepDepth: 8) else { return nil }
        guard case .object(let top) = document, case .object(let listed)? = top.first(where: { $0.key == "buckets" })?.value else { return nil }
        var buckets: [(key: String, offset: Int, name: String, type: String?, events: [RefJSON])] = []
        for (offset, (key, value)) in listed.enumerated() {
            if buckets.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) { continue }
            guard case .object = value else { return nil }
            let text: (String) -> String? = { if case .string(let s, _)? = value.member($0) { return s } else { return nil } }
            var events: [RefJSON] = []
            if case .array(let list)? = value.member("events") { events = list }
            buckets.append((key, offset, text("id") ?? key, text("type"), events))
        }
        // aw-watcher-web calls Chromium "chrome": Chromium's when the windows show it and never Chrome.
        var windowApps = Set<String>()
        for bucket in buckets where bucket.type == "currentwindow" {
            for event in bucket.events {
                guard case .object = event, let data = event.member("data"), case .object = data,
                    case .string(let app, _)? = data.member("app") else { continue }
                windowApps.insert(app.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
            }
        }
        let chromium = !windowApps.isDisjoint(with: ["chromium", "chromium-browser"]) && windowApps.isDisjoint(with: ["google-chrome", "google chrome"])
        var out: [BrowserVisit] = []
        for bucket in buckets.sorted(by: { ($0.key, $0.offset) < ($1.key, $1.offset) }) {
            let isWeb = bucket.type == "web.tab.current" || (bucket.type == nil && bucket.name.hasPrefix("aw-watcher-web-"))
            guard isWeb, bucket.name.hasPrefix("aw-watcher-web-") else { continue }
            let browser = bucket.name.dropFirst("aw-watcher-web-".count).split(separator: "_", omittingEmptySubsequences: false)[0].lowercased()
            guard ["chromium", "chrome", "firefox"].contains(browser) else { continue }
            let family = browser == "chrome" && chromium ? "chromium" : browser
            for event in bucket.events {
                guard case .success(let span) = RefActivityWatch.span(of: event), !span.isEmpty else { continue }
                let data = event.member("data")
                if case .bool(true)? = data?.member("incognito") { continue }
                guard case .string(let url, _)? = data?.member("url"), let site = host(url) else { continue }
                out.append(BrowserVisit(browser: family, site: site, start: span.lowerBound, end: span.upperBound))
            }
        }
        return out
    }

    /// An http(s) URL's host name, lowercased, its port and a trailing dot dropped; nil for
    /// any other scheme or a host name that is none.
    static func host(_ url: String) -> String? {
        let trimmed = String(url.unicodeScalars.drop { $0.value <= 0x20 }.map(Character.init))
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = trimmed[trimmed.index(after: colon)...].drop { $0 == "/" || $0 == "\\" }
        var authority = String(rest.prefix { !"/?#\\".contains($0) })
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        var host = authority.lowercased()
        if host.first == "[" {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let port = host[host.index(after: close)...]
            guard port.isEmpty || validPort(port) else { return nil }
            host = String(host[...close])
            let inside = host.dropFirst().dropLast()
            return !inside.isEmpty && inside.allSatisfy({ "0123456789abcdef:.".contains($0) }) ? host : nil
        }
        if let c = host.lastIndex(of: ":") {
            guard validPort(host[c...]) else { return nil }
            host = String(host[..<c])
        }
        if host.last == "." { host.removeLast() }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-._")
        guard !host.isEmpty, host.utf8.count <= 253, host.allSatisfy(allowed.contains), host.first != ".", !host.contains("..") else { return nil }
        return host
    }

    private static func validPort(_ text: Substring) -> Bool {
        text.first == ":" && (2...6).contains(text.count) && text.dropFirst().allSatisfy { "0123456789".contains($0) }
    }
}
