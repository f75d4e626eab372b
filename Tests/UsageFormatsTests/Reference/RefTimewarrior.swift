// RefTimewarrior.swift — the tests' own `timew export` reader (docs/DATA.md §9.4 with §1's rules), built on RefJSON and RefRFC3339: tag sets as activities, compact UTC times, running intervals counted to the clock.
import UsageCore

enum RefTimewarrior {
    static func read(_ b: [UInt8], now: Int64?) -> RefFacts {
        var p = RefJSONParser(b, range: (b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0)..<b.count)
        p.skipSpace()
        if p.atEnd { return RefRows.failure("empty") }
        let document: RefJSON
        let starts: [Int]
        do throws(RefJSONError) {
            let open = p.i
            document = try p.value(keepDepth: 3)
            p.skipSpace()
            guard p.atEnd else { throw p.fail("more after the JSON value") }
            starts = RefElementStarts.of(b, arrayAt: open)
        } catch {
            return RefRows.syntax(error, in: b)
        }
        guard case .array(let elements) = document else { return RefRows.failure("malformed Timewarrior export") }
        var rows = RefRows()
        rows.identity = "byStart"
        rows.repaired = p.repairedStrings
        for (k, element) in elements.enumerated() {
            let line = RefPosition.of(starts[k], in: b).line
            add(element, line: line, now: now, to: &rows)
        }
        return rows.facts
    }

    static func add(_ interval: RefJSON, line: Int, now: Int64?, to rows: inout RefRows) {
        guard case .object = interval else { return rows.skip(.notAnObject, id: nil, line: line) }
        let id = RefNumbers.idText(interval.member("id"))
        let start = interval.member("start")
        let end = interval.member("end")
        func isMissing(_ v: RefJSON?) -> Bool {
            switch v {
            case nil, .null?: return true
            default: return false
            }
        }
        func instant(_ v: RefJSON?) -> RefRFC3339.Instant? {
            guard case .string(let text, _)? = v else { return nil }
            return RefRFC3339.read(expanded(Array(text.utf8)))
        }
        var tags: [String] = []
        var tagsOK = true
        switch interval.member("tags") {
        case nil, .null?: break
        case .array(let list)?:
            for tag in list {
                if case .string(let s, _) = tag { tags.append(s) } else { tagsOK = false }
            }
        default: tagsOK = false
        }
        let app = tagsOK ? name(of: tags) : nil
        // Still running: counted to the clock (§9.4).
        if isMissing(end), let now, let s = instant(start) {
            guard tagsOK else { return rows.skip(.badFieldType, id: id, line: line) }
            return rows.add(start: s.micros, end: now, app: app, category: nil, id: id, line: line, running: true)
        }
        guard !isMissing(start), !isMissing(end) else { return rows.skip(.missingTimestamp, id: id, line: line) }
        guard let s = instant(start), let e = instant(end) else { return rows.skip(.badTimestamp, id: id, line: line) }
        guard tagsOK else { return rows.skip(.badFieldType, id: id, line: line) }
        rows.add(start: s.micros, end: e.micros, app: app, category: nil, id: id, line: line, offsets: (s.offsetMinutes, e.offsetMinutes))
    }

    /// `20260223T093500Z` as `2026-02-23T09:35:00Z`; anything else as it is.
    static func expanded(_ c: [UInt8]) -> [UInt8] {
        let digits = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14]
        guard c.count == 16, c[8] == UInt8(ascii: "T"), c[15] == UInt8(ascii: "Z"), digits.allSatisfy({ c[$0] >= 0x30 && c[$0] <= 0x39 })
        else { return c }
        func part(_ r: Range<Int>) -> String { String(decoding: c[r], as: UTF8.self) }
        return Array("\(part(0..<4))-\(part(4..<6))-\(part(6..<8))T\(part(9..<11)):\(part(11..<13)):\(part(13..<15))Z".utf8)
    }

    /// The tag set's name: tags trimmed, blank ones dropped, once each by their bytes, in byte
    /// order, joined by `, `; nil for none.
    static func name(of tags: [String]) -> String? {
        var kept: [[UInt8]] = []
        for tag in tags {
            let t = Array(RefRows.trimmed(tag).utf8)
            if !t.isEmpty, !kept.contains(t) { kept.append(t) }
        }
        guard !kept.isEmpty else { return nil }
        return kept.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
    }
}
