// Fuzz/Reference/LegacyTimewarrior.swift — the reference the byte-level Timewarrior reader is checked against: the Foundation-based reader it replaced (issue 20's rules: tag sets as activities, running intervals counted to the clock; JSONDecoder, lenient fields), kept verbatim but for names and §1's order of skip reasons; never part of the program.
import Foundation

#if canImport(UsageCore)
    import UsageCore
#endif
#if canImport(UsageFormats)
    import UsageFormats
#endif

public enum LegacyTimewarrior {
    /// One interval as `timew export` writes it.
    struct Interval: Decodable {
        var id: String?
        var start: LegacyLenientField<String>
        var end: LegacyLenientField<String>
        var tags: LegacyLenientField<[String]>

        private enum Keys: String, CodingKey { case id, start, end, tags }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            id = c.legacyIdText(.id)
            start = c.legacyLenient(String.self, .start)
            end = c.legacyLenient(String.self, .end)
            tags = c.legacyLenient([String].self, .tags)
        }
    }

    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, now: Micros?, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        let (intervals, repaired) = try LegacyJSON.decodeJSON(
            [LegacyLenientElement<Interval>].self, bytes, format: "Timewarrior export")
        let lines = LegacyJSONElementLines.lines(ofTopLevelElementsIn: bytes)
        var rows = SessionRows()
        rows.countRepaired(repaired)
        for (n, element) in intervals.enumerated() {
            if n & 0xFFF == 0xFFF, cancellation.isCancelled { throw .cancelled }
            let line = n < lines.count ? lines[n] : nil
            guard case .object(let interval) = element else {
                rows.skip(.notAnObject, id: nil, line: line)
                continue
            }
            if case .wrongType = interval.tags {
                // Tags of the wrong type are the third reason in docs/DATA.md §1's order (the one
                // change to this reader: it counted them first): a missing or bad time comes first,
                // but a running interval's times are whole.
                var runs = false
                if interval.end.isMissing, now != nil, case .value(let text) = interval.start, RFC3339.parse(rfc3339(text)) != nil {
                    runs = true
                }
                let (start, end) = (time(interval.start), time(interval.end))
                let reason: SkipReason
                if runs {
                    reason = .badFieldType
                } else if start == nil || end == nil {
                    reason = .missingTimestamp
                } else if RFC3339.parse(start!) == nil || RFC3339.parse(end!) == nil {
                    reason = .badTimestamp
                } else {
                    reason = .badFieldType
                }
                rows.skip(reason, id: interval.id, line: line)
                continue
            }
            let app = TagSet.name(interval.tags.value ?? [])
            if interval.end.isMissing, let now, case .value(let text) = interval.start,
                let start = RFC3339.parse(rfc3339(text))
            {
                // Still running: counted up to the clock, as Timewarrior counts it (an interval
                // that starts after the clock has no time yet: end_not_after_start).
                rows.add(start: start, end: now, app: app, category: nil, id: interval.id, line: line, running: true)
                continue
            }
            rows.add(id: interval.id, app: app, category: nil, start: time(interval.start), end: time(interval.end), line: line)
        }
        // Interval ids are positions counted from the latest (`@1`): a new interval renumbers them all.
        var dataset = rows.dataset(source: source)
        dataset.identity = .byStart
        return dataset
    }

    /// A time field as RFC 3339 text: nil when absent or null; a value that is not a string
    /// becomes text that no parser accepts (`bad_timestamp`).
    private static func time(_ field: LegacyLenientField<String>) -> String? {
        switch field {
        case .absent, .null: return nil
        case .value(let text): return rfc3339(text)
        case .wrongType: return "(not a string)"
        }
    }

    /// `20260223T093500Z` → `2026-02-23T09:35:00Z`; anything else is left for RFC 3339 to judge.
    static func rfc3339(_ compact: String) -> String {
        let c = Array(compact.utf8)
        let digits = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14]
        guard c.count == 16, c[8] == UInt8(ascii: "T"), c[15] == UInt8(ascii: "Z"),
            digits.allSatisfy({ (0x30...0x39).contains(c[$0]) })
        else { return compact }
        let s = compact.utf8.map { Character(UnicodeScalar($0)) }
        return String(s[0..<4]) + "-" + String(s[4..<6]) + "-" + String(s[6..<8]) + "T" + String(s[9..<11]) + ":"
            + String(s[11..<13]) + ":" + String(s[13..<15]) + "Z"
    }
}

/// Lines where the elements of a top-level JSON array begin, found without parsing them (the
/// formats read by Foundation lose positions, but `check` names lines).
enum LegacyJSONElementLines {
    static func lines(ofTopLevelElementsIn b: UnsafeBufferPointer<UInt8>) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        var expectingElement = false
        for byte in b {
            if byte == 0x0A { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            if depth == 1, expectingElement, !isSpace, byte != UInt8(ascii: "]") {
                lines.append(line)
                expectingElement = false
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectingElement = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { expectingElement = true }
            default: break
            }
        }
        return lines
    }
}
