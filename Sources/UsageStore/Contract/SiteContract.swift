// SiteContract.swift — the backend contract's site role: the write the browsers' native host makes (`siteSeen`, with `set web off` and `web ignore` applied inside it), those settings and the sites' category rules, and the reads of a range's sites.
import UsageCore

/// The native host's write (`usage-shell web-host`).
public protocol SiteWriting: AnyObject, Sendable {
    /// What `browser` (a family key) shows in front on `device` at `at` (µs since 1970 UTC):
    /// a host name, or nil for "no site" (a private window, about:, chrome:, file:, no window).
    /// The same site as the open visit extends it to `at`; another one ends the open visit at
    /// `at` and begins the new one there. `set web off` and `web ignore SITE` are applied here
    /// (an ignored site or web off is written as "no site"). One transaction.
    ///
    /// A site is kept as `SiteName` gives it (lowercased, no port); text that is not a host
    /// name is "no site". An open visit last seen more than `SiteVisits.staleAfter` before
    /// `at` (a host that died, a machine asleep) is left as it was last seen, and a new one begins.
    func siteSeen(_ site: String?, browser: String, device: String, at: Micros) throws(StoreError)
}

/// What decides which sites are recorded, kept in the store so that the native host, which
/// writes there, applies them (`set web`, `web ignore`).
public protocol SiteSettingsReading: AnyObject, Sendable {
    /// Whether sites are recorded (`set web on`, the default) or not (`set web off`).
    func webRecording() throws(StoreError) -> Bool
    /// The sites never recorded, in order.
    func ignoredSites() throws(StoreError) -> [SitePattern]
    /// The categories given to sites (`category rule`), by pattern.
    func siteCategories() throws(StoreError) -> SiteCategories
}

/// Their changes.
public protocol SiteSettingsWriting: AnyObject, Sendable {
    /// Turns the recording of sites on or off; off ends every open visit at `now`.
    func setWebRecording(_ on: Bool, now: Micros) throws(StoreError)
    /// Never records `pattern`'s sites from now on (an open visit of one ends at `now`);
    /// false when it was ignored already.
    @discardableResult func ignoreSites(_ pattern: SitePattern, now: Micros) throws(StoreError) -> Bool
    /// Records `pattern`'s sites again; false when it was not ignored.
    @discardableResult func unignoreSites(_ pattern: SitePattern) throws(StoreError) -> Bool
    /// Gives `pattern`'s sites `category`, or takes their category away (nil); false when
    /// there was none to take away.
    @discardableResult func setSiteCategory(_ pattern: SitePattern, _ category: String?) throws(StoreError) -> Bool
}

/// What the site views read (`sites`, `app BROWSER`, the day's and week's top sites).
public protocol SiteReading: AnyObject, Sendable {
    /// Each site's time per browser within `[from, to)`, as a person saw it (`SiteTimes.seen`:
    /// its visits while its browser's app was in front on the same device); of `device`'s
    /// visits alone, or every device's (nil). One snapshot.
    func siteTimes(from: Micros, to: Micros, device: String?) throws(StoreError) -> [SiteTime]
    /// The spans of `[from, to)` in which each site was seen (the same reading, not added up):
    /// when a site limit was crossed.
    func siteSpans(from: Micros, to: Micros, device: String?) throws(StoreError) -> [SiteSpan]
}
