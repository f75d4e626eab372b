// DevicesReport.swift — `devices` as text and JSON: each device the store's sessions or site visits came from, its sessions, its visits, its first import and its last write (recorded or imported); and the line that says a view shows one device's sessions.
import UsageCore

extension TextReport {
    /// `devices`: a heading, then one row per device (the selected one marked), most recently
    /// imported first.
    public static func devices(_ devices: [DeviceSummary], selected: String?, zone: Zone, width: Int, theme: Theme = .plain) -> [String] {
        guard !devices.isEmpty else { return wrap(["no devices yet: the store holds no sessions (usage-shell import FILE)"], width: width) }
        let names = devices.map { TerminalText.sanitize($0.name) }
        let nameWidth = min(names.map(TerminalText.cells).max() ?? 0, max(8, width / 3))
        var lines = [theme.heading("Devices · \(devices.count)")]
        for (k, device) in devices.enumerated() {
            let mark = device.name == selected ? "* " : "  "
            let name = TerminalText.fit(names[k], width: nameWidth).padded(toCells: nameWidth)
            // Its last write: the recorder's (`record` on that machine) or a file's import.
            let last = device.lastImport.map { t in
                (device.lastRecorded == t ? "last recorded " : "last imported ")
                    + TextFormat.localTimestamp(t, offsetSeconds: zone.offsetSeconds(at: t)).prefix(16).replacingOccurrences(of: "T", with: " ")
            } ?? "never imported"
            // A device whose browser wrote site visits and nothing else: its visits, and no
            // import (its row was made by the first visit, not by an import).
            let visits = device.siteVisits > 0 ? ", " + TextFormat.count(device.siteVisits, "site visit") : ""
            let tail = device.sessions == 0 && device.siteVisits > 0 ? "" : ", \(last)"
            let row = "\(mark)\(name)  \(TextFormat.count(device.sessions, "session"))\(visits)\(tail)"
            lines += wrap(row, width: width, first: "", rest: String(repeating: " ", count: nameWidth + 4))
        }
        lines += wrap([selected.map { "showing \(TerminalText.sanitize($0))'s sessions ('device all' shows every device's)" } ?? "showing every device's sessions ('device NAME' shows one)"], width: width)
        return lines
    }

    /// The line over a view of one device's sessions.
    public static func deviceNote(_ device: String, width: Int) -> [String] {
        wrap(["device \(TerminalText.sanitize(device))"], width: width)
    }
}

extension ReportJSON {
    /// `devices`: `[{"name","sessions","site_visits","first_import","last_import","last_recorded","selected"}]`
    /// (`last_import`: its last write, an import's or the recorder's; `last_recorded`: the recorder's, null when never recorded).
    public static func devices(_ devices: [DeviceSummary], selected: String?, zone: Zone) -> JSONText {
        func time(_ t: Micros?) -> JSONText {
            t.map { .string(TextFormat.localTimestamp($0, offsetSeconds: zone.offsetSeconds(at: $0))) } ?? .null
        }
        return .array(
            devices.map { d in
                .object([
                    ("name", .string(d.name)), ("sessions", .int(d.sessions)), ("site_visits", .int(d.siteVisits)), ("first_import", time(d.firstImport)),
                    ("last_import", time(d.lastImport)), ("last_recorded", time(d.lastRecorded)), ("selected", .bool(d.name == selected)),
                ])
            })
    }
}
