// ChangedWhileReadTests.swift — a file truncated, grown or rewritten in place while it is read gives one error (`changedWhileRead`), never a crash or a half-old, half-new load; the built binary under a file that keeps changing ends with a status, never a signal.
import Foundation
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageData

struct ChangedWhileReadTests {
    /// A file of `count` sessions JSON rows in `folder`.
    func file(rows count: Int, in folder: TemporaryFolder) throws -> String {
        let path = folder.path + "/data.json"
        let rows = (0..<count).map { k in
            #"{"session_id":"s\#(k)","app_name":"App\#(k % 9)","category":null,"start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T09:30:00Z"}"#
        }
        try Data(("[" + rows.joined(separator: ",\n") + "]").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    enum Change: CaseIterable { case truncated, grown, rewrittenInPlace }

    /// Reads 4 KiB, changes the file, then reads on to its end.
    func readWhile(_ change: Change) throws -> LoadError? {
        let folder = try TemporaryFolder("changing")
        let path = try file(rows: 2000, in: folder)
        defer { unlink(path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        var source = try DescriptorSource(
            fd: fd, source: path, limits: StreamLimits(), cancellation: CancellationToken(), progress: { _ in })
        var buffer = [UInt8](repeating: 0, count: 4096)
        func readOnce() throws(LoadError) -> Int {
            try buffer.withUnsafeMutableBufferPointer { bytes throws(LoadError) in try source.read(into: bytes) }
        }
        #expect(try readOnce() == 4096)
        switch change {
        case .truncated:
            #expect(truncate(path, 10_000) == 0)
        case .grown:
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(" ".utf8))
            try handle.close()
        case .rewrittenInPlace:
            // The same size, other bytes, and a modification time that surely differs.
            let writer = open(path, O_WRONLY)
            #expect(pwrite(writer, "[", 1, 8000) == 1)
            var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
            #expect(futimens(writer, &times) == 0)
            close(writer)
        }
        do {
            while try readOnce() > 0 {}
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: Change.allCases)
    func aFileChangedWhileReadIsOneError(_ change: Change) throws {
        let error = try readWhile(change)
        guard case .changedWhileRead = error else {
            Issue.record("expected changedWhileRead, got \(String(describing: error))")
            return
        }
        #expect(!(error?.description.contains("\n") ?? true))
    }
}
