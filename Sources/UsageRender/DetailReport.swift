// DetailReport.swift — text and JSON of the detail commands: `app NAME`, `hour H` and `check`.
import UsageCore

extension TextReport {
    /// `app NAME`: a title (`Google Chrome · Productivity · Mon 2026-02-23`), the totals line
    /// (`2h 5m · 31% of the day · 4 sessions`), the app's sessions with local clock times
    /// (`…` marks a session clipped at the day's start or end; `running`, one still running
    /// when loaded) and its non-empty hours.
    /// The hours are drawn as bars in the app's colour or pattern (from `palette`, the day's
    /// series) when the width allows and accessible mode is off.
    public static func app(_ a: AppDayReport, width: Int, theme: Theme = .plain, palette: Palette? = nil) -> [String] {
        let title = fitAll(
            [TerminalText.sanitize(a.name) + " · " + TerminalText.sanitize(a.category) + " · \(TextFormat.shortWeekday(a.day)) \(a.day)"],
            width: width)
            .headed(theme)
        guard !a.isEmpty else {
            return title + wrap(["no usage of \(TerminalText.sanitize(a.name)) on \(TextFormat.longDate(a.day))"], width: width)
        }
        let count = a.sessions.count
        var lines = [
            "\(TextFormat.duration(a.micros)) · \(TextFormat.share(a.share)) of the day · \(TextFormat.count(count, "session"))"
        ]

        let repeated = repeatedHours(a.window.slots)
        func stamp(_ t: Micros, _ offset: Int) -> String { Self.stamp(t, offsetSeconds: offset, repeated: repeated) }
        // Each session's minutes add up to the total above, and its clock times are rounded so
        // that they differ by exactly its minutes.
        let minutes = TextFormat.minutes(adding: a.sessions.map(\.micros))
        func times(_ s: AppSessionSlice, minutes: Int64) -> String {
            let (from, to) = SessionClock.shown(start: s.start, end: s.end, minutes: minutes)
            let start = stamp(from, s.startUTCOffsetSeconds)
            let end = to >= a.window.end ? "24:00" : stamp(to, s.endUTCOffsetSeconds)
            // A session still running ends at the load's clock: it is said, not shown as ended.
            return (s.startsBeforeDay ? "…" : "") + start + "–" + end + (s.endsAfterDay ? "…" : "") + (s.running ? " running" : "")
        }
        let shownTimes = zip(a.sessions, minutes).map { times($0, minutes: $1) }
        let durations = zip(minutes, a.sessions).map { TextFormat.duration(minutes: $0, of: $1.micros) }
        let timeWidth = shownTimes.map { TerminalText.cells($0) }.max() ?? 0
        let durationWidth = max(4, durations.map(\.count).max() ?? 0)
        lines.append("")
        lines.append("Sessions")
        let headings = [lines.count - 1]
        // The ids go, as a whole column, when one would not fit.
        let ids = a.sessions.map { s in s.id.map { "  #" + TerminalText.sanitize($0) } ?? "" }
        let withIDs = ids.allSatisfy { 2 + timeWidth + 2 + durationWidth + TerminalText.cells($0) <= width }
        for k in a.sessions.indices {
            lines.append(
                "  " + TerminalText.pad(shownTimes[k], width: timeWidth) + "  "
                    + TerminalText.padLeft(durations[k], width: durationWidth) + (withIDs ? ids[k] : ""))
        }

        // Style after fitting, so that cutting a line never cuts into a style's escape sequence.
        var fitted = fitAll(lines, width: width)
        for k in headings { fitted[k] = theme.heading(fitted[k]) }
        fitted.append("")
        let layout = theme.accessible ? nil : HourlyLayout(slots: a.window.slots.count, width: width)
        fitted += fitAll([layout?.slotsPerBar == 2 ? "Hours, 2 per bar" : "Hours"], width: width).headed(theme)
        if let layout {
            let series = HourlySeries(
                single: palette?.alone(app: a.name) ?? Series(rank: 0, kind: .app), name: a.name, hours: a.hours.map(\.micros))
            fitted += fitStyled(hourlyBars(slots: a.window.slots, series: series, layout: layout, theme: theme), width: width)
        } else {
            // The hours' minutes add up to the total too.
            let used = zip(a.hours, TextFormat.durations(a.hours.map(\.micros))).filter { $0.0.micros > 0 }
            let hourDurationWidth = max(4, used.map(\.1.count).max() ?? 0)
            fitted += fitAll(
                used.map { hour, duration in
                    "  " + slotClock(hour.slot, repeated: repeated) + "  " + TerminalText.padLeft(duration, width: hourDurationWidth)
                }, width: width)
        }
        return title + fitted
    }

    /// `hour H`: for each slot of the hour (two on a fall-back day, told apart by their UTC
    /// offset; none when the clocks skip it) the slot's time, then its apps ranked with duration
    /// and share of the slot.
    public static func hour(
        _ r: DayReport, slots: [HourUsage], width: Int, theme: Theme = .plain, palette: Palette? = nil
    ) -> [String] {
        guard !slots.isEmpty else {
            return wrap(["no such hour on \(TextFormat.longDate(r.day)): the clocks skip it"], width: width)
        }
        let repeated = repeatedHours(r.window.slots)
        var lines: [String] = []
        for h in slots {
            if !lines.isEmpty { lines.append("") }
            let start = TextFormat.clock(h.slot.start, offsetSeconds: h.slot.utcOffsetSeconds)
            let end = h.slot.end == r.window.end ? "24:00" : TextFormat.clock(h.slot.end, offsetSeconds: h.slot.utcOffsetSeconds)
            // A repeated hour is labelled as `chart hourly` labels it (`01:00-04`, `01:00-05`).
            let label = repeated.contains(h.slot.hour) ? slotClock(h.slot, repeated: repeated) : "\(start)–\(end)"
            guard h.micros > 0 else {
                lines += fitAll([label + "  no usage"], width: width).headed(theme)
                continue
            }
            lines += fitAll([label + "  " + TextFormat.duration(h.micros)], width: width).headed(theme)
            let palette = palette ?? Palette(r)
            // The apps' minutes add up to the slot's.
            let rows = zip(h.apps, TextFormat.durations(h.apps.map(\.micros))).map { app, duration in
                RankedRow(
                    name: app.name, detail: [], micros: app.micros, duration: duration, share: Double(app.micros) / Double(h.micros),
                    series: palette.app(app.name))
            }
            if theme.accessible {
                lines += wrap(
                    rows.enumerated().map { k, row in
                        "  \(k + 1). \(TerminalText.sanitize(row.name)), \(row.duration), \(TextFormat.share(row.share))"
                    }, width: width)
            } else {
                lines += rankedRows(rows, width: width, theme: theme)
            }
        }
        return lines
    }

    /// `check`: source, counts, days covered, app time against screen time (the overlap), the
    /// sessions still running and the zone times without an offset were read in, repaired
    /// strings, and the skipped rows by reason with up to three examples each.
    public static func check(_ q: DataQuality, width: Int, theme: Theme = .plain) -> [String] {
        var lines = ["source: \(TerminalText.sanitize(q.source.isEmpty ? "(none)" : q.source))"]
        lines.append(
            "sessions: \(q.sessions) · \(q.apps) app\(q.apps == 1 ? "" : "s") · "
                + "\(q.categories) categor\(q.categories == 1 ? "y" : "ies")")
        if let first = q.firstDay, let last = q.lastDay {
            let range = first == last ? "\(first)" : "\(first) … \(last)"
            lines.append("days: \(range): \(q.daysCovered) day\(q.daysCovered == 1 ? "" : "s"), \(q.daysWithData) with data")
        } else {
            lines.append("days: none")
        }
        lines.append("app time: \(TextFormat.duration(q.appTimeMicros))")
        lines.append("screen time: \(TextFormat.duration(q.screenTimeMicros))")
        // The overlap as shown is the difference of the two lines above.
        let overlapMinutes = TextFormat.minutes(q.appTimeMicros) - TextFormat.minutes(q.screenTimeMicros)
        lines.append(
            q.overlapMicros > 0 ? "overlap: \(TextFormat.duration(minutes: overlapMinutes, of: q.overlapMicros)) counted twice" : "overlap: none")
        for r in q.running {
            lines.append(
                "running: \(TerminalText.sanitize(r.app))" + (r.id.map { " #" + TerminalText.sanitize($0) } ?? "")
                    + " since \(stamp(r.start, offset: r.startUTCOffsetSeconds)), \(TextFormat.duration(r.end - r.start)) "
                    + "counted up to the load")
        }
        for part in q.parts {
            guard let local = part.localTimes else { continue }
            let whose = q.parts.count > 1 ? " in \(TerminalText.sanitize(part.source))" : ""
            lines.append(
                "local times: \(grouped(local.rows)) row\(local.rows == 1 ? "" : "s")\(whose) had times without a UTC offset, "
                    + "read as \(TerminalText.sanitize(local.zone)) time")
        }
        if q.repairedStrings > 0 {
            lines.append("repaired strings: \(q.repairedStrings) (invalid UTF-8 or lone surrogates became U+FFFD)")
        }
        if q.parts.count > 1 {
            lines.append("sources: \(q.parts.count)")
            // Names are never cut (two paths often differ only at their end): in a column when
            // they fit half the width, else each on its own line (wrapped after a `/`) with its
            // counts below.
            let names = q.parts.map { TerminalText.sanitize($0.source) }
            let nameWidth = names.map(TerminalText.cells).max() ?? 0
            for (part, name) in zip(q.parts, names) {
                let skipped = part.skipped.total
                let reasons = SkipReason.allCases.filter { part.skipped.count($0) > 0 }
                    .map { "\($0.rawValue) \(part.skipped.count($0))" }
                let counts = "\(TextFormat.count(part.sessions, "session")), "
                    + (skipped == 0 ? "no rows skipped" : "\(skipped) skipped: " + reasons.joined(separator: ", "))
                if nameWidth <= width / 2 {
                    lines.append("  " + TerminalText.pad(name, width: nameWidth) + "  " + counts)
                } else {
                    lines.append("  " + name)
                    lines.append("    " + counts)
                }
            }
        }
        let total = q.skipped.total
        lines.append(total == 0 ? "no rows skipped" : "skipped \(total) row\(total == 1 ? "" : "s")")
        let reasons = SkipReason.allCases.filter { q.skipped.count($0) > 0 }
        let reasonWidth = reasons.map(\.rawValue.count).max() ?? 0
        let countWidth = reasons.map { String(q.skipped.count($0)).count }.max() ?? 0
        for reason in reasons {
            let count = q.skipped.count(reason)
            let examples = q.skipped.examples[reason, default: []]
            var items = examples.map { row in exampleText(row) }
            if count > examples.count { items.append("…") }
            let head = "  " + TerminalText.pad(reason.rawValue, width: reasonWidth) + "  "
                + TerminalText.padLeft(String(count), width: countWidth)
            let tail = items.isEmpty ? "" : "e.g. " + items.joined(separator: ", ")
            // Examples go on the reason's line when they fit, else below it, so columns stay put.
            if tail.isEmpty || TerminalText.cells(head + "   " + tail) <= width {
                lines.append(tail.isEmpty ? head : head + "   " + tail)
            } else {
                lines.append(head)
                lines.append("    " + tail)
            }
        }
        return wrap(lines, width: width).headed(theme)
    }

    /// A skipped row as `check` names it: `id "S-1" (line 85)`, `line 85`, with its source
    /// when the row carries one (`id "S-1" (b.csv line 4)`), or only the id where there are no lines.
    static func exampleText(_ row: SkippedRow) -> String {
        let place = [row.source.map(TerminalText.sanitize), row.line.map { "line \($0)" }].compactMap { $0 }
            .joined(separator: " ")
        guard let id = row.sessionID.map(TerminalText.sanitize) else { return place.isEmpty ? "a row" : place }
        return place.isEmpty ? "id \"\(id)\"" : "id \"\(id)\" (\(place))"
    }

    /// `10:42`; a time inside a repeated hour (fall-back day) carries its UTC offset
    /// (`01:20-05`), as the hour labels do.
    static func stamp(_ t: Micros, offsetSeconds offset: Int, repeated: Set<Int>) -> String {
        let clock = TextFormat.clock(t, offsetSeconds: offset)
        guard let hour = Int(clock.prefix(2)), repeated.contains(hour) else { return clock }
        return clock + String(TextFormat.offset(offset).prefix(3))
    }

    /// The local hours that occur twice in a day (the fall-back hour).
    static func repeatedHours(_ slots: [HourSlot]) -> Set<Int> {
        var seen = Set<Int>()
        var twice = Set<Int>()
        for s in slots where !seen.insert(s.hour).inserted { twice.insert(s.hour) }
        return twice
    }

    /// `09:00`, or on a day with a repeated hour `01:00-04` / `01:00-05` / `09:00   ` so that
    /// labels line up, as `hourly` does.
    static func slotClock(_ slot: HourSlot, repeated: Set<Int>) -> String {
        let clock = TextFormat.clock(slot.start, offsetSeconds: slot.utcOffsetSeconds)
        guard !repeated.isEmpty else { return clock }
        return clock + (repeated.contains(slot.hour) ? String(TextFormat.offset(slot.utcOffsetSeconds).prefix(3)) : "   ")
    }
}

/// The clock times a session is shown with, whole minutes that agree with its duration.
enum SessionClock {
    static let minute: Micros = 60_000_000

    /// The start and end, each the minute it falls in or the next one, so that they are
    /// `minutes` apart (`minutes` is the session's length floored or rounded up, as the rows of
    /// a list are); of the pairs that are, the one nearest to the true times.
    static func shown(start: Micros, end: Micros, minutes: Int64) -> (start: Micros, end: Micros) {
        func floor(_ t: Micros) -> Micros { t.floorDivided(by: minute) * minute }
        func options(_ t: Micros) -> [Micros] { floor(t) == t ? [t] : [floor(t), floor(t) + minute] }
        var best: (start: Micros, end: Micros, error: Micros)?
        for s in options(start) {
            for e in options(end) where e - s == minutes * minute {
                let error = abs(s - start) + abs(e - end)
                if best == nil || error < best!.error { best = (s, e, error) }
            }
        }
        // Always found for a floored or rounded-up length; the nearest minutes otherwise.
        guard let best else { return (floor(start + minute / 2), floor(end + minute / 2)) }
        return (best.start, best.end)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

extension ReportJSON {
    /// `app NAME` → `{"day","time_zone","app","category","seconds","share",
    /// "sessions":[{"id","start","end","seconds","running"}],"hours":[{"start","hour","seconds"}]}`;
    /// session and slot times as local RFC 3339 to the second, every slot of the day listed; for
    /// a browser, its `"sites":[{"site","seconds","sessions","category"}]` as `sites` lists them.
    public static func app(_ a: AppDayReport, sites: [SiteTotal]? = nil, categories: SiteCategories = SiteCategories([])) -> JSONText {
        .object([
            ("day", .string(a.day.description)),
            ("time_zone", .string(a.zone)),
            ("app", .string(a.name)),
            ("category", .string(a.category)),
            ("seconds", .seconds(a.micros)),
            ("share", .double(a.share)),
            (
                "sessions",
                .records(
                    a.sessions.map { s in
                        .object([
                            ("id", s.id.map { .string($0) } ?? .null),
                            ("start", .string(TextFormat.localTimestamp(s.start, offsetSeconds: s.startUTCOffsetSeconds))),
                            ("end", .string(TextFormat.localTimestamp(s.end, offsetSeconds: s.endUTCOffsetSeconds))),
                            ("seconds", .seconds(s.micros)),
                            ("running", .bool(s.running)),
                        ])
                    }, fields: ["id", "start", "end", "seconds", "running"])
            ),
            (
                "hours",
                .records(
                    a.hours.map { h in
                        .object([
                            ("start", .string(TextFormat.localTimestamp(h.slot.start, offsetSeconds: h.slot.utcOffsetSeconds))),
                            ("hour", .int(h.slot.hour)),
                            ("seconds", .seconds(h.micros)),
                        ])
                    }, fields: ["start", "hour", "seconds"])
            ),
        ] + (sites.map { [("sites", siteList($0, categories: categories))] } ?? []))
    }

    /// `hour H` → `{"day","time_zone","hour":H,"slots":[…]}`, each slot shaped like `show`'s
    /// `hours[]` elements (none when the clocks skip the hour, two on a fall-back day).
    public static func hour(_ r: DayReport, hour: Int, slots: [HourUsage]) -> JSONText {
        .object(dayHeader(r) + [("hour", .int(hour)), ("slots", hours(slots))])
    }

    /// `check` → `{"source","sessions","apps","categories","first_day","last_day","days_covered",
    /// "days_with_data","app_time_seconds","screen_time_seconds","overlap_seconds","repaired_strings",
    /// "skipped":{"total","reasons"},"examples":{REASON:[{"session_id","line","source"}]},
    /// "sources":[{"source","sessions","skipped","examples"}],"running":[…],"local_times":[…]}`;
    /// `running` and `local_times` as `load` gives them; `examples` lists only the
    /// reasons that have some; `sources` has one entry per source loaded together.
    public static func check(_ q: DataQuality) -> JSONText {
        .object([
            ("source", .string(q.source)),
            ("sessions", .int(q.sessions)),
            ("apps", .int(q.apps)),
            ("categories", .int(q.categories)),
            ("first_day", q.firstDay.map { .string($0.description) } ?? .null),
            ("last_day", q.lastDay.map { .string($0.description) } ?? .null),
            ("days_covered", .int(q.daysCovered)),
            ("days_with_data", .int(q.daysWithData)),
            ("app_time_seconds", .seconds(q.appTimeMicros)),
            ("screen_time_seconds", .seconds(q.screenTimeMicros)),
            ("overlap_seconds", .seconds(q.overlapMicros)),
            ("repaired_strings", .int(q.repairedStrings)),
            ("skipped", skipped(q.skipped)),
            ("examples", examples(q.skipped, source: q.source)),
            (
                "sources",
                .array(
                    q.parts.map { part in
                        .object([
                            ("source", .string(part.source)),
                            ("sessions", .int(part.sessions)),
                            ("skipped", skipped(part.skipped)),
                            ("examples", examples(part.skipped, source: part.source)),
                        ])
                    })
            ),
            ("running", running(q.running)),
            ("local_times", localTimes(q.parts)),
        ])
    }

    /// `{REASON:[{"session_id","line","source"}]}` for the reasons that have examples; `line`
    /// is null where the source has no lines.
    static func examples(_ skipped: SkipSummary, source: String) -> JSONText {
        .object(
            SkipReason.allCases.compactMap { reason -> (String, JSONText)? in
                guard let rows = skipped.examples[reason], !rows.isEmpty else { return nil }
                return (
                    reason.rawValue,
                    .array(
                        rows.map {
                            .object([
                                ("session_id", $0.sessionID.map { .string($0) } ?? .null),
                                ("line", $0.line.map { .int($0) } ?? .null),
                                ("source", .string($0.source ?? source)),
                            ])
                        })
                )
            })
    }
}
