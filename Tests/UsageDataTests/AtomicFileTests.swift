// AtomicFileTests.swift — the owned-file primitives: whole-or-nothing writes (a failure at any step leaves the old file), what counts as text, setting a file aside without overwriting anything.
import Foundation
import Testing
import TestSupport
@testable import UsageData

/// The permission bits of a file.
func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o7777
}

func inode(_ path: String) -> ino_t {
    var info = stat()
    stat(path, &info)
    return info.st_ino
}

struct AtomicFileTests {
    @Test func aWriteReplacesTheFileWholeWithMode600AndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/new/file"
        try AtomicFile.write(Array("one\n".utf8), to: path)
        let first = inode(path)
        try AtomicFile.write(Array("two\n".utf8), to: path)
        #expect(bytes(path) == Array("two\n".utf8))
        #expect(inode(path) != first, "replaced by a rename, not written in place")
        #expect(mode(path) == 0o600)
        #expect(listing(folder.path + "/new") == ["file"])
    }

    @Test(arguments: [
        ("write fails at once (full disk)", Failing.write(after: 0), "No space left on device"),
        ("write fails midway", Failing.write(after: 5), "No space left on device"),
        ("write fails midway (I/O error)", Failing.write(after: 7, code: EIO), "Input/output error"),
        ("rename fails (read-only folder)", Failing.rename(code: EROFS), "Read-only file system"),
        ("rename fails (permission)", Failing.rename(), "Permission denied"),
    ] as [(String, AtomicFile.Steps, String)])
    func aWriteThatFailsAtAnyStepLeavesTheOldFileIntactAndNoTemporaryFile(step: String, steps: AtomicFile.Steps, reason: String) throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/file"
        let old = Array("the old content, whole\n".utf8)
        try AtomicFile.write(old, to: path)
        do {
            try AtomicFile.write(Array(String(repeating: "new content ", count: 100).utf8), to: path, steps: steps)
            Issue.record("\(step): the write succeeded")
        } catch {
            #expect(error.reason == reason, "\(step)")
        }
        #expect(bytes(path) == old, "\(step)")
        #expect(listing(folder.path) == ["file"], "\(step)")
    }

    /// `export` writes in pieces: they are put together in order, and a failure in any piece
    /// (the disk full after a few) leaves the old file and stops the writes that follow.
    @Test func aWriteInPiecesIsThePiecesInOrderAndFailsWhole() throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/file"
        let pieces = (0..<50).map { Array("piece \($0);".utf8) }
        try AtomicFile.write(to: path) { sink in for piece in pieces { piece.withUnsafeBytes(sink) } }
        #expect(bytes(path) == pieces.flatMap { $0 })
        var offered = 0
        do {
            try AtomicFile.write(to: path, steps: Failing.write(after: 30)) { sink in
                for piece in Array(repeating: Array("abcdefghij".utf8), count: 20) {
                    offered += 1
                    piece.withUnsafeBytes(sink)
                }
            }
            Issue.record("the write succeeded")
        } catch {
            #expect(error.reason == "No space left on device")
        }
        #expect(offered == 20, "the producer runs to its end; the pieces after the failure are dropped")
        #expect(bytes(path) == pieces.flatMap { $0 }, "the old file, whole")
        #expect(listing(folder.path) == ["file"])
    }

    @Test(arguments: [
        ("", nil),
        ("show\napp \"Café ☕\"\n", nil),
        ("tab\there, CR\r\n, emoji 👩‍👩‍👧", nil),
        ("day\0\n", "a NUL byte at offset 3: not a text file"),
        ("\u{FEFF}show\n", nil),
    ] as [(String, String?)])
    func textProblemsOfText(text: String, problem: String?) {
        #expect(AtomicFile.textProblem(Array(text.utf8)) == problem)
    }

    @Test(arguments: [
        ([0x73, 0x68, 0xFF, 0x0A], "bytes that are not UTF-8 at offset 2"),
        ([0xC3], "bytes that are not UTF-8 at offset 0"),  // cut inside a character
        ([0x61, 0xC0, 0xAF], "bytes that are not UTF-8 at offset 1"),  // overlong '/'
        ([0x61, 0x62, 0xED, 0xA0, 0x80], "bytes that are not UTF-8 at offset 2"),  // a surrogate
        ([0xE2, 0x98, 0x95, 0x80], "bytes that are not UTF-8 at offset 3"),  // ☕ then a stray continuation
        ([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00], "a NUL byte at offset 7: not a text file"),  // an ELF header
    ] as [([UInt8], String)])
    func textProblemsOfBytesThatAreNotText(bytes: [UInt8], problem: String) {
        #expect(AtomicFile.textProblem(bytes) == problem)
    }

    @Test func settingAsideNeverOverwritesACopyKeptEarlier() throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/limits.json"
        for (name, text) in [("limits.json", "third"), ("limits.json.corrupt", "first"), ("limits.json.corrupt-2", "second")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path + "/" + name))
        }
        #expect(AtomicFile.setAside(path) == .moved(to: path + ".corrupt-3"))
        #expect(bytes(path + ".corrupt") == Array("first".utf8))
        #expect(bytes(path + ".corrupt-2") == Array("second".utf8))
        #expect(bytes(path + ".corrupt-3") == Array("third".utf8))
        #expect(bytes(path) == nil)
    }

    @Test func settingAsideWhereLinksAreRefusedRenamesToAFreeName() throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/history"
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path))
        try Data("kept".utf8).write(to: URL(fileURLWithPath: path + ".corrupt"))
        var steps = AtomicFile.Steps()
        steps.link = { _, _ in
            errno = EPERM
            return -1
        }
        #expect(AtomicFile.setAside(path, steps: steps) == .moved(to: path + ".corrupt-2"))
        #expect(bytes(path + ".corrupt") == Array("kept".utf8))
        #expect(bytes(path + ".corrupt-2") == Array("junk".utf8))
    }

    @Test func settingAsideAFileAlreadyGoneSaysSo() throws {
        let folder = try TemporaryFolder("atomic")
        #expect(AtomicFile.setAside(folder.path + "/limits.json") == .gone)
    }

    @Test func aFileThatCannotBeMovedStaysWhereItWas() throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/history"
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path))
        #expect(AtomicFile.setAside(path, steps: Failing.move()) == .failed(reason: "Permission denied"))
        #expect(bytes(path) == Array("junk".utf8))
        #expect(listing(folder.path) == ["history"])
    }

    @Test func aFileInPlaceOfTheFolderIsAFailureNotAMissingFile() throws {
        let folder = try TemporaryFolder("atomic")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/usage-shell"))
        #expect(throws: FileFailure.self) { try AtomicFile.contentsIfPresent(of: folder.path + "/usage-shell/history") }
        #expect(try AtomicFile.contentsIfPresent(of: folder.path + "/nothing/history") == nil)
    }

    @Test func aStampChangesWhenTheFileIsEditedOrReplaced() throws {
        let folder = try TemporaryFolder("atomic")
        let path = folder.path + "/categories.json"
        #expect(FileStamp(of: path) == nil)
        try Data("{".utf8).write(to: URL(fileURLWithPath: path))
        let first = try #require(FileStamp(of: path))
        #expect(FileStamp(of: path) == first)
        try Data("{x".utf8).write(to: URL(fileURLWithPath: path))  // Foundation replaces: a new file
        #expect(FileStamp(of: path) != first)
    }
}
