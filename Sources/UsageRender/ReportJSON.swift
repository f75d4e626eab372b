// ReportJSON.swift — docs/DATA.md §8's JSON shapes for every command that shows data.
import UsageCore

/// Builds the JSON documents of docs/DATA.md §8 (snake_case keys, seconds as numbers).
public enum ReportJSON {
    /// `show`: the whole day.
    public static func show(_ r: DayReport, skipped: SkipSummary) -> JSONText {
        .object(
            dayHeader(r) + [
                ("total_seconds", .seconds(r.totalMicros)),
                ("screen_time_seconds", .seconds(r.screenTimeMicros)),
                ("apps", apps(r.apps)),
                ("categories", categories(r.categories)),
                ("hours", hours(r.hours)),
                ("skipped", self.skipped(skipped)),
            ])
    }

    /// `apps [top N]`: the listed apps (the first N of the report).
    /// With `category` (`apps category NAME`): that category's name and its time that day, before the apps.
    public static func apps(_ r: DayReport, apps list: [AppUsage], category: String? = nil) -> JSONText {
        var fields = dayHeader(r) + [("total_seconds", .seconds(r.totalMicros))]
        if let category {
            let micros = r.categories.first { $0.name.sameScalars(as: category) }?.micros ?? 0
            fields += [("category", .string(category)), ("category_seconds", .seconds(micros))]
        }
        return .object(fields + [("apps", apps(list))])
    }

    /// `chart category`.
    public static func categoryChart(_ r: DayReport) -> JSONText {
        .object(dayHeader(r) + [("total_seconds", .seconds(r.totalMicros)), ("categories", categories(r.categories))])
    }

    /// `chart hourly`; `by category` gives each hour its `categories` (`{NAME: seconds}`) in
    /// place of `apps`.
    public static func hourlyChart(_ r: DayReport, by stack: HourlyStack = .app) -> JSONText {
        .object(dayHeader(r) + [("hours", hours(r.hours, by: stack))])
    }

    /// `day …`.
    public static func day(_ r: DayReport) -> JSONText {
        .object(
            dayHeader(r) + [
                ("total_seconds", .seconds(r.totalMicros)),
                ("screen_time_seconds", .seconds(r.screenTimeMicros)),
            ])
    }

    /// `week`: days oldest first, categories by name → seconds. With `zone`, its `time_zone`
    /// after `to`; with `sites` (by browser family), the top sites the text ends with after the
    /// days: `"sites":[{"browser","site","seconds","sessions","category"}]`, browsers by name,
    /// each browser's sites most time first.
    public static func week(
        _ days: [DaySummary], zone: String? = nil, sites: [String: [SiteTotal]]? = nil, categories: SiteCategories = SiteCategories([])
    ) -> JSONText {
        .object([
            ("from", days.first.map { .string($0.day.description) } ?? .null),
            ("to", days.last.map { .string($0.day.description) } ?? .null),
        ] + (zone.map { [("time_zone", JSONText.string($0))] } ?? []) + [
            (
                "days",
                .records(
                    days.map { d in
                        .object([
                            ("day", .string(d.day.description)),
                            ("total_seconds", .seconds(d.totalMicros)),
                            ("screen_time_seconds", .seconds(d.screenTimeMicros)),
                            ("categories", .object(d.categories.map { ($0.name, .seconds($0.micros)) })),
                        ])
                    }, fields: ["day", "total_seconds", "screen_time_seconds"])
            )
        ] + (sites.map { [("sites", browserSiteList($0, categories: categories))] } ?? []))
    }

    /// `[{"browser","site","seconds","sessions","category"}]`: each browser (named as its app is,
    /// `Chromium`) with its sites, as `week`'s text lists them under it.
    static func browserSiteList(_ sites: [String: [SiteTotal]], categories: SiteCategories) -> JSONText {
        .array(
            sites.keys.sorted().flatMap { family in
                (sites[family] ?? []).map { site in
                    JSONText.object([
                        ("browser", .string(BrowserApps.shownName(ofFamily: family))), ("site", .string(site.site)), ("seconds", .seconds(site.micros)),
                        ("sessions", .int(site.sessions)), ("category", categories.category(of: site.site).map(JSONText.string) ?? .null),
                    ])
                }
            })
    }

    /// `month`: the month (`2026-10`) and its days as `week` gives them.
    public static func month(_ range: DateRange, days: [DaySummary]) -> JSONText {
        guard case .object(let fields) = week(days) else { return week(days) }
        return .object([("month", .string(String(range.from.description.prefix(7))))] + fields)
    }

    /// `{"total":N,"reasons":{…}}` with every reason of docs/DATA.md §1, zero or not, in a fixed order.
    public static func skipped(_ s: SkipSummary) -> JSONText {
        .object([
            ("total", .int(s.total)),
            ("reasons", .object(SkipReason.allCases.map { ($0.rawValue, .int(s.count($0))) })),
        ])
    }

    /// The columns `skipped` flattens to (`total`, `reasons.REASON`).
    static var skippedFields: [String] { ["total"] + SkipReason.allCases.map { "reasons." + $0.rawValue } }

    static func dayHeader(_ r: DayReport) -> [(String, JSONText)] {
        [("day", .string(r.day.description)), ("time_zone", .string(r.zone))]
    }

    static func apps(_ list: [AppUsage]) -> JSONText {
        .records(
            list.map {
                .object([
                    ("name", .string($0.name)), ("category", .string($0.category)),
                    ("seconds", .seconds($0.micros)), ("sessions", .int($0.sessions)), ("share", .double($0.share)),
                ])
            }, fields: ["name", "category", "seconds", "sessions", "share"])
    }

    static func categories(_ list: [CategoryUsage]) -> JSONText {
        .records(
            list.map { .object([("name", .string($0.name)), ("seconds", .seconds($0.micros)), ("share", .double($0.share))]) },
            fields: ["name", "seconds", "share"])
    }

    static func hours(_ list: [HourUsage], by stack: HourlyStack = .app) -> JSONText {
        .records(
            list.map { h in
                .object([
                    ("start", .string(TextFormat.localTimestamp(h.slot.start, offsetSeconds: h.slot.utcOffsetSeconds))),
                    ("hour", .int(h.slot.hour)),
                    ("seconds", .seconds(h.micros)),
                    stack == .app
                        ? ("apps", .object(h.apps.map { ($0.name, .seconds($0.micros)) }))
                        : ("categories", .object(h.categories.map { ($0.name, .seconds($0.micros)) })),
                ])
            }, fields: ["start", "hour", "seconds"])
    }
}
