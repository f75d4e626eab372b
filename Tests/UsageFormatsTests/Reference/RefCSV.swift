// RefCSV.swift — the tests' own CSV sessions reader (docs/DATA.md §9.2 with §1's rules), built on RefCSVRecords, RefCSVHeader, RefTimeCell and RefDurationCell: the header placed, each row a session or a skipped row, the formula guard taken off.
import Foundation
import UsageCore
import UsageFormats

enum RefCSV {
    static func read(_ b: [UInt8], options: ReadOptions) -> RefFacts {
        // Blank lines before the header (white space up to a line break) are skipped.
        var first = b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
        var line = 0
        while true {
            var k = first
            var lastBreak: Int?
            while k < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[k]) {
                if b[k] == 0x0A { lastBreak = k }
                k += 1
            }
            guard let lastBreak else { break }
            line += b[first...lastBreak].filter { $0 == 0x0A }.count
            first = lastBreak + 1
        }
        var lineEnd = first
        while lineEnd < b.count, b[lineEnd] != 0x0A { lineEnd += 1 }
        let firstLine = String(decoding: b[first..<lineEnd], as: UTF8.self)
        let delimiter = UInt8(ascii: firstLine.contains(",") ? "," : firstLine.contains(";") ? ";" : firstLine.contains("\t") ? "\t" : ",")
        guard let head = RefCSVRecords.record(b, at: first, delimiter: delimiter) else {
            return RefRows.failure("malformed CSV")
        }
        let header = head.fields.map { RefUTF8.text($0).0 }
        guard let columns = RefCSVHeader.place(header, mapping: options.columns) else { return RefRows.failure("malformed CSV") }
        line += 1 + head.fields.reduce(0) { $0 + RefCSVRecords.lineBreaks($1) }  // the header's line
        let zone = options.localZone.map { TimeZone(identifier: $0.identifier)! }
        var rows = RefRows()
        rows.zone = options.localZone?.identifier ?? ""
        var at = head.next
        while let record = RefCSVRecords.record(b, at: at, delimiter: delimiter) {
            at = record.next
            line += 1
            let rowLine = line
            line += record.fields.reduce(0) { $0 + RefCSVRecords.lineBreaks($1) }
            add(record.fields, line: rowLine, columns: columns, zone: zone, to: &rows)
        }
        return rows.facts
    }

    static func add(_ fields: [[UInt8]], line: Int, columns: [String: Int], zone: TimeZone?, to rows: inout RefRows) {
        // A row of one blank cell is a blank line.
        if fields.count == 1, RefUTF8.text(fields[0]).0.allSatisfy(\.isWhitespace) { return }
        for field in fields where RefUTF8.text(field).repaired { rows.repaired += 1 }
        func cell(_ name: String) -> [UInt8]? {
            guard let k = columns[name], k < fields.count, !fields[k].isEmpty else { return nil }
            return fields[k]
        }
        func text(_ name: String) -> String? { cell(name).map { RefUTF8.text(unguarded($0)).0 } }
        let id = text("id")
        guard let startCell = cell("start"), cell("end") != nil || cell("duration") != nil else {
            return rows.skip(.missingTimestamp, id: id, line: line)
        }
        let start = RefTimeCell.read(startCell, zone: zone)
        let end: RefTimeCell.Reading
        if let endCell = cell("end") {
            end = RefTimeCell.read(endCell, zone: zone)
        } else if let s = micros(start), let length = RefDurationCell.micros(cell("duration")!) {
            end = .instant(s + length)
        } else {
            end = .invalid
        }
        guard let s = micros(start), let e = micros(end) else { return rows.skip(.badTimestamp, id: id, line: line) }
        if e > s, zone != nil, start != .instant(s) || end != .instant(e) { rows.localRows += 1 }
        rows.add(start: s, end: e, app: text("app"), category: text("category"), id: id, line: line)
    }

    static func micros(_ r: RefTimeCell.Reading) -> Int64? {
        switch r {
        case .instant(let t), .local(let t): return t
        case .invalid: return nil
        }
    }

    /// §9.2: a cell of `'`s followed by `=`, `+`, `-`, `@`, TAB or CR loses exactly one `'`.
    static func unguarded(_ cell: [UInt8]) -> [UInt8] {
        guard cell.first == UInt8(ascii: "'"), let next = cell.dropFirst().first(where: { $0 != UInt8(ascii: "'") }),
            Array("=+-@\t\r".utf8).contains(next)
        else { return cell }
        return Array(cell.dropFirst())
    }
}
