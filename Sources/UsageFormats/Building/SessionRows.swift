// SessionRows.swift — the entry point for formats other than the sessions JSON (CSV, Timewarrior, ActivityWatch): rows in, a Dataset out, under the same rules.
import UsageCore

/// Builds a dataset row by row for the formats that are not the sessions JSON array. Rows of
/// text go through the same validity rules and normalisation as JSON rows (docs/DATA.md §1–2), so a
/// CSV and a JSON file of the same sessions load to the same dataset.
public struct SessionRows {
    private var builder = DatasetBuilder()
    /// Rows whose times were read as wall-clock times of `localZone`.
    private var localTimeRows = 0
    private var localZone = ""

    public init() {}

    /// A row of text fields as CSV or Timewarrior give them; `nil` is an absent or null field.
    /// `line` is where the row begins, for `check` (nil where the source has no lines).
    public mutating func add(id: String?, app: String?, category: String?, start: String?, end: String?, line: Int?) {
        Self.field(id) { id in
            Self.field(app) { app in
                Self.field(category) { category in
                    Self.field(start) { start in
                        Self.field(end) { end in
                            builder.addRow(id: id, app: app, category: category, start: start, end: end, line: line)
                        }
                    }
                }
            }
        }
    }

    /// A session whose instants are known (ActivityWatch events, CSV rows read by their own
    /// time rules): kept when `end > start`, else counted as `end_not_after_start`. `running`
    /// marks a session whose source gave no end, counted up to the load's clock.
    public mutating func add(
        start: Micros, end: Micros, app: String?, category: String?, id: String?, line: Int? = nil, running: Bool = false
    ) {
        builder.addSession(start: start, end: end, app: app, category: category, id: id, line: line, running: running)
    }

    /// Notes a row whose times were read as wall-clock times of `zone` (no UTC offset given).
    public mutating func noteLocalTimes(zone: String) {
        localTimeRows += 1
        localZone = zone
    }

    /// Counts a row the format itself rejected (a Timewarrior interval without an end, say).
    public mutating func skip(_ reason: SkipReason, id: String?, line: Int?) {
        builder.skip(reason, id: id, line: line)
    }

    /// Counts strings in which the format replaced invalid UTF-8 by U+FFFD.
    public mutating func countRepaired(_ strings: Int) {
        builder.repairedStrings += strings
    }

    /// The dataset: sessions sorted by (start, end), ties in the order added.
    public func dataset(source: String) -> Dataset {
        var builder = builder
        return ScannedSessions(builder.takePart(table: 0)).dataset(source: source)
            .noting(localTimes: localTimeRows > 0 ? LocalTimes(rows: localTimeRows, zone: localZone) : nil)
    }

    /// A text field as the scanner would have seen it (valid UTF-8: a Swift string is).
    private static func field(_ text: String?, _ body: (FieldValue) -> Void) {
        guard var text else { return body(FieldValue(kind: .null)) }
        text.withUTF8 { body(FieldValue(kind: .string, bytes: $0)) }
    }
}
