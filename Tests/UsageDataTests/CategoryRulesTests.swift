// CategoryRulesTests.swift — the category rules file: decode errors, matching (first wins, case-insensitive, unanchored unless anchored), effect(on:), and Dataset.categorising touching only "Other" sessions.
import Foundation
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats
@testable import UsageData

/// A dataset in the sessions format; each row is (app JSON, category JSON, minutes) laid end to end from 09:00.
fileprivate func rulesDataset(_ rows: [(app: String, category: String, minutes: Int)]) throws -> Dataset {
    let base = RFC3339.parse("2026-02-23T09:00:00Z")!
    var start = base
    var items: [String] = []
    for (k, row) in rows.enumerated() {
        let end = start + Micros(row.minutes) * 60_000_000
        items.append(
            #"{"session_id":"\#(k)","app_name":\#(row.app),"category":\#(row.category),"start_timestamp":"\#(FixtureStamp.utc(start))","end_timestamp":"\#(FixtureStamp.utc(end))"}"#
        )
        start = end
    }
    return try SessionsJSON.decode("[" + items.joined(separator: ",\n") + "]")
}

/// Whole-second UTC timestamps for fixtures (UsageDataTests cannot see UsageRender's writer).
fileprivate enum FixtureStamp {
    static func utc(_ t: Micros) -> String {
        let seconds = t / 1_000_000
        let days = Int(seconds / 86_400)
        let rest = Int(seconds % 86_400)
        let date = LocalDate(daysSinceEpoch: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date)T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}

fileprivate func compileRules(_ pairs: [(String, String)]) throws -> CategoryRules {
    try CategoryRules(pairs.map { CategoryRule(pattern: $0.0, category: $0.1) })
}

/// Every suite of this file, so that `--filter CategoryRulesTests` runs them all.
enum CategoryRulesTests {}

extension CategoryRulesTests {
    struct Decode {
        @Test(arguments: [
            ("", "not JSON"),
            ("{rules: []}", "not JSON"),
            ("\"rules\"", "not JSON"),
            ("[]", "no \"rules\" array"),
            ("{}", "no \"rules\" array"),
            (#"{"rules": {}}"#, "no \"rules\" array"),
            (#"{"Rules": []}"#, "no \"rules\" array"),
            (#"{"rules": [{"category": "X"}]}"#, "rule 1 needs a \"match\" pattern and a \"category\""),
            (#"{"rules": [{"match": "a", "category": "A"}, {"match": "b"}]}"#, "rule 2 needs a \"match\" pattern and a \"category\""),
            (#"{"rules": [{"match": "", "category": "A"}]}"#, "rule 1 needs a \"match\" pattern and a \"category\""),
            (#"{"rules": [{"match": "a", "category": "  "}]}"#, "rule 1 needs a \"match\" pattern and a \"category\""),
            (#"{"rules": [{"match": 1, "category": "A"}]}"#, "rule 1 needs a \"match\" pattern and a \"category\""),
            (#"{"rules": ["a"]}"#, "rule 1 needs a \"match\" pattern and a \"category\""),
        ])
        func decodeErrors(text: String, problem: String) {
            #expect(throws: RulesFileError.Problem(problem)) {
                _ = try CategoryRules(CategoryRulesFile.decode(Array(text.utf8)))
            }
        }

        @Test func aBadRegexNamesItsRule() {
            let text = #"{"rules": [{"match": "ok", "category": "A"}, {"match": "fire(", "category": "B"}]}"#
            #expect(throws: RulesFileError.Problem("rule 2: 'fire(' is not a regular expression")) {
                _ = try CategoryRules(CategoryRulesFile.decode(Array(text.utf8)))
            }
        }

        @Test func rulesKeepTheirOrderAndUnknownFieldsAreIgnored() throws {
            let text = #"{"version": 1, "rules": [{"match": "b", "category": "B", "note": "x"}, {"match": "a", "category": "A"}]}"#
            let rules = try CategoryRulesFile.decode(Array(text.utf8))
            #expect(rules == [CategoryRule(pattern: "b", category: "B"), CategoryRule(pattern: "a", category: "A")])
            #expect(try CategoryRulesFile.decode(Array(#"{"rules": []}"#.utf8)).isEmpty)
        }
    }
}

extension CategoryRulesTests {
    struct File {
        @Test func aMissingFileIsNoRules() throws {
            let folder = try TemporaryFolder("rules")
            let path = folder.path + "/categories.json"
            #expect(try CategoryRulesFile(path: path).load() == nil)
            #expect(try CategoryRulesFile(path: "/nonexistent-\(UUID().uuidString)/categories.json").load() == nil)
        }

        @Test func aFileLoads() throws {
            let folder = try TemporaryFolder("rules")
            let path = folder.path + "/categories.json"
            try Data(#"{"rules":[{"match":"firefox|chrom","category":"Browsing"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
            let rules = try #require(try CategoryRulesFile(path: path).load())
            #expect(rules.rules == [CategoryRule(pattern: "firefox|chrom", category: "Browsing")])
            #expect(rules.category(for: "Google Chrome") == "Browsing")
        }

        @Test func anInvalidFileNamesItsPathAndProblem() throws {
            let folder = try TemporaryFolder("rules")
            let path = folder.path + "/categories.json"
            try Data(#"{"rules":[{"match":"[","category":"X"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: RulesFileError.invalid(path: path, problem: "rule 1: '[' is not a regular expression")) {
                try CategoryRulesFile(path: path).load()
            }
            let error = RulesFileError.invalid(path: path, problem: "not JSON")
            #expect(error.description == "the category rules '\(path)' are not valid: not JSON")
        }

        @Test func aDirectoryIsUnreadable() throws {
            let folder = try TemporaryFolder("rules")
            let path = folder.path
            do {
                _ = try CategoryRulesFile(path: path).load()
                Issue.record("a directory loaded")
            } catch {
                guard case .unreadable(let p, _) = error else { return #expect(Bool(false), "\(error)") }
                #expect(p == path)
                #expect(error.description.hasPrefix("cannot read the category rules '\(path)'"))
            }
        }

        @Test func theDefaultPathFollowsXDG() {
            #expect(
                CategoryRulesFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/u"])
                    == "/x/conf/usage-shell/categories.json")
            #expect(
                CategoryRulesFile.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"])
                    == "/home/u/.config/usage-shell/categories.json")
            #expect(CategoryRulesFile.defaultPath(environment: [:]) == nil)
        }
    }
}

extension CategoryRulesTests {
    struct Matching {
        @Test(arguments: [
            // pattern, app, matches
            ("firefox", "Firefox", true),
            ("FIREFOX", "firefox nightly", true),
            ("fox", "Firefox", true),
            ("chrom", "Google Chrome", true),
            ("^fox", "Firefox", false),
            ("^firefox$", "Firefox", true),
            ("^firefox$", "Firefox Nightly", false),
            ("^fire", "Firefox", true),
            ("nightly$", "Firefox Nightly", true),
            ("code|term", "Visual Studio Code", true),
            ("code|term", "iTerm2", true),
            ("slack", "Safari", false),
            ("é", "Élan", true),
            ("\\.app$", "Mail.app", true),
            ("\\.app$", "Mailxapp", false),
        ])
        func matching(pattern: String, app: String, matches: Bool) throws {
            let rules = try compileRules([(pattern, "C")])
            #expect((rules.category(for: app) == "C") == matches)
        }

        @Test func theFirstMatchWins() throws {
            let rules = try compileRules([("fire", "A"), ("firefox", "B")])
            #expect(rules.category(for: "Firefox") == "A")
            #expect(rules.ruleIndex(for: "Firefox") == 0)
            let other = try compileRules([("slack", "Chat"), ("firefox", "B"), ("fire", "A")])
            #expect(other.category(for: "Firefox") == "B")
            #expect(other.ruleIndex(for: "Thunderbird") == nil)
            #expect(other.category(for: "Thunderbird") == nil)
        }
    }
}

extension CategoryRulesTests {
    struct Effect {
        /// Firefox 30m + 10m uncategorised (null, "other"), 20m categorised Work; Chrome 15m
        /// "OTHERS"; Terminal 25m blank; Slack 5m null; Notes 40m "Others ", Mail 40m null.
        static func dataset() throws -> Dataset {
            try rulesDataset([
                ("\"Firefox\"", "null", 30),
                ("\"Firefox\"", "\"other\"", 10),
                ("\"Firefox\"", "\"Work\"", 20),
                ("\"Google Chrome\"", "\"OTHERS\"", 15),
                ("\"Terminal\"", "\"  \"", 25),
                ("\"Slack\"", "null", 5),
                ("\"Notes\"", "\" Others \"", 40),
                ("\"Mail\"", "null", 40),
                ("\"Xcode\"", "\"Dev\"", 50),
            ])
        }

        static let rules: [(String, String)] = [("firefox|chrom", "Browsing"), ("^term", "Dev"), ("code", "Dev2"), ("zzz", "Never")]

        @Test func effectPerRuleAndUncategorisedByTime() throws {
            let d = try Self.dataset()
            let effect = try compileRules(Self.rules).effect(on: d)
            #expect(effect.perRule.map(\.apps) == [2, 1, 0, 0])
            let minute: Micros = 60_000_000
            #expect(effect.perRule.map(\.micros) == [55 * minute, 25 * minute, 0, 0])
            // Ties by name (Unicode scalars): Mail before Notes.
            #expect(effect.uncategorised.map(\.app) == ["Mail", "Notes", "Slack"])
            #expect(effect.uncategorised.map(\.micros) == [40 * minute, 40 * minute, 5 * minute])
        }

        @Test func effectOnADatasetWithNothingUncategorised() throws {
            let d = try rulesDataset([("\"Firefox\"", "\"Web\"", 10)])
            let effect = try compileRules(Self.rules).effect(on: d)
            #expect(effect.perRule.count == 4)
            #expect(effect.perRule.allSatisfy { $0.apps == 0 && $0.micros == 0 })
            #expect(effect.uncategorised.isEmpty)
        }

        @Test func categorisingChangesOnlyOtherSessions() throws {
            let d = try Self.dataset()
            let rules = try compileRules(Self.rules)
            let c = d.categorising(rules.category(for:))
            let pairs = c.loaded.map { "\($0.app)/\($0.category)" }
            #expect(
                pairs == [
                    "Firefox/Browsing", "Firefox/Browsing", "Firefox/Work", "Google Chrome/Browsing", "Terminal/Dev",
                    "Slack/Other", "Notes/Other", "Mail/Other", "Xcode/Dev",
                ])
            // Nothing else changes.
            #expect(c.loaded.map(\.start) == d.loaded.map(\.start))
            #expect(c.loaded.map(\.end) == d.loaded.map(\.end))
            #expect(c.loaded.map(\.id) == d.loaded.map(\.id))
            #expect(c.apps == d.apps)
            #expect(c.source == d.source)
            // "Dev" from a rule and "Dev" of the data are one category.
            #expect(c.categories.filter { $0 == "Dev" }.count == 1)
        }

        @Test func categorisingAsksOncePerUncategorisedApp() throws {
            let d = try Self.dataset()
            var asked: [String] = []
            _ = d.categorising { app in
                asked.append(app)
                return nil
            }
            #expect(asked.sorted() == ["Firefox", "Google Chrome", "Mail", "Notes", "Slack", "Terminal"])
        }

        @Test func aRuleCategoryIsNormalised() throws {
            let d = try rulesDataset([("\"Firefox\"", "null", 10), ("\"Slack\"", "null", 10), ("\"Chrome\"", "\"Web\"", 10)])
            let c = d.categorising { app in app == "Firefox" ? "  Web " : app == "Slack" ? "others" : nil }
            #expect(c.loaded.map(\.category) == ["Web", "Other", "Web"])
            #expect(c.categories.filter { $0 == "Web" }.count == 1)
        }

        @Test func noOtherCategoryOrNoRuleLeavesTheDatasetAlone() throws {
            let categorised = try rulesDataset([("\"Firefox\"", "\"Web\"", 10)])
            var called = false
            let same = categorised.categorising { _ in
                called = true
                return "X"
            }
            #expect(!called)
            #expect(same.loaded == categorised.loaded)
            #expect(same.categories == categorised.categories)

            let d = try Self.dataset()
            let untouched = d.categorising { _ in nil }
            #expect(untouched.loaded == d.loaded)
            #expect(untouched.categories == d.categories)
        }
    }
}
