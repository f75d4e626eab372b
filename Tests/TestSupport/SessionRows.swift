// SessionRows.swift — fixtures in the sessions format that many test targets write: one row with a valid default for every field, and an instant from its RFC 3339 text.
import UsageCore
import UsageFormats

/// One row of the sessions format with a valid default for every field.
public func row(
    id: String = "\"S-1\"", app: String = "\"Safari\"", category: String = "\"Productivity\"",
    start: String = "\"2026-02-23T09:00:00Z\"", end: String = "\"2026-02-23T09:30:00Z\""
) -> String {
    "{\"session_id\": \(id), \"app_name\": \(app), \"category\": \(category), \"start_timestamp\": \(start), \"end_timestamp\": \(end)}"
}

/// An RFC 3339 instant (the tests' own fixtures are valid).
public func instant(_ text: String) -> Micros { RFC3339.parse(text)! }

/// A dataset of sessions given as (app, category, start, end), the times in RFC 3339, read as the
/// sessions JSON reader reads a file named `source`.
public func dataset(_ rows: [(String, String, String, String)], source: String = "limits.json") throws -> Dataset {
    let json = rows.map { app, category, start, end in
        "{\"app_name\": \"\(app)\", \"category\": \"\(category)\", \"start_timestamp\": \"\(start)\", \"end_timestamp\": \"\(end)\"}"
    }
    return try SessionsJSON.decode("[" + json.joined(separator: ",") + "]", source: source)
}
