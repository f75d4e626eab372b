// RefNDJSON.swift — the tests' own NDJSON reader (docs/DATA.md §1 and §9.1), built on RefJSON and RefRFC3339: one JSON value a line, objects read as session rows, the first bad line's error at its line and column.
import UsageCore

enum RefNDJSON {
    static func read(_ b: [UInt8]) -> RefFacts {
        var rows = RefRows()
        var start = b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
        var line = 1
        while start < b.count {
            var end = start
            while end < b.count, b[end] != 0x0A { end += 1 }
            var p = RefJSONParser(b, range: start..<end)
            p.endsAtLineBreak = true  // the last line too: it is read as if it had one
            p.skipSpace()
            if !p.atEnd {
                do throws(RefJSONError) {
                    let value = try p.value(keepDepth: 1)
                    p.skipSpace()
                    guard p.atEnd else { throw p.fail("more than one JSON value on the line") }
                    RefSessionRow.add(value, line: line, to: &rows)
                } catch {
                    return RefRows.syntax(error, in: b)
                }
            }
            start = end + 1
            line += 1
        }
        return rows.facts
    }
}
