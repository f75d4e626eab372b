// DatasetMergeTests.swift — several datasets merged into one (`load A B`): order, names, ids, skipped rows by source; and category rules applied.
import Testing
@testable import UsageCore
@testable import UsageFormats

struct DatasetMergeTests {
    func dataset(_ source: String, _ rows: [(String?, String, String?, String, String?)]) throws -> Dataset {
        var builder = SessionRows()
        for (n, row) in rows.enumerated() {
            builder.add(id: row.0, app: row.1, category: row.2, start: row.3, end: row.4, line: n + 2)
        }
        return builder.dataset(source: source)
    }

    @Test func sessionsMergeInStartOrderWithNamesUnifiedAndIdsKept() throws {
        let a = try dataset("a", [
            ("a1", "Mail", "Work", "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
            ("a2", "Slack", nil, "2026-02-23T12:00:00Z", "2026-02-23T12:30:00Z"),
        ])
        let b = try dataset("b", [
            ("b1", "Slack", "Chat", "2026-02-23T11:00:00Z", "2026-02-23T11:15:00Z"),
            (nil, "Mail", "Work", "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
        ])
        let c = try dataset("c", [("c1", "Maps", "Travel", "2026-02-23T08:00:00Z", "2026-02-23T08:10:00Z")])
        let merged = Dataset.merging([a, b, c], source: "a + b + c")
        #expect(merged.source == "a + b + c")
        let rows = merged.sessions.map { (merged.apps[Int($0.app)], merged.categories[Int($0.category)], $0.id) }
        // Ties (the two 09:00 Mail sessions) keep the sources' order.
        #expect(rows.map(\.0) == ["Maps", "Mail", "Mail", "Slack", "Slack"])
        #expect(rows.map(\.2) == ["c1", "a1", nil, "b1", "a2"])
        #expect(rows.map(\.1) == ["Travel", "Work", "Work", "Chat", "Other"])
        #expect(Set(merged.apps) == ["Mail", "Slack", "Maps"])
        #expect(merged.apps.count == 3)
    }

    @Test func mergingAMergedDatasetKeepsEveryId() throws {
        let a = try dataset("a", [("a1", "X", nil, "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z")])
        let b = try dataset("b", [("b1", "Y", nil, "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z")])
        let c = try dataset("c", [("c1", "Z", nil, "2026-02-23T08:00:00Z", "2026-02-23T09:00:00Z")])
        let twice = Dataset.merging([Dataset.merging([a, b], source: "a + b"), c], source: "all")
        #expect(twice.sessions.map(\.id) == ["c1", "b1", "a1"])
        #expect(twice.parts.map(\.source) == ["a", "b", "c"])
    }

    @Test func skippedRowsAreCountedAndNamedBySource() throws {
        let a = try dataset("a.json", [("a1", "X", nil, "2026-02-23T10:00:00Z", nil)])
        let b = try dataset("b.csv", [
            ("b1", "Y", nil, "bad", "2026-02-23T10:00:00Z"), ("b2", "Y", nil, "2026-02-23T10:00:00Z", nil),
        ])
        let merged = Dataset.merging([a, b], source: "both")
        #expect(merged.skipped.total == 3)
        #expect(merged.skipped.count(.missingTimestamp) == 2)
        let missing = merged.skipped.examples[.missingTimestamp] ?? []
        #expect(missing.map(\.source) == ["a.json", "b.csv"])
        #expect(missing.map(\.line) == [2, 3])
        #expect(merged.parts.map(\.skipped.total) == [1, 2])
        #expect(merged.parts.map(\.sessions) == [0, 0])
        #expect(merged.parts[1].skipped.examples[.badTimestamp]?.first?.source == "b.csv")
    }

    @Test func oneDatasetIsItsOwnSinglePart() throws {
        let a = try dataset("a", [("a1", "X", nil, "2026-02-23T10:00:00Z", nil)])
        #expect(a.parts == [SourcePart(source: "a", sessions: 0, skipped: a.skipped, repairedStrings: 0)])
        #expect(a.skipped.examples[.missingTimestamp]?.first?.source == nil)
    }

    @Test func rulesNameOnlyUncategorisedSessions() throws {
        let d = try dataset("a", [
            ("1", "Firefox", nil, "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
            ("2", "Firefox", "Work", "2026-02-23T10:00:00Z", "2026-02-23T11:00:00Z"),
            ("3", "Firefox", " others ", "2026-02-23T11:00:00Z", "2026-02-23T12:00:00Z"),
            ("4", "Vim", "", "2026-02-23T12:00:00Z", "2026-02-23T13:00:00Z"),
        ])
        var asked: [String] = []
        let ruled = d.categorising { app in
            asked.append(app)
            return app == "Firefox" ? "  Web " : nil
        }
        let categories = ruled.sessions.map { ruled.categories[Int($0.category)] }
        #expect(categories == ["Web", "Work", "Web", "Other"])
        #expect(asked.sorted() == ["Firefox", "Vim"])  // once per app
        #expect(ruled.sessions.map(\.id) == ["1", "2", "3", "4"])
        #expect(ruled.skipped == d.skipped)
    }

    @Test func rulesNamingOtherChangeNothing() throws {
        let d = try dataset("a", [("1", "X", nil, "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z")])
        let ruled = d.categorising { _ in "other" }
        #expect(ruled.categories == d.categories)
        #expect(ruled.sessions.map(\.category) == d.sessions.map(\.category))
    }
}
