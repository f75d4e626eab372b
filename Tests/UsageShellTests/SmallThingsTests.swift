// SmallThingsTests.swift — issue 21's small things and the screen: `clear`, "did you mean" only for a slip, an ambiguous prefix naming what it could be, the pager decision and `show`'s form with a fake terminal, colour depths.
import Testing
import UsageCore
import UsageData
import UsageRender
@testable import UsageShell

/// A terminal that records what it was asked to do.
final class FakeScreen: TerminalScreen {
    var rows: Int
    private(set) var cleared = 0
    private(set) var paged: [(text: String, command: String)] = []
    /// Whether the pager "runs" (false: the command was not found).
    var pagerRuns = true

    init(rows: Int) { self.rows = rows }
    func clear() { cleared += 1 }
    func page(_ text: String, through command: String) -> Bool {
        guard pagerRuns else { return false }
        paged.append((text, command))
        return true
    }
}

func failureText(_ outcome: CommandOutcome) -> String? {
    if case .failed(let error) = outcome { return error.description }
    return nil
}

struct DidYouMeanTests {
    @Test(arguments: [
        ("chrt", "chart"), ("shwo", "show"), ("hepl", "help"), ("qiut", "quit"), ("weke", "week"), ("insigths", "insights"),
        ("limts", "limits"), ("aps", "apps"), ("lod", "load"), ("shows", "show"),
    ])
    func aSlipOfOneOrTwoEditsGetsASuggestion(typed: String, meant: String) {
        #expect(failureText(loadedShell().execute(typed)) == "unknown command '\(typed)' — did you mean '\(meant)'?")
    }

    @Test(arguments: ["stair", "xy", "zz", "graph", "cart2", "q1"])
    func bugStartWasAskedIfItMeantChart(typed: String) {
        // `start` (two changes from `chart`) is now the stopwatch's command; `stair` is as far
        // from `chart` and `start`: not a slip, so no suggestion.
        #expect(failureText(loadedShell().execute(typed)) == "unknown command '\(typed)' — type 'help' for the list")
    }

    /// `hourly` was asked if it meant `hour` (two edits away, and no hourly chart): a word that
    /// another command takes, typed alone, is offered with that command.
    @Test(arguments: [
        ("hourly", "chart hourly"), ("Yesterday", "day yesterday"), ("prev", "day prev"),
        ("monday", "day monday"), ("2026-02-20", "day 2026-02-20"), ("+1", "day +1"),
        ("compact", "show compact"),
    ])
    func bugHourlyWasAskedIfItMeantHour(typed: String, meant: String) {
        #expect(failureText(loadedShell().execute(typed)) == "unknown command '\(typed)' — did you mean '\(meant)'?")
    }

    @Test func helpOfSuchAWordNamesTheCommand() {
        #expect(failureText(loadedShell().execute("help hourly")) == "unknown command 'hourly' — did you mean 'chart'?")
        // A prefix of several commands names them (the tracker's `today` and `category` are
        // commands of their own now, no longer offered as `day today` and `chart category`).
        #expect(failureText(loadedShell().execute("t")) == "ambiguous command 't': could be 'timesheet', 'tasks', 'task', 'track', 'today'")
    }

    @Test(arguments: [
        ("show", "shwo", 1), ("chart", "start", 2), ("ab", "ba", 1), ("abc", "", 3), ("kitten", "sitting", 3), ("", "", 0),
        ("insights", "insigths", 1),
    ])
    func editsCountASwapOfNeighboursAsOne(a: String, b: String, edits: Int) {
        #expect(NameMatch.editDistance(a, b) == edits)
        #expect(NameMatch.editDistance(b, a) == edits)
    }

    @Test func appNamesFollowTheSameRule() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.sample)
        let shell = Shell(model: vm)
        #expect(failureText(shell.execute("app Gogle\\ Chrome")) == "no app named 'Gogle Chrome' — did you mean 'Google Chrome'?")
        #expect(failureText(shell.execute("app Slick")) == "no app named 'Slick' — did you mean 'Slack'?")
        #expect(failureText(shell.execute("app Stack")) == "no app named 'Stack' — did you mean 'Slack'?")
        #expect(failureText(shell.execute("app Snack")) == "no app named 'Snack' — did you mean 'Slack'?")
        #expect(failureText(shell.execute("app Snackbar")) == "no app named 'Snackbar' in the loaded data")
        #expect(failureText(shell.execute("app Spot")) == nil)  // a beginning is no slip: it names Spotify
    }
}

struct NarrowTitleTests {
    /// At 40 columns `days` was titled `Last 10 days ending Monday, February 23…`: a title that
    /// would be cut takes the short date, and one too long even so wraps.
    @Test func bugTheTenDaysTitleWasCutAt40Columns() {
        let shell = loadedShell()
        _ = shell.execute("day 2026-02-23")
        _ = shell.execute("set width 40")
        #expect(outputLines(shell.execute("days")).first == "Last 10 days ending Mon 23 Feb 2026")
        #expect(outputLines(shell.execute("days 7")).first == "Week ending Monday, February 23, 2026")
        #expect(outputLines(shell.execute("week")).first == "Week · Mon 23 Feb – Sun 1 Mar 2026")
        _ = shell.execute("set width 28")
        #expect(outputLines(shell.execute("days")).prefix(2) == ["Last 10 days ending Mon", "  23 Feb 2026"])
        _ = shell.execute("set width 80")
        #expect(outputLines(shell.execute("days")).first == "Last 10 days ending Monday, February 23, 2026")
    }
}

struct BannerTests {
    /// At the prompt in 40 columns, the banner naming the store's path ran past the edge and the
    /// terminal broke the path wherever the line ended: it wraps to the width, the path after a `/`.
    @Test func bugTheBannerRanPastANarrowTerminalsEdge() {
        let shell = loadedShell()
        _ = shell.execute("set width 40")
        let err = BufferSink()
        Runner(shell: shell, out: BufferSink(), err: err)
            .interactive(reader: ScriptedReader([]), banner: "usage-shell 0.1.0 — 290 sessions from the store /home/someone/.local/share/usage-shell/usage.sqlite — type 'help'")
        let lines = err.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines == [
            "usage-shell 0.1.0 — 290 sessions from", "  the store", "  /home/someone/.local/share/",
            "  usage-shell/usage.sqlite — type 'help'",
        ], "\(lines)")
    }
}

struct AmbiguousPrefixTests {
    @Test(arguments: [
        ("day t", "day: 't' could be today, tomorrow, tuesday or thursday (usage: day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday])"),
        ("day s", "day: 's' could be saturday or sunday (usage: day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday])"),
        ("day x", "day: 'x' is not a day (usage: day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday])"),
        ("set ti on", "set: 'ti' could be timer or timeout"),
        ("set t UTC", "set: 't' could be tz, timer or timeout"),
        ("set color a", "set: color: 'a' could be auto or always"),
        ("set pager o", "set: pager: 'o' could be on or off"),
    ])
    func bugDayTSaidItWasNotADayWhereItCouldBeThree(line: String, message: String) {
        #expect(failureText(loadedShell().execute(line)) == message)
    }

    @Test func uniquePrefixesStillWork() {
        let shell = loadedShell()
        #expect(failureText(shell.execute("day tu")) == nil)
        #expect(failureText(shell.execute("day th")) == nil)
        #expect(failureText(shell.execute("set co al")) == nil)
        #expect(shell.output.colorMode == .always)
    }

    @Test func aWordBeginningSeveralKeywordsOfAGrammarSaysWhichAndAValueStillWins() {
        let choice = Choice("when", [Keyword("today"), Keyword("tuesday"), Keyword("next")])
        guard case .failure(.ambiguous(let word, let candidates)) = SyntaxMatch.parse(["t"], syntax: .choice(choice)) else {
            Issue.record("'t' should be ambiguous")
            return
        }
        #expect(word == "t" && candidates == ["today", "tuesday"])
        // Where a value may stand, a word that is no single keyword is that value.
        let slot = Slot<String>.text("NAME")
        let either = Syntax.alternatives([.choice(choice), .value(slot)])
        guard case .success(let arguments) = SyntaxMatch.parse(["t"], syntax: either) else {
            Issue.record("'t' should be a value")
            return
        }
        #expect(arguments[slot] == "t")
    }
}

struct ClearAndPagerTests {
    func interactive(_ lines: [String], rows: Int, pager: String? = "less -FRX", setup: (Shell) -> Void = { _ in })
        -> (screen: FakeScreen, out: BufferSink, err: BufferSink)
    {
        let screen = FakeScreen(rows: rows)
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        let shell = Shell(model: vm, environment: ShellEnvironment(screen: screen, pager: pager))
        setup(shell)
        let (out, err) = (BufferSink(), BufferSink())
        Runner(shell: shell, out: out, err: err).interactive(reader: ScriptedReader(lines), banner: "banner")
        return (screen, out, err)
    }

    @Test func bugClearWasAnUnknownCommand() {
        let run = interactive(["clear"], rows: 40)
        #expect(run.screen.cleared == 1)
        #expect(run.out.text.isEmpty)
        // A batch run has no screen: nothing is written, and it is no error.
        let (out, err) = (BufferSink(), BufferSink())
        let runner = Runner(shell: loadedShell(), out: out, err: err)
        #expect(runner.run(lines: ["clear"]))
        #expect(out.text.isEmpty && err.text.isEmpty && !runner.anyFailed)
    }

    @Test func outputTallerThanTheTerminalGoesThroughThePager() {
        let run = interactive(["help"], rows: 24)
        #expect(run.screen.paged.count == 1)
        #expect(run.screen.paged.first?.command == "less -FRX")
        #expect(run.screen.paged.first?.text.hasPrefix("Commands (help COMMAND shows one in full; Tab completes):\nViewing a day\n  show") == true)
        #expect(run.out.text.isEmpty)
    }

    @Test func outputThatFitsWithThePromptIsWrittenAsIs() {
        let run = interactive(["day"], rows: 24)
        #expect(run.screen.paged.isEmpty)
        #expect(run.out.text.hasPrefix("Monday"))
        // Exactly the rows less one (the prompt's line) still fits; one more pages.
        #expect(!Pager.pages(23, mode: .auto, rows: 24, format: .table))
        #expect(Pager.pages(24, mode: .auto, rows: 24, format: .table))
    }

    @Test func setPagerOnPagesEverythingOffNothingAndJSONIsNeverPaged() {
        #expect(interactive(["set pager on", "day"], rows: 24).screen.paged.count == 2)
        #expect(interactive(["set pager off", "help"], rows: 24).screen.paged.isEmpty)
        #expect(interactive(["set format json", "help"], rows: 5).screen.paged.isEmpty)
        #expect(interactive(["help"], rows: 24, pager: nil).screen.paged.isEmpty)
    }

    @Test func aPagerThatCannotRunLeavesTheOutputWritten() {
        let screen = FakeScreen(rows: 10)
        screen.pagerRuns = false
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        let out = BufferSink()
        Runner(shell: Shell(model: vm, environment: ShellEnvironment(screen: screen, pager: "nonesuch")), out: out, err: BufferSink())
            .interactive(reader: ScriptedReader(["help"]), banner: "")
        #expect(out.text.hasPrefix("Commands (help COMMAND shows one in full; Tab completes):\nViewing a day\n  show"))
    }

    @Test func batchRunsNeverPage() {
        let screen = FakeScreen(rows: 5)
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        let out = BufferSink()
        Runner(shell: Shell(model: vm, environment: ShellEnvironment(screen: screen, pager: "less")), out: out, err: BufferSink())
            .run(lines: ["help"])
        #expect(screen.paged.isEmpty)
        #expect(out.text.hasPrefix("Commands (help COMMAND shows one in full; Tab completes):\nViewing a day\n  show"))
    }

    @Test(arguments: [
        ([String: String](), "less -FRX"), (["PAGER": "more"], "more"), (["PAGER": ""], nil), (["PAGER": "  "], nil),
        (["PAGER": "less -S"], "less -S"),
    ] as [([String: String], String?)])
    func thePagerIsPAGERElseLess(environment: [String: String], command: String?) {
        #expect(Pager.command(environment: environment) == command)
    }
}

struct ShowFormTests {
    /// The prompt on the bundled sample, at a terminal of `rows` rows and 80 columns.
    func interactive(_ lines: [String], rows: Int) -> (screen: FakeScreen, out: BufferSink) {
        let screen = FakeScreen(rows: rows)
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.sample)
        let shell = Shell(model: vm, environment: ShellEnvironment(screen: screen, pager: "less -FRX"))
        let out = BufferSink()
        Runner(shell: shell, out: out, err: BufferSink()).interactive(reader: ScriptedReader(lines), banner: "")
        return (screen, out)
    }

    @Test func showOnAShortTerminalIsCompactAndFitsWithoutAPager() {
        let run = interactive(["show"], rows: 24)
        #expect(run.screen.paged.isEmpty)
        let lines = run.out.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 23)
        #expect(lines.contains { $0.hasPrefix("Top apps") })
    }

    @Test func showOnATallTerminalIsTheFullScreen() {
        let run = interactive(["show"], rows: 60)
        #expect(run.screen.paged.isEmpty)
        #expect(run.out.text.contains("\nApps\n"))
        #expect(run.out.text.contains("  16. "))
    }

    @Test func showFullOnAShortTerminalGoesThroughThePager() {
        let run = interactive(["show full"], rows: 24)
        #expect(run.out.text.isEmpty)
        #expect(run.screen.paged.count == 1)
        #expect(run.screen.paged.first?.text.contains("  16. ") == true)
    }

    @Test func aBatchRunPrintsTheFullScreenAndCompactOnlyWhenAsked() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.sample)
        let shell = Shell(model: vm)
        let full = outputLines(shell.execute("show"))
        #expect(full.contains("Apps") && full.count > 40)
        #expect(outputLines(shell.execute("show full")) == full)
        let compact = outputLines(shell.execute("show compact"))
        #expect(compact.count <= 23 && compact.contains("Top apps"))
        shell.output.format = .json
        #expect(outputLines(shell.execute("show compact")) == outputLines(shell.execute("show")))
    }
}

struct ColorDepthTests {
    @Test(arguments: [
        ([String: String](), ColorDepth.ansi16), (["TERM": "xterm"], .ansi16), (["TERM": "xterm-256color"], .ansi256),
        (["TERM": "screen-256color"], .ansi256), (["COLORTERM": "truecolor"], .truecolor), (["COLORTERM": "24bit", "TERM": "xterm"], .truecolor),
        (["COLORTERM": "yes", "TERM": "xterm-256color"], .ansi256), (["TERM": "dumb"], .ansi16),
    ])
    func theDepthIsWhatTheTerminalAnnouncesAsTermenvAndRichRead(environment: [String: String], depth: ColorDepth) {
        #expect(ColorDepth.detect(environment: environment) == depth)
    }

    @Test func colorTakesADepthAndAutoAndAlwaysTheAnnouncedOne() {
        let shell = loadedShell()
        shell.output.autoDepth = .ansi256
        for (typed, depth) in [("16", ColorDepth.ansi16), ("256", .ansi256), ("truecolor", .truecolor), ("always", .ansi256)] as [(String, ColorDepth?)] {
            #expect(failureText(shell.execute("set color \(typed)")) == nil)
            #expect(shell.theme.depth == depth, "\(typed)")
        }
        #expect(failureText(shell.execute("set color never")) == nil)
        #expect(shell.theme.depth == nil)
        shell.output.autoColor = true
        #expect(failureText(shell.execute("set color auto")) == nil)
        #expect(shell.theme.depth == .ansi256)
        #expect(outputLines(shell.execute("set color")) == ["color       auto (256 colours)"])
        shell.output.autoColor = false
        #expect(shell.theme.depth == nil)
        #expect(outputLines(shell.execute("set color")) == ["color       auto (off)"])
    }
}
