// DifferentialIngestTests.swift — SessionsJSON.decode checked against the independent Foundation reference (DifferentialReference.swift) on seeded dirty documents (small, large, split traps), layout independence, and duplicate keys.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport

// MARK: - Tests

struct DifferentialIngestTests {
    static let baseSeed: UInt64 = 0x5EED_2026_0223

    @Test func randomDirtyDocumentsDecodeAsTheReferenceDoes() throws {
        let report = try Differential.run(baseSeed: Self.baseSeed, documents: 0..<200, rows: 0...300)
        for failure in report.failures.prefix(5) { Issue.record(Comment(rawValue: failure)) }
        let disagreeing = report.failures.count
        #expect(disagreeing == 0, "of \(report.documents) documents")
        // The generator really exercised every rule.
        for reason in SkipReason.allCases {
            #expect(report.totals.counts[reason, default: 0] >= 100, "too few \(reason.rawValue) rows generated")
        }
        #expect(report.sessions >= 10_000)
        print("differential: \(report.documents) documents, \(report.rows) rows, \(report.sessions) sessions, skipped \(report.totals.counts.map { "\($0.key.rawValue)=\($0.value)" }.sorted())")
    }

    @Test func aLargeDirtyDocumentDecodesAsTheReferenceDoes() throws {
        let report = try Differential.run(baseSeed: Self.baseSeed ^ 0xB16, documents: 0..<1, rows: 20_000...20_000)
        for failure in report.failures { Issue.record(Comment(rawValue: failure)) }
        let rows = report.rows
        #expect(rows == 20_000)
        #expect(report.sessions > 10_000)
    }

    /// Inputs of several MiB may be scanned in parts (the rewrite splits near the middle at a
    /// guessed row boundary). These put something that looks like a row boundary across the
    /// middle: inside a string, inside a non-object element, inside a row's unknown member; and,
    /// for contrast, nothing there at all (a real split), once with only valid rows before the
    /// middle so that the skip examples and their lines come from the second part.
    static let traps = ["string", "array element", "unknown member", "none", "none, valid first half"]

    @Test(arguments: traps)
    func largeDocumentsWithRowLookalikesInTheMiddle(trap: String) throws {
        let seed = Differential.seed(Self.baseSeed ^ 0x5B117, Self.traps.firstIndex(of: trap)!)
        var elements = Differential.document(seed: seed, rows: 3000...3000)
        // Pad every object with an unknown member so that few rows make a large input.
        let padding = Differential.Value.string(String(repeating: "padding ", count: 180))
        for k in elements.indices {
            if case .object(var members) = elements[k].value {
                members.append(Differential.Member(key: "padding", value: padding))
                elements[k].value = .object(members)
            }
        }
        func lookalike(_ n: Int) -> Differential.Value {
            .object([
                Differential.Member(key: "session_id", value: .string("L-\(n)")),
                Differential.Member(key: "app_name", value: .string("Lookalike")),
                Differential.Member(key: "start_timestamp", value: .string("2026-02-23T09:00:00Z")),
                Differential.Member(key: "end_timestamp", value: .string("2026-02-23T10:00:00Z")),
            ])
        }
        let middle = elements.count / 2
        if trap == "none, valid first half" {
            for k in 0..<middle {
                elements[k] = .init(value: lookalike(k), idLiteral: nil)
                if case .object(let members) = elements[k].value {
                    elements[k].value = .object(members + [Differential.Member(key: "padding", value: padding)])
                }
            }
        }
        let row = #"{\"session_id\": \"L\", \"app_name\": \"Lookalike\"}"#
        let valid: [Differential.Member] = [
            Differential.Member(key: "session_id", value: .string("T")),
            Differential.Member(key: "start_timestamp", value: .string("2026-02-23T09:00:00Z")),
            Differential.Member(key: "end_timestamp", value: .string("2026-02-23T10:00:00Z")),
        ]
        switch trap {
        case "string":
            let text = String(repeating: "}, " + row + ",\\n{", count: 12_000)
            elements.insert(.init(value: .object(valid + [.init(key: "notes", value: .string(text))]), idLiteral: nil), at: middle)
        case "array element":
            elements.insert(.init(value: .array((0..<8000).map(lookalike)), idLiteral: nil), at: middle)
        case "unknown member":
            let meta = Differential.Value.array((0..<8000).map(lookalike))
            elements.insert(.init(value: .object(valid + [.init(key: "meta", value: meta)]), idLiteral: nil), at: middle)
        default: break
        }
        let rendered = Differential.render(elements.map(\.value), layout: .random(seed: seed))
        #expect(rendered.bytes.count > 4_500_000, "big enough to be scanned in parts (4 MiB and more)")
        if !trap.hasPrefix("none") {
            let range = rendered.ranges[middle]
            #expect(range.contains(rendered.bytes.count / 2), "the lookalikes do not cover the middle")
        }
        let (problem, _) = try Differential.check(
            elements, layout: .random(seed: seed), bom: false, reference: Differential.Reference(),
            label: "trap \(trap), document seed 0x\(String(seed, radix: 16))")
        if !problem.isEmpty { Issue.record(Comment(rawValue: problem)) }
    }

    /// The same rows minified, pretty-printed, with CRLF, with random white space and behind a
    /// byte order mark decode to the same dataset; only the example lines differ, and those are
    /// where each row begins in that text.
    @Test func layoutChangesNothingButLineNumbers() throws {
        for index in 0..<20 {
            let seed = Differential.seed(Self.baseSeed ^ 0x1A7, index)
            let elements = Differential.document(seed: seed, rows: 50...150).map(\.value)
            let layouts: [(String, Differential.Layout, Bool)] = [
                ("minified", .minified, false), ("pretty", .pretty(newline: "\n"), false),
                ("pretty CRLF", .pretty(newline: "\r\n"), false), ("random", .random(seed: seed), false),
                ("minified with BOM", .minified, true),
            ]
            var first: (name: String, dataset: Dataset, sessions: [Differential.SessionKey])?
            for (name, layout, bom) in layouts {
                let rendered = Differential.render(elements, layout: layout, bom: bom)
                let d = try SessionsJSON.decode(rendered.bytes, source: "layout")
                // In order, not as a multiset: the same rows in the same order give the same sequence.
                let sessions = Array(d.sessions).map {
                    Differential.SessionKey(
                        start: $0.start, end: $0.end, app: Differential.scalars(d.apps[Int($0.app)]),
                        category: Differential.scalars(d.categories[Int($0.category)]), id: $0.id.map(Differential.scalars))
                }
                // Every example's line is the line where its row begins in this text.
                let rowLines = Set(rendered.lines)
                for (reason, rows) in d.skipped.examples {
                    for row in rows {
                        let isARowsLine = row.line.map(rowLines.contains) ?? false
                        #expect(isARowsLine, "seed \(seed) \(name): \(reason.rawValue) example at line \(row.line ?? -1) is no row's line")
                    }
                }
                if case .minified = layout {
                    #expect(d.skipped.examples.values.joined().allSatisfy { $0.line == 1 }, "seed \(seed) \(name)")
                }
                guard let f = first else {
                    first = (name, d, sessions)
                    continue
                }
                let what = "seed 0x\(String(seed, radix: 16)): \(name) vs \(f.name)"
                #expect(sessions == f.sessions, "\(what): sessions differ")
                #expect(d.apps.map(Differential.scalars) == f.dataset.apps.map(Differential.scalars), "\(what): apps differ")
                #expect(
                    d.categories.map(Differential.scalars) == f.dataset.categories.map(Differential.scalars),
                    "\(what): categories differ")
                #expect(d.repairedStrings == f.dataset.repairedStrings, "\(what)")
                for reason in SkipReason.allCases {
                    #expect(d.skipped.count(reason) == f.dataset.skipped.count(reason), "\(what): \(reason.rawValue)")
                    let ids = d.skipped.examples[reason, default: []].map { $0.sessionID.map(Differential.scalars) }
                    let firstIDs = f.dataset.skipped.examples[reason, default: []].map { $0.sessionID.map(Differential.scalars) }
                    #expect(ids == firstIDs, "\(what): \(reason.rawValue) examples")
                }
            }
        }
    }

    /// JSONSerialization keeps the last of duplicate keys, and so does the project; the random
    /// documents rely on that, this states it.
    @Test(arguments: [
        (#"{"app_name": "A", "app_name": "B", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "B"),
        (#"{"app_name": 1, "app_name": "C", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "C"),
        (#"{"start_timestamp": null, "app_name": "D", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "D"),
        (#"{"app\u005fname": "A", "app_name": "E", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "E"),
        (#"{"app_name": "A", "app\u005Fname": "F", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}"#, "F"),
    ])
    func theLastOfDuplicateKeysWins(row: String, app: String) throws {
        let d = try SessionsJSON.decode("[\(row)]", source: "t")
        #expect(Array(d.sessions).map { d.apps[Int($0.app)] } == [app])
        let viaFoundation = try JSONSerialization.jsonObject(with: Data("[\(row)]".utf8)) as? [[String: Any]]
        #expect(viaFoundation?.first?["app_name"] as? String == app)
    }

    @Test func aValueLastSeenAsAnotherTypeSkipsTheRow() throws {
        let d = try SessionsJSON.decode(
            #"[{"session_id": "x", "category": "Social", "category": [1], "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:00:00Z"}]"#,
            source: "t")
        #expect(d.skipped.count(.badFieldType) == 1)
        #expect(d.skipped.examples[.badFieldType]?.first?.sessionID == "x")
    }
}
