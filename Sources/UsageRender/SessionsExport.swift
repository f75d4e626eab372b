// SessionsExport.swift — what `export` writes, as bytes: the loaded sessions in the canonical sessions JSON, NDJSON or CSV, and the day's app list as CSV or JSON.
import UsageCore

/// The formats `export` writes, chosen by the file's extension.
public enum ExportFormat: String, CaseIterable, Sendable {
    case json
    case ndjson
    case csv

    /// The format a path's extension names (`.json`; `.ndjson` or `.jsonl`; `.csv`), case aside.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        default: return nil
        }
    }
}

/// Encodes datasets and reports for `export`. Pure: the caller writes the bytes.
public enum SessionsExport {
    /// The five session fields, in the order written.
    static let fields = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    /// Every session in (start, end) order, so that loading the file gives the same dataset:
    /// a JSON array with one session per line, NDJSON, or CSV with a header. Times are UTC
    /// (`2026-02-23T09:00:00Z`, with microseconds when they are not zero); names are the loaded
    /// ones (normalised, category rules applied). In CSV, text cells a spreadsheet would run
    /// as formulas are guarded with `'` unless `cells` says otherwise (`--raw-csv`); our reader
    /// takes the guard off again.
    public static func sessions(_ d: some SessionHistory, format: ExportFormat, cells: CSVCellPolicy = CSVCellPolicy()) -> [UInt8] {
        let all = d.all
        let (apps, categories) = (d.apps, d.categories)
        let rows = all.lazy.map { s -> [String?] in
            [all.id(of: s), apps[Int(s.app)], categories[Int(s.category)], timestamp(s.start), timestamp(s.end)]
        }
        switch format {
        case .csv:
            return CSVText.bytes(header: fields, rows: rows.map { row in row.map { $0.map { cells.text($0) } ?? "" } })
        case .json, .ndjson:
            var out = format == .json ? "[\n" : ""
            var first = true
            for row in rows {
                if !first { out += format == .json ? ",\n" : "\n" }
                first = false
                out += JSONText.object(zip(fields, row).map { ($0, $1.map(JSONText.string) ?? .null) }).serialized
            }
            out += format == .json ? (first ? "]\n" : "\n]\n") : (first ? "" : "\n")
            return Array(out.utf8)
        }
    }

    /// The day's app list: CSV `rank,app,category,sessions,seconds,share` (as `apps` shows it;
    /// share of the day's total, 0–1 with 4 decimals), or the `apps` JSON document. Names are
    /// guarded against spreadsheet formulas as in `sessions`.
    public static func report(_ r: DayReport, format: ExportFormat, cells: CSVCellPolicy = CSVCellPolicy()) -> [UInt8] {
        switch format {
        case .csv:
            let rows = r.apps.enumerated().map { n, app in
                [
                    String(n + 1), cells.text(app.name), cells.text(app.category), String(app.sessions),
                    JSONText.seconds(app.micros), fixed(app.share),
                ]
            }
            return CSVText.bytes(header: ["rank", "app", "category", "sessions", "seconds", "share"], rows: rows)
        case .json, .ndjson:
            return Array((ReportJSON.apps(r, apps: r.apps).serialized + "\n").utf8)
        }
    }

    /// A share (0–1) with at most 4 decimals and never an exponent: `0.1838`, `0.0001`, `1`, `0`.
    static func fixed(_ share: Double) -> String {
        let tenThousandths = Int((share * 10_000).rounded())
        let whole = tenThousandths / 10_000
        var fraction = String(tenThousandths % 10_000).leftPad(4)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    /// `2026-02-23T09:00:00Z`, or `2026-02-23T09:00:00.250000Z` when the instant has microseconds.
    static func timestamp(_ t: Micros) -> String {
        let whole = TextFormat.localTimestamp(t, offsetSeconds: 0)
        let micros = t - t.floorDivided(by: 1_000_000) * 1_000_000
        guard micros != 0 else { return whole }
        return String(whole.dropLast()) + "." + String(micros).leftPad(6) + "Z"
    }
}

/// RFC 4180 CSV text: a field is quoted when it holds a comma, a quote, CR or LF — decided by
/// Unicode scalar, since a comma followed by a combining mark is one `Character` that `contains(",")`
/// misses (CSV.swift's writer does, and split such rows); quotes inside are doubled; CRLF ends
/// every line.
enum CSVText {
    static func bytes(header: [String], rows: [[String]]) -> [UInt8] {
        var out: [UInt8] = []
        for row in [header] + rows {
            for (k, field) in row.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                append(field, to: &out)
            }
            out += [0x0D, 0x0A]
        }
        return out
    }

    static func append(_ field: String, to out: inout [UInt8]) {
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0D, 0x0A]
        // Those four are ASCII, so looking at UTF-8 bytes is looking at scalars.
        guard field.utf8.contains(where: special.contains) else { return out += field.utf8 }
        out.append(UInt8(ascii: "\""))
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}
