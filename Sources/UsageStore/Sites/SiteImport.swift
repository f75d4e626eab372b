// SiteImport.swift — an import's site visits written, once for every backend, inside the import's transaction: `set web off` and `web ignore` applied first, and a visit the store holds already (its device, browser and start) kept once, grown when it grew, and each new one the import's (its entry's number).
import UsageCore

enum SiteImport {
    /// Adds `visits` of the device of id `device`; returns how many were new. None are kept
    /// while `set web off`, nor those of an ignored site. A visit is the same visit when its
    /// device, browser and start are (an export imported again, or under another name): its
    /// length is kept or, when it grew, made the new one; never a second row. A new visit is
    /// import `entry`'s (`forget import N` takes it back); one the store held stays the import's
    /// that first brought it (or no import's: the extension's own, or imported before v13).
    static func add(_ visits: [BrowserVisit], device: Int64, entry: Int64, _ tx: any SQLTransaction) throws -> Int {
        guard try SiteRows.webOn(tx) else { return 0 }
        let ignored = try SiteRows.ignored(tx)
        var siteIDs: [String: Int64] = [:]
        var added = 0
        var longest: Micros = 0
        for visit in visits where visit.end > visit.start {
            guard let name = SiteName.normalized(visit.site), !ignored.contains(where: { $0.matches(name) }) else { continue }
            let length = visit.end - visit.start
            let stored = try tx.row(
                "SELECT id, length FROM site_visit WHERE start = ? AND device = ? AND browser = ?",
                [.integer(visit.start), .integer(device), .text(visit.browser)])
            if let stored, let id = stored.int("id"), let had = stored.int("length") {
                if length > had {
                    try tx.execute("UPDATE site_visit SET length = ? WHERE id = ?", [.integer(length), .integer(id)])
                    longest = max(longest, length)
                }
                continue
            }
            let site: Int64
            if let known = siteIDs[name] {
                site = known
            } else {
                site = try SiteRows.siteID(name, tx)
                siteIDs[name] = site
            }
            try tx.execute(
                "INSERT INTO site_visit (id, device, browser, site, start, length, import_entry) VALUES (\(SQLIDs.next("site_visit")), ?, ?, ?, ?, ?, ?)",
                [.integer(device), .text(visit.browser), .integer(site), .integer(visit.start), .integer(length), .integer(entry)])
            longest = max(longest, length)
            added += 1
        }
        try SiteRows.noteLength(longest, tx)
        return added
    }
}
