// ShellTests.swift — commands through the shell and the batch runner, with no terminal: outcomes, JSON, errors, exit status.
import Foundation
import Testing
import UsageCore
import UsageData
@testable import UsageShell

func loadedShell(format: OutputFormat = .table) -> Shell {
    let vm = UsageViewModel(zone: .utc, now: { fixedNow })
    vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
    return Shell(model: vm, output: OutputSettings(format: format))
}

func outputLines(_ outcome: CommandOutcome) -> [String] {
    if case .output(let lines) = outcome { return lines }
    Issue.record("expected output, got \(outcome)")
    return []
}

struct CommandTests {
    @Test(arguments: ["show", "sh", "day", "day 2026-02-20", "apps", "apps top 1", "chart", "chart category", "ch h", "week", "help", "help chart"])
    func commandsSucceedOnLoadedData(line: String) {
        let outcome = loadedShell().execute(line)
        #expect(!outputLines(outcome).isEmpty)
    }

    @Test(arguments: [
        ("chrt", "unknown command 'chrt' — did you mean 'chart'?"),
        ("zzzzzz", "unknown command 'zzzzzz' — type 'help' for the list"),
        ("apps top x", "apps: 'x' is not a positive number (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])"),
        ("apps bottom 3", "apps: 'bottom' is not a range (week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO) (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])"),
        ("chart pie", "chart: 'pie' is not a chart (usage: chart [category|hourly [by app|category]])"),
        ("chart category by app", "chart: only the hourly chart is stacked 'by' something (usage: chart [category|hourly [by app|category]])"),
        ("chart hourly by", "chart: say 'by app' or 'by category' (usage: chart [category|hourly [by app|category]])"),
        ("chart hourly by week", "chart: 'week' is not app or category (usage: chart [category|hourly [by app|category]])"),
        ("day 2026-02-30", "day: '2026-02-30' is not a day (usage: day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday])"),
        ("show now", "show: 'now' is not full or compact (usage: show [full|compact])"),
        ("retry", "nothing to retry: the last load or import did not fail"),
        ("app \"Google", "unclosed quote"),
    ])
    func errorsSayWhatIsWrong(line: String, message: String) {
        guard case .failed(let error) = loadedShell().execute(line) else {
            Issue.record("'\(line)' should fail")
            return
        }
        #expect(error.description == message)
    }

    @Test func uniquePrefixesSelectCommandsAndKeywords() {
        let shell = loadedShell()
        _ = shell.execute("ch h")
        #expect(shell.model.chart == .hourly)
        _ = shell.execute("ch c")
        #expect(shell.model.chart == .category)
    }

    @Test func dayMovesTheSelectionAndShowsTheHeader() {
        let shell = loadedShell()
        #expect(outputLines(shell.execute("day prev")) == ["Sunday, February 22, 2026", "0m total · no usage recorded"])
        #expect(outputLines(shell.execute("day 2026-02-20")) == ["Friday, February 20, 2026", "1h total"])
    }

    @Test func jsonOutputIsOneDocumentPerCommand() throws {
        let shell = loadedShell(format: .json)
        for line in ["show", "day", "apps top 1", "chart category", "chart hourly", "week", "load :sample:"] {
            let lines = outputLines(shell.execute(line))
            #expect(lines.count == 1)
            let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
            #expect(object != nil, "\(line)")
        }
    }

    @Test func jsonKeysFollowTheDocumentedOrder() {
        let shell = loadedShell(format: .json)
        let day = outputLines(shell.execute("day"))[0]
        #expect(day == #"{"day":"2026-02-23","time_zone":"UTC","total_seconds":1800,"screen_time_seconds":1800}"#)
        let apps = outputLines(shell.execute("apps top 1"))[0]
        #expect(apps == #"{"day":"2026-02-23","time_zone":"UTC","total_seconds":1800,"apps":[{"name":"Maps","category":"Navigation","seconds":1800,"sessions":1,"share":1}]}"#)
    }

    @Test func withoutDataCommandsSayHowToGetSome() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("nosuch.json"), repository: StubRepository(.failure(.notFound(source: "nosuch.json"))))
        let shell = Shell(model: vm)
        guard case .failed(let error) = shell.execute("show") else {
            Issue.record("show should fail")
            return
        }
        #expect(error.description == "no data loaded (cannot load 'nosuch.json': no such file); try 'retry' or 'load SOURCE'")
    }
}

struct TokenizerTests {
    @Test(arguments: [
        ("show", ["show"]),
        ("  apps   top  5 ", ["apps", "top", "5"]),
        ("app \"Google Chrome\"", ["app", "Google Chrome"]),
        ("app 'Google Chrome'", ["app", "Google Chrome"]),
        ("app Google\\ Chrome", ["app", "Google Chrome"]),
        ("app \"say \\\"hi\\\"\"", ["app", "say \"hi\""]),
        ("load ''", ["load", ""]),
        ("", []),
        // bash's ANSI-C quoting spells what names may hold and terminals must not get raw.
        ("app $'evil\\e[31mred'", ["app", "evil\u{1B}[31mred"]),
        ("app $'a\\u{202E}b\\x41\\u0042\\U00000043\\t\\n\\r\\\\\\''", ["app", "a\u{202E}bABC\t\n\r\\'"]),
        ("app x$'\\e'y", ["app", "x\u{1B}y"]),
        ("app $'\\q\\u{110000}'", ["app", "\\q\\u{110000}"]),
        ("app '$'", ["app", "$"]),
        ("app a$b", ["app", "a$b"]),
    ])
    func wordsSplitLikeAShell(line: String, words: [String]) throws {
        let split = try Tokenizer.words(line)
        #expect(split.map { Array($0.unicodeScalars) } == words.map { Array($0.unicodeScalars) })
    }

    @Test func anUnfinishedEscapeIsAnUnclosedQuote() {
        for line in ["app $'ab", "app $'ab\\", "app $'ab\\u{20", "app \"ab\\"] {
            #expect(throws: ShellError.unclosedQuote) { try Tokenizer.words(line) }
        }
    }
}

struct RunnerTests {
    @Test func batchRunsInOrderReportsLineNumbersAndExitsOne() {
        let out = BufferSink()
        let err = BufferSink()
        let runner = Runner(shell: loadedShell(), out: out, err: err)
        runner.run(lines: ["day 2026-02-23", "chrt", "apps top 1"])
        #expect(out.text.hasPrefix("Monday, February 23, 2026\n30m total\n"))
        #expect(out.text.contains("1. Maps"))
        #expect(err.text == "error: line 2: unknown command 'chrt' — did you mean 'chart'?\n")
        #expect(runner.exitStatus == 1)
    }

    @Test func bailStopsAtTheFirstError() {
        let out = BufferSink()
        let err = BufferSink()
        let runner = Runner(shell: loadedShell(), out: out, err: err, bail: true)
        let completed = runner.run(lines: ["day", "chrt", "apps top 1"])
        #expect(!completed)
        #expect(!out.text.contains("Maps"))
        #expect(runner.exitStatus == 1)
    }

    @Test func allSucceedingExitsZeroAndQuitStops() {
        let out = BufferSink()
        let runner = Runner(shell: loadedShell(), out: out, err: BufferSink())
        runner.run(lines: ["day", "# a comment", "", "quit", "chrt"])
        #expect(runner.exitStatus == 0)
    }

    @Test func errorMessagesNeverCarryRawControlCharacters() {
        let err = BufferSink()
        let runner = Runner(shell: loadedShell(), out: BufferSink(), err: err)
        runner.run(lines: ["load \"evil\u{1B}]0;x\u{07}.json\""])
        #expect(err.text.contains("evil\\e]0;x\\u{7}.json"))
        #expect(!err.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func thePromptShowsTheSelectedDay() {
        let runner = Runner(shell: loadedShell(), out: BufferSink(), err: BufferSink())
        #expect(runner.prompt == "usage Mon 2026-02-23> ")
    }
}

/// Regression tests, named after the bugs they pin down.
struct RegressionTests {
    @Test func bugDayFarInTheFutureCrashedWithArithmeticOverflow() {
        let shell = loadedShell()
        guard case .failed(let error) = shell.execute("day +99999999999999") else {
            Issue.record("should fail")
            return
        }
        #expect(error.description.hasPrefix("day: '+99999999999999' is not a day"))
        _ = shell.execute("day 9999-12-31")
        guard case .failed(let outside) = shell.execute("day next") else {
            Issue.record("should fail")
            return
        }
        #expect(outside.description.hasPrefix("day: 'next' is outside 0000-01-01 … 9999-12-31"))
        #expect(shell.model.selectedDay.description == "9999-12-31")
    }

    @Test func bugCRLFLinesWereUnknownCommands() {
        let out = BufferSink()
        let runner = Runner(shell: loadedShell(), out: out, err: BufferSink())
        runner.run(lines: ["day 2026-02-20\r", "apps top 1\r"])
        #expect(runner.exitStatus == 0)
        #expect(out.text.hasPrefix("Friday, February 20, 2026"))
    }

    @Test func bugBareLoadAfterAFailedSourceLoadedTheSample() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("/nonexistent/mine.json"))
        let shell = Shell(model: vm)
        guard case .failed(let error) = shell.execute("load") else {
            Issue.record("reloading the failed file should fail again")
            return
        }
        #expect(error.description == "cannot load '/nonexistent/mine.json': no such file; 'retry' tries again")
        #expect(!vm.hasData)
    }

    @Test func bugLoadErrorClaimedPreviousDataWhenThereWasNone() {
        let shell = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }))
        guard case .failed(let error) = shell.execute("load /nonexistent/x.json") else {
            Issue.record("should fail")
            return
        }
        #expect(!error.description.contains("previous data"))
        guard case .failed(let again) = loadedShell().execute("load /nonexistent/x.json") else {
            Issue.record("should fail")
            return
        }
        #expect(again.description.contains("the previous data is kept"))
    }

    @Test func bugHelpIgnoredTheWidth() {
        let shell = Shell(model: loadedShell().model, environment: ShellEnvironment(terminalWidth: { 40 }))
        for line in outputLines(shell.execute("help")) + outputLines(shell.execute("help day")) {
            #expect(line.count <= 40, "\(line)")
        }
    }

    /// `help record` names the backends the executable hands over (the recorder's list, which
    /// this module does not import), in their order; a shell given none says NAME.
    @Test func helpRecordNamesTheBackendsItIsGiven() {
        let given = Shell(
            model: loadedShell().model, environment: ShellEnvironment(terminalWidth: { 1000 }, recorderBackends: ["one", "two"]))
        #expect(outputLines(given.execute("help record")).first?.contains(" [--backend one|two] ") == true)
        let none = Shell(model: loadedShell().model, environment: ShellEnvironment(terminalWidth: { 1000 }))
        #expect(outputLines(none.execute("help record")).first?.contains(" [--backend NAME] ") == true)
    }

    @Test func bugAliasesWereNotPrefixMatchedAndQuitIgnoredArguments() {
        #expect(loadedShell().execute("exi") == .quit)
        guard case .failed = loadedShell().execute("quit now") else {
            Issue.record("quit takes no arguments")
            return
        }
    }

    @Test func bugAByteOrderMarkOnTheFirstLineWasPartOfTheCommand() {
        let runner = Runner(shell: loadedShell(), out: BufferSink(), err: BufferSink())
        runner.run(lines: ["\u{FEFF}day"])
        #expect(runner.exitStatus == 0)
    }

    @Test func bugPlusMinusWasReadAsMinus() {
        #expect(DayQuery("+-5") == nil)
        #expect(DayQuery("-+5") == nil)
    }
}
