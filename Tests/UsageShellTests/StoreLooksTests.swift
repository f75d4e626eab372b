// StoreLooksTests.swift — a command line looks at the store's place once, whoever asks (the stopwatch's notice before it, the command, the awaited store's load after it, the prompt drawn next), at the prompt and in a batch run, with the stopwatch running or not; Tab between lines looks again; and the shell holds ten things or fewer, what belongs to one command in that command's context.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageStore
@testable import UsageShell

/// The prompt's reader, noting the looks taken so far each time a prompt is drawn, and moving
/// the clock before a line when the test says so.
private final class LookCountingReader: LineReader {
    private var lines: [(line: String, waitHours: Int)]
    private let stores: OpenStores
    private let wait: (Int) -> Void
    private(set) var looks: [Int] = []
    private(set) var prompts: [String] = []
    private(set) var questions: [String] = []

    init(_ lines: [(String, Int)], stores: OpenStores, wait: @escaping (Int) -> Void) {
        self.lines = lines.map { ($0.0, $0.1) }
        self.stores = stores
        self.wait = wait
    }

    func readLine(prompt: String) -> String? {
        looks.append(stores.looks)
        prompts.append(prompt)
        guard !lines.isEmpty else { return nil }
        let next = lines.removeFirst()
        wait(next.waitHours)
        return next.line
    }

    func readAnswer(prompt: String) -> String? {
        questions.append(prompt)
        return "k"
    }

    /// The looks each line took, its prompt's included.
    var looksPerLine: [Int] { zip(looks.dropFirst(), looks).map { $0 - $1 } }
}

struct StoreLooksTests {
    /// A store named and not there yet, then made by the first command (which loads it), the
    /// stopwatch started, left four hours (the question asked before the next command), stopped:
    /// every line, blank ones aside, took exactly one look, the prompt after it included.
    @Test func aLineAtThePromptLooksAtTheStoreOnceItsPromptIncluded() throws {
        let s = try ClockedShell()
        let stores = s.shell.environment.stores
        let (out, err) = (BufferSink(), BufferSink())
        let runner = Runner(shell: s.shell, out: out, err: err)
        #expect(runner.loadInitial(.store))
        #expect(s.shell.awaitedStore != nil)
        let lines: [(String, Int)] = [
            ("help", 0), ("task add Write", 0), ("start Write", 0), ("today", 0), ("", 0), ("tasks", 4), ("stop", 0), ("show", 0),
        ]
        let reader = LookCountingReader(lines, stores: stores, wait: { s.wait($0 * 3600) })
        runner.interactive(reader: reader, banner: "banner")
        #expect(reader.looksPerLine == [1, 1, 1, 1, 0, 1, 1, 1], "\(err.text)")
        // What the looks were for: the store made and loaded, the stopwatch in the prompt, the
        // long gap asked about.
        #expect(s.shell.awaitedStore == nil)
        #expect(reader.prompts[3].contains("Write 0:00"), "\(reader.prompts)")
        #expect(reader.questions.count == 1, "\(err.text)")
        #expect(err.text.contains("no command was seen"), "\(err.text)")
        #expect(!err.text.contains("error:"), "\(err.text)")
    }

    /// In a batch run (`-c`, `-f`, piped), each line takes one look too, with the stopwatch
    /// running (the notice before it, "seen" after it) or not.
    @Test func aBatchLineLooksAtTheStoreOnce() throws {
        let s = try ClockedShell()
        try Self.batchLinesLookOnce(s.shell, wait: s.wait)
    }

    /// The same on PostgreSQL, where a look opens the store (two connections and a look at its
    /// schema): one per line, whoever asks.
    @Test func aBatchLineLooksAtAPostgreSQLStoreOnce() throws {
        if let why = TestPostgres.unavailable {
            if TestPostgres.required { Issue.record("PostgreSQL cases cannot run: \(why)") }
            return
        }
        let database = try TestPostgres()
        let clock = ClockedShell.Clock(ClockedShell.instant("2026-11-27T14:00:00Z"))
        let stores = OpenStores()
        defer { stores.closeAll() }
        let shell = Shell(
            model: UsageViewModel(zone: .utc, now: { clock.now }), output: OutputSettings(fixedWidth: 1000),
            environment: ShellEnvironment(
                store: .postgres(conninfo: database.conninfo), storeNamed: true, stores: stores, now: { clock.now }))
        try Self.batchLinesLookOnce(shell, wait: { clock.now += Micros($0) * 1_000_000 })
    }

    /// Runs a batch of lines one at a time (the clock moved before some), each taking one look.
    static func batchLinesLookOnce(_ shell: Shell, wait: (Int) -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stores = shell.environment.stores
        let (out, err) = (BufferSink(), BufferSink())
        let runner = Runner(shell: shell, out: out, err: err)
        var perLine: [Int] = []
        for (line, hours) in [("start Write", 0), ("today", 0), ("tasks", 4), ("stop", 0), ("tasks", 0), ("# a comment", 0)] {
            wait(hours * 3600)
            let before = stores.looks
            runner.run(lines: [line])
            perLine.append(stores.looks - before)
        }
        #expect(perLine == [1, 1, 1, 1, 1, 0], "\(err.text)", sourceLocation: sourceLocation)
        #expect(err.text.contains("warning: Write has run since"), "the notice read the stopwatch: \(err.text)", sourceLocation: sourceLocation)
        #expect(!runner.anyFailed, "\(err.text)", sourceLocation: sourceLocation)
    }

    /// A line run alone (`Shell.execute`, as `watch` runs its command at each tick) is a line of
    /// its own: one look.
    @Test func aLineRunAloneLooksOnce() throws {
        let s = try ClockedShell()
        let stores = s.shell.environment.stores
        for line in ["start Write", "today", "stop"] {
            s.wait(60)
            let before = stores.looks
            _ = s.run(line)
            #expect(stores.looks - before == 1, "\(line)")
        }
    }

    /// Tab between lines reads the store as it is now, as it did before lines shared a look: a
    /// store another process made since the last line's look completes `@N` and task names.
    @Test func tabBetweenLinesTakesALookOfItsOwn() throws {
        let s = try ClockedShell()
        _ = s.run("help")
        #expect(s.shell.store.probe == .absent, "the line's look: no store yet")
        let other = try OpenStores().writer(.sqlite(path: s.folder.path + "/usage.sqlite"))
        let now = ClockedShell.instant("2026-11-27T14:00:00Z")
        let stamp = { (t: Micros) in Stamp(instant: t, offsetMinutes: 0, zone: "UTC") }
        _ = try other.track("Writing", from: stamp(now - 3_600_000_000), to: stamp(now))
        let offered = Completer.complete("continue ", shell: s.shell).candidates.map(\.replacement)
        #expect(offered.contains("Writing") && offered.contains { $0.hasPrefix("@") }, "\(offered)")
    }

    /// The shell keeps ten things or fewer; what belongs to one command (its look at the store,
    /// the warnings and notes it leaves) lives in that command's context.
    @Test func theShellHoldsTenThingsOrFewer() {
        let held = Mirror(reflecting: shell()).children.compactMap(\.label)
        #expect(held.count <= 10, "\(held)")
        #expect(held.contains("command"))
    }
}
