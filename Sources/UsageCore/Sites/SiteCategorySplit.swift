// SiteCategorySplit.swift — a browser's time split by its sites' categories (`category rule SITE CATEGORY`): each ruled site's time moved from its browser's category to the site's, the browser's other time left in its own, the categories still adding up to the same whole.

/// The categories of a day or a range with the time of the sites that have a category rule
/// counted in that category rather than in their browser's.
///
/// A site's time (`SiteTime`, counted only while its browser was in front) is time of its
/// browser's apps, so it is taken out of the categories those apps' time is in: the browser
/// family's parts (an app's time in a category), most time first, never more than a part holds
/// nor than the category has left. Sites without a rule move nothing; a site whose rule names
/// its browser's own category moves nothing either, but still uses up that part. Nothing is
/// made or lost: the categories add up to what they added up to before.
public enum SiteCategorySplit {
    /// One app's time in one category: a range's part, or a day's app in its category.
    public typealias AppPart = RangeTotals.Part

    /// `categories` (name and time) with the ruled sites' time moved into their categories, in
    /// docs/DATA.md §4's order (most time first, then name); a category left with no time is
    /// dropped. `parts`: the apps' time by category (only the browsers' matter); `sites`: each
    /// site's time per browser family over the same stretch.
    public static func split(
        _ categories: [(name: String, micros: Micros)], parts: [AppPart], sites: [SiteTime], rules: SiteCategories
    ) -> [(name: String, micros: Micros)] {
        guard !rules.rules.isEmpty, !sites.isEmpty else { return categories }
        var sums: [ExactName: (name: String, micros: Micros)] = [:]
        for c in categories { sums[ExactName(c.name), default: (c.name, 0)].micros += c.micros }
        // What each family's parts still hold, most time first (then by category).
        var sources: [String: [(category: String, micros: Micros)]] = [:]
        for part in parts where part.micros > 0 {
            guard let family = BrowserApps.family(ofApp: part.app) else { continue }
            sources[family, default: []].append((part.category, part.micros))
        }
        for family in sources.keys {
            sources[family]!.sort { DayReport.mostFirst(($0.category, $0.micros), ($1.category, $1.micros)) }
        }
        let ruled = sites.compactMap { site in rules.category(of: site.site).map { (site, $0) } }
            .sorted { ($1.0.micros, $0.0.browser, $0.0.site) < ($0.0.micros, $1.0.browser, $1.0.site) }
        for (site, target) in ruled {
            guard var from = sources[site.browser] else { continue }
            var left = site.micros
            for k in from.indices where left > 0 {
                let source = ExactName(from[k].category)
                let take = min(left, from[k].micros, sums[source]?.micros ?? 0)
                guard take > 0 else { continue }
                from[k].micros -= take
                left -= take
                sums[source]!.micros -= take
                sums[ExactName(target), default: (target, 0)].micros += take
            }
            sources[site.browser] = from
        }
        return sums.values.filter { $0.micros > 0 }.sorted(by: DayReport.mostFirst)
    }

    /// A day's apps as parts: each app's time in its category (the one it has most time in).
    public static func parts(of apps: [AppUsage]) -> [AppPart] {
        apps.map { AppPart(app: $0.name, category: $0.category, micros: $0.micros) }
    }

    /// `report` with its categories split by its browsers' sites (`sites`: that day's); its
    /// apps, hours and totals as they were.
    public static func split(_ report: DayReport, sites: [SiteTime], rules: SiteCategories) -> DayReport {
        let moved = split(report.categories.map { ($0.name, $0.micros) }, parts: parts(of: report.apps), sites: sites, rules: rules)
        return DayReport(report, categories: usages(moved, total: report.totalMicros))
    }

    /// A day of a week with its categories split: `apps`, that day's apps (from its report).
    public static func split(_ day: DaySummary, apps: [AppUsage], sites: [SiteTime], rules: SiteCategories) -> DaySummary {
        let moved = split(day.categories.map { ($0.name, $0.micros) }, parts: parts(of: apps), sites: sites, rules: rules)
        return DaySummary(day: day.day, totalMicros: day.totalMicros, screenTimeMicros: day.screenTimeMicros, categories: usages(moved, total: day.totalMicros))
    }

    /// A range's summary with its categories split (`sites`: the range's); its apps, days and
    /// totals as they were.
    public static func split(_ summary: RangeSummary, sites: [SiteTime], rules: SiteCategories) -> RangeSummary {
        let moved = split(summary.categories.map { ($0.name, $0.micros) }, parts: parts(of: summary.apps), sites: sites, rules: rules)
        return RangeSummary(summary, categories: usages(moved, total: summary.totalMicros))
    }

    static func usages(_ categories: [(name: String, micros: Micros)], total: Micros) -> [CategoryUsage] {
        categories.map { CategoryUsage(name: $0.name, micros: $0.micros, share: total > 0 ? Double($0.micros) / Double(total) : 0) }
    }
}

extension DayReport {
    /// The same report with other categories (split by sites).
    init(_ r: DayReport, categories: [CategoryUsage]) {
        window = r.window
        zone = r.zone
        totalMicros = r.totalMicros
        screenTimeMicros = r.screenTimeMicros
        apps = r.apps
        self.categories = categories
        hours = r.hours
    }
}

extension RangeSummary {
    /// The same summary with other categories (split by sites).
    init(_ s: RangeSummary, categories: [CategoryUsage]) {
        range = s.range
        zone = s.zone
        totalMicros = s.totalMicros
        days = s.days
        averageMicros = s.averageMicros
        busiest = s.busiest
        apps = s.apps
        self.categories = categories
        previous = s.previous
    }
}
