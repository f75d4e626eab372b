// CSVFormat.swift — sessions read from CSV (RFC 4180, through CSV.swift): a header naming the session fields, one row per session.
import CSV
import Foundation
import UsageCore

/// CSV sessions: a header row naming columns (`session_id`, `app_name`, `category`,
/// `start_timestamp`, `end_timestamp`, in any order, others ignored), then one row per session.
/// An empty cell is a null field; blank lines are ignored. `start_timestamp` and
/// `end_timestamp` columns are required.
enum CSVFormat {
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        let body = UnsafeBufferPointer(rebasing: bytes[ByteText.skipBOM(bytes)...])
        let text = String(decoding: body, as: UTF8.self)
        let repairedInput = String(validating: body, as: UTF8.self) == nil
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw .syntax(line: 1, column: 1, message: "a CSV header row was expected")
        }
        let header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let column = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for required in ["start_timestamp", "end_timestamp"] where column[required] == nil {
            throw .syntax(line: 1, column: 1, message: "the CSV header names no \(required) column")
        }
        var rows = SessionRows()
        var line = 1 + newlines(in: reader.headerRow ?? [])
        var count = 0
        while let row = reader.next() {
            line += 1
            defer { line += newlines(in: row) }
            count += 1
            if count & 0xFFF == 0, cancellation.isCancelled { throw .cancelled }
            if row.count == 1, row[0].allSatisfy(\.isWhitespace) { continue }  // a blank line
            func field(_ name: String) -> String? {
                guard let k = column[name], k < row.count, !row[k].isEmpty else { return nil }
                return row[k]
            }
            if repairedInput { rows.countRepaired(row.filter { $0.contains("\u{FFFD}") }.count) }
            rows.add(
                id: field("session_id"), app: field("app_name"), category: field("category"),
                start: field("start_timestamp"), end: field("end_timestamp"), line: line)
        }
        return rows.dataset(source: source)
    }

    /// Line breaks inside a row's quoted fields (CRLF counts once), so rows keep their lines.
    private static func newlines(in row: [String]) -> Int {
        row.reduce(0) { total, field in
            var n = 0
            var previousCR = false
            for byte in field.utf8 {
                if byte == 0x0A {
                    if !previousCR { n += 1 }
                } else if byte == 0x0D {
                    n += 1
                }
                previousCR = byte == 0x0D
            }
            return total + n
        }
    }
}
