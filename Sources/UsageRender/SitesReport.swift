// SitesReport.swift — the sites as text and JSON (`sites`, a browser's sites under `app`): each site's time as a person saw it, most first, with how many visits it was; and the top sites lines the day and week views show under their browser.
import UsageCore

extension TextReport {
    /// `sites`: a heading, one row per site (its name, its time, its visits), the total. None:
    /// that a site's time needs the recorder (the extension's visits alone count nothing); when what is shown is not the store (`shownIsStore` false: a
    /// file or a server loaded), where a file's come from and that the extension's are in the
    /// store.
    public static func sites(
        _ sites: [SiteTotal], title: String, width: Int, theme: Theme = .plain, categories: SiteCategories = SiteCategories([]),
        shownIsStore: Bool = true
    ) -> [String] {
        guard !sites.isEmpty else {
            guard !shownIsStore else {
                return fitAll([title, "  no site time: sites count while usage-shell record sees their browser in front"], width: width).headed(theme)
            }
            let why =
                "no sites in what is loaded (an ActivityWatch export's are its aw-watcher-web buckets); the browser extension's "
                + "are in the store, and usage-shell import FILE keeps an export's there too"
            return (fitAll([title], width: width) + wrap(why, width: width, first: "  ", rest: "  ")).headed(theme)
        }
        let total = sites.reduce(0) { $0 + $1.micros }
        if theme.accessible {
            let top = sites[0]
            var lines = [
                title,
                "\(TextFormat.count(sites.count, "site")), \(TextFormat.duration(total)) in all; the most used is \(TerminalText.sanitize(top.site)): \(TextFormat.duration(top.micros)).",
            ]
            for (k, site) in sites.enumerated() {
                let category = categories.category(of: site.site).map { ", \(TerminalText.sanitize($0))" } ?? ""
                lines.append("\(k + 1). \(TerminalText.sanitize(site.site))\(category): \(TextFormat.duration(site.micros)), \(TextFormat.count(site.sessions, "visit")).")
            }
            return wrap(lines, width: width)
        }
        let names = sites.map { TerminalText.sanitize($0.site) }
        let durations = TextFormat.durations(sites.map(\.micros))
        let durationWidth = durations.map(TerminalText.cells).max() ?? 0
        let nameWidth = max(4, min(names.map(TerminalText.cells).max() ?? 0, width - durationWidth - 16))
        var lines = [title]
        for (k, site) in sites.enumerated() {
            let name = TerminalText.fit(names[k], width: nameWidth).padded(toCells: nameWidth)
            let category = categories.category(of: site.site).map { " · " + TerminalText.sanitize($0) } ?? ""
            lines.append("  \(name)  \(durations[k].padded(toCells: durationWidth))  \(TextFormat.count(site.sessions, "visit"))\(category)")
        }
        lines.append("  \(TextFormat.duration(total)) in \(TextFormat.count(sites.count, "site"))")
        return fitAll(lines, width: width).headed(theme)
    }

    /// A range's top sites under each browser (`week`): a heading, then each browser family
    /// (as `BrowserApps.shownName` names it) and its top sites' line; nothing when no site was seen.
    public static func browserSites(_ sites: [String: [SiteTotal]], width: Int, theme: Theme = .plain) -> [String] {
        let browsers = sites.keys.filter { !(sites[$0]?.isEmpty ?? true) }.sorted()
        guard !browsers.isEmpty else { return [] }
        var lines = ["", theme.heading("Top sites")]
        for browser in browsers {
            lines += wrap([TerminalText.sanitize(BrowserApps.shownName(ofFamily: browser))], width: width).map { "  " + $0 } + topSites(sites[browser]!, width: width)
        }
        return lines
    }

    /// The top sites of a browser, indented under its row in a day's or week's view:
    /// `    docs.python.org 25m · example.org 10m · 3 more`.
    public static func topSites(_ sites: [SiteTotal], shown: Int = 3, width: Int) -> [String] {
        guard !sites.isEmpty else { return [] }
        var parts = sites.prefix(shown).map { "\(TerminalText.sanitize($0.site)) \(TextFormat.duration($0.micros))" }
        if sites.count > shown { parts.append("\(sites.count - shown) more") }
        return wrap(parts.joined(separator: " · "), width: width, first: "    ", rest: "    ")
    }
}

extension ReportJSON {
    /// `sites`: `{"from","to","time_zone","total_seconds","sites":[{"site","seconds","sessions"}]}`.
    public static func sites(_ sites: [SiteTotal], from: LocalDate, to: LocalDate, zone: String, categories: SiteCategories = SiteCategories([])) -> JSONText {
        .object([
            ("from", .string(from.description)), ("to", .string(to.description)), ("time_zone", .string(zone)),
            ("total_seconds", .seconds(sites.reduce(0) { $0 + $1.micros })), ("sites", siteList(sites, categories: categories)),
        ])
    }

    /// `[{"site","seconds","sessions"}]`, most time first; with `categories`, each site's
    /// `category` after them (null without one).
    public static func siteList(_ sites: [SiteTotal], categories: SiteCategories? = nil) -> JSONText {
        .array(
            sites.map { site in
                .object(
                    [("site", .string(site.site)), ("seconds", .seconds(site.micros)), ("sessions", .int(site.sessions))]
                        + (categories.map { [("category", $0.category(of: site.site).map(JSONText.string) ?? .null)] } ?? []))
            })
    }
}
