// ActivityWatchWeb.swift — aw-watcher-web's buckets read as site visits: which buckets are a browser's, a URL's host name taken from its bytes (nothing more of it kept), and the visits of each host's web buckets (docs/DATA.md §9.5).
import UsageCore

/// aw-watcher-web's buckets (`aw-watcher-web-chrome`, type `web.tab.current`): each event's
/// `data.url` is read down to its host name as it is scanned; the path, query, fragment,
/// title and the other fields are never kept.
public enum ActivityWatchWeb {
    /// The bucket type aw-watcher-web writes.
    public static let webType = "web.tab.current"
    /// The prefix of its bucket ids, before the browser's name.
    static let prefix = "aw-watcher-web-"

    /// The table of host names the reader interns: an authority's bytes (`authority(ofURL:)`) →
    /// its host name (`SiteName`), "" for one that is none.
    static func siteTable() -> NameTable {
        NameTable(normalise: { $0.flatMap(SiteName.normalized) ?? "" })
    }

    /// The authority of an `http:` or `https:` URL (what lies between `//` and the first `/`,
    /// `?`, `#` or `\`), its user information dropped: nil for any other scheme (`about:`,
    /// `chrome:`, `file:`, `moz-extension:`…) or no authority at all. As a browser's URL
    /// parser reads it for these two schemes (the extension's `siteOf`).
    static func authority(ofURL url: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        var i = 0
        // Leading C0 controls and spaces are no part of a URL.
        while i < url.count, url[i] <= 0x20 { i += 1 }
        let scheme = i
        while i < url.count, url[i] != UInt8(ascii: ":") { i += 1 }
        guard i < url.count else { return nil }
        let name = UnsafeBufferPointer(rebasing: url[scheme..<i]).map { $0 | 0x20 }
        guard name.elementsEqual("http".utf8) || name.elementsEqual("https".utf8) else { return nil }
        i += 1
        // A special scheme's slashes (`/` or `\`, any number) before the authority.
        while i < url.count, url[i] == UInt8(ascii: "/") || url[i] == UInt8(ascii: "\\") { i += 1 }
        var start = i
        while i < url.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\\")].contains(url[i]) {
            if url[i] == UInt8(ascii: "@") { start = i + 1 }
            i += 1
        }
        guard i > start else { return nil }
        return UnsafeBufferPointer(rebasing: url[start..<i])
    }

    /// The browser family of an aw-watcher-web bucket (its id, else its key:
    /// `aw-watcher-web-chrome`, or `aw-watcher-web-firefox_HOST` as later versions name it),
    /// nil for a bucket that is no web bucket or a browser `BrowserApps` does not know.
    static func browser(of bucket: ActivityWatchBucket) -> String? {
        let name = bucket.id ?? bucket.key
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        return BrowserApps.family(ofWatcher: String(rest.prefix { $0 != "_" }))
    }

    /// Whether a bucket is aw-watcher-web's: its type is `web.tab.current`, or it has no type
    /// and its id says so.
    static func isWeb(_ bucket: ActivityWatchBucket) -> Bool {
        bucket.type == webType || (bucket.type == nil && (bucket.id ?? bucket.key).hasPrefix(prefix))
    }
}

extension ActivityWatchRead {
    /// The site visits of `buckets`' web buckets, in bucket key order and event order: each
    /// event of a known browser that is a span of some length, not from a private window
    /// (`data.incognito`), whose URL names a web site. Everything else of an event is dropped.
    ///
    /// aw-watcher-web names Chromium `chrome` (it reads the user agent, which is Chrome's): a
    /// `chrome` bucket's visits are Chromium's when the window buckets among `buckets` show
    /// Chromium and never Google Chrome, so that they count while Chromium is in front.
    func visits(of buckets: [ActivityWatchBucket]) -> [BrowserVisit] {
        var families = Set<String>()
        for bucket in buckets where bucket.type == Self.windowType {
            for app in Set(bucket.events.apps) where app >= 0 {
                if let family = BrowserApps.family(ofApp: apps.names[Int(app)]) { families.insert(family) }
            }
        }
        let chrome = families.contains("chromium") && !families.contains("chrome") ? "chromium" : "chrome"
        var visits: [BrowserVisit] = []
        for bucket in buckets.sorted(by: { $0.key < $1.key }) where ActivityWatchWeb.isWeb(bucket) {
            guard var browser = ActivityWatchWeb.browser(of: bucket) else { continue }
            if browser == "chrome" { browser = chrome }
            let e = bucket.events
            for k in 0..<e.count {
                let outcome = e.outcomes[k]
                guard outcome & ActivityWatchEvents.Outcome.reasonMask == ActivityWatchEvents.Outcome.span,
                    outcome & ActivityWatchEvents.Outcome.incognito == 0, e.ends[k] > e.starts[k], e.sites[k] >= 0
                else { continue }
                let site = sites.names[Int(e.sites[k])]
                guard !site.isEmpty else { continue }
                visits.append(BrowserVisit(browser: browser, site: site, start: e.starts[k], end: e.ends[k]))
            }
        }
        return visits
    }

    /// Every site visit the read holds (all hosts).
    public var visits: [BrowserVisit] { visits(of: buckets) }
}
