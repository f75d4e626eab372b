// Fuzz/Reference/LegacyCSV.swift — the CSV.swift-based CSV reader the byte-level one replaced (issue 20's rules: headers placed by meaning or mapping, durations, local times, the formula guard), kept verbatim but for names, and only for the tests of where they differ on purpose (no longer a reference: it calls CSVHeader, CellTimestamp, CellDuration); never part of the program.
import Foundation

#if canImport(UsageCore)
    import UsageCore
#endif
#if canImport(UsageFormats)
    import UsageFormats
#endif
#if canImport(UsageData)
    import UsageData
#endif
#if canImport(CSV)
    import CSV
#endif

/// CSV sessions (comma-separated; semicolons or tabs when the header has no comma): a header
/// row, then one row per session. The header's columns are placed by `CSVHeader` (the names
/// other tools write, or the user's `--columns`); a session is a start and an end, or a start
/// and a duration (`CellDuration`); times are read by `CellTimestamp`, those without an
/// offset in `options.localZone` (noted once for the load message). An empty cell is a null
/// field; blank lines are ignored; a text cell we guarded against spreadsheet formulas
/// (`'=…`) is read back without its guard (`SpreadsheetCell.unguarded`).
public enum LegacyCSV {
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, options: ReadOptions = ReadOptions(),
        cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        // Blank lines before the header are skipped (detection skipped them too).
        var first = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        var blankLines = 0
        while true {
            var next = first
            while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x0A || bytes[next] == 0x0D || bytes[next] == 0x09 {
                next += 1
            }
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
            throw .malformed(format: "CSV", problem: "a header row was expected")
        }
        let columns: CSVColumns
        switch CSVHeader.place(reader.headerRow ?? [], mapping: options.columns) {
        case .success(let placed): columns = placed
        case .failure(let problem): throw .malformed(format: "CSV", problem: problem.description)
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
            add(row, columns: columns, zone: options.localZone, line: line, to: &rows)
        }
        return rows.dataset(source: source)
    }

    /// One row as a session, or a skipped row: checked in the order of every format (a
    /// missing time, then a bad one, then an end not after the start).
    static func add(_ cells: [String], columns: CSVColumns, zone: Zone?, line: Int, to rows: inout SessionRows) {
        func cell(_ k: Int?) -> String? {
            guard let k, k < cells.count, !cells[k].isEmpty else { return nil }
            return cells[k]
        }
        let id = cell(columns.id).map(SpreadsheetCell.unguarded)
        let startText = cell(columns.start)
        let endText = cell(columns.end)
        let durationText = endText == nil ? cell(columns.duration) : nil
        guard let startText, endText != nil || durationText != nil else {
            return rows.skip(.missingTimestamp, id: id, line: line)
        }
        let start = CellTimestamp.read(startText, zone: zone)
        let end: CellTimestamp.Reading
        if let endText {
            end = CellTimestamp.read(endText, zone: zone)
        } else if let s = start.micros, let length = CellDuration.micros(durationText!) {
            end = .instant(s + length)
        } else {
            end = .invalid
        }
        guard let s = start.micros, let e = end.micros else { return rows.skip(.badTimestamp, id: id, line: line) }
        // Noted for the sessions kept (a skipped row is counted by its reason).
        if e > s, let zone, start != .instant(s) || end != .instant(e) { rows.noteLocalTimes(zone: zone.identifier) }
        rows.add(
            start: s, end: e, app: cell(columns.app).map(SpreadsheetCell.unguarded),
            category: cell(columns.category).map(SpreadsheetCell.unguarded), id: id, line: line)
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
