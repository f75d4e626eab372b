// RefSessionRow.swift — a sessions JSON element (an NDJSON line's value) as a row by docs/DATA.md §1: the five known fields, the first reason a row is skipped.
import UsageCore

/// One element of a sessions array or NDJSON line as a row (docs/DATA.md §1): the five known
/// fields (a repeated key: the last one), the first reason that applies when it is skipped.
enum RefSessionRow {
    static func add(_ value: RefJSON, line: Int?, to rows: inout RefRows) {
        guard case .object = value else { return rows.skip(.notAnObject, id: nil, line: line) }
        func field(_ key: String) -> RefJSON? { value.member(key, last: true) }
        let fields = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"].map(field)
        for case .string(_, true)? in fields { rows.repaired += 1 }
        let id: String?
        switch fields[0] {
        case .string(let s, _)?: id = s
        case .number(let literal)?: id = literal
        default: id = nil
        }
        func isMissing(_ v: RefJSON?) -> Bool {
            switch v {
            case nil, .null?: return true
            default: return false
            }
        }
        guard !isMissing(fields[3]), !isMissing(fields[4]) else { return rows.skip(.missingTimestamp, id: id, line: line) }
        guard case .string(let startText, _)? = fields[3], case .string(let endText, _)? = fields[4],
            let start = RefRFC3339.read(Array(startText.utf8)), let end = RefRFC3339.read(Array(endText.utf8))
        else { return rows.skip(.badTimestamp, id: id, line: line) }
        func text(_ v: RefJSON?) -> (ok: Bool, text: String?) {
            switch v {
            case nil, .null?: return (true, nil)
            case .string(let s, _)?: return (true, s)
            default: return (false, nil)
            }
        }
        let app = text(fields[1])
        let category = text(fields[2])
        guard app.ok, category.ok else { return rows.skip(.badFieldType, id: id, line: line) }
        rows.add(
            start: start.micros, end: end.micros, app: app.text, category: category.text, id: id, line: line,
            offsets: (start.offsetMinutes, end.offsetMinutes))
    }
}
