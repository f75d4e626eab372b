// TextReport.swift — the plain-text (table) rendering of the day report: header, categories, hours and the app list.
import UsageCore

/// Pure renderers `(report, width) → lines`. Every line fits `width` cells; data text is sanitised.
public enum TextReport {
    /// The header of SPEC §5: the date line and the totals line (`0m total · no usage recorded`
    /// for an empty day).
    public static func header(_ r: DayReport, width: Int, theme: Theme = .plain) -> [String] {
        let totals = TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)
        return fitAll([TextFormat.longDate(r.day), r.isEmpty ? totals + " · no usage recorded" : totals], width: width)
            .headed(theme)
    }

    /// Time by category: name, duration and share, most first.
    public static func categories(_ r: DayReport, width: Int, theme: Theme = .plain) -> [String] {
        guard !r.isEmpty else { return fitAll(["By category", "  no usage recorded"], width: width).headed(theme) }
        let nameWidth = columnWidth(r.categories.map(\.name), width: width, reserved: 2 + 2 + 7 + 2 + 5)
        let rows = r.categories.map { c in
            "  " + TerminalText.pad(c.name, width: nameWidth) + "  "
                + TerminalText.padLeft(TextFormat.duration(c.micros), width: 7) + "  "
                + TerminalText.padLeft(TextFormat.share(c.share), width: 5)
        }
        return fitAll(["By category"] + rows, width: width).headed(theme)
    }

    /// Time per hour slot: local hour, duration, and the slot's top apps.
    public static func hourly(_ r: DayReport, width: Int, theme: Theme = .plain) -> [String] {
        guard !r.isEmpty else { return fitAll(["By hour", "  no usage recorded"], width: width).headed(theme) }
        var lines = ["By hour"]
        var emptyRun: [HourUsage] = []
        func flushEmpty() {
            guard let first = emptyRun.first, let last = emptyRun.last else { return }
            let from = TextFormat.clock(first.slot.start, offsetSeconds: first.slot.utcOffsetSeconds)
            let to = TextFormat.clock(last.slot.end - 60_000_000, offsetSeconds: last.slot.utcOffsetSeconds)
            lines.append("  \(from)–\(to)  no usage")
            emptyRun = []
        }
        let repeated = Set(Dictionary(grouping: r.hours, by: \.slot.hour).filter { $0.value.count > 1 }.keys)
        for h in r.hours {
            if h.micros == 0 {
                emptyRun.append(h)
                continue
            }
            flushEmpty()
            // A fall-back day has an hour twice: tell the two apart by their UTC offset.
            var clock = TextFormat.clock(h.slot.start, offsetSeconds: h.slot.utcOffsetSeconds)
            if !repeated.isEmpty {
                clock += repeated.contains(h.slot.hour) ? String(TextFormat.offset(h.slot.utcOffsetSeconds).prefix(3)) : "   "
            }
            let apps = h.apps.prefix(3).map { "\(TerminalText.sanitize($0.name)) \(TextFormat.duration($0.micros))" }
            let more = h.apps.count > 3 ? " +\(h.apps.count - 3) more" : ""
            lines.append("  \(clock)  " + TerminalText.padLeft(TextFormat.duration(h.micros), width: 6) + "  " + apps.joined(separator: ", ") + more)
        }
        flushEmpty()
        return fitAll(lines, width: width).headed(theme)
    }

    /// The ranked app list: rank, name, category and sessions, duration, share; then a total line.
    public static func apps(
        _ r: DayReport, apps list: [AppUsage], width: Int, theme: Theme = .plain, title: String = "Apps",
        totalLine: String? = nil
    ) -> [String] {
        guard !list.isEmpty else { return fitAll([title, "  no usage recorded"], width: width).headed(theme) }
        let rankWidth = String(list.count).count + 1
        let reserved = 2 + rankWidth + 1 + 2 + 2 + 7 + 2 + 5
        func detail(_ app: AppUsage) -> String {
            "\(app.category) · \(app.sessions) session\(app.sessions == 1 ? "" : "s")"
        }
        // Below 60 cells the category and sessions column goes first, so names keep their room.
        let longestDetail = width < 60 ? 0 : list.map { TerminalText.cells(TerminalText.sanitize(detail($0))) }.max() ?? 0
        let nameWidth = columnWidth(list.map(\.name), width: width, reserved: reserved - 2 + (longestDetail > 0 ? 12 : 0))
        let detailWidth = max(0, min(longestDetail, width - reserved - nameWidth))
        var lines = [title]
        for (k, app) in list.enumerated() {
            let rank = TerminalText.padLeft("\(k + 1).", width: rankWidth)
            let detailColumn = detailWidth > 0 ? TerminalText.pad(detail(app), width: detailWidth) + "  " : ""
            lines.append(
                "  \(rank) " + TerminalText.pad(app.name, width: nameWidth) + "  " + detailColumn
                    + TerminalText.padLeft(TextFormat.duration(app.micros), width: 7) + "  "
                    + TerminalText.padLeft(TextFormat.share(app.share), width: 5))
        }
        lines.append("  " + (totalLine ?? TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)))
        return fitAll(lines.map { trimTrailing($0) }, width: width).headed(theme)
    }

    /// The `show` screen: header, the selected chart, the app list.
    public static func show(_ r: DayReport, hourly: Bool, width: Int, theme: Theme = .plain) -> [String] {
        var lines = header(r, width: width, theme: theme)
        guard !r.isEmpty else { return lines }
        lines.append("")
        lines += hourly ? self.hourly(r, width: width, theme: theme) : categories(r, width: width, theme: theme)
        lines.append("")
        lines += apps(r, apps: r.apps, width: width, theme: theme)
        return lines
    }

    /// The `load` summary: source, sessions and days covered; then the skipped rows by reason.
    public static func loaded(_ d: Dataset, zone: Zone, width: Int) -> [String] {
        let count = d.sessions.count
        var first = "loaded \(count) session\(count == 1 ? "" : "s") from \(TerminalText.sanitize(d.source))"
        if let range = d.dayRange(in: zone) {
            first += range.lowerBound == range.upperBound ? ", \(range.lowerBound)" : ", \(range.lowerBound) … \(range.upperBound)"
        }
        var lines = [first]
        if d.skipped.total > 0 {
            let reasons = SkipReason.allCases.filter { d.skipped.count($0) > 0 }
                .map { "\(d.skipped.count($0)) \($0.rawValue)" }
            lines.append("skipped \(d.skipped.total) rows: \(reasons.joined(separator: ", "))")
        }
        return wrap(lines, width: width)
    }

    /// Lines wrapped at spaces to the width (continuations indented); a word longer than the
    /// width is cut.
    public static func wrap(_ lines: [String], width: Int) -> [String] {
        lines.flatMap { line -> [String] in
            guard TerminalText.cells(line) > width else { return [line] }
            let lead = String(line.prefix { $0 == " " })
            var out: [String] = []
            var current = ""
            for word in line.split(separator: " ") {
                if current.isEmpty {
                    current = (out.isEmpty ? lead : lead + "  ") + word
                } else if TerminalText.cells(current + " " + word) > width {
                    out.append(current)
                    current = lead + "  " + word
                } else {
                    current += " " + word
                }
            }
            if !current.isEmpty { out.append(current) }
            return fitAll(out, width: width)
        }
    }

    /// The widest name, but leaving at least `reserved` cells for the rest of the row.
    private static func columnWidth(_ names: [String], width: Int, reserved: Int) -> Int {
        let longest = names.map { TerminalText.cells(TerminalText.sanitize($0)) }.max() ?? 0
        return max(1, min(longest, width - reserved))
    }

    private static func trimTrailing(_ line: String) -> String {
        var s = Substring(line)
        while s.last == " " { s.removeLast() }
        return String(s)
    }

    /// Cuts every line to the width (the last guard of the "no line wider than the width" rule).
    static func fitAll(_ lines: [String], width: Int) -> [String] {
        lines.map { TerminalText.cells($0) <= width ? $0 : TerminalText.fit($0, width: width) }
    }
}

extension TextReport {
    /// Seven (or N) days: weekday, date, app time, screen time and the top category.
    public static func week(_ days: [DaySummary], width: Int, theme: Theme = .plain) -> [String] {
        var lines = ["                  app time    screen   top category"]
        for d in days {
            let top = d.categories.first.map { "\(TerminalText.sanitize($0.name)) \(TextFormat.duration($0.micros))" } ?? "no usage"
            lines.append(
                "  \(TextFormat.shortWeekday(d.day)) \(d.day)  "
                    + TerminalText.padLeft(TextFormat.duration(d.totalMicros), width: 8) + "  "
                    + TerminalText.padLeft(TextFormat.duration(d.screenTimeMicros), width: 8) + "   " + top)
        }
        let total = days.reduce(0) { $0 + $1.totalMicros }
        let average = total / Int64(max(days.count, 1))
        lines.append("  \(TextFormat.duration(total)) app time in \(days.count) days, \(TextFormat.duration(average)) a day on average")
        return fitAll(lines, width: width).headed(theme)
    }
}
