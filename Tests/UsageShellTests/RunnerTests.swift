// RunnerTests.swift — the run policy without the binary: which mode a command line and a terminal make, what `-` may read, a failed SOURCE, scripts, piped commands, and a command's question answered at the prompt or refused in a batch run.
import Testing
import UsageCore
import UsageData
@testable import UsageShell

/// A reader that answers from a list (the prompt, in tests).
final class ScriptedReader: LineReader {
    var answers: [String]
    private(set) var prompts: [String] = []
    init(_ answers: [String]) { self.answers = answers }
    func readLine(prompt: String) -> String? {
        prompts.append(prompt)
        return answers.isEmpty ? nil : answers.removeFirst()
    }
}

struct RunPlanTests {
    @Test(arguments: [
        ([String](), String?.none, true, RunPlan.Mode.interactive, StdinUse.terminal),
        ([], nil, false, .piped, .commands),
        (["show"], nil, false, .batch(commands: ["show"], script: nil), .available),
        (["show"], nil, true, .batch(commands: ["show"], script: nil), .terminal),
        ([], "cmds.txt", false, .batch(commands: [], script: "cmds.txt"), .available),
    ])
    func theModeComesFromTheCommandLineAndTheTerminal(
        commands: [String], script: String?, terminal: Bool, mode: RunPlan.Mode, stdin: StdinUse
    ) {
        let plan = RunPlan(commands: commands, script: script, stdinIsTerminal: terminal)
        #expect(plan.mode == mode)
        #expect(plan.stdinUse == stdin)
        #expect(plan.continuesAfterFailedLoad == (mode == .interactive))
    }
}

struct RunnerRunTests {
    func runner(_ out: BufferSink, _ err: BufferSink) -> Runner {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        return Runner(shell: Shell(model: vm), out: out, err: err)
    }

    @Test func aBatchRunWhoseSourceFailsStopsThereWithOneError() {
        let (out, err) = (BufferSink(), BufferSink())
        let status = runner(out, err).run(
            RunPlan(commands: ["show", "apps"], script: nil, stdinIsTerminal: false), source: .file("/nonexistent/x.json"), day: nil,
            readScript: { _ throws(LoadError) in [] }, stdinLines: { [] }, makeReader: { ScriptedReader([]) })
        #expect(status == 1)
        #expect(out.text.isEmpty)
        #expect(err.text == "error: cannot load '/nonexistent/x.json': no such file\n")
    }

    @Test func theScriptRunsAfterTheCommands() {
        let (out, err) = (BufferSink(), BufferSink())
        let status = runner(out, err).run(
            RunPlan(commands: ["day"], script: "s.txt", stdinIsTerminal: false), source: .sample, day: "2026-02-20",
            readScript: { _ throws(LoadError) in Array("# a comment\r\nday next\n".utf8) }, stdinLines: { [] },
            makeReader: { ScriptedReader([]) })
        #expect(status == 0)
        #expect(out.text.components(separatedBy: "\n").filter { $0.hasPrefix("Friday") || $0.hasPrefix("Saturday") }.count == 2)
        #expect(err.text.isEmpty)
    }

    @Test func anUnreadableScriptIsOneErrorAndStatus1() {
        let (out, err) = (BufferSink(), BufferSink())
        let status = runner(out, err).run(
            RunPlan(commands: [], script: "gone.txt", stdinIsTerminal: false), source: .sample, day: nil,
            readScript: { path throws(LoadError) in throw .notFound(source: path) }, stdinLines: { [] },
            makeReader: { ScriptedReader([]) })
        #expect(status == 1)
        #expect(err.text == "error: cannot read script 'gone.txt': no such file\n")
    }

    @Test func pipedCommandsAreNumberedByLine() {
        let (out, err) = (BufferSink(), BufferSink())
        let status = runner(out, err).run(
            RunPlan(commands: [], script: nil, stdinIsTerminal: false), source: .sample, day: nil,
            readScript: { _ throws(LoadError) in [] }, stdinLines: { ["day", "nonsense"] }, makeReader: { ScriptedReader([]) })
        #expect(status == 1)
        #expect(err.text.hasPrefix("error: line 2: unknown command 'nonsense'"))
    }

    @Test func thePromptStartsEvenWhenTheSourceFails() {
        let (out, err) = (BufferSink(), BufferSink())
        let reader = ScriptedReader(["retry"])
        let status = runner(out, err).run(
            RunPlan(commands: [], script: nil, stdinIsTerminal: true), source: .file("/nonexistent/x.json"), day: nil,
            readScript: { _ throws(LoadError) in [] }, stdinLines: { [] }, makeReader: { reader })
        #expect(status == 0)
        #expect(reader.prompts == ["usage> ", "usage> "])
        #expect(err.text.contains("usage-shell \(UsageShellVersion.string) — no data loaded — type 'help'"))
    }
}

struct ConfirmationTests {
    final class Counter { var calls = 0 }

    func question(_ counter: Counter) -> CommandOutcome {
        .confirm(
            Confirmation(question: "forget 3 sessions?", withYes: "forget before 2026-01-01 --yes") {
                counter.calls += 1
                return .output(["forgot 3 sessions"])
            })
    }

    @Test func aBatchRunRefusesAndNamesTheYesForm() {
        let counter = Counter()
        let runner = Runner(shell: loadedShell(), out: BufferSink(), err: BufferSink())
        #expect(runner.settle(question(counter)) == .failed(.needsYes("forget before 2026-01-01 --yes")))
        #expect(counter.calls == 0)
        #expect(ShellError.needsYes("forget before 2026-01-01 --yes").description
            == "this deletes data, and a batch run cannot ask: add --yes to go ahead (forget before 2026-01-01 --yes)")
    }

    @Test(arguments: [("y", true), ("YES", true), (" yes ", true), ("n", false), ("", false), ("maybe", false)])
    func thePromptAsksAndOnlyAYesGoesOn(answer: String, proceeds: Bool) {
        let counter = Counter()
        let runner = Runner(shell: loadedShell(), out: BufferSink(), err: BufferSink())
        let reader = ScriptedReader([answer])
        runner.reader = reader  // as at the prompt
        #expect(runner.settle(question(counter)) == (proceeds ? .output(["forgot 3 sessions"]) : .output(["nothing changed"])))
        #expect(reader.prompts == ["forget 3 sessions? [y/N] "])
        #expect(counter.calls == (proceeds ? 1 : 0))
    }

    @Test func endOfInputAtTheQuestionIsANo() {
        let counter = Counter()
        let runner = Runner(shell: loadedShell(), out: BufferSink(), err: BufferSink())
        runner.reader = ScriptedReader([])
        #expect(runner.settle(question(counter)) == .output(["cancelled; nothing changed"]))
        #expect(counter.calls == 0)
    }
}
