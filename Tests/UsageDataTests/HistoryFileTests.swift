// HistoryFileTests.swift — the history file: where it lives, appending, the cap, and failures that never lose what is there.
import Foundation
import Testing
@testable import UsageData

func temporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-history-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

struct HistoryFileTests {
    @Test(arguments: [
        (["USAGE_SHELL_HISTORY": "/tmp/h", "XDG_STATE_HOME": "/s", "HOME": "/home/ann"], "/tmp/h"),
        (["XDG_STATE_HOME": "/s", "HOME": "/home/ann"], "/s/usage-shell/history"),
        (["XDG_STATE_HOME": "relative", "HOME": "/home/ann"], "/home/ann/.local/state/usage-shell/history"),
        (["HOME": "/home/ann"], "/home/ann/.local/state/usage-shell/history"),
        (["USAGE_SHELL_HISTORY": "", "HOME": "/home/ann"], "/home/ann/.local/state/usage-shell/history"),
        ([:], nil),
    ] as [([String: String], String?)])
    func path(environment: [String: String], expected: String?) {
        #expect(HistoryFile.defaultPath(environment: environment) == expected)
    }

    @Test func commandsAreAppendedAsPlainLinesAndReadBack() throws {
        let file = HistoryFile(path: temporaryFolder() + "/deep/er/history")
        #expect(try file.load() == [])
        try file.append("day 2026-02-23")
        try file.append("app \"Google Chrome\"")
        try file.append("app \"Café ☕\"")
        try file.append("two\nlines")  // would split: not kept
        #expect(try file.load() == ["day 2026-02-23", "app \"Google Chrome\"", "app \"Café ☕\""])
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        #expect(text == "day 2026-02-23\napp \"Google Chrome\"\napp \"Café ☕\"\n")
    }

    @Test func aboutALimitAreKeptAndTheFileIsCompactedAtTwiceThat() throws {
        let file = HistoryFile(path: temporaryFolder() + "/history", limit: 10)
        for k in 1...19 { try file.append("day -\(k)") }
        #expect(try file.load() == (10...19).map { "day -\($0)" })
        #expect(try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n").count == 19)
        try file.append("day -20")
        #expect(try file.load().count == 10)
        #expect(try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n").count == 10)
    }

    @Test func anUnwritableFileIsAnErrorNamingIt() {
        let folder = temporaryFolder()
        let file = HistoryFile(path: folder)  // a directory, not a file
        #expect(throws: HistoryError.self) { try file.append("show") }
        do {
            try file.append("show")
        } catch {
            #expect(error.description.hasPrefix("history file '\(folder)': "))
        }
    }

    @Test func bugHistoryErrorsGaveFoundationsVagueReasons() throws {
        let folder = temporaryFolder()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/blocker"))
        let file = HistoryFile(path: folder + "/blocker/history")
        #expect(try file.load() == [])
        #expect(throws: HistoryError.io(path: file.path, reason: "Not a directory")) { try file.append("show") }
        #expect(throws: HistoryError.io(path: folder, reason: "it is a directory")) { try HistoryFile(path: folder).load() }
    }

    @Test func invalidUTF8IsRepairedNotFatal() throws {
        let path = temporaryFolder() + "/history"
        try Data([0x73, 0x68, 0x6F, 0x77, 0x0A, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(try HistoryFile(path: path).load() == ["show", "\u{FFFD}"])
    }
}
