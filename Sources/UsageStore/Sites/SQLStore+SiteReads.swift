// SQLStore+SiteReads.swift — the sites' time over a range, once for every backend, in one snapshot: the visits touching it (one query on the covering start index, looking back no further than the longest visit), the sessions of the browsers' apps touching it (the start index, and the long-session index for the few longer than a day), intersected as a person saw them (SiteTimes): the spans seen, or their sums per site.
import UsageCore

extension SQLStore {
    func siteTimes(from: Micros, to: Micros, device: String?) throws(StoreError) -> [SiteTime] {
        SiteTimes.times(try siteSpans(from: from, to: to, device: device))
    }

    func siteSpans(from: Micros, to: Micros, device: String?) throws(StoreError) -> [SiteSpan] {
        try read { tx in
            var deviceID: Int64?
            if let device {
                guard let id = try tx.int("SELECT id FROM device WHERE name = ?", [.text(device)]) else { return [] }
                deviceID = id
            }
            let (onDevice, visitOnDevice) = (deviceID.map { " AND device = \($0)" } ?? "", deviceID.map { " AND v.device = \($0)" } ?? "")
            let longest = try Meta.get(tx, SiteVisits.longest) ?? 0
            let visits = try tx.rows(
                """
                SELECT v.device, v.browser, s.name, v.start, v.length FROM site_visit v JOIN site s ON s.id = v.site
                WHERE v.start >= ? AND v.start < ? AND v.start + v.length > ?\(visitOnDevice)
                """, [.integer(from - longest), .integer(to), .integer(from)]
            ).compactMap { row -> SiteVisit? in
                guard let device = row[0].integer, let browser = row[1].text, let site = row[2].text, let start = row[3].integer,
                    let length = row[4].integer
                else { return nil }
                return SiteVisit(device: device, browser: browser, site: site, start: max(start, from), end: min(start + length, to))
            }
            guard !visits.isEmpty else { return [] }
            // The browsers' apps, by id (the app table is small: a name once each).
            var browserApps: [Int64: String] = [:]
            for row in try tx.rows("SELECT id, name FROM app", []) {
                if let id = row[0].integer, let name = row[1].text, BrowserApps.family(ofApp: name) != nil { browserApps[id] = name }
            }
            guard !browserApps.isEmpty else { return [] }
            let apps = browserApps.keys.sorted().map(String.init).joined(separator: ", ")
            let long = StoreHistory.longSession
            let recent = from - long
            let sessions = try tx.rows(
                """
                SELECT device, app, start, length FROM session
                WHERE start >= ? AND start < ? AND start + length > ? AND app IN (\(apps))\(onDevice)
                UNION ALL
                SELECT device, app, start, length FROM session
                WHERE length > \(long) AND start < ? AND start + length > ? AND app IN (\(apps))\(onDevice)
                """, [.integer(recent), .integer(to), .integer(from), .integer(recent), .integer(from)]
            ).compactMap { row -> AppSpan? in
                guard let device = row[0].integer, let app = row[1].integer, let name = browserApps[app], let start = row[2].integer,
                    let length = row[3].integer
                else { return nil }
                return AppSpan(device: device, app: name, start: start, end: start + length)
            }
            return SiteTimes.spans(visits, sessions: sessions, from: from, to: to)
        }
    }
}
