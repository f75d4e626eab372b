// CSVFormat.swift — sessions read from CSV (RFC 4180, through CSV.swift): a header naming the session fields, one row per session.
import CSV
import Foundation
import UsageCore

/// CSV sessions (comma-separated; semicolons or tabs when the header has no comma): a header row naming columns (`session_id`, `app_name`, `category`,
/// `start_timestamp`, `end_timestamp`, in any order, others ignored), then one row per session.
/// An empty cell is a null field; blank lines are ignored. `start_timestamp` and
/// `end_timestamp` columns are required.
enum CSVFormat {
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        // Blank lines before the header are skipped (detection skipped them too).
        var first = ByteText.skipBOM(bytes)
        var blankLines = 0
        while true {
            let next = ByteText.skipWhitespace(bytes, from: first)
            guard let newline = (first..<next).last(where: { bytes[$0] == 0x0A }) else { break }
            blankLines += (first...newline).filter { bytes[$0] == 0x0A }.count
            first = newline + 1
        }
        let body = UnsafeBufferPointer(rebasing: bytes[first...])
        let (text, repairedInput) = decodeMarkingInvalid(body)
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true, delimiter: delimiter(of: text))
        } catch {
            throw .malformed(format: SourceFormat.csv.rawValue, problem: "a header row was expected")
        }
        let header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let column = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for required in ["start_timestamp", "end_timestamp"] where column[required] == nil {
            throw .malformed(format: SourceFormat.csv.rawValue, problem: "the header names no \(required) column")
        }
        var rows = SessionRows()
        var line = 1 + blankLines + newlines(in: reader.headerRow ?? [])
        var count = 0
        while var row = reader.next() {
            line += 1
            defer { line += newlines(in: row) }
            count += 1
            if count & 0xFFF == 0, cancellation.isCancelled { throw .cancelled }
            if row.count == 1, row[0].allSatisfy(\.isWhitespace) { continue }  // a blank line
            if repairedInput {
                for k in row.indices where row[k].unicodeScalars.contains(invalidMarker) {
                    rows.countRepaired(1)
                    row[k] = String(String.UnicodeScalarView(row[k].unicodeScalars.map { $0 == invalidMarker ? "\u{FFFD}" : $0 }))
                }
            }
            let cells = row
            func field(_ name: String) -> String? {
                guard let k = column[name], k < cells.count, !cells[k].isEmpty else { return nil }
                return cells[k]
            }
            rows.add(
                id: field("session_id"), app: field("app_name"), category: field("category"),
                start: field("start_timestamp"), end: field("end_timestamp"), line: line)
        }
        return rows.dataset(source: source)
    }

    /// The header's separator: a comma, or the semicolon or tab that spreadsheets in many
    /// locales write, when the header has one of those and no comma.
    static func delimiter(of text: String) -> Unicode.Scalar {
        let header = text.prefix { $0 != "\n" && $0 != "\r\n" }
        if header.contains(",") { return "," }
        if header.contains(";") { return ";" }
        if header.contains("\t") { return "\t" }
        return ","
    }

    /// What invalid UTF-8 decodes to until the fields are split: a noncharacter no data holds,
    /// so that only fields that had invalid bytes count as repaired (not a genuine U+FFFD).
    static let invalidMarker: Unicode.Scalar = "\u{10FFFE}"

    /// The text, with each invalid UTF-8 sequence as `invalidMarker`; and whether there was any.
    static func decodeMarkingInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, Bool) {
        if let valid = String(validating: bytes, as: UTF8.self) { return (valid, false) }
        var scalars = String.UnicodeScalarView()
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .error: scalars.append(invalidMarker)
            case .emptyInput: return (String(scalars), true)
            }
        }
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
