// SourceCommandsTests.swift — `load` of several sources, `-` and standard input, `rules` and `export` through the shell.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageData
import UsageRender
@testable import UsageShell

struct SourceCommandsTests {
    static let sessionsJSON = """
        [{"session_id":"A1","app_name":"Firefox","category":null,"start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T10:00:00Z"},
        {"session_id":"A2","app_name":"Mail","category":"Productivity","start_timestamp":"2026-02-23T11:00:00Z","end_timestamp":"2026-02-23T11:30:00Z"},
        {"session_id":"A3","app_name":"Firefox","category":null,"start_timestamp":"2026-02-23T12:00:00Z"}]
        """
    /// The same without the skipped row: loads that say nothing but what a test is about.
    static let cleanSessionsJSON = """
        [{"session_id":"A1","app_name":"Firefox","category":null,"start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T10:00:00Z"},
        {"session_id":"A2","app_name":"Mail","category":"Productivity","start_timestamp":"2026-02-23T11:00:00Z","end_timestamp":"2026-02-23T11:30:00Z"}]
        """
    static let sessionsCSV = "app_name,start_timestamp,end_timestamp,session_id\r\nSlack,2026-02-23T09:30:00Z,2026-02-23T10:30:00Z,B1\r\nSlack,2026-02-23T13:00:00Z,bad,B2\r\n"

    @Test func loadOfTwoSourcesMergesThemAndKeepsEachOnesSkippedRows() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", Self.sessionsJSON)
        let b = try folder.write("b.csv", Self.sessionsCSV)
        let s = shell(format: .json)
        let loaded = json(s.execute("load \(a) \(b)"))
        #expect(loaded["source"] as? String == "\(a) + \(b)")
        #expect(loaded["sessions"] as? Int == 3)
        let check = json(s.execute("check"))
        let sources = try #require(check["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String } == [a, b])
        #expect(sources.map { $0["sessions"] as? Int } == [2, 1])
        let examples = try #require(check["examples"] as? [String: [[String: Any]]])
        #expect(examples["missing_timestamp"]?.first?["source"] as? String == a)
        #expect(examples["bad_timestamp"]?.first?["source"] as? String == b)
        #expect(examples["bad_timestamp"]?.first?["line"] as? Int == 3)
        // `load` alone reloads both.
        #expect(json(s.execute("load"))["sessions"] as? Int == 3)
    }

    @Test func aFailingSourceFailsTheWholeLoadAndKeepsTheData() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", Self.sessionsJSON)
        let s = shell()
        succeed(s.execute("load \(a)"))
        let message = failure(s.execute("load \(a) \(folder.path)/missing.csv"))
        #expect(message == "cannot load '\(folder.path)/missing.csv': no such file; the previous data is kept, 'retry' tries again")
        #expect(s.model.history.source == a)
    }

    @Test(arguments: [
        (StdinUse.terminal, "'-' reads data from standard input, which is the terminal here: pipe the data in and give commands with -c or -f (cat FILE | usage-shell - -c show)"),
        (StdinUse.commands, "'-' cannot read data from standard input: it carries the commands here; give them with -c or -f instead"),
        (StdinUse.consumed, "standard input has already been read: '-' can be loaded once per run"),
    ])
    func aDashIsRefusedWhereStandardInputHoldsNoData(use: StdinUse, message: String) {
        let s = shell()
        s.stdin = use
        #expect(failure(s.execute("load -")) == message)
        #expect(failure(s.execute("load :sample: -")) == message)
        #expect(!s.model.hasData)
    }

    @Test func rulesCategoriseOnlyUncategorisedSessionsAndSayWhatIsLeft() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", Self.sessionsJSON)
        let rules = try folder.write(
            "usage-shell/categories.json", #"{"rules": [{"match": "FIRE", "category": "Web"}, {"match": "mail", "category": "Post"}]}"#)
        let s = shell(format: .json, rules: rules)
        succeed(s.execute("load \(a)"))
        let categories = (json(s.execute("chart category"))["categories"] as? [[String: Any]])?.map { $0["name"] as? String }
        // Mail keeps its own category; Firefox's null became Web.
        #expect(categories == ["Web", "Productivity"])
        let summary = json(s.execute("rules"))
        let list = try #require(summary["rules"] as? [[String: Any]])
        #expect(list.map { $0["seconds"] as? Int } == [3600, 0])
        #expect(summary["uncategorised_seconds"] as? Int == 0)
    }

    @Test func rulesChangedOnDiskApplyAtTheNextRules() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", Self.sessionsJSON)
        let s = shell(rules: folder.path + "/categories.json")
        succeed(s.execute("load \(a)"))
        let none = outputLines(s.execute("rules"))
        #expect(none.first?.hasPrefix("no category rules: write them to") == true)
        #expect(none.last == "uncategorised: 1h in 1 app: Firefox 1h")
        _ = try folder.write("categories.json", #"{"rules": [{"match": "firefox", "category": "Web"}]}"#)
        let some = outputLines(s.execute("rules"))
        #expect(some.contains("  1. firefox → Web: 1h in 1 app"))
        #expect(some.last == "uncategorised: none")
        #expect(s.model.history.categories.contains("Web"))
    }

    @Test func aBrokenRulesFileWarnsAtLoadAndTheLoadStillSucceeds() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", Self.cleanSessionsJSON)
        let rules = try folder.write("categories.json", #"{"rules": [{"match": "(", "category": "x"}]}"#)
        let s = shell(rules: rules)
        succeed(s.execute("load \(a)"))
        #expect(s.takeWarnings() == ["the category rules '\(rules)' are not valid: rule 1: '(' is not a regular expression; no category rules applied"])
        #expect(s.takeWarnings().isEmpty)
        #expect(failure(s.execute("rules")) == "the category rules '\(rules)' are not valid: rule 1: '(' is not a regular expression")
    }

    @Test func exportRefusesAnExistingFileUntilForced() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", Self.sessionsJSON)
        let out = try folder.write("out.csv", "keep me")
        let s = shell()
        succeed(s.execute("load \(a)"))
        #expect(failure(s.execute("export \(out)")) == "export: '\(out)' already exists: add --force to replace it")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")
        #expect(outputLines(s.execute("export --force \(out)")) == ["exported 2 sessions to \(out) (csv)"])
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("session_id,app_name,category,start_timestamp,end_timestamp\r\n"))
    }

    @Test(arguments: [
        ("export", "export: which file? (usage: export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force])"),
        ("export a.json b.json", "export: one file (quote paths with spaces) (usage: export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force])"),
        ("export notes.txt", "export: cannot tell the format of 'notes.txt': name it .json, .ndjson (.jsonl) or .csv (usage: export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force])"),
    ])
    func exportUsageErrors(line: String, message: String) {
        #expect(failure(loadedShell().execute(line)) == message)
    }

    @Test func exportIntoAMissingFolderSaysSoAndCreatesNothing() throws {
        let folder = try TemporaryFolder()
        let message = failure(loadedShell().execute("export \(folder.path)/nope/out.json"))
        #expect(message == "export: cannot write '\(folder.path)/nope/out.json': No such file or directory")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/nope"))
    }
}

/// Bugs a new-user review of the sources found, each named after what went wrong.
struct SourceReviewBugTests {
    @Test func bugTheSameSourceTwiceDoubledEveryTotal() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", SourceCommandsTests.sessionsJSON)
        let s = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }))
        #expect(failure(s.execute("load \(a) \(a)")) == "load: '\(a)' is given twice (usage: load [SOURCE...])")
        #expect(failure(s.execute("load - -")) == "load: '<stdin>' is given twice (usage: load [SOURCE...])")
        #expect(!s.model.hasData)
    }

    @Test func bugExportReportWithoutAFileAskedForTheFormatOfReport() {
        #expect(failure(loadedShell().execute("export report")) == "export: which file? (usage: export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force])")
        #expect(
            failure(loadedShell().execute("export report day.ndjson"))
                == "export: cannot tell the format of 'day.ndjson': name it .csv or .json (usage: export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force])")
    }

    /// `import store:~/usage.sqlite` looked for a folder named `~`: the shell leaves a tilde after
    /// `store:` alone, so the program expands it as it does a file's.
    @Test func bugAStoresTildeWasTakenLiterally() {
        #expect(SourceRef("store:~/usage.sqlite", home: "/home/ann") == .storeAt("/home/ann/usage.sqlite"))
        #expect(SourceRef("store:~", home: "/home/ann") == .storeAt("/home/ann"))
        #expect(SourceRef("store:~ann/usage.sqlite", home: "/home/ann") == .storeAt("~ann/usage.sqlite"))
        #expect(SourceRef("store:postgresql://me@db/usage", home: "/home/ann") == .storeAt("postgresql://me@db/usage"))
    }

    @Test func bugAURLsPasswordWasShownInMessagesAndCheck() {
        #expect(SourceRef.redacted("https://ann:secret@example.com/x.json") == "https://ann:***@example.com/x.json")
        #expect(SourceRef.redacted("https://ann@example.com/x.json") == "https://ann@example.com/x.json")
        #expect(SourceRef.redacted("https://example.com/a@b/x.json") == "https://example.com/a@b/x.json")
        #expect(SourceRef("http://ann:secret@127.0.0.1:9/x.json").description == "http://ann:***@127.0.0.1:9/x.json")
        let s = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }))
        let message = failure(s.execute("load http://ann:secret@127.0.0.1:9/x.json")) ?? ""
        #expect(!message.contains("secret"))
        #expect(message.hasPrefix("cannot load 'http://ann:***@127.0.0.1:9/x.json': "))
    }

    @Test func bugARuleNamingOtherWasSaidToCategorise() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.json", SourceCommandsTests.sessionsJSON)
        let rules = try folder.write("categories.json", #"{"rules": [{"match": "fire", "category": "other"}]}"#)
        let s = shell(rules: rules)
        succeed(s.execute("load \(a)"))
        let lines = outputLines(s.execute("rules"))
        #expect(lines.contains("  1. fire → other: nothing yet"))
        #expect(lines.last == "uncategorised: 1h in 1 app: Firefox 1h")
    }

    @Test(arguments: [
        ([0x1F, 0x8B, 0x08, 0x00] as [UInt8], "it is compressed with gzip: decompress it first (zcat FILE | usage-shell - -c show)"),
        ([0xFF, 0xFE, 0x5B, 0x00], "it is UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8 FILE)"),
    ])
    func bugACompressedOrUTF16FileWasCalledInvalidJSON(bytes: [UInt8], problem: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/data.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let s = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }))
        #expect(failure(s.execute("load \(path)")) == "cannot load '\(path)': not a valid text file: \(problem); 'retry' tries again")
    }

    @Test(arguments: [";", "\t"])
    func bugASemicolonOrTabSeparatedCSVSaidItsHeaderLackedAColumn(separator: String) throws {
        let folder = try TemporaryFolder()
        let text = ["app_name", "start_timestamp", "end_timestamp"].joined(separator: separator) + "\r\n"
            + ["Mail, Work", "2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z"].joined(separator: separator) + "\r\n"
        let path = try folder.write("excel.csv", text)
        let s = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }), output: OutputSettings(format: .json))
        succeed(s.execute("load \(path)"))
        #expect(s.model.history.apps == ["Mail, Work"])
        #expect(s.model.history.sessionCount == 1)
    }
}

extension SourceReviewBugTests {
    /// `check` cut source names to half the width from their end, so two long paths differing
    /// only in their extension both read `/tmp/…/Fixtures/o…`; then it cut them in the middle
    /// (`/tmp/…/week.json`): a name too long for its line is now written whole, wrapped after
    /// a `/`, its counts below it.
    @Test func bugLongSourceNamesWereCutAlikeInCheck() throws {
        let folder = try TemporaryFolder()
        let deep = "a-rather-long-folder-name/another-long-folder-name"
        let a = try folder.write("\(deep)/week.json", SourceCommandsTests.sessionsJSON)
        let b = try folder.write("\(deep)/week.csv", SourceCommandsTests.sessionsCSV)
        let s = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }))
        succeed(s.execute("load \(a) \(b)"))
        let lines = outputLines(s.execute("check"))
        let start = try #require(lines.firstIndex(of: "sources: 2"))
        let first = try #require(lines.firstIndex(of: "    2 sessions, 1 skipped: missing_timestamp 1"))
        let second = try #require(lines.firstIndex(of: "    1 session, 1 skipped: bad_timestamp 1"))
        func name(_ range: Range<Int>) -> String { lines[range].map { $0.trimmingCharacters(in: .whitespaces) }.joined() }
        #expect(name((start + 1)..<first) == a, "\(lines)")
        #expect(name((first + 1)..<second) == b, "\(lines)")
        #expect(lines[start + 1].hasPrefix("  /tmp/") && !lines.contains { $0.contains("…") })
        #expect(lines.allSatisfy { TerminalText.cells($0) <= 80 })
    }
}
