// LimitsReport.swift — text and JSON of `limits` and `limits check`: each limit's use that day, a progress bar, and the local time it was crossed.
import UsageCore

extension TextReport {
    /// `limits`: one row per limit — name (categories marked), a bar of use against the limit
    /// (`█` over `░`, in the app's or category's colour of the session: a colour means one
    /// thing, so being over is said in words, bold, not in red), `1h 5m of 30m`, and `crossed
    /// at 10:42` or `25m left`.
    public static func limits(
        _ statuses: [LimitStatus], day: LocalDate, zone: Zone, width: Int, theme: Theme = .plain, colors: SeriesColors? = nil
    ) -> [String] {
        let title = "Limits · \(TextFormat.shortWeekday(day)) \(day)"
        guard !statuses.isEmpty else {
            return wrap([title, "  no limits: 'limit APP 30m', 'limit youtube.com 1h' or 'limit category NAME 1h'"], width: width).headed(theme)
        }
        if theme.accessible {
            return wrap([title] + statuses.map { "  " + limitSentence($0, zone: zone, day: day) }, width: width).headed(theme)
        }
        let names = statuses.map(limitName)
        let amounts = statuses.map { "\(TextFormat.duration($0.usedMicros)) of \(TextFormat.duration($0.limit.micros))" }
        let notes = statuses.map { limitNote($0, zone: zone, day: day) }
        let amountWidth = amounts.map(\.count).max() ?? 0
        // The bar narrows, then goes, before a name is cut; the amounts and notes are never cut.
        let longest = min(names.map { TerminalText.cells($0) }.max() ?? 0, 28)
        let noteWidth = notes.map(\.count).max() ?? 0
        func fixed(_ bar: Int) -> Int { 2 + 2 + (bar > 0 ? bar + 2 : 0) + amountWidth + 2 + noteWidth }
        let barWidth = [12, 6, 0].first { width - fixed($0) >= longest } ?? 0
        // Too narrow for a name beside its numbers: each name on a line of its own, its bar,
        // amount and note below it, so neither a name nor a note is cut.
        let stacked = width - fixed(0) < longest
        let nameWidth = stacked ? width - 2 : max(4, min(longest, width - fixed(barWidth)))
        let belowBar = [12, 6, 0].first { (bar: Int) -> Bool in
            let barCells: Int = bar > 0 ? bar + 2 : 0
            return 4 + barCells + amountWidth + 2 + noteWidth <= width
        } ?? 0
        let rows = statuses.indices.flatMap { k -> [String] in
            let s = statuses[k]
            func bar(_ line: inout StyledLine, width barWidth: Int) {
                guard barWidth > 0 else { return }
                let fraction: Double = min(1, Double(s.usedMicros) / Double(s.limit.micros))
                let filled = Int((fraction * Double(barWidth)).rounded())
                let g = theme.glyphs
                let series: Series
                switch s.limit.target {
                case .app(let name): series = Series(rank: 0, kind: .app, slot: colors?.app(name))
                case .category(let name): series = Series(rank: 0, kind: .category, slot: colors?.category(name))
                case .site: series = Series(rank: 0, kind: .app, slot: nil)
                }
                line.append(String(repeating: g.isASCII ? "#" : "█", count: filled), codes: series.color(theme)?.foreground)
                line.append(String(repeating: g.isASCII ? "." : "░", count: barWidth - filled), codes: theme.grid)
                line.append("  ")
            }
            var line = StyledLine(theme)
            if stacked {
                line.append("  " + TerminalText.fit(names[k], width: nameWidth))
                var below = StyledLine(theme)
                below.append("    ")
                bar(&below, width: belowBar)
                if below.cells + amountWidth + 2 + noteWidth <= width {
                    below.append(amounts[k].padded(toCells: amountWidth) + "  ")
                    below.append(notes[k], codes: s.isCrossed ? "1" : nil)
                    return [line.finished(), below.finished()]
                }
                // Narrower still: the amount, then the note, each on its own line.
                below.append(amounts[k])
                var note = StyledLine(theme)
                note.append("    ")
                note.append(notes[k], codes: s.isCrossed ? "1" : nil)
                return [line.finished(), below.finished(), note.finished()]
            }
            line.append("  " + TerminalText.pad(names[k], width: nameWidth) + "  ")
            bar(&line, width: barWidth)
            line.append(amounts[k].padded(toCells: amountWidth) + "  ")
            line.append(notes[k], codes: s.isCrossed ? "1" : nil)
            return [line.finished()]
        }
        return wrap([title], width: width).headed(theme) + fitStyled(rows, width: width)
    }

    /// `limits check`: the crossed limits, one sentence each; nothing when none is crossed, so
    /// that cron, which mails any output, stays quiet until there is something to say.
    public static func limitsCheck(_ statuses: [LimitStatus], day: LocalDate, zone: Zone, width: Int) -> [String] {
        wrap(statuses.filter(\.isCrossed).map { limitSentence($0, zone: zone, day: day) }, width: width)
    }

    /// `Safari`, `category Social` or `site youtube.com` (the kind first, so a cut name still says it), sanitised.
    static func limitName(_ s: LimitStatus) -> String {
        switch s.limit.target {
        case .app(let name): return TerminalText.sanitize(name)
        case .category(let name): return "category " + TerminalText.sanitize(name)
        case .site(let name): return "site " + TerminalText.sanitize(name)
        }
    }

    /// `crossed at 10:42` (`01:20-05` in a fall-back day's repeated hour, `24:00` at the day's
    /// very end) or `25m left`.
    static func limitNote(_ s: LimitStatus, zone: Zone, day: LocalDate) -> String {
        guard let t = s.crossedAt else {
            // What is left as shown is the difference of the two times shown (`1h 5m of 2h`: `55m left`).
            let left = TextFormat.minutes(s.limit.micros) - TextFormat.minutes(s.usedMicros)
            return "\(TextFormat.duration(minutes: left, of: s.limit.micros - s.usedMicros)) left"
        }
        let window = zone.window(for: day)
        if t >= window.end { return "crossed at 24:00" }
        return "crossed at " + stamp(t, offsetSeconds: zone.offsetSeconds(at: t), repeated: repeatedHours(window.slots))
    }

    /// `Safari: 1h 5m of 30m, crossed at 10:42`.
    static func limitSentence(_ s: LimitStatus, zone: Zone, day: LocalDate) -> String {
        "\(limitName(s)): \(TextFormat.duration(s.usedMicros)) of \(TextFormat.duration(s.limit.micros)), \(limitNote(s, zone: zone, day: day))"
    }
}

extension ReportJSON {
    /// `limits` / `limits check` → `{"day","time_zone","limits":[{"app"|"category","limit_seconds","used_seconds","crossed","crossed_at"}]}`
    /// (`crossed_at`: local RFC 3339 time, or null).
    public static func limits(_ statuses: [LimitStatus], day: LocalDate, zone: Zone) -> JSONText {
        .object([
            ("day", .string(day.description)),
            ("time_zone", .string(zone.identifier)),
            (
                "limits",
                .records(
                    statuses.map { s in
                        let target: (String, JSONText)
                        switch s.limit.target {
                        case .app(let name): target = ("app", .string(name))
                        case .category(let name): target = ("category", .string(name))
                        case .site(let name): target = ("site", .string(name))
                        }
                        return .object([
                            target,
                            ("limit_seconds", .seconds(s.limit.micros)),
                            ("used_seconds", .seconds(s.usedMicros)),
                            ("crossed", .bool(s.isCrossed)),
                            (
                                "crossed_at",
                                s.crossedAt.map { .string(TextFormat.localTimestamp($0, offsetSeconds: zone.offsetSeconds(at: $0))) }
                                    ?? .null
                            ),
                        ])
                    }, fields: ["app", "category", "limit_seconds", "used_seconds", "crossed", "crossed_at"])
            ),
        ])
    }
}
