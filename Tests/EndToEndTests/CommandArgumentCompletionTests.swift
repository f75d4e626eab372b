// CommandArgumentCompletionTests.swift — the binary's completions of the `-c` word: a command word completed without opening the store, and the store or SOURCE typed before it honoured.
import Foundation
import TestSupport
import Testing

struct CommandArgumentCompletionTests {
    /// A store of its own in a fresh directory holding one session of `app` (made by `import`).
    private func store(app: String) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("one.json")
        try sessionsJSON(app: app).write(to: file, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("usage.sqlite").path
        let made = try Binary.run(["import", file.path], environment: ["USAGE_SHELL_DB": path])
        #expect(made.status == 0, "\(made.stderr)")
        return (directory, path)
    }

    private func sessionsJSON(app: String) -> String {
        #"[{"session_id":"a","app_name":"\#(app)","category":"Dev","start_timestamp":"2026-01-01T10:00:00Z","end_timestamp":"2026-01-01T11:00:00Z"}]"#
    }

    /// What the binary offers for the `-c` word, the last of `words`, as bash asks for it.
    private func complete(_ words: [String], environment: [String: String] = [:]) throws -> String {
        let last = words.count - 1
        let run = try Binary.run(
            ["---completion", "shell", "--", "-c", String(last), String(words[last].count)] + words,
            environment: environment.merging(["SAP_SHELL": "bash"]) { $1 })
        #expect(run.status == 0)
        #expect(run.stderr == "")
        return run.stdout
    }

    /// Bug (issue H5, item 2): every Tab in `usage-shell -c 'ch` built a shell and loaded the
    /// store, slow on a big one, though command names need no data. Opening the store takes
    /// its lock file (`PATH.lock`), which stays: none appears for the command word.
    @Test func bugCompletingTheCommandWordLoadedTheStore() throws {
        let (directory, path) = try store(app: "Zed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = path + ".lock"
        try FileManager.default.removeItem(atPath: lock)
        let environment = ["USAGE_SHELL_DB": path]
        #expect(try complete(["usage-shell", "-c", "'ch"], environment: environment) == "chart\n")
        #expect(try complete(["usage-shell", "-c", "'sum"], environment: environment) == "summary\n")
        #expect(try complete(["usage-shell", "-c", "'chart "], environment: environment) == "chart category\nchart hourly\n")
        #expect(!FileManager.default.fileExists(atPath: lock), "the store was opened for a command word")
        // An app name needs the data: the store is loaded for it.
        #expect(try complete(["usage-shell", "-c", "'app "], environment: environment) == "app Zed\n")
        #expect(FileManager.default.fileExists(atPath: lock))
    }

    /// Bug (issue H5, item 2): `usage-shell --db PATH -c 'app <Tab>` offered the default store's
    /// names (here the sample's), not those of the store typed before it; a SOURCE too.
    @Test func bugTheCommandArgumentsCompletionIgnoredTheStoreOrSourceTypedBeforeIt() throws {
        let (directory, path) = try store(app: "Zed")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try complete(["usage-shell", "--db", path, "-c", "'app "]) == "app Zed\n")
        // bash splits `--db=PATH` at the `=`.
        #expect(try complete(["usage-shell", "--db", "=", path, "-c", "'app "]) == "app Zed\n")
        #expect(try complete(["usage-shell", "--db='\(path)'", "-c", "'app "]) == "app Zed\n")
        let source = directory.appendingPathComponent("other.json")
        try sessionsJSON(app: "Xcode").write(to: source, atomically: true, encoding: .utf8)
        #expect(try complete(["usage-shell", source.path, "-c", "'app "]) == "app Xcode\n")
        #expect(try complete(["usage-shell", "shell", "--format", "json", source.path, "-c", "'app X"]) == "app Xcode\n")
        // Words that are no shell's command line: the defaults (the sample, here).
        #expect(try complete(["usage-shell", "--bogus", "-c", "'app Goo"]) == "app \"Google Chrome\"\n")
    }
}
