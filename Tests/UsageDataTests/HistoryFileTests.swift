// HistoryFileTests.swift — the history file: where it lives, saving (atomic, locked, capped), and every way it can be bad — corrupt, unreadable, unmovable, unwritable — reported once and never losing what is there.
import Foundation
import Testing
import TestSupport
@testable import UsageData

/// A history file in `folder` holding `bytes` (none: no file).
func historyFile(_ bytes: [UInt8]?, limit: Int = 1000, in folder: TemporaryFolder) throws -> HistoryFile {
    let path = folder.path + "/history"
    if let bytes { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
    return HistoryFile(path: path, limit: limit)
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

    @Test func commandsAreSavedAsPlainLinesAndReadBack() throws {
        let folder = try TemporaryFolder("history")
        let file = HistoryFile(path: folder.path + "/deep/er/history")
        #expect(try file.load() == [])
        try file.append("day 2026-02-23")
        try file.append("app \"Google Chrome\"")
        try file.append("app \"Café ☕\"")
        try file.append("two\nlines")  // would split: not kept
        #expect(try file.load() == ["day 2026-02-23", "app \"Google Chrome\"", "app \"Café ☕\""])
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        #expect(text == "day 2026-02-23\napp \"Google Chrome\"\napp \"Café ☕\"\n")
    }

    @Test func theLastLimitCommandsAreKept() throws {
        let folder = try TemporaryFolder("history")
        let file = HistoryFile(path: folder.path + "/history", limit: 10)
        for k in 1...25 { try file.append("day -\(k)") }
        #expect(try file.load() == (16...25).map { "day -\($0)" })
        #expect(try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n").count == 10)
        // A longer file (from another program, or an older version) is read to its last 10.
        let other = try TemporaryFolder("history")
        let long = try historyFile(Array((1...30).map { "day -\($0)\n" }.joined().utf8), limit: 10, in: other)
        #expect(try long.load() == (21...30).map { "day -\($0)" })
    }

    /// Bug: every command was appended to the file in place (`O_APPEND`): a crash or a full
    /// disk midway left half a line, and nothing said the file was whole.
    @Test func bugHistoryWasAppendedInPlaceNotReplacedAtomically() throws {
        let folder = try TemporaryFolder("history")
        let file = HistoryFile(path: folder.path + "/history")
        try file.append("show")
        let before = inode(file.path)
        try file.append("apps")
        #expect(inode(file.path) != before, "replaced by a rename")
        #expect(mode(file.path) == 0o600)
        #expect(listing(folder.path) == ["history", "history.lock"], "no temporary file is left")
    }

    @Test(arguments: [Failing.write(after: 0), Failing.write(after: 7), Failing.rename()])
    func aFailedSaveLeavesTheFileAsItWas(steps: AtomicFile.Steps) throws {
        let folder = try TemporaryFolder("history")
        var file = try historyFile(Array("show\napps\n".utf8), in: folder)
        file.steps = steps
        #expect {
            try file.append("day")
        } throws: { error in
            guard case .unwritable(_, let path, _) = error as? OwnedFileError else { return false }
            return path == file.path
        }
        #expect(bytes(file.path) == Array("show\napps\n".utf8))
        #expect(listing((file.path as NSString).deletingLastPathComponent) == ["history", "history.lock"])
    }

    @Test func shellsOpenAtOnceKeepEachOthersCommands() async throws {
        let folder = try TemporaryFolder("history")
        let path = folder.path + "/history"
        await withTaskGroup(of: Void.self) { group in
            for shell in ["a", "b", "c"] {
                group.addTask {
                    for k in 1...40 { try! HistoryFile(path: path).append("\(shell) \(k)") }
                }
            }
        }
        let saved = try HistoryFile(path: path).load()
        #expect(saved.count == 120)
        for shell in ["a", "b", "c"] {
            #expect(saved.filter { $0.hasPrefix(shell + " ") } == (1...40).map { "\(shell) \($0)" })
        }
    }

    // Corrupt: bytes we cannot have written. Set aside whole; history starts empty and is saved.

    static let corrupt: [(String, [UInt8], String)] = [
        ("binary junk", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0xFF, 0xFE], "a NUL byte at offset 7: not a text file"),
        ("a NUL byte in a line", Array("show\nda\0y\n".utf8), "a NUL byte at offset 7: not a text file"),
        ("invalid UTF-8", [0x73, 0x68, 0x6F, 0x77, 0x0A, 0xFF, 0x0A], "bytes that are not UTF-8 at offset 5"),
        ("Latin-1 text", Array("app Caf".utf8) + [0xE9, 0x0A], "bytes that are not UTF-8 at offset 7"),
    ]

    @Test(arguments: corrupt)
    func aCorruptFileIsSetAsideWholeAndHistoryStartsEmpty(name: String, junk: [UInt8], problem: String) throws {
        let folder = try TemporaryFolder("history")
        let file = try historyFile(junk, in: folder)
        let session = HistorySession(file: file)
        let (commands, warning) = session.start()
        #expect(commands == [], "\(name)")
        #expect(warning == .corrupt(.history, path: file.path, problem: problem, keptAs: file.path + ".corrupt"), "\(name)")
        #expect(warning?.description == "the history file '\(file.path)' is corrupt (\(problem)); it was kept aside as '\(file.path).corrupt' and history starts empty")
        #expect(bytes(file.path + ".corrupt") == junk, "\(name): kept byte for byte")
        #expect(bytes(file.path) == nil)
        // The session saves as usual, with nothing more to say.
        #expect(session.isSaving)
        #expect(session.save("show") == nil)
        #expect(session.save("apps") == nil)
        #expect(try file.load() == ["show", "apps"])
        #expect(bytes(file.path + ".corrupt") == junk)
    }

    @Test func aFileTooLargeToBeAHistoryIsSetAside() throws {
        let folder = try TemporaryFolder("history")
        let file = try historyFile(nil, in: folder)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: file.path))
        try handle.truncate(atOffset: UInt64(HistoryFile.maximumBytes + 1))  // sparse
        try handle.close()
        #expect(throws: OwnedFileError.corrupt(.history, path: file.path, problem: "larger than 16 MiB", keptAs: file.path + ".corrupt")) {
            try file.load()
        }
    }

    /// Bug: bytes that were not UTF-8 were read as U+FFFD, and the next rewrite of the file
    /// replaced the original bytes with those: data lost without a word.
    @Test func bugInvalidUTF8WasRepairedAndTheOriginalBytesLostAtTheNextRewrite() throws {
        let junk: [UInt8] = Array("app Caf".utf8) + [0xE9, 0x0A, 0x73, 0x68, 0x6F, 0x77, 0x0A]
        let folder = try TemporaryFolder("history")
        let file = try historyFile(junk, in: folder)
        #expect(throws: OwnedFileError.self) { try file.load() }
        try file.append("day")
        #expect(bytes(file.path + ".corrupt") == junk)
        #expect(try file.load() == ["day"])
    }

    @Test func aFileThatTurnsCorruptDuringTheSessionIsSetAsideAtTheNextSave() throws {
        let folder = try TemporaryFolder("history")
        let file = try historyFile(Array("show\n".utf8), in: folder)
        let session = HistorySession(file: file)
        #expect(session.start().commands == ["show"])
        try Data([0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: file.path))
        #expect(session.save("apps") == .corrupt(.history, path: file.path, problem: "a NUL byte at offset 0: not a text file", keptAs: file.path + ".corrupt"))
        #expect(try file.load() == ["apps"])
        #expect(session.save("day") == nil)
        #expect(bytes(file.path + ".corrupt") == [0x00, 0x01, 0x02])
    }

    @Test func aCorruptFileThatCannotBeMovedIsLeftAloneAllSession() throws {
        let junk: [UInt8] = [0x00, 0xFF, 0x00, 0xFF]
        let folder = try TemporaryFolder("history")
        var file = try historyFile(junk, in: folder)
        file.steps = Failing.move()  // as in a read-only folder
        let session = HistorySession(file: file)
        let (commands, warning) = session.start()
        #expect(commands == [])
        #expect(warning == .corruptInPlace(.history, path: file.path, problem: "a NUL byte at offset 0: not a text file", reason: "Permission denied"))
        #expect(warning?.description == "the history file '\(file.path)' is corrupt (a NUL byte at offset 0: not a text file) and could not be moved aside (Permission denied); it is left as it is and history is not saved this session")
        #expect(!session.isSaving)
        for command in ["show", "apps", "day"] { #expect(session.save(command) == nil, "said once") }
        #expect(bytes(file.path) == junk, "never overwritten")
        #expect(listing((file.path as NSString).deletingLastPathComponent) == ["history", "history.lock"])
    }

    // Unreadable: left as it is, never written this session, said once.

    @Test func aFolderInPlaceOfTheFileIsUnreadableAndLeftAlone() throws {
        let folder = try TemporaryFolder("history")
        let file = HistoryFile(path: folder.path)
        let session = HistorySession(file: file)
        let (commands, warning) = session.start()
        #expect(commands == [])
        #expect(warning == .unreadable(.history, path: folder.path, reason: "it is a directory"))
        #expect(warning?.description == "cannot read the history file '\(folder.path)': it is a directory; it is left as it is and history is not saved this session")
        #expect(session.save("show") == nil)
        #expect(listing(folder.path) == [])
    }

    @Test func aFileInPlaceOfTheFolderIsUnreadableAtTheStartNotAtTheFirstCommand() throws {
        let folder = try TemporaryFolder("history")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/blocker"))
        let session = HistorySession(file: HistoryFile(path: folder.path + "/blocker/history"))
        #expect(session.start().problem == .unreadable(.history, path: folder.path + "/blocker/history", reason: "Not a directory"))
        #expect(session.save("show") == nil)
        #expect(bytes(folder.path + "/blocker") == Array("x".utf8))
    }

    @Test func anIOErrorIsUnreadable() throws {
        // Reading /proc/self/mem from offset 0 (never mapped) fails with EIO.
        let session = HistorySession(file: HistoryFile(path: "/proc/self/mem"))
        #expect(session.start().problem == .unreadable(.history, path: "/proc/self/mem", reason: "Input/output error"))
        #expect(!session.isSaving)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file: the pty tests cover this as nobody"))
    func aFileWithoutReadPermissionIsUnreadableAndLeftAlone() throws {
        let folder = try TemporaryFolder("history")
        let file = try historyFile(Array("show\n".utf8), in: folder)
        chmod(file.path, 0o200)
        let session = HistorySession(file: file)
        #expect(session.start().problem == .unreadable(.history, path: file.path, reason: "permission denied"))
        #expect(session.save("apps") == nil)
        chmod(file.path, 0o600)
        #expect(bytes(file.path) == Array("show\n".utf8))
    }

    // Unwritable: said once, then history lives in memory only.

    @Test func aSaveThatFailsIsReportedOnceAndSavingStops() throws {
        let folder = try TemporaryFolder("history")
        var file = try historyFile(Array("show\n".utf8), in: folder)
        let calls = Counter()
        var steps = Failing.rename(code: EROFS)
        steps.write = { fd, buffer, count in
            calls.add()
            return Glibc.write(fd, buffer, count)
        }
        file.steps = steps
        let session = HistorySession(file: file)
        #expect(session.start().commands == ["show"])
        let warning = session.save("apps")
        #expect(warning == .unwritable(.history, path: file.path, reason: "Read-only file system"))
        #expect(warning?.description == "cannot save the history file '\(file.path)': Read-only file system; history is not saved from now on")
        #expect(session.save("day") == nil)
        #expect(session.save("week") == nil)
        #expect(calls.value == 1, "not tried again")
        #expect(bytes(file.path) == Array("show\n".utf8))
    }

    @Test func bugOwnedFileErrorsGaveFoundationsVagueReasons() throws {
        let folder = try TemporaryFolder("history")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/blocker"))
        let file = HistoryFile(path: folder.path + "/blocker/history")
        #expect(throws: OwnedFileError.unreadable(.history, path: file.path, reason: "Not a directory")) { try file.load() }
        #expect(throws: OwnedFileError.unwritable(.history, path: file.path, reason: "Not a directory")) { try file.append("show") }
        #expect(throws: OwnedFileError.unreadable(.history, path: folder.path, reason: "it is a directory")) { try HistoryFile(path: folder.path).load() }
    }
}

/// A count shared with a `@Sendable` closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
