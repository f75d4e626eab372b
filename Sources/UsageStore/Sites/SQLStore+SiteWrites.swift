// SQLStore+SiteWrites.swift — the native host's write, once for every backend: the open visit of a device's browser extended, ended or begun (its id in meta), `set web off` and `web ignore` applied before anything is kept, and those settings' own changes and the sites' category rules.
import UsageCore

/// The site visits' facts kept in meta.
public enum SiteVisits {
    /// An open visit seen last longer ago than this (three of the host's 5 s heartbeats and a
    /// little more) is not extended over the gap: the host died or the machine slept.
    public static let staleAfter: Micros = 20_000_000
    /// Meta: 1 while `set web off`.
    static let webOff = "web_off"
    /// Meta: the longest visit there is, in µs (a range's read looks back no further).
    static let longest = "site_longest"

    /// Meta: the open visit's id of `browser` on the device of id `device`.
    static func openKey(device: Int64, browser: String) -> String { "site_open:\(device):\(browser)" }
}

extension SQLStore {
    func siteSeen(_ site: String?, browser: String, device: String, at: Micros) throws(StoreError) {
        try write { tx in
            let deviceID = try Devices.id(device, now: at, tx)
            var seen = site.flatMap(SiteName.normalized)
            if let name = seen, try !Self.recorded(name, tx) { seen = nil }
            let key = SiteVisits.openKey(device: deviceID, browser: browser)
            if let open = try Meta.get(tx, key), let visit = try tx.row("SELECT site, start, length FROM site_visit WHERE id = ?", [.integer(open)]),
                let siteID = visit.int("site"), let start = visit.int("start"), let length = visit.int("length")
            {
                let fresh = at >= start + length && at - (start + length) <= SiteVisits.staleAfter
                if fresh {
                    try tx.execute("UPDATE site_visit SET length = ? WHERE id = ?", [.integer(at - start), .integer(open)])
                    try SiteRows.noteLength(at - start, tx)
                    if let seen, try tx.int("SELECT id FROM site WHERE name = ?", [.text(seen)]) == siteID { return }
                }
                try Meta.set(tx, key, nil)
                // A visit seen once and never again held no time.
                try tx.execute("DELETE FROM site_visit WHERE id = ? AND length = 0", [.integer(open)])
            }
            guard let seen else { return }
            let siteID = try SiteRows.siteID(seen, tx)
            let visit = try tx.insert(
                "INSERT INTO site_visit (id, device, browser, site, start, length) VALUES (\(SQLIDs.next("site_visit")), ?, ?, ?, ?, 0) RETURNING id",
                [.integer(deviceID), .text(browser), .integer(siteID), .integer(at)])
            try Meta.set(tx, key, visit)
        }
    }

    func webRecording() throws(StoreError) -> Bool {
        try read { tx in try Meta.get(tx, SiteVisits.webOff) == nil }
    }

    func ignoredSites() throws(StoreError) -> [SitePattern] {
        try read { tx in try SiteRows.ignored(tx) }
    }

    func setWebRecording(_ on: Bool, now: Micros) throws(StoreError) {
        try write { tx in
            try Meta.set(tx, SiteVisits.webOff, on ? nil : 1)
            if !on { try Self.endOpenVisits(now: now, tx) { _ in true } }
        }
    }

    @discardableResult func ignoreSites(_ pattern: SitePattern, now: Micros) throws(StoreError) -> Bool {
        try write { tx in
            let added = try tx.execute("INSERT INTO site_ignored (pattern) VALUES (?) ON CONFLICT (pattern) DO NOTHING", [.text(pattern.description)]) > 0
            try Self.endOpenVisits(now: now, tx) { pattern.matches($0) }
            return added
        }
    }

    func siteCategories() throws(StoreError) -> SiteCategories {
        try read { tx in
            SiteCategories(
                try tx.rows("SELECT pattern, category FROM site_category ORDER BY pattern", []).compactMap { row in
                    guard let pattern = row.text("pattern").flatMap(SitePattern.init), let category = row.text("category") else { return nil }
                    return (pattern, category)
                })
        }
    }

    @discardableResult func setSiteCategory(_ pattern: SitePattern, _ category: String?) throws(StoreError) -> Bool {
        try write { tx in
            guard let category else { return try tx.execute("DELETE FROM site_category WHERE pattern = ?", [.text(pattern.description)]) > 0 }
            try tx.execute(
                "INSERT INTO site_category (pattern, category) VALUES (?, ?) ON CONFLICT (pattern) DO UPDATE SET category = excluded.category",
                [.text(pattern.description), .text(category)])
            return true
        }
    }

    @discardableResult func unignoreSites(_ pattern: SitePattern) throws(StoreError) -> Bool {
        try write { tx in try tx.execute("DELETE FROM site_ignored WHERE pattern = ?", [.text(pattern.description)]) > 0 }
    }

    /// Whether `site` is recorded: web on, and no ignored pattern matching it.
    private static func recorded(_ site: String, _ tx: any SQLTransaction) throws -> Bool {
        guard try SiteRows.webOn(tx) else { return false }
        return try !SiteRows.ignored(tx).contains { $0.matches(site) }
    }

    /// Ends the open visits whose site `ending` picks at `now` (a visit seen too long ago as it
    /// was last seen); a visit that held no time is removed.
    private static func endOpenVisits(now: Micros, _ tx: any SQLTransaction, _ ending: (String) -> Bool) throws {
        let open = try tx.rows("SELECT key, value FROM meta WHERE key LIKE 'site_open:%' ORDER BY key", [])
        for row in open {
            guard let key = row.text("key"), let id = row.int("value") else { continue }
            guard let visit = try tx.row("SELECT s.name, v.start, v.length FROM site_visit v JOIN site s ON s.id = v.site WHERE v.id = ?", [.integer(id)]),
                let name = visit.text("name"), let start = visit.int("start"), let length = visit.int("length")
            else {
                try Meta.set(tx, key, nil)
                continue
            }
            guard ending(name) else { continue }
            try Meta.set(tx, key, nil)
            if now >= start + length && now - (start + length) <= SiteVisits.staleAfter {
                try tx.execute("UPDATE site_visit SET length = ? WHERE id = ?", [.integer(now - start), .integer(id)])
                try SiteRows.noteLength(now - start, tx)
            }
            try tx.execute("DELETE FROM site_visit WHERE id = ? AND length = 0", [.integer(id)])
        }
    }
}
