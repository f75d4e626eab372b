// ImportsReport.swift — `imports` as text and JSON: each import the store keeps, newest first, with its number (for `forget import N`), when it ran, each source with the device its sessions went to, what it added, updated and found already there, the site visits it added, and whether it was forgotten.
import UsageCore

extension TextReport {
    /// `imports`: a title, then an entry a line (wrapped under its number): `#3  Fri 2026-11-27
    /// 13:19  phone.csv as laptop · 1204 added`. `shown` entries of the list; a last line says
    /// how many earlier ones `imports all` adds.
    public static func imports(_ entries: [ImportEntry], shown: Int, zone: Zone, width: Int, theme: Theme = .plain) -> [String] {
        guard !entries.isEmpty else {
            return wrap(["no imports yet (import FILE puts one into the store; imports made before this version are not listed)"], width: width)
        }
        var lines = [theme.heading("Imports · \(entries.count)")]
        let listed = entries.prefix(shown)
        let numberWidth = listed.map { "#\($0.id)".count }.max() ?? 2
        for entry in listed {
            let number = "#\(entry.id)".padding(toLength: numberWidth, withPad: " ", startingAt: 0)
            let head = "  \(number)  \(when(entry.at, zone: zone))  "
            lines += wrap("\(importSources(entry)) · \(importDid(entry, zone: zone))", width: width, first: head, rest: String(repeating: " ", count: numberWidth + 4))
        }
        if entries.count > listed.count {
            let earlier = entries.count - listed.count
            lines += wrap(["  \(earlier) earlier import\(earlier == 1 ? "" : "s"): imports all lists every one"], width: width)
        }
        return lines
    }

    /// `phone.csv as laptop`, `a.json, b.csv as laptop`, `aw://host:5600 as desk and as lap`.
    public static func importSources(_ entry: ImportEntry) -> String {
        guard !entry.parts.isEmpty else { return "no source" }
        var groups: [(device: String, sources: [String])] = []
        for part in entry.parts {
            let source = TerminalText.sanitize(part.source)
            if let k = groups.firstIndex(where: { $0.device == part.device }) {
                if !groups[k].sources.contains(source) { groups[k].sources.append(source) }
            } else {
                groups.append((part.device, [source]))
            }
        }
        return groups.map { "\($0.sources.joined(separator: ", ")) as \(TerminalText.sanitize($0.device))" }.joined(separator: "; ")
    }

    /// `1,204 added`, `nothing new`, `3 added, 2 updated`, `nothing new, 1500 already there`
    /// (sessions the store had, left as they were), `, 3 site visits` (the site visits it
    /// added, where it added any), and `; forgotten Fri 2026-11-27 14:02`.
    static func importDid(_ entry: ImportEntry, zone: Zone) -> String {
        let updated = entry.parts.reduce(0) { $0 + $1.updated }
        let there = entry.parts.reduce(0) { $0 + $1.unchanged }
        // No break inside a count or a time when the line wraps (no-break spaces).
        var did = entry.added > 0 ? "\(entry.added)\u{A0}added" : "nothing\u{A0}new"
        if updated > 0 { did += ", \(updated)\u{A0}updated" }
        if there > 0 { did += ", \(there)\u{A0}already\u{A0}there" }
        if let visits = entry.visits, visits > 0 { did += ", \(visits)\u{A0}site\u{A0}visit\(visits == 1 ? "" : "s")" }
        if let at = entry.forgotten { did += "; forgotten\u{A0}" + when(at, zone: zone).replacingOccurrences(of: " ", with: "\u{A0}") }
        return did
    }

    /// `Fri 2026-11-27 13:19`, local.
    public static func when(_ t: Micros, zone: Zone) -> String {
        let day = zone.localDate(of: t)
        return "\(TextFormat.shortWeekday(day)) \(day) \(TextFormat.clock(t, offsetSeconds: zone.offsetSeconds(at: t)))"
    }
}

extension ReportJSON {
    /// `imports`: `{"imports":[{"id","at","added","visits","forgotten","sources":[{"source","device","added","updated","unchanged","visits"}]}]}`
    /// (`visits`: the site visits added, null where no source held any).
    public static func imports(_ entries: [ImportEntry], zone: Zone) -> JSONText {
        func count(_ n: Int?) -> JSONText { n.map { .int($0) } ?? .null }
        func time(_ t: Micros?) -> JSONText { t.map { .string(TextFormat.localTimestamp($0, offsetSeconds: zone.offsetSeconds(at: $0))) } ?? .null }
        return .object([
            (
                "imports",
                .records(
                    entries.map { entry in
                        .object([
                            ("id", .int(Int(entry.id))), ("at", time(entry.at)), ("added", .int(entry.added)), ("visits", count(entry.visits)),
                            ("forgotten", time(entry.forgotten)),
                            (
                                "sources",
                                .array(
                                    entry.parts.map { part in
                                        .object([
                                            ("source", .string(part.source)), ("device", .string(part.device)), ("added", .int(part.added)),
                                            ("updated", .int(part.updated)), ("unchanged", .int(part.unchanged)), ("visits", count(part.visits)),
                                        ])
                                    })
                            ),
                        ])
                    }, fields: ["id", "at", "added", "visits", "forgotten"])
            )
        ])
    }
}
