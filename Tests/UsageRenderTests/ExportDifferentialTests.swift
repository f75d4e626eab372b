// ExportDifferentialTests.swift — the byte-level `export` writer against the writer it replaced (kept here as the reference): byte-identical output on generated data with hostile names and ids, microsecond instants, UTC offsets and instants before 1970, in every format and cell policy, whatever the piece size.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageRender
import TestSupport

/// The `export` writer before issue 19 (a `String` per row, `JSONText` and `CSVText`): what
/// the byte-level writer must reproduce byte for byte.
enum ReferenceExport {
    static func sessions(_ d: some SessionHistory, format: ExportFormat, cells: CSVCellPolicy) -> [UInt8] {
        let all = d.all
        let (apps, categories) = (d.apps, d.categories)
        let rows = all.lazy.map { s -> [String?] in
            [
                all.id(of: s), apps[Int(s.app)], categories[Int(s.category)], SessionsExport.timestamp(s.start),
                SessionsExport.timestamp(s.end),
            ]
        }
        switch format {
        case .csv:
            return CSVText.bytes(
                header: SessionsExport.fields, rows: rows.map { row in row.map { $0.map { cells.text($0) } ?? "" } })
        case .json, .ndjson:
            var out = format == .json ? "[\n" : ""
            var first = true
            for row in rows {
                if !first { out += format == .json ? ",\n" : "\n" }
                first = false
                out += JSONText.object(zip(SessionsExport.fields, row).map { ($0, $1.map(JSONText.string) ?? .null) }).serialized
            }
            out += format == .json ? (first ? "]\n" : "\n]\n") : (first ? "" : "\n")
            return Array(out.utf8)
        }
    }
}


enum ExportDifferentialTests {
    /// Names that need escaping, quoting, a formula guard or terminal-safe escapes, and plain ones.
    static let names: [String] = [
        "Safari", "Google Chrome", "Chrome, Beta", "say \"hi\"", "back\\slash", "tab\there", "line\nbreak", "cr\rlf\r\n",
        "=SUM(A1)", "+1", "-x", "@handle", "'=quoted", "''+two", "'plain", "\u{1B}[31mred", "txt.exe\u{202E}gnp", "é🎉",
        "a,\u{301}b", "q\"\u{301}x", "del\u{7F}", "c1\u{85}", "日本語", "👩‍👩‍👧", "", " ", "null", "Other", "other",
    ]

    /// Ids as JSON values: strings of every kind, numbers, null, absent.
    static let ids: [String?] = [
        "\"42\"", "42", "-7", "1.5e3", "\"\"", "\"abc-123\"", "\"=cmd\"", "\"-1\"", "\"'@x\"", "\"a,b\"", "\"q\\\"x\"",
        "\"back\\\\slash\"", "\"tab\\t\"", "\"nl\\n\"", "\"\\u001b[0m\"", "\"é\"", "\"\\u202e\"", "\"\\ud800\"", "\"del\\u007f\"",
        "\" lead\"", "\"+\"", "null", nil,
    ]

    static func timestamp(_ g: inout SplitMix64) -> String {
        // Days from 1960 to 2040, offsets from -12:00 to +14:00, fractions of 0 to 9 digits.
        let day = LocalDate(daysSinceEpoch: -3650 + g.below(29200))
        let second = g.below(86400)
        var text = "\(day)T\(String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60))"
        let digits = g.pick([0, 0, 0, 1, 3, 6, 6, 9])
        if digits > 0 { text += "." + (0..<digits).map { _ in String(g.below(10)) }.joined() }
        switch g.below(4) {
        case 0: text += "Z"
        case 1: text += "+00:00"
        default:
            let minutes = g.pick([-720, -570, -300, -60, 60, 330, 345, 540, 840])
            text += String(format: "%@%02d:%02d", minutes < 0 ? "-" : "+", abs(minutes) / 60, abs(minutes) % 60)
        }
        return text
    }

    static func document(seed: UInt64, rows: Int) -> String {
        var g = SplitMix64(seed)
        var out: [String] = []
        for _ in 0..<rows {
            var fields: [String] = []
            if let id = g.pick(ids) { fields.append("\"session_id\":\(id)") }
            fields.append("\"app_name\":" + (g.below(20) == 0 ? "null" : json(g.pick(names))))
            fields.append("\"category\":" + (g.below(5) == 0 ? "null" : json(g.pick(names))))
            let a = timestamp(&g)
            // Mostly an end after the start (same day, another offset); sometimes any end.
            let end: String
            if g.below(10) == 0 {
                end = timestamp(&g)
            } else {
                let t = RFC3339.parse(a)! + Micros(1 + g.below(7_200_000_000))
                end = g.below(2) == 0 ? SessionsExport.timestamp(t) : String(SessionsExport.timestamp(t).dropLast()) + "+00:00"
            }
            fields.append("\"start_timestamp\":\"\(a)\"")
            fields.append("\"end_timestamp\":\"\(end)\"")
            out.append("{" + fields.joined(separator: ",") + "}")
        }
        return "[" + out.joined(separator: ",\n") + "]"
    }

    static func json(_ s: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [s], options: [.fragmentsAllowed])
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    static let policies = [
        CSVCellPolicy(), CSVCellPolicy(guardFormulas: false), CSVCellPolicy(escapeControls: true),
        CSVCellPolicy(guardFormulas: false, escapeControls: true),
    ]

    /// The first difference, said briefly (never the whole output).
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        let k = zip(a.indices, zip(a, b)).first { $0.1.0 != $0.1.1 }?.0 ?? min(a.count, b.count)
        let context = { (x: [UInt8]) in String(decoding: x[max(0, k - 60)..<min(x.count, k + 60)], as: UTF8.self).debugDescription }
        return "sizes \(a.count) and \(b.count), first difference at byte \(k): new \(context(a)) reference \(context(b))"
    }

    struct Generated {
        @Test(arguments: 0..<24)
        func theNewWriterMatchesTheOldByteForByte(seed: Int) throws {
            let d = try SessionsJSON.decode(ExportDifferentialTests.document(seed: UInt64(seed), rows: 40 + seed * 25))
            #expect(d.sessionCount > 0)
            for format in ExportFormat.allCases {
                for cells in format == .csv ? ExportDifferentialTests.policies : [CSVCellPolicy()] {
                    let new = SessionsExport.sessions(d, format: format, cells: cells)
                    let old = ReferenceExport.sessions(d, format: format, cells: cells)
                    let difference = ExportDifferentialTests.firstDifference(new, old)
                    #expect(difference == nil, "seed \(seed), \(format), \(cells)")
                }
            }
        }

        /// Sorted, merged and re-categorised histories keep their ids elsewhere than in order.
        @Test(arguments: 0..<6)
        func mergedAndRecategorisedHistoriesToo(seed: Int) throws {
            let a = try SessionsJSON.decode(ExportDifferentialTests.document(seed: UInt64(100 + seed), rows: 300))
            let b = try SessionsJSON.decode(ExportDifferentialTests.document(seed: UInt64(200 + seed), rows: 200))
            let merged = Dataset.merging([a, b], source: "a + b")
            let recategorised = merged.applyingRules { $0.hasPrefix("S") ? "Starts with S" : nil }
            for history in [merged as any SessionHistory, recategorised] {
                for format in ExportFormat.allCases {
                    let new = SessionsExport.sessions(history, format: format)
                    let old = ReferenceExport.sessions(history, format: format, cells: CSVCellPolicy())
                    #expect(ExportDifferentialTests.firstDifference(new, old) == nil, "seed \(seed), \(format)")
                }
            }
        }

        /// Pieces of any size (one byte, a few, the default) put together give the same bytes.
        @Test(arguments: [1, 7, 100, 4096])
        func piecesOfAnySizeGiveTheSameBytes(chunk: Int) throws {
            let d = try SessionsJSON.decode(ExportDifferentialTests.document(seed: 7, rows: 500))
            for format in ExportFormat.allCases {
                var pieces = 0
                var out: [UInt8] = []
                SessionsExport.write(d, format: format, chunk: chunk) { piece in
                    pieces += 1
                    out.append(contentsOf: piece)
                }
                #expect(ExportDifferentialTests.firstDifference(out, SessionsExport.sessions(d, format: format)) == nil)
                #expect(pieces > 1, "written in pieces")
            }
        }

        /// An id longer than a piece (a hostile file's 1 MB id) grows the buffer and is whole.
        @Test func anIdLongerThanAPiece() throws {
            let id = String(repeating: "x", count: 5000)
            let d = try SessionsJSON.decode(
                "[{\"session_id\":\"\(id)\",\"app_name\":\"A\",\"category\":null,\"start_timestamp\":\"2026-02-23T09:00:00Z\",\"end_timestamp\":\"2026-02-23T09:00:01.5Z\"}]")
            for format in ExportFormat.allCases {
                var out: [UInt8] = []
                SessionsExport.write(d, format: format, chunk: 64) { out.append(contentsOf: $0) }
                let old = ReferenceExport.sessions(d, format: format, cells: CSVCellPolicy())
                #expect(ExportDifferentialTests.firstDifference(out, old) == nil)
            }
        }
    }
}
