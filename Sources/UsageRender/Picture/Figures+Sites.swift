// Figures+Sites.swift — the websites in the figures: a browser's top sites under its row of a day's apps (SVG) or in a day's `Top sites` block (HTML), and a range's top sites of each browser as ranked bars (`week`).
import UsageCore

extension Figure {
    /// Each browser of a day's list (the first of its apps listed) and its top three sites:
    /// `Google Chrome: docs.python.org 30m · example.org 20m · 2 more`; none without sites.
    static func topSitesBlock(_ list: [AppUsage], sites: [String: [SiteTotal]]) -> [FigureBlock] {
        let lines = browserRows(list, sites: sites).sorted { $0.key < $1.key }.map { "\(list[$0.key].name): " + $0.value }
        return lines.isEmpty ? [] : [.text(title: "Top sites", lines)]
    }

    /// The line of top sites of each browser in `list`, by its row: a browser family's under the
    /// first of its apps listed, as the terminal's list puts them.
    static func browserRows(_ list: [AppUsage], sites: [String: [SiteTotal]]) -> [Int: String] {
        var shown = Set<String>()
        var rows: [Int: String] = [:]
        for (k, app) in list.enumerated() {
            guard let family = BrowserApps.family(ofApp: app.name), shown.insert(family).inserted, let top = sites[family], !top.isEmpty else { continue }
            rows[k] = topSitesLine(top)
        }
        return rows
    }

    /// `docs.python.org 30m · example.org 20m · 2 more`: the first three sites and how many more.
    static func topSitesLine(_ top: [SiteTotal], shown: Int = 3) -> String {
        var parts = top.prefix(shown).map { "\($0.site) \(TextFormat.duration($0.micros))" }
        if top.count > shown { parts.append("\(top.count - shown) more") }
        return parts.joined(separator: " · ")
    }

    /// `Top sites`: each browser's (by family, in the order of their keys) top three sites of the
    /// range as bars against the longest, the browser (as `BrowserApps.shownName` names it) and the
    /// visits under each; a line for the sites left out of each browser; none without sites.
    static func rangeSitesBlock(_ sites: [String: [SiteTotal]], shown: Int = 3) -> [FigureBlock] {
        var rows: [BarChart.Row] = []
        var footer: [String] = []
        for browser in sites.keys.sorted() {
            guard let top = sites[browser], !top.isEmpty else { continue }
            let browser = BrowserApps.shownName(ofFamily: browser)
            for site in top.prefix(shown) {
                let value = TextFormat.duration(site.micros)
                rows.append(BarChart.Row(
                    rank: nil, series: FigureSeries(name: site.site, rgb: SeriesColor.otherRGB, value: value),
                    detail: "\(browser) · \(site.sessions) visit\(site.sessions == 1 ? "" : "s")", micros: site.micros, value: value))
            }
            let rest = top.dropFirst(shown)
            if !rest.isEmpty {
                footer.append("\(browser): \(rest.count) more site\(rest.count == 1 ? "" : "s") \(TextFormat.duration(rest.reduce(0) { $0 + $1.micros }))")
            }
        }
        return rows.isEmpty ? [] : [.bars(BarChart(title: "Top sites", rows: rows, footer: footer))]
    }
}
