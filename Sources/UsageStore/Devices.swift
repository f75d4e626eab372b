// Devices.swift — the machines a store's sessions came from: this one's name (its host name, or USAGE_SHELL_DEVICE), and each device's row kept true by imports and retention.
import Foundation
import UsageCore

#if canImport(Glibc)
    import Glibc
#endif

/// The devices of a store.
public enum Devices {
    /// This machine's device name: `USAGE_SHELL_DEVICE` when set, else the host name.
    public static var local: String {
        if let named = ProcessInfo.processInfo.environment["USAGE_SHELL_DEVICE"], !named.isEmpty { return named }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "localhost" }
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.isEmpty ? "localhost" : host
    }

    /// The id of the device named `name`, made (with no sessions yet) when new.
    static func id(_ name: String, now: Micros, _ tx: any SQLTransaction) throws -> Int64 {
        if let id = try tx.int("SELECT id FROM device WHERE name = ?", [.text(name)]) { return id }
        return try tx.insert(
            "INSERT INTO device (id, name, sessions, first_import, last_import) VALUES (\(SQLIDs.next("device")), ?, 0, ?, ?) RETURNING id",
            [.text(name), .integer(now), .integer(now)])
    }

    /// A device's row after an import: its count, its last import (`now`, or a copied source's
    /// when later; `first`, a copied source's first import, when earlier than the device's),
    /// its latest end and longest session (compared here: the backends' `max` of two values differ).
    static func noteImport(_ id: Int64, added: Int, dataset: Dataset, now: Micros, first: Micros? = nil, _ tx: any SQLTransaction) throws {
        let row = try tx.row("SELECT first_import, last_import, latest_end, longest FROM device WHERE id = ?", [.integer(id)])
        var latestEnd = row?.int("latest_end")
        if let end = dataset.span?.end { latestEnd = max(latestEnd ?? end, end) }
        let longest = max(row?.int("longest") ?? 0, dataset.longestSession)
        let last = max(row?.int("last_import") ?? now, now)
        let firstImport = [row?.int("first_import"), first].compactMap { $0 }.min()
        try tx.execute(
            "UPDATE device SET sessions = sessions + ?, first_import = ?, last_import = ?, latest_end = ?, longest = ? WHERE id = ?",
            [SQLValue(added), SQLValue(firstImport), .integer(last), SQLValue(latestEnd), .integer(longest), .integer(id)])
    }

    /// Every device, most recently imported first, with its sessions and its site visits, and
    /// when the recorder last wrote its sessions (its source's last write).
    static func all(_ tx: any SQLTransaction) throws -> [DeviceSummary] {
        try tx.rows(
            """
            SELECT d.name, d.sessions, d.first_import, d.last_import, coalesce(v.visits, 0) AS visits,
                (SELECT max(s.last_import) FROM source s WHERE s.device = d.id AND s.name = ?) AS recorded
            FROM device d LEFT JOIN (SELECT device, count(*) AS visits FROM site_visit GROUP BY device) v ON v.device = d.id
            ORDER BY d.last_import DESC, d.id
            """, [.text(RecorderSource.identity)]
        ).map { row in
            DeviceSummary(
                name: row.text("name") ?? "", sessions: Int(row.int("sessions") ?? 0), siteVisits: Int(row.int("visits") ?? 0),
                firstImport: row.int("first_import"), lastImport: row.int("last_import"), lastRecorded: row.int("recorded"))
        }
    }
}
