// SiteCommands.swift — time per website, from the store (or a file loaded without it: an ActivityWatch export's web buckets): `sites [DAY|RANGE]` (each site's time as a person saw it, ranked) and `web` (whether sites are recorded, and `web ignore SITE` / `web unignore SITE`, the sites never recorded); `category rule SITE CATEGORY` (in `category`'s grammar, handled here); the reads a browser's sites need in other views, and their categories split into the day's and the week's.
import UsageCore
import UsageRender
import UsageStore

extension CommandTable {
    /// A site as `web ignore`, `category rule` and `limit` take one: a host name, or `*.domain`.
    static let sitePatternSlot = Slot<SitePattern>(
        "SITE", completion: [], missing: "which site? (a host name such as docs.python.org, or *.example.org for a domain and its subdomains)",
        invalid: { "'\($0)' is not a site: give a host name such as docs.python.org, or *.example.org (no scheme or path; a port is dropped)" },
        read: { SitePattern($0) })
    static let webChoice = Choice("web", [Keyword("ignore"), Keyword("unignore")])
    /// A site's category as `category rule` takes it, or `off`.
    static let siteCategorySlot = Slot<String>(
        "CATEGORY|off", missing: "which category? (or off)", invalid: { _ in "a category's name cannot be empty" },
        read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })

    /// `category rule SITE CATEGORY|off`: kept in the store; `sites` shows it.
    static func siteCategoryRule(_ shell: Shell, _ pattern: SitePattern, _ category: String) throws(ShellError) -> CommandOutcome {
        let off = category.lowercased() == "off"
        let store = try shell.store.writer()
        let changed: Bool
        do throws(StoreError) {
            changed = try store.setSiteCategory(pattern, off ? nil : category)
        } catch {
            throw .store(error)
        }
        guard changed else { throw .refused("\(pattern) has no category rule (category rule SITE CATEGORY gives it one)") }
        let text = off ? "\(pattern) has no category now" : "\(pattern) is in \(TerminalText.sanitize(category))"
        return shell.render(json: { .object([("site", .string(pattern.description)), ("category", off ? .null : .string(category))]) }, csv: .record) { width, _ in
            TextReport.wrap([text], width: width)
        }
    }


    static let siteCommands: [Command] = [
        Command(
            "sites", syntax: .optional(.alternatives([rangeSyntax, .value(daySlot)])),
            summary: "the websites of the selected day, or of a DAY or RANGE (as summary takes it), most time first: each site's time counted only while its browser was the app in front, and its visits; recorded by the browser extension (README, \"Time per website\")",
            examples: ["sites", "sites yesterday", "sites week", "sites last 30", "sites 2026-03-01..2026-03-07"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            // A store named (--db, USAGE_SHELL_DB) that is not there is said, as every view says it.
            if shell.awaitedStore != nil { try shell.requireData() }
            let model = shell.model
            let (from, to): (LocalDate, LocalDate)
            if let query = args[daySlot] {
                let day = query.resolve(today: model.today, selected: model.selectedDay, dataRange: model.history.dayRange(in: model.zone))
                (from, to) = (day, day)
            } else if args[rangeSlot] != nil || args[lastSlot] != nil {
                let range = try shell.range(args, command: "sites", otherwise: .current(.week))
                (from, to) = (range.from, range.to)
            } else {
                (from, to) = (model.selectedDay, model.selectedDay)
            }
            let sites = SiteTimes.totals(try shell.siteTimes(from: from, to: to))
            let categories = try shell.siteCategories()
            let title = from == to ? "Sites · " + TextFormat.longDate(from) : "Sites · " + TextFormat.rangeTitle(DateRange(from: from, to: to, kind: .span))
            let zone = model.zone.identifier
            return shell.render(json: { ReportJSON.sites(sites, from: from, to: to, zone: zone, categories: categories) }) { width, theme in
                TextReport.sites(sites, title: title, width: width, theme: theme, categories: categories, shownIsStore: shell.showsStore)
            }
        },
        Command(
            "web", syntax: .optional(.sequence([.choice(webChoice), .optional(.value(sitePatternSlot))])),
            summary: "whether the browser extension's sites are recorded (set web on|off) and the sites never recorded; web ignore SITE never records a site (*.example.org: a domain and its subdomains), web unignore SITE records it again",
            examples: ["web", "web ignore mail.example.org", "web ignore *.bank.example", "web unignore mail.example.org"]
        ) { shell, args throws(ShellError) in
            let pattern = args[sitePatternSlot]
            switch args[webChoice] {
            case "ignore"?:
                guard let pattern else { return try webStatus(shell) }
                let store = try shell.store.writer()
                do throws(StoreError) {
                    let added = try store.ignoreSites(pattern, now: shell.environment.now())
                    return shell.render(json: { .object([("ignored", .string(pattern.description)), ("added", .bool(added))]) }, csv: .record) { width, _ in
                        TextReport.wrap([added ? "ignoring \(pattern): its visits are never recorded" : "\(pattern) was ignored already"], width: width)
                    }
                } catch {
                    throw .store(error)
                }
            case "unignore"?:
                guard let pattern else { throw CommandTable.named("web").usageError("which site? (web lists those ignored)") }
                let store = try shell.store.writer()
                let removed: Bool
                do throws(StoreError) {
                    removed = try store.unignoreSites(pattern)
                } catch {
                    throw .store(error)
                }
                guard removed else { throw .refused("\(pattern) is not ignored (web lists those that are)") }
                return shell.render(json: { .object([("unignored", .string(pattern.description))]) }, csv: .record) { width, _ in
                    TextReport.wrap(["\(pattern) is recorded again"], width: width)
                }
            default:
                return try webStatus(shell)
            }
        },
    ]

    /// `web`: on or off, and the sites ignored.
    private static func webStatus(_ shell: Shell) throws(ShellError) -> CommandOutcome {
        var on = true
        var ignored: [SitePattern] = []
        if let store = shell.store.existing {
            do throws(StoreError) {
                on = try store.webRecording()
                ignored = try store.ignoredSites()
            } catch {
                throw .store(error)
            }
        }
        let (recording, patterns) = (on, ignored)
        return shell.render(
            json: { .object([("recording", .bool(recording)), ("ignored", .array(patterns.map { .string($0.description) }))]) }, csv: .record
        ) { width, _ in
            TextReport.wrap(
                [recording ? "web on: the browser extension's sites are recorded (set web off stops it)" : "web off: no site is recorded (set web on records them again)"]
                    + (patterns.isEmpty ? ["no site is ignored (web ignore SITE)"] : ["ignored, never recorded:"] + patterns.map { "  \($0)" }),
                width: width)
        }
    }
}

extension Shell {
    /// Whether what is shown is read from the store, whose sites are read from it by range:
    /// nothing loaded, or the store among what is. Otherwise the sites are those of what is
    /// loaded (an ActivityWatch export's web buckets).
    var showsStore: Bool {
        guard let source = model.loadedSource else { return true }
        return source.parts.contains(.store)
    }

    /// The selected day's sites by browser family, for the day's views to show under their
    /// browser (of the store, or of a file loaded); none when the store cannot be read (the view shows
    /// its apps all the same; `sites` says what is wrong).
    func daySitesByBrowser() -> [String: [SiteTotal]] {
        let day = model.selectedDay
        guard let times = try? siteTimes(from: day, to: day), !times.isEmpty else { return [:] }
        return Dictionary(grouping: times, by: \.browser).mapValues { SiteTimes.totals($0) }
    }

    /// Whether the store is what is loaded (alone or among other sources): only then are its
    /// sites the loaded browsers' time to split.
    var storeIsLoaded: Bool { model.loadedSource?.parts.contains(.store) == true }

    /// `r` with its browsers' time split by their sites' categories (`category rule SITE
    /// CATEGORY`): a ruled site's time counted in its category, the rest in the browser's. As it
    /// was when the store is not loaded, without a rule or a site that day (or when they cannot
    /// be read: `sites` says why).
    func splitBySites(_ r: DayReport) -> DayReport {
        guard !r.isEmpty, storeIsLoaded, let rules = try? siteCategories(), !rules.rules.isEmpty, let times = try? siteTimes(from: r.day, to: r.day), !times.isEmpty else { return r }
        return SiteCategorySplit.split(r, sites: times, rules: rules)
    }

    /// Days of a range with their browsers' time split by their sites' categories, as
    /// `splitBySites` splits a day (each day's own sites against its own apps).
    func splitBySites(_ days: [DaySummary]) -> [DaySummary] {
        guard storeIsLoaded, let first = days.first?.day, let last = days.last?.day, let rules = try? siteCategories(), !rules.rules.isEmpty,
            let times = try? siteTimes(from: first, to: last), times.contains(where: { rules.category(of: $0.site) != nil })
        else { return days }
        let (history, zone) = (model.history, model.zone)
        return days.map { day in
            guard day.totalMicros > 0, let times = try? siteTimes(from: day.day, to: day.day), !times.isEmpty else { return day }
            return SiteCategorySplit.split(day, apps: DayReport(history: history, date: day.day, zone: zone).apps, sites: times, rules: rules)
        }
    }

    /// A range's summary with its browsers' time split by their sites' categories, as a day's.
    func splitBySites(_ s: RangeSummary) -> RangeSummary {
        guard s.totalMicros > 0, storeIsLoaded, let rules = try? siteCategories(), !rules.rules.isEmpty, let times = try? siteTimes(from: s.range.from, to: s.range.to), !times.isEmpty
        else { return s }
        return SiteCategorySplit.split(s, sites: times, rules: rules)
    }

    /// Each site's time per browser over the local days `from`…`to`, of the shown device (or
    /// every device's), from the store (none when there is no store yet); of a file loaded
    /// without the store, its own visits against its own sessions.
    func siteSpans(from: LocalDate, to: LocalDate) throws(ShellError) -> [SiteSpan] {
        let zone = model.zone
        if !showsStore { return SiteTimes.spans(of: model.history, from: zone.startOfDay(from), to: zone.startOfDay(to.adding(days: 1))) }
        guard let store = store.existing else { return [] }
        do throws(StoreError) {
            return try store.siteSpans(from: zone.startOfDay(from), to: zone.startOfDay(to.adding(days: 1)), device: shownDevice)
        } catch {
            throw .store(error)
        }
    }

    /// The categories given to sites; none without a store.
    func siteCategories() throws(ShellError) -> SiteCategories {
        guard let store = store.existing else { return SiteCategories([]) }
        do throws(StoreError) {
            return try store.siteCategories()
        } catch {
            throw .store(error)
        }
    }

    /// The same, added up per site and browser.
    func siteTimes(from: LocalDate, to: LocalDate) throws(ShellError) -> [SiteTime] {
        if !showsStore { return SiteTimes.times(try siteSpans(from: from, to: to)) }
        guard let store = store.existing else { return [] }
        let zone = model.zone
        do throws(StoreError) {
            return try store.siteTimes(from: zone.startOfDay(from), to: zone.startOfDay(to.adding(days: 1)), device: shownDevice)
        } catch {
            throw .store(error)
        }
    }
}
