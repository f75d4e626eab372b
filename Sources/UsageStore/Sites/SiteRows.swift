// SiteRows.swift — the site tables' rows both the native host's write and an import's use: a site's id (its name stored once), the ignored patterns, the longest visit's length in meta.
import UsageCore

enum SiteRows {
    /// Whether sites are kept at all (`set web off` keeps none).
    static func webOn(_ tx: any SQLTransaction) throws -> Bool {
        try Meta.get(tx, SiteVisits.webOff) == nil
    }

    /// The patterns of the sites never kept (`web ignore`).
    static func ignored(_ tx: any SQLTransaction) throws -> [SitePattern] {
        try tx.texts("SELECT pattern FROM site_ignored ORDER BY pattern", []).compactMap(SitePattern.init)
    }

    /// The id of a site's name (stored once), made when new.
    static func siteID(_ name: String, _ tx: any SQLTransaction) throws -> Int64 {
        if let id = try tx.int("SELECT id FROM site WHERE name = ?", [.text(name)]) { return id }
        return try tx.insert("INSERT INTO site (id, name) VALUES (\(SQLIDs.next("site")), ?) RETURNING id", [.text(name)])
    }

    /// Keeps the longest visit's length.
    static func noteLength(_ length: Micros, _ tx: any SQLTransaction) throws {
        if length > (try Meta.get(tx, SiteVisits.longest) ?? 0) { try Meta.set(tx, SiteVisits.longest, length) }
    }
}
