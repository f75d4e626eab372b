// ReaderDifferentialTests.swift — the byte-level NDJSON, ActivityWatch, Timewarrior and CSV readers against the tests' own references (Reference/, sharing no parsing code with Sources): the same sessions, skipped rows and errors — valid for both or invalid for both — on the fixtures, the bad-input corpus and seeded dirty documents, read in chunks down to one byte.
import Foundation
import ReferenceReaders
import Testing
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData
import TestSupport

@Suite struct ReaderDifferentialTests {
    @Test func theFixturesReadAlike() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("EndToEndTests/Fixtures")
        let aw = Array(try Data(contentsOf: fixtures.appendingPathComponent("aw-export.json")))
        ReaderDifferential.checkAW(aw, "aw-export.json")
        let ndjson = Array(try Data(contentsOf: fixtures.appendingPathComponent("oracle-dst.ndjson")))
        ReaderDifferential.checkNDJSON(ndjson, "oracle-dst.ndjson")
        let csv = Array(try Data(contentsOf: fixtures.appendingPathComponent("oracle-dst.csv")))
        ReaderDifferential.checkCSV(csv, "oracle-dst.csv")
    }

    @Test(arguments: 0..<40)
    func dirtyActivityWatchExportsReadAlike(seed: Int) {
        var g = SplitMix64(UInt64(seed) &* 7919 &+ 1)
        let text = ReaderDifferential.awExport(&g, buckets: 1 + g.below(6), events: 30)
        let bytes = seed % 3 == 0 ? ReaderDifferential.withInvalidUTF8(text, &g) : Array(text.utf8)
        ReaderDifferential.checkAW(bytes, "seed \(seed)")
    }

    @Test(arguments: 0..<40)
    func dirtyTimewarriorExportsReadAlike(seed: Int) {
        var g = SplitMix64(UInt64(seed) &* 31337 &+ 5)
        let text = ReaderDifferential.timewExport(&g, intervals: 40)
        let bytes = seed % 3 == 0 ? ReaderDifferential.withInvalidUTF8(text, &g) : Array(text.utf8)
        ReaderDifferential.checkTimew(bytes, "seed \(seed)")
    }

    @Test(arguments: 0..<60)
    func dirtyCSVsReadAlike(seed: Int) {
        var g = SplitMix64(UInt64(seed) &* 65_537 &+ 11)
        let text = ReaderDifferential.csvFile(&g, rows: 40)
        let bytes = seed % 3 == 0 ? ReaderDifferential.withInvalidBytes(text, &g) : Array(text.utf8)
        ReaderDifferential.checkCSV(bytes, "seed \(seed)")
    }

    /// Large exports' window events are made into sessions in two halves on two threads: the
    /// result is the one of one pass, cut anywhere (the halves fall inside and between buckets).
    @Test(arguments: 0..<12)
    func activityWatchSessionsInTwoHalvesAreThoseOfOnePass(seed: Int) throws {
        var g = SplitMix64(UInt64(seed) &* 7717 &+ 3)
        let text = ReaderDifferential.awExport(&g, buckets: 1 + g.below(6), events: 40)
        let read = try Array(text.utf8).withUnsafeBufferPointer { b throws(IngestError) in
            try ActivityWatchRead.read(b, document: .export)
        }
        let one = LoadFacts(Result { () throws(IngestError) in try read.sessions(cancellation: nil, halvesAt: .max).dataset(source: "t") })
        let two = LoadFacts(Result { () throws(IngestError) in try read.sessions(cancellation: nil, halvesAt: 1).dataset(source: "t") })
        #expect(one == two, "seed \(seed):\n one \(one)\n two \(two)")
    }

    @Test(arguments: 0..<40)
    func dirtyNDJSONReadsAlike(seed: Int) {
        var g = SplitMix64(UInt64(seed) &* 104_729 &+ 3)
        let text = ReaderDifferential.ndjson(&g, lines: 60)
        let bytes = seed % 3 == 0 ? ReaderDifferential.withInvalidUTF8(text, &g) : Array(text.utf8)
        ReaderDifferential.checkNDJSON(bytes, "seed \(seed)")
    }

    /// Cut anywhere, a document fails the same way in both: the error (line, column, message)
    /// of one scan, whatever the chunks.
    @Test(arguments: 0..<10)
    func truncatedDocumentsFailAlike(seed: Int) {
        var g = SplitMix64(UInt64(seed) &+ 99)
        let aw = Array(ReaderDifferential.awExport(&g, buckets: 3, events: 8).utf8)
        for _ in 0..<12 {
            let cut = Array(aw[..<(1 + g.below(aw.count - 1))])
            ReaderDifferential.checkAW(cut, "export cut at \(cut.count)")
        }
        let nd = Array(ReaderDifferential.ndjson(&g, lines: 20).utf8)
        for _ in 0..<12 {
            let cut = Array(nd[..<(1 + g.below(nd.count - 1))])
            ReaderDifferential.checkNDJSON(cut, "NDJSON cut at \(cut.count)")
        }
        let timew = Array(ReaderDifferential.timewExport(&g, intervals: 10).utf8)
        for _ in 0..<12 {
            let cut = Array(timew[..<(1 + g.below(timew.count - 1))])
            ReaderDifferential.checkTimew(cut, "Timewarrior export cut at \(cut.count)")
        }
        let csv = Array(ReaderDifferential.csvFile(&g, rows: 12).utf8)
        for _ in 0..<12 {
            let cut = Array(csv[..<(1 + g.below(csv.count - 1))])
            ReaderDifferential.checkCSV(cut, "CSV cut at \(cut.count)")
        }
    }

    /// A byte changed anywhere (into a bracket, a quote, a backslash, a line break…): both
    /// readers fail alike or read alike.
    @Test(arguments: 0..<10)
    func corruptedDocumentsReadAlike(seed: Int) {
        var g = SplitMix64(UInt64(seed) &+ 7)
        let aw = Array(ReaderDifferential.awExport(&g, buckets: 3, events: 6).utf8)
        let nd = Array(ReaderDifferential.ndjson(&g, lines: 15).utf8)
        var t = SplitMix64(UInt64(seed) &+ 1000)
        let timew = Array(ReaderDifferential.timewExport(&t, intervals: 8).utf8)
        let replacements: [UInt8] = Array("{}[]\",:\\\n\r 0a-".utf8)
        let csv = Array(ReaderDifferential.csvFile(&t, rows: 10).utf8)
        for _ in 0..<15 {
            var badCSV = csv
            badCSV[t.below(badCSV.count)] = t.pick(Array("\",;\t\r\n'= é".utf8))
            ReaderDifferential.checkCSV(badCSV, "CSV corrupted")
            var badTimew = timew
            badTimew[1 + t.below(badTimew.count - 1)] = t.pick(replacements)
            ReaderDifferential.checkTimew(badTimew, "Timewarrior export corrupted")
            var bad = aw
            bad[1 + g.below(bad.count - 1)] = g.pick(replacements)
            ReaderDifferential.checkAW(bad, "export corrupted")
            var badLines = nd
            badLines[g.below(badLines.count)] = g.pick(replacements)
            ReaderDifferential.checkNDJSON(badLines, "NDJSON corrupted")
        }
    }

    /// Found by the csv fuzz target (issue 28): a formula guard `'` followed by a combining mark
    /// (U+0301) is no guard, since no trigger follows the `'`, and the cell is kept whole. The
    /// reference reader took the `'` and its mark for one character and dropped both, leaving
    /// `=SUM(A1)…` (`SpreadsheetCell.unguarded` worked on graphemes); the byte-level reader was
    /// right. The input is also in Fuzz/corpus/csv.
    @Test func bugFormulaGuardBeforeACombiningMarkReadsAlike() {
        let input = "ID,App,Start,End\n1 02:30\t2025-\u{10}3-21 03>30\t'=x\r'\u{301}=SUM(A1)3T10:2600"
        ReaderDifferential.checkCSV(Array(input.utf8), "a guard before a combining mark")
        let bytes = Array(input.utf8)
        let old = try? bytes.withUnsafeBufferPointer { b throws(IngestError) in
            try LegacyCSV.decode(b, source: "t", options: ReadOptions(), cancellation: CancellationToken())
        }
        let ids = old?.skipped.examples.values.flatMap { $0.compactMap(\.sessionID) } ?? []
        #expect(ids.contains("'\u{301}=SUM(A1)3T10:2600"), "\(ids)")
    }

    /// The bad-input corpus (issue 8) as an export's content and as NDJSON lines.
    @Test func theHostileCorpusReadsAlike() {
        let row = #"{"session_id":"s1","app_name":"Mail","category":"Work","start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T11:00:00Z"}"#
        let hostile: [[UInt8]] = [
            [], Array(" \n\t\r\n  ".utf8), Array("{}".utf8), Array("[".utf8), Array((row + "\n{\"session_id\":\"s2\",\"app_na").utf8),
            Array((row + "\nxyz").utf8), [0xEF, 0xBB, 0xBF] + Array(row.utf8), Array(row.utf8) + [0, 0],
            Array(#"{"session_id":"s1","app_name":"A\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00","start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T11:00:00Z"}"#.utf8),
            Array(#"{"app_name":"Ma\ud800"#.utf8) + [0xFF] + Array(#"il","start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T11:00:00Z"}"#.utf8),
            Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8),
            Array(String(repeating: "[", count: 10_000).utf8),
            Array((row.replacingOccurrences(of: "\"Mail\"", with: "\"" + String(repeating: "a", count: 100_000) + "\"")).utf8),
        ]
        for (k, bytes) in hostile.enumerated() {
            ReaderDifferential.checkNDJSON(bytes, "hostile NDJSON \(k)")
            let event = #"{"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "#
            let aw = Array(#"{"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": ["#.utf8) + Array(event.utf8)
                + Array(String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self).debugDescription.utf8) + Array("}}]}}}".utf8)
            ReaderDifferential.checkAW(aw, "hostile export \(k)")
            ReaderDifferential.checkAW(Array(#"{"buckets": {"w": "#.utf8) + bytes + Array("}}".utf8), "hostile export body \(k)")
        }
    }
}
