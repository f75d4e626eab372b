// BrowserVisit.swift — a site visit as a source other than the native host hands it over (an ActivityWatch export's aw-watcher-web bucket): the browser family, the host name alone, and its span.

/// One stretch of time a browser showed a site in front, as an import brings it: the family
/// (`BrowserApps.families`), the host name (`SiteName`: nothing more of the page), start and
/// end in µs. Its device is the part's that carries it.
public struct BrowserVisit: Sendable, Hashable {
    public let browser: String
    public let site: String
    public let start: Micros
    public let end: Micros

    public init(browser: String, site: String, start: Micros, end: Micros) {
        self.browser = browser
        self.site = site
        self.start = start
        self.end = end
    }
}
