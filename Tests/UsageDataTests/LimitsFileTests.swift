// LimitsFileTests.swift — the limits file: round trip, atomic writes under a lock, a corrupt file set aside with its path reported, an unreadable or unmovable one left alone.
import Foundation
import Testing
import TestSupport
import UsageCore
@testable import UsageData

struct LimitsFileTests {
    /// A limits file holding `bytes` in a new folder `limits` of `folder`.
    func limitsFile(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> LimitsFile {
        let dir = folder.path + "/limits"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/limits.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return LimitsFile(path: path)
    }

    static let safari = [UsageLimit(target: .app("Safari"), micros: 1_800_000_000)]
    static let safariText = Array(LimitsFile.encode(safari).utf8)

    @Test func limitsSurviveAWriteAndARead() throws {
        let folder = try TemporaryFolder("limits")
        let file = LimitsFile(path: folder.path + "/limits/usage-shell/limits.json")
        #expect(try file.load() == .init(limits: [], setAside: nil))
        let limits = [
            UsageLimit(target: .app("Safari \"beta\" é"), micros: 1_800_000_000),
            UsageLimit(target: .category("Social/Chat"), micros: 5_400_000_000),
            UsageLimit(target: .site("*.example.org"), micros: 3_600_000_000),
        ]
        try file.save(limits)
        #expect(try file.load().limits == limits)
        #expect(mode(file.path) == 0o600)
        try file.save([])
        #expect(try file.load().limits == [])
    }

    @Test(arguments: [
        ("{bad", "not JSON"),
        ("[]", "no \"limits\" array"),
        ("{\"limits\": [{\"app\": \"A\"}]}", "limit 1 has no positive \"seconds\""),
        ("{\"limits\": [{\"seconds\": 5}]}", "limit 1 names neither one \"app\" nor one \"category\" nor one \"site\""),
        ("{\"limits\": [{\"app\": \"A\", \"category\": \"B\", \"seconds\": 5}]}", "limit 1 names neither one \"app\" nor one \"category\" nor one \"site\""),
        ("{\"limits\": [{\"app\": \"A\", \"seconds\": -1}]}", "limit 1 has no positive \"seconds\""),
        ("{\"limits\": [{\"site\": \"https://a.org/x\", \"seconds\": 5}]}", "limit 1 names neither one \"app\" nor one \"category\" nor one \"site\""),
        ("{\"limits\": [{\"app\": \"A\0\", \"seconds\": 5}]}", "a NUL byte at offset 22: not a text file"),
    ])
    func aCorruptFileIsSetAsideAndNamed(text: String, problem: String) throws {
        let folder = try TemporaryFolder("limits")
        let file = try limitsFile(Array(text.utf8), in: folder)
        let path = file.path
        let aside = OwnedFileError.corrupt(.limits, path: path, problem: problem, keptAs: path + ".corrupt")
        #expect(try file.load() == .init(limits: [], setAside: aside))
        #expect(aside.description == "the limits file '\(path)' is not valid (\(problem)); it was kept aside as '\(path).corrupt' and limits start empty")
        // The second load finds no file.
        #expect(try file.load() == .init(limits: [], setAside: nil))
        // The bad file is kept, byte for byte, beside.
        #expect(bytes(path + ".corrupt") == Array(text.utf8))
        // A second corrupt file does not overwrite the first one kept aside.
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try file.load().setAside == .corrupt(.limits, path: path, problem: problem, keptAs: path + ".corrupt-2"))
        #expect(bytes(path + ".corrupt") == Array(text.utf8))
    }

    @Test func invalidUTF8IsCorruptAndKeptByteForByte() throws {
        let junk: [UInt8] = Array("{\"limits\": [{\"app\": \"Caf".utf8) + [0xE9] + Array("\", \"seconds\": 60}]}".utf8)
        let folder = try TemporaryFolder("limits")
        let file = try limitsFile(junk, in: folder)
        #expect(try file.load().setAside == .corrupt(.limits, path: file.path, problem: "bytes that are not UTF-8 at offset 24", keptAs: file.path + ".corrupt"))
        #expect(bytes(file.path + ".corrupt") == junk)
    }

    @Test func aChangeToACorruptFileSetsItAsideFirstAndWritesTheChange() throws {
        let folder = try TemporaryFolder("limits")
        let file = try limitsFile(Array("{oops".utf8), in: folder)
        let written = try file.update { $0 + Self.safari }
        #expect(written == .init(limits: Self.safari, setAside: .corrupt(.limits, path: file.path, problem: "not JSON", keptAs: file.path + ".corrupt")))
        #expect(bytes(file.path) == Self.safariText)
        #expect(bytes(file.path + ".corrupt") == Array("{oops".utf8))
    }

    @Test func aCorruptFileThatCannotBeMovedIsLeftInPlaceAndNeverWritten() throws {
        let folder = try TemporaryFolder("limits")
        var file = try limitsFile(Array("{oops".utf8), in: folder)
        file.steps = Failing.move()
        let expected = OwnedFileError.corruptInPlace(.limits, path: file.path, problem: "not JSON", reason: "Permission denied")
        #expect(throws: expected) { try file.load() }
        #expect(throws: expected) { try file.update { $0 + Self.safari } }
        #expect(expected.description == "the limits file '\(file.path)' is not valid (not JSON) and could not be moved aside (Permission denied); it is left as it is, and limits are kept in memory for this session only")
        #expect(expected.contentsUnknown)
        #expect(bytes(file.path) == Array("{oops".utf8))
    }

    @Test func aFolderInPlaceOfTheFileIsUnreadableAndLeftAlone() throws {
        let folder = try TemporaryFolder("limits")
        let dir = folder.path + "/limits"
        try FileManager.default.createDirectory(atPath: dir + "/limits.json", withIntermediateDirectories: true)
        let file = LimitsFile(path: dir + "/limits.json")
        let expected = OwnedFileError.unreadable(.limits, path: file.path, reason: "it is a directory")
        #expect(throws: expected) { try file.load() }
        #expect(throws: expected) { try file.update { $0 + Self.safari } }
        #expect(expected.description == "cannot read the limits file '\(file.path)': it is a directory; it is left as it is, and limits are kept in memory for this session only")
        #expect(listing(dir) == ["limits.json", "limits.json.lock"])
        #expect(listing(dir + "/limits.json") == [])
    }

    @Test func aFileInPlaceOfTheConfigFolderIsUnreadableNotEmpty() throws {
        let folder = try TemporaryFolder("limits")
        let dir = folder.path + "/limits"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: dir + "/usage-shell"))
        let file = LimitsFile(path: dir + "/usage-shell/limits.json")
        #expect(throws: OwnedFileError.unreadable(.limits, path: file.path, reason: "Not a directory")) { try file.load() }
        #expect(throws: OwnedFileError.unwritable(.limits, path: file.path, reason: "Not a directory")) { try file.update { $0 } }
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file: the pty tests cover this as nobody"))
    func aFileWithoutReadPermissionIsUnreadable() throws {
        let folder = try TemporaryFolder("limits")
        let file = try limitsFile(Self.safariText, in: folder)
        chmod(file.path, 0o200)
        defer { chmod(file.path, 0o600) }
        #expect(throws: OwnedFileError.unreadable(.limits, path: file.path, reason: "permission denied")) { try file.load() }
    }

    @Test(arguments: [Failing.write(after: 0), Failing.write(after: 10), Failing.write(after: 3, code: EIO), Failing.rename(code: EROFS)])
    func aFailedWriteLeavesTheOldFileIntact(steps: AtomicFile.Steps) throws {
        let folder = try TemporaryFolder("limits")
        var file = try limitsFile(Self.safariText, in: folder)
        file.steps = steps
        #expect {
            try file.update { $0 + [UsageLimit(target: .category("Social"), micros: 3_600_000_000)] }
        } throws: { error in
            guard case .unwritable(_, let path, _) = error as? OwnedFileError else { return false }
            return path == file.path
        }
        #expect(bytes(file.path) == Self.safariText)
        #expect(try LimitsFile(path: file.path).load().limits == Self.safari)
        #expect(listing((file.path as NSString).deletingLastPathComponent) == ["limits.json", "limits.json.lock"])
    }

    @Test func theDefaultPathFollowsXDGConfigHome() {
        #expect(LimitsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/usage-shell/limits.json")
        #expect(LimitsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/usage-shell/limits.json")
        #expect(LimitsFile.defaultPath(environment: [:]) == nil)
    }
}
