// LoadReport.swift — what a load says: the `load` summary (text and JSON), the one warning line of a load that skipped rows, and the notes on running sessions and times read without an offset.
import UsageCore

extension TextReport {
    /// The `load` summary: source, sessions and days covered; then, when there are any, the
    /// sessions still running and the zone times without an offset were read in. Skipped rows
    /// are said by the warning line (`skipWarning`), once, on stderr.
    public static func loaded(_ d: some SessionHistory, zone: Zone, width: Int) -> [String] {
        let count = d.sessionCount
        var first = "loaded \(TextFormat.count(count, "session")) from \(TerminalText.sanitize(d.source))"
        if let range = d.dayRange(in: zone) {
            first += range.lowerBound == range.upperBound ? ", \(range.lowerBound)" : ", \(range.lowerBound) … \(range.upperBound)"
        }
        return wrap([first] + notes(d, zone: zone), width: width)
    }

    /// The load's notes: the times read without an offset (one line per source that had
    /// some) and the sessions still running.
    static func notes(_ d: some SessionHistory, zone: Zone) -> [String] {
        var lines: [String] = []
        for part in d.parts {
            guard let local = part.localTimes else { continue }
            let whose = d.parts.count > 1 ? " of \(TerminalText.sanitize(part.source))" : ""
            lines.append(
                "times without a UTC offset\(whose) (\(grouped(local.rows)) row\(local.rows == 1 ? "" : "s")) read as "
                    + "\(TerminalText.sanitize(local.zone)) time; --data-tz ZONE or 'set data-tz ZONE' reads them in another")
        }
        let running = d.runningSessions(in: zone)
        if running.count == 1, let r = running.first {
            lines.append(
                "still running: \(TerminalText.sanitize(r.app)) since \(stamp(r.start, offset: r.startUTCOffsetSeconds)), "
                    + "counted up to now (load again to bring it up to date)")
        } else if running.count > 1 {
            lines.append("still running: \(running.count) sessions, counted up to now ('check' lists them)")
        }
        return lines
    }

    /// `Mon 2026-02-23 23:00`: a local time with its weekday, for notes.
    static func stamp(_ t: Micros, offset: Int) -> String {
        let local = TextFormat.localTimestamp(t, offsetSeconds: offset)
        let date = LocalDate(iso: local.prefix(10))!
        return "\(TextFormat.shortWeekday(date)) \(date) \(TextFormat.clock(t, offsetSeconds: offset))"
    }

    /// The one warning line of a load that skipped rows (nil when it skipped none):
    /// `12 of 5,000 rows skipped (9 bad timestamp, 3 end not after start) — 'check' lists them`;
    /// reasons by count, most first.
    public static func skipWarning(_ d: some SessionHistory) -> String? {
        let skipped = d.skipped
        guard skipped.total > 0 else { return nil }
        let rows = d.parts.reduce(0) { $0 + $1.sessions } + skipped.total
        let reasons = SkipReason.allCases.filter { skipped.count($0) > 0 }
            .sorted { skipped.count($0) > skipped.count($1) }
            .map { "\(grouped(skipped.count($0))) \(phrase($0))" }
        return "\(grouped(skipped.total)) of \(grouped(rows)) row\(rows == 1 ? "" : "s") skipped "
            + "(\(reasons.joined(separator: ", "))) — 'check' lists them"
    }

    /// A skip reason in words.
    static func phrase(_ reason: SkipReason) -> String {
        switch reason {
        case .missingTimestamp: return "no timestamp"
        case .badTimestamp: return "bad timestamp"
        case .endNotAfterStart: return "end not after start"
        case .badFieldType: return "bad field type"
        case .notAnObject: return "not an object"
        }
    }

    /// `5,000`: a count with thousands separated by commas.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}

extension ReportJSON {
    /// `load …` → `{"source","sessions","skipped":{…},"first_day","last_day","running":[…],
    /// "local_times":[…]}`: what was loaded; first and last day in the selected zone (null when
    /// empty); the sessions still running (`{"app","session_id","start"}`, start as local RFC 3339)
    /// and, per source that had times without an offset, `{"source","rows","time_zone"}`.
    public static func load(_ d: some SessionHistory, zone: Zone) -> JSONText {
        let range = d.dayRange(in: zone)
        return .object([
            ("source", .string(d.source)),
            ("sessions", .int(d.sessionCount)),
            ("skipped", skipped(d.skipped)),
            ("first_day", range.map { .string($0.lowerBound.description) } ?? .null),
            ("last_day", range.map { .string($0.upperBound.description) } ?? .null),
            ("running", running(d.runningSessions(in: zone))),
            ("local_times", localTimes(d.parts)),
        ])
    }

    /// `[{"app","session_id","start","seconds"}]`: seconds counted up to the load's clock.
    static func running(_ list: [RunningSession]) -> JSONText {
        .array(
            list.map { r in
                .object([
                    ("app", .string(r.app)),
                    ("session_id", r.id.map { .string($0) } ?? .null),
                    ("start", .string(TextFormat.localTimestamp(r.start, offsetSeconds: r.startUTCOffsetSeconds))),
                    ("seconds", .seconds(r.end - r.start)),
                ])
            })
    }

    /// `[{"source","rows","time_zone"}]` for the sources that had times without an offset.
    static func localTimes(_ parts: [SourcePart]) -> JSONText {
        .array(
            parts.compactMap { part in
                part.localTimes.map { local in
                    .object([("source", .string(part.source)), ("rows", .int(local.rows)), ("time_zone", .string(local.zone))])
                }
            })
    }
}
