// StoreReport.swift — the store's reports as text and JSON: what `import` did per source, and what `store` shows (where, how big, what it holds, from where, what it keeps).
import UsageCore

extension TextReport {
    /// `import`: one line per source (added, updated, unchanged, the site visits added when it
    /// held any, skipped by reason; the device
    /// named when one file's sessions went to several, as an ActivityWatch export's buckets of
    /// several hosts do), then the store.
    public static func imported(_ s: ImportSummary, width: Int) -> [String] {
        let severalDevices = Set(s.sources.compactMap(\.device)).count > 1
        var lines = s.sources.map { r in
            let device = severalDevices ? r.device.map { " (device \(TerminalText.sanitize($0)))" } ?? "" : ""
            var line = "imported \(TerminalText.sanitize(r.source))\(device): \(grouped(r.added)) added, \(grouped(r.updated)) updated, \(grouped(r.unchanged)) unchanged"
            if let visits = r.visits { line += ", \(TextFormat.count(visits, "site visit")) added" }
            if r.skipped.total > 0 {
                let reasons = SkipReason.allCases.filter { r.skipped.count($0) > 0 }.map { "\(r.skipped.count($0)) \($0.rawValue)" }
                line += "; \(TextFormat.count(r.skipped.total, "row")) skipped (\(reasons.joined(separator: ", ")))"
            }
            return line
        }
        if s.forgotten > 0, let days = s.retentionDays {
            lines.append("retention: \(TextFormat.count(s.forgotten, "session")) older than \(days) days forgotten")
        }
        lines.append("the store holds \(TextFormat.count(s.sessions, "session")): \(TerminalText.sanitize(s.path))")
        return wrap(lines, width: width)
    }

    /// `store`: path and size, sessions and days, each source with its last import, retention;
    /// a label column with the values wrapped under their own column (a path breaks after a
    /// `/`), or, too narrow for that, each label over its values.
    public static func store(_ s: StoreSummary, zone: Zone, width: Int, theme: Theme = .plain) -> [String] {
        var rows: [(String, String)] = [
            ("path", "\(TerminalText.sanitize(s.path))\(s.readOnly ? " (read-only)" : "")"), ("size", size(s.bytes)),
        ]
        var held = "\(TextReport.grouped(s.sessions)) from \(TextFormat.count(s.apps, "app"))"
        if let days = s.days {
            let n = days.lowerBound.days(to: days.upperBound) + 1
            held += ", \(days.lowerBound) … \(days.upperBound) (\(n) day\(n == 1 ? "" : "s"))"
        }
        rows.append(("sessions", held))
        if s.sources.isEmpty {
            rows.append(("sources", "none yet: usage-shell import FILE"))
        }
        let severalDevices = Set(s.sources.map(\.device)).count > 1
        for (k, source) in s.sources.enumerated() {
            var shown = source.shown == source.identity ? source.identity : "\(source.shown) (\(source.identity))"
            if severalDevices { shown += " (device \(source.device))" }
            let last = TextFormat.localTimestamp(source.lastImport, offsetSeconds: zone.offsetSeconds(at: source.lastImport))
            rows.append(
                (
                    k == 0 ? "sources" : "",
                    "\(TerminalText.sanitize(shown)): \(TextFormat.count(source.sessions, "session")), "
                        + "last imported \(last.prefix(16).replacingOccurrences(of: "T", with: " "))"
                ))
        }
        rows.append(
            ("retention", s.retentionDays.map { "imported sessions older than \($0) days are forgotten after each import" }
                ?? "keep everything (set retention 90d to keep 90 days)"))
        return [theme.heading("Store")] + labelled(rows, width: width)
    }

    /// Label and value rows: the labels in a column of 11 cells, each value wrapped under its own
    /// column; when that leaves the values fewer than 30 cells, each label on its own line and
    /// its values indented below it.
    static func labelled(_ rows: [(label: String, value: String)], width: Int) -> [String] {
        let column = 11
        if width - column >= 30 {
            return rows.flatMap { row in
                wrap(row.value, width: width, first: row.label.padded(toCells: column), rest: String(repeating: " ", count: column))
            }
        }
        return rows.flatMap { row in
            (row.label.isEmpty ? [] : [row.label]) + wrap(row.value, width: width, first: "  ", rest: "    ")
        }
    }

    /// `84.2 MB` (decimal units, as file managers show sizes).
    public static func size(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(Int((value * 10).rounded()) / 10) + "." + String(Int((value * 10).rounded()) % 10) + " " + units[unit]
    }
}

extension ReportJSON {
    /// `import`: `{"store","sources":[{"source","device","added","updated","unchanged","visits","skipped"}],"forgotten","sessions"}`
    /// (`visits`: the site visits added, null when the source held none).
    public static func imported(_ s: ImportSummary) -> JSONText {
        .object([
            ("store", .string(s.path)),
            (
                "sources",
                .records(
                    s.sources.map { r in
                        .object([
                            ("source", .string(r.source)), ("device", r.device.map { .string($0) } ?? .null), ("added", .int(r.added)), ("updated", .int(r.updated)),
                            ("unchanged", .int(r.unchanged)), ("visits", r.visits.map { .int($0) } ?? .null), ("skipped", skipped(r.skipped)),
                        ])
                    }, fields: ["source", "added", "updated", "unchanged", "visits"] + skippedFields.map { "skipped." + $0 })
            ),
            ("forgotten", .int(s.forgotten)),
            ("sessions", .int(s.sessions)),
        ])
    }

    /// `store`: `{"path","bytes","read_only","sessions","apps","first_day","last_day","sources":[{"source","shown","device",…}],"retention_days"}`.
    public static func store(_ s: StoreSummary, zone: Zone) -> JSONText {
        func time(_ t: Micros) -> JSONText { .string(TextFormat.localTimestamp(t, offsetSeconds: zone.offsetSeconds(at: t))) }
        return .object([
            ("path", .string(s.path)),
            ("bytes", .int(Int(s.bytes))),
            ("read_only", .bool(s.readOnly)),
            ("sessions", .int(s.sessions)),
            ("apps", .int(s.apps)),
            ("first_day", s.days.map { .string($0.lowerBound.description) } ?? .null),
            ("last_day", s.days.map { .string($0.upperBound.description) } ?? .null),
            (
                "sources",
                .records(
                    s.sources.map { source in
                        .object([
                            ("source", .string(source.identity)), ("shown", .string(source.shown)), ("device", .string(source.device)),
                            ("sessions", .int(source.sessions)), ("imports", .int(source.imports)),
                            ("first_import", time(source.firstImport)), ("last_import", time(source.lastImport)),
                        ])
                    }, fields: ["source", "shown", "device", "sessions", "imports", "first_import", "last_import"])
            ),
            ("retention_days", s.retentionDays.map { .int($0) } ?? .null),
        ])
    }
}

extension TextReport {
    /// A store copied into another: what it added, and what was there already.
    public static func copied(_ s: CopySummary, width: Int) -> [String] {
        wrap(
            [
                "copied \(TerminalText.sanitize(s.from)) into \(TerminalText.sanitize(s.into)): \(TextFormat.count(s.sessionsAdded, "session")) added, "
                    + "\(s.sessionsKept) there already; \(s.tasksAdded) task\(s.tasksAdded == 1 ? "" : "s") and \(s.intervalsAdded) tracked interval\(s.intervalsAdded == 1 ? "" : "s") added, "
                    + "\(s.intervalsKept) there already"
            ], width: width)
    }
}

extension ReportJSON {
    /// A store copied: `{"from","into","sessions_added","sessions_kept","tasks_added","intervals_added","intervals_kept"}`.
    public static func copied(_ s: CopySummary) -> JSONText {
        .object([
            ("from", .string(s.from)), ("into", .string(s.into)), ("sessions_added", .int(s.sessionsAdded)), ("sessions_kept", .int(s.sessionsKept)),
            ("tasks_added", .int(s.tasksAdded)), ("intervals_added", .int(s.intervalsAdded)), ("intervals_kept", .int(s.intervalsKept)),
        ])
    }
}
