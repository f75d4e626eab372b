// InsightsReport.swift — text and JSON of `insights`: the week's top app and category, average, longest session, busiest hour, trend and advice.
import UsageCore

extension TextReport {
    /// `insights`: one labelled fact per line, then the advice in plain words.
    public static func insights(_ i: Insights, zone: Zone, width: Int, theme: Theme = .plain) -> [String] {
        guard let last = i.days.last?.day, let first = i.days.first?.day else { return [] }
        let title = "Insights · \(TextFormat.shortWeekday(first)) \(first) – \(TextFormat.shortWeekday(last)) \(last)"
        guard i.totalMicros > 0 else { return wrap([title, "  no usage recorded in these 7 days"], width: width).headed(theme) }
        let facts = insightFacts(i, zone: zone)
        let labelWidth = facts.map { $0.0.count }.max() ?? 0
        // Two columns when every fact fits beside its label; else each label over its value, so
        // a value never wraps back under the labels.
        let columns = facts.allSatisfy { 2 + labelWidth + 2 + TerminalText.cells($0.1) <= width }
        var lines = [title]
        lines += columns
            ? facts.map { "  " + $0.0 + String(repeating: " ", count: labelWidth - $0.0.count) + "  " + $0.1 }
            : facts.flatMap { ["  " + $0.0, "    " + $0.1] }
        lines += adviceLines(i).map { "  " + $0 }
        return wrap(lines, width: width).headed(theme)
    }

    /// The labelled facts of `insights` (`most used app`, `Safari · 1h`), as the text and the saved picture show them.
    static func insightFacts(_ i: Insights, zone: Zone) -> [(label: String, value: String)] {
        guard let last = i.days.last?.day else { return [] }
        func named(_ top: (name: String, micros: Micros)?) -> String {
            top.map { "\(TerminalText.sanitize($0.name)) · \(TextFormat.duration($0.micros))" } ?? "none"
        }
        var facts: [(label: String, value: String)] = [
            ("most used app", named(i.topApp)),
            ("most used category", named(i.topCategory)),
            ("daily average", TextFormat.duration(i.averageMicros) + (i.daysWithData < i.days.count ? " over the \(i.daysWithData) day\(i.daysWithData == 1 ? "" : "s") with data" : "")),
        ]
        if let l = i.longest {
            let day = zone.localDate(of: l.start)
            let clock = TextFormat.clock(l.start, offsetSeconds: zone.offsetSeconds(at: l.start))
            facts.append(("longest session", "\(TerminalText.sanitize(l.app)) · \(TextFormat.duration(l.micros)), \(TextFormat.shortWeekday(day)) \(day.day) \(TextFormat.shortMonth(day)) \(clock)"))
        }
        if let h = i.busiestHour, h.micros > 0 {
            facts.append(("busiest hour on \(TextFormat.shortWeekday(last)) \(last.day)", "\(slotClock(h.slot, repeated: repeatedHours(zone.window(for: last).slots)).trimmingTrailingSpaces()) · \(TextFormat.duration(h.micros)) app time, \(TextFormat.duration(h.screenMicros)) screen time"))
        }
        let three = i.days.suffix(3).map { TextFormat.duration($0.totalMicros) }.joined(separator: " → ")
        facts.append(("trend, last 3 days", "\(i.trend.rawValue): \(three)"))
        return facts
    }

    /// The advice as sentences; a word of reassurance when there is none.
    static func adviceLines(_ i: Insights) -> [String] {
        guard !i.advice.isEmpty else { return ["Use is steady or falling and under 3 hours a day: nothing to change."] }
        return i.advice.map { advice in
            switch advice {
            case .limit(let app):
                let name = TerminalText.sanitize(app)
                let quoted = name.contains(" ") ? "\"\(name)\"" : name
                return "Use is rising: consider a daily limit on \(name) (limit \(quoted) 1h)."
            case .breaks:
                return "You average more than 3 hours a day: take a short break every hour."
            }
        }
    }
}

extension ReportJSON {
    /// `insights` → `{"first_day","last_day","time_zone","total_seconds","average_seconds","top_app","top_category",
    /// "longest_session","busiest_hour","trend","trend_days","days","advice"}`.
    public static func insights(_ i: Insights, zone: Zone) -> JSONText {
        func named(_ top: (name: String, micros: Micros)?) -> JSONText {
            top.map { .object([("name", .string($0.name)), ("seconds", .seconds($0.micros))]) } ?? .null
        }
        func local(_ t: Micros) -> JSONText { .string(TextFormat.localTimestamp(t, offsetSeconds: zone.offsetSeconds(at: t))) }
        return .object([
            ("first_day", .string(i.days.first?.day.description ?? "")),
            ("last_day", .string(i.days.last?.day.description ?? "")),
            ("time_zone", .string(zone.identifier)),
            ("total_seconds", .seconds(i.totalMicros)),
            ("average_seconds", .seconds(i.averageMicros)),
            ("top_app", named(i.topApp)),
            ("top_category", named(i.topCategory)),
            ("longest_session", i.longest.map { .object([("app", .string($0.app)), ("start", local($0.start)), ("seconds", .seconds($0.micros))]) } ?? .null),
            (
                "busiest_hour",
                i.busiestHour.flatMap { h in
                    h.micros > 0
                        ? .object([
                            ("start", .string(TextFormat.localTimestamp(h.slot.start, offsetSeconds: h.slot.utcOffsetSeconds))),
                            ("hour", .int(h.slot.hour)), ("seconds", .seconds(h.micros)), ("screen_seconds", .seconds(h.screenMicros)),
                        ]) : nil
                } ?? .null
            ),
            ("trend", .string(i.trend.rawValue)),
            ("trend_days", .array(i.days.suffix(3).map { .object([("day", .string($0.day.description)), ("total_seconds", .seconds($0.totalMicros))]) })),
            // Every one of the 7 days (what a saved picture of insights draws).
            ("days", .array(i.days.map { .object([("day", .string($0.day.description)), ("total_seconds", .seconds($0.totalMicros))]) })),
            (
                "advice",
                .array(
                    i.advice.map { advice in
                        switch advice {
                        case .limit(let app): return .object([("kind", .string("limit")), ("app", .string(app))])
                        case .breaks: return .object([("kind", .string("breaks"))])
                        }
                    })
            ),
        ])
    }
}
