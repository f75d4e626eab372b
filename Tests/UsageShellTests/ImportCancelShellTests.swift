// ImportCancelShellTests.swift — issue 51 item 2 in the shell: an import cancelled while it writes says so, writes nothing, leaves no store it made, and `retry` imports it again; a load that fails after it is what `retry` runs then.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageData
@testable import UsageShell
import UsageStore

struct ImportCancelShellTests {
    /// A presenter that loads at once and cancels the first write as Ctrl-C would, before it runs.
    final class CancellingTheFirstWrite: LoadPresenter {
        var writes = 0
        func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError> {
            work { _ in }
        }
        func whileCancellable<T>(_ cancellation: CancellationToken, _ body: () throws(ShellError) -> T) throws(ShellError) -> T {
            writes += 1
            if writes == 1 { cancellation.cancel() }
            return try body()
        }
    }

    static let data = """
        [{"session_id":"a","app_name":"Mail","category":"Work","start_timestamp":"2026-11-23T09:00:00Z","end_timestamp":"2026-11-23T09:30:00Z"}]
        """

    @Test func item2AnImportCancelledWhileItWritesLeavesNoStoreAndRetryImportsIt() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/usage.sqlite"
        let file = folder.path + "/data.json"
        try Data(Self.data.utf8).write(to: URL(fileURLWithPath: file))
        let presenter = CancellingTheFirstWrite()
        let shell = Shell(
            model: UsageViewModel(zone: .utc, now: { fixedNow }), output: OutputSettings(fixedWidth: 1000),
            environment: ShellEnvironment(loadPresenter: presenter, store: .sqlite(path: db), storeNamed: true))
        #expect(failure(shell.execute("import \(file)")) == "import cancelled: nothing was written; 'retry' imports again")
        #expect(!FileManager.default.fileExists(atPath: db))
        #expect(!FileManager.default.fileExists(atPath: db + ".lock"))
        guard case .output(let lines) = shell.execute("retry") else {
            Issue.record("retry did not import")
            return
        }
        #expect(lines.first == "imported \(file): 1 added, 0 updated, 0 unchanged")
        #expect(shell.model.retryImport == nil)
        #expect(failure(shell.execute("retry")) == "nothing to retry: the last load did not fail")
    }

    @Test func item2ALoadThatFailsAfterACancelledImportIsWhatRetryRuns() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/data.json"
        try Data(Self.data.utf8).write(to: URL(fileURLWithPath: file))
        let shell = Shell(
            model: UsageViewModel(zone: .utc, now: { fixedNow }), output: OutputSettings(fixedWidth: 1000),
            environment: ShellEnvironment(loadPresenter: CancellingTheFirstWrite(), store: .sqlite(path: folder.path + "/usage.sqlite"), storeNamed: true))
        _ = shell.execute("import \(file)")
        #expect(shell.model.retryImport != nil)
        _ = shell.execute("load \(folder.path)/nosuch.json")
        #expect(shell.model.retryImport == nil)
        #expect(shell.model.retrySource == SourceRef.file("\(folder.path)/nosuch.json"))
    }
}
