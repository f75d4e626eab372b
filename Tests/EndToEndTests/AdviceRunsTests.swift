// AdviceRunsTests.swift — issue 51 item 7: every error whose advice is a command to type has that command run as written, taken out of the error itself, through the binary: it must work (the CSV's `--columns` advice is TypedRequestTests').
import Foundation
import Testing
import TestSupport

/// Advice that is no command to copy is left out, each for its reason: a template with a word to
/// fill in (`try 'load SOURCE'`, `import FILE, start TASK or task add NAME makes it`, `give --db
/// PATH or set USAGE_SHELL_DB`, `'start NAME' or 'task add NAME' makes one`); SQL for `psql`
/// (PostgreSQL's `GRANT …`, which PostgresConnectionTests run as said); sqlite3's `.recover`;
/// the recorder's, which need a desktop (RecorderUnit, GnomeExtensionSetUp; Tests/Recorder runs
/// them on real ones); and `'retry' imports again` after a cancelled import, which only the
/// prompt says (Tests/Interactive/test_import_cancel.py runs it).
struct AdviceRunsTests {
    /// One error that names a command to run: how the store is prepared (batch lines), the
    /// words that provoke the error, where in its one line the advice stands (the text between
    /// `before` and `after`), how the advice is run, and what its output must hold.
    struct Advice: CustomTestStringConvertible, Sendable {
        enum Run: Sendable {
            /// The advice is a line of the shell: run with `-c` on the same store.
            case line
            /// The advice is the command line's words after `usage-shell` (`-c show`).
            case commandLine
            /// The advice is an option to add to the words that failed (`--force`).
            case added
        }

        let name: String
        var setup: [String] = []
        /// `FOLDER` stands for the workspace's path; without `onStore` no `--db` is added.
        let provoke: [String]
        var onStore = true
        /// What follows a command line's advice (`--db PATH` alone does nothing).
        var then: [String] = []
        let before: String
        let after: String
        var run: Run = .line
        let works: String

        var testDescription: String { name }
    }

    static let sessions = """
        [{"session_id":"a","app_name":"Mail","category":"Work","start_timestamp":"2025-06-01T09:00:00Z","end_timestamp":"2025-06-01T09:30:00Z"},
         {"session_id":"b","app_name":"Maps","category":"Travel","start_timestamp":"2025-06-02T10:00:00Z","end_timestamp":"2025-06-02T10:20:00Z"}]
        """

    static let cases: [Advice] = [
        Advice(
            name: "forget before, in a batch run", provoke: ["-c", "forget before 2026-01-01"],
            before: "add --yes to go ahead (", after: ")", works: "forgot 4 of 4 imported sessions"),
        Advice(
            name: "forget older-than, in a batch run", provoke: ["-c", "forget older-than 30d"],
            before: "add --yes to go ahead (", after: ")", works: "forgot 4 of 4 imported sessions"),
        Advice(
            name: "forget import N, in a batch run", provoke: ["-c", "forget import 1"],
            before: "add --yes to go ahead (", after: ")", works: "forgot import #1"),
        Advice(
            name: "forget device, in a batch run", provoke: ["-c", "forget device phone"],
            before: "add --yes to go ahead (", after: ")", works: "phone"),
        Advice(
            name: "session delete, in a batch run", setup: ["track Email 2026-11-23T09:00 10:00"], provoke: ["-c", "session delete @1"],
            before: "add --yes to go ahead (", after: ")", works: "deleted"),
        Advice(
            name: "task delete with its time, in a batch run", setup: ["track Email 2026-11-23T09:00 10:00"],
            provoke: ["-c", "task delete Email --with-time"], before: "add --yes to go ahead (", after: ")", works: "deleted task"),
        Advice(
            name: "category delete, in a batch run", setup: ["task add Email", "task edit Email category Mail"],
            provoke: ["-c", "category delete Mail"], before: "add --yes to go ahead (", after: ")", works: "deleted category Mail"),
        Advice(
            name: "a new task a slip from another", setup: ["task add Email"], provoke: ["-c", "start Emails"],
            before: "(", after: " makes a new one)", works: "started Emails"),
        Advice(
            name: "export onto a file that is there", setup: ["export out.csv"], provoke: ["-c", "export out.csv"],
            before: "add ", after: " to replace it", run: .added, works: "exported 4 sessions to out.csv"),
        Advice(
            name: "export store: onto a store that is there", setup: ["export store:copy.sqlite"], provoke: ["-c", "export store:copy.sqlite"],
            before: "add ", after: " to merge", run: .added, works: "0 there already"),
        Advice(
            name: "a command typed as a SOURCE", provoke: ["show"], before: "did you mean ", after: "?", run: .commandLine,
            works: "total"),
        Advice(
            name: "a mistyped command", provoke: ["-c", "shwo"], before: "did you mean '", after: "'?", works: "total"),
        Advice(
            name: "a --db that is a directory", provoke: ["--db", "FOLDER", "-c", "store"], onStore: false, then: ["-c", "store"],
            before: "(", after: ", say)", run: .commandLine, works: "sessions"),
        Advice(
            name: "record at the prompt", provoke: ["-c", "record"], before: "(", after: " says how)", works: "usage-shell record"),
    ]

    @Test(arguments: cases) func item7EachErrorsAdviceRunsAsWritten(_ advice: Advice) throws {
        let w = try StoreWorkspace()
        let data = try w.write("data.json", Self.sessions)
        let store = ["--db", w.db]
        // Two sessions imported as this machine's, the same two as the phone's.
        #expect(try inFolder(w, store + ["import", data]).status == 0)
        #expect(try inFolder(w, store + ["import", data, "--device", "phone"]).status == 0)
        for line in advice.setup {
            let r = try inFolder(w, store + ["-c", line])
            #expect(r.status == 0, "\(line): \(r.stderr)")
        }
        let provoke = advice.provoke.map { $0 == "FOLDER" ? w.url.path : $0 }
        let failed = try inFolder(w, (advice.onStore ? store : []) + provoke)
        #expect(failed.status != 0, "\(advice.provoke) did not fail: \(failed.stdout)")
        // The advice, exactly as the error words it.
        let error = failed.stderr.split(separator: "\n").first.map(String.init) ?? ""
        guard let start = error.range(of: advice.before), let end = error.range(of: advice.after, range: start.upperBound..<error.endIndex) else {
            Issue.record("no advice between '\(advice.before)' and '\(advice.after)' in: \(error)")
            return
        }
        let said = String(error[start.upperBound..<end.lowerBound])
        let words: [String]
        switch advice.run {
        case .line: words = store + ["-c", said]
        case .commandLine: words = (advice.onStore ? store : []) + said.split(separator: " ").map(String.init) + advice.then
        case .added: words = store + provoke.dropLast() + [provoke.last! + " " + said]
        }
        let followed = try inFolder(w, words)
        #expect(followed.status == 0, "'\(said)' (from: \(error)) → \(followed.stderr)")
        #expect(followed.stderr == "", "'\(said)'")
        #expect(followed.stdout.contains(advice.works), "'\(said)' → \(followed.stdout)")
    }

    /// Runs the binary with the workspace as its working folder (files named bare land there).
    func inFolder(_ w: StoreWorkspace, _ arguments: [String]) throws -> RunResult {
        try ProcessRun.run(
            Binary.url, arguments,
            environment: ["HOME": w.url.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1"]
                .merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 },
            directory: w.url)
    }
}
