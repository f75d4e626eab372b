// OwnedFilesShellTests.swift — the limits and rules files through the shell: each problem one warning per session (per version, for the hand-written rules), commands going on, nothing overwritten.
import Foundation
import Testing
import TestSupport
import UsageCore
@testable import UsageData
@testable import UsageShell

struct OwnedFilesShellTests {
    static let chrome = [UsageLimit(target: .app("Google Chrome"), micros: 3_600_000_000)]

    @Test func aCorruptLimitsFileIsSetAsideWithOneWarningAndTheNextChangeIsSaved() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("limits.json", "{\"limits\": [oops")
        let s = shell(data: completionData(), limits: path)
        succeed(s.execute("limits"))
        #expect(s.takeWarnings() == ["the limits file '\(path)' is not valid (not JSON); it was kept aside as '\(path).corrupt' and limits start empty"])
        succeed(s.execute("limits"))
        succeed(s.execute("limit \"Google Docs\" 30m"))
        #expect(s.takeWarnings() == [])
        #expect(try LimitsFile(path: path).load().limits.map(\.target.name) == ["Google Docs"])
        #expect(bytes(path + ".corrupt") == Array("{\"limits\": [oops".utf8))
    }

    @Test func anUnreadableLimitsFileIsReportedOnceAndLimitsGoOnInMemory() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/limits.json"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let s = shell(data: completionData(), limits: path)
        succeed(s.execute("limits"))
        #expect(s.takeWarnings() == ["cannot read the limits file '\(path)': it is a directory; it is left as it is, and limits are kept in memory for this session only"])
        succeed(s.execute("limit \"Google Docs\" 30m"))
        #expect(outputLines(s.execute("limits")).contains { $0.hasPrefix("  Google Docs") })
        // A check cannot pass when the stored limits are unknown.
        #expect(failure(s.execute("limits check")) == "limits check: the limits file '\(path)' could not be read this session, so its limits were not checked")
        #expect(s.takeWarnings() == [], "said once")
        #expect(listing(path) == [])
    }

    @Test func aCorruptLimitsFileThatCannotBeMovedIsNeverOverwritten() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("limits.json", "[]")
        let s = shell(data: completionData(), limits: path, steps: Failing.move())
        succeed(s.execute("limit \"Google Docs\" 30m"))
        #expect(s.takeWarnings() == ["the limits file '\(path)' is not valid (no \"limits\" array) and could not be moved aside (Permission denied); it is left as it is, and limits are kept in memory for this session only"])
        succeed(s.execute("limit \"Google Chrome\" 1h"))
        #expect(s.takeWarnings() == [])
        #expect(s.limits.current(warn: s.warn).map(\.target.name) == ["Google Docs", "Google Chrome"])
        #expect(bytes(path) == Array("[]".utf8))
        #expect(listing(folder.path) == ["limits.json", "limits.json.lock"])
    }

    @Test func aLimitsFileThatCannotBeWrittenKeepsTheChangeInMemoryWithOneWarning() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/limits.json"
        try LimitsFile(path: path).save(Self.chrome)
        let s = shell(data: completionData(), limits: path, steps: Failing.rename(code: EROFS))
        succeed(s.execute("limit \"Google Docs\" 30m"))
        #expect(s.takeWarnings() == ["cannot write the limits file '\(path)': Read-only file system; limits are kept in memory for this session only"])
        succeed(s.execute("limit \"Google Docs\" 45m"))
        #expect(s.limits.current(warn: s.warn).map(\.target.name) == ["Google Chrome", "Google Docs"])
        #expect(s.limits.current(warn: s.warn).last?.micros == 2_700_000_000)
        // The limits were read: a check has its answer.
        #expect(failure(s.execute("limits check")) == nil)
        #expect(s.takeWarnings() == [])
        #expect(try LimitsFile(path: path).load().limits == Self.chrome)
    }

    @Test func aFileInPlaceOfTheConfigFolderMakesLimitsUnknownForTheSession() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("usage-shell", "")
        let path = folder.path + "/usage-shell/limits.json"
        let s = shell(data: completionData(), limits: path)
        succeed(s.execute("limit \"Google Docs\" 30m"))
        #expect(s.takeWarnings() == ["cannot read the limits file '\(path)': Not a directory; it is left as it is, and limits are kept in memory for this session only"])
        #expect(failure(s.execute("limits check"))?.hasPrefix("limits check: the limits file") == true)
        #expect(s.takeWarnings() == [])
    }

    @Test func aUsageErrorDuringAFailedSaveStillFailsTheCommand() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/limits.json"
        let s = shell(data: completionData(), limits: path, steps: Failing.rename())
        #expect(failure(s.execute("limit \"Google Docs\" off")) == "limit: there is no limit on the app 'Google Docs' (usage: \(CommandTable.named("limit").usage))")
        #expect(s.takeWarnings().count == 1)
        #expect(bytes(path) == nil)
    }
}

struct RulesFileShellTests {
    func write(_ text: String, to path: String) throws {
        // Atomically, as editors save: a new file each time.
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Bug: every `load` repeated the same warning about a broken rules file.
    @Test func bugEveryLoadRepeatedTheWarningAboutTheSameBrokenRulesFile() throws {
        let folder = try TemporaryFolder()
        let data = try folder.write("a.json", SourceCommandsTests.cleanSessionsJSON)
        let path = folder.path + "/categories.json"
        let broken = #"{"rules": [{"match": "(", "category": "x"}]}"#
        try write(broken, to: path)
        let s = shell(rules: path)
        let problem = "the category rules '\(path)' are not valid: rule 1: '(' is not a regular expression"
        succeed(s.execute("load \(data)"))
        #expect(s.takeWarnings() == [problem + "; no category rules applied"])
        succeed(s.execute("load \(data)"))
        #expect(s.takeWarnings() == [])
        // `rules` asks: it fails with the problem every time.
        #expect(failure(s.execute("rules")) == problem)
        succeed(s.execute("load \(data)"))
        #expect(s.takeWarnings() == [])
        // Saved again (still broken): a new version of the file, reported once more.
        try write(broken, to: path)
        succeed(s.execute("load \(data)"))
        #expect(s.takeWarnings() == [problem + "; no category rules applied"])
        // Mended, then broken again: reported again.
        try write(#"{"rules": [{"match": "fire", "category": "Web"}]}"#, to: path)
        succeed(s.execute("load \(data)"))
        #expect(s.takeWarnings() == [])
        #expect(s.model.history.categories.contains("Web"))
        try write(broken, to: path)
        succeed(s.execute("load \(data)"))
        #expect(s.takeWarnings().count == 1)
        // Never moved or rewritten: it is the user's.
        #expect(bytes(path) == Array(broken.utf8))
        #expect(listing(folder.path) == ["a.json", "categories.json"])
    }

    @Test(arguments: [
        ("invalid UTF-8", Array(#"{"rules": [{"match": "caf"#.utf8) + [0xE9] + Array(#"", "category": "Food"}]}"#.utf8), "bytes that are not UTF-8 at offset 25"),
        ("a NUL byte", Array("{\"rules\": []}\0".utf8), "a NUL byte at offset 13: not a text file"),
        ("binary junk", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00], "a NUL byte at offset 8: not a text file"),
        ("wrong shape", Array(#"{"rules": {"match": "a"}}"#.utf8), "no \"rules\" array"),
    ] as [(String, [UInt8], String)])
    func aCorruptRulesFileIsIgnoredWithOneWarningAndLeftInPlace(name: String, junk: [UInt8], problem: String) throws {
        let folder = try TemporaryFolder()
        let data = try folder.write("a.json", SourceCommandsTests.cleanSessionsJSON)
        let path = folder.path + "/categories.json"
        try Data(junk).write(to: URL(fileURLWithPath: path))
        let s = shell(rules: path)
        for _ in 1...3 { succeed(s.execute("load \(data)")) }
        #expect(s.takeWarnings() == ["the category rules '\(path)' are not valid: \(problem); no category rules applied"], "\(name)")
        #expect(bytes(path) == junk, "\(name)")
    }

    @Test func anUnreadableRulesFileIsReportedOnceAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let data = try folder.write("a.json", SourceCommandsTests.cleanSessionsJSON)
        let path = folder.path + "/categories.json"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let s = shell(rules: path)
        for _ in 1...3 { succeed(s.execute("load \(data)")) }
        #expect(s.takeWarnings() == ["cannot read the category rules '\(path)': it is a directory; no category rules applied"])
        #expect(failure(s.execute("rules")) == "cannot read the category rules '\(path)': it is a directory")
        #expect(listing(path) == [])
    }
}
