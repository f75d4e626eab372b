// SyntaxTests.swift — the command grammar: usage lines, the parse (keywords by prefix, exact keywords, values, flags anywhere, any order), its error messages and completion, all from one declaration per command.
import Testing
import UsageCore
import UsageData
@testable import UsageShell

struct SyntaxTests {
    /// The usage lines the grammar writes are the ones the help, the man page and docs/COMMANDS.md show.
    @Test(arguments: [
        ("show", "show [full|compact]"),
        ("day", "day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday]"),
        ("chart", "chart [category|hourly [by app|category]]"),
        ("apps", "apps [top N] [category NAME] [last N|week|month|year|RANGE]"),
        ("app", "app NAME"),
        ("hour", "hour H"),
        ("week", "week [prev|next]"),
        ("days", "days [N]"),
        ("load", "load [SOURCE...]"),
        ("export", "export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force]"),
        ("limit", "limit APP DURATION|off, limit category NAME DURATION|off"),
        ("limits", "limits [check]"),
        ("help", "help [COMMAND]"),
        (
            "set",
            "set [format table|json|csv] [color auto|always|never|16|256|truecolor] [glyphs auto|unicode|ascii] [accessible on|off] [width N|auto] [tz ZONE] [pager auto|on|off] [timer on|off] [timeout SECONDS] [data-tz ZONE|auto] [columns MAPPING|auto] [raw-csv on|off] [week-start monday|sunday] [retention AGE|off] [web on|off]"
        ),
    ])
    func usageLinesComeFromTheGrammar(name: String, usage: String) {
        #expect(CommandTable.named(name).usage == usage)
    }

    /// Every example of every command fits its own grammar (help never shows a line that fails).
    @Test func everyExampleParses() throws {
        for command in CommandTable.all {
            for example in command.examples {
                let words = try Tokenizer.words(example)
                #expect((try? CommandTable.resolve(words[0]).get())?.name == command.name, "\(example)")
                #expect(throws: Never.self, "\(example)") { _ = try command.arguments(Array(words.dropFirst())) }
            }
        }
    }

    @Test func keywordsTakeUniquePrefixesAndAliases() throws {
        let chart = try CommandTable.named("chart").arguments(["h", "b", "c"])
        #expect(chart[CommandTable.hourlyChoice] == "hourly")
        #expect(chart[CommandTable.stackChoice] == "category")
        // `pr` begins both `prev` and its alias `previous`: one keyword.
        #expect(try CommandTable.named("week").arguments(["pr"])[CommandTable.weekStep] == "prev")
        #expect(try CommandTable.named("week").arguments(["PREVIOUS"])[CommandTable.weekStep] == "prev")
    }

    /// `category` after `limit` is a keyword only when typed whole: a beginning of it names an app.
    @Test func anExactKeywordLeavesItsBeginningsToValues() throws {
        let app = try CommandTable.named("limit").arguments(["cat", "30m"])
        #expect(app[CommandTable.limitAppSlot] == "cat")
        #expect(app[CommandTable.limitCategorySlot] == nil)
        let category = try CommandTable.named("limit").arguments(["Category", "Social", "1h"])
        #expect(category[CommandTable.limitCategorySlot] == "Social")
        #expect(category[CommandTable.limitAppSlot] == nil)
    }

    @Test func aFlagMayStandAnywhere() throws {
        for words in [["report", "x.csv", "--force"], ["--force", "report", "x.csv"], ["report", "--force", "x.csv"]] {
            let args = try CommandTable.named("export").arguments(words)
            #expect(args.has("--force"))
            #expect(args[CommandTable.reportChoice] == "report")
            #expect(args[CommandTable.exportFileSlot] == "x.csv")
        }
        #expect(try !CommandTable.named("export").arguments(["x.csv"]).has("--force"))
    }

    @Test func partsInAnyOrderAndRepeatedValues() throws {
        let apps = try CommandTable.named("apps").arguments(["category", "Social", "top", "3"])
        #expect(apps[CommandTable.topSlot] == 3)
        #expect(apps[CommandTable.categorySlot] == "Social")
        #expect(try CommandTable.named("load").arguments(["a.json", "b.csv", "-"]).all(CommandTable.sourceSlot) == ["a.json", "b.csv", "-"])
        #expect(try CommandTable.named("load").arguments([]).all(CommandTable.sourceSlot) == [])
    }

    /// The shape is checked before the values: too many words is said as such, whatever they are.
    @Test(arguments: [
        ("day", ["x", "y"], "day: 'x' is not a day"),
        ("day", ["x"], "day: 'x' is not a day"),
        ("hour", ["25", "26"], "hour: '25' is not an hour from 0 to 23"),
        ("days", ["0"], "days: '0' is not a number of days from 1 to 31"),
        ("week", ["back"], "week: 'back' is not prev or next"),
        ("chart", ["hourly", "x"], "chart: say 'by app' or 'by category'"),
        ("export", ["a.json", "b"], "export: one file (quote paths with spaces)"),
        ("export", ["a", "b"], "export: 'a' is not a view to export (show, day, chart, apps, app, hour, week, days, insights, summary, month, timesheet, check, rules, store, imports, devices, tasks, task, categories, status, today, calendar, sessions, limits, sites)"),
        ("limit", ["Safari", "25h"], "limit: '25h' is not a duration such as 30m, 1h30m or 2h (at most 24h)"),
        ("limit", ["category"], "limit: how long a day for the app 'category'? (30m, 1h30m, or off)"),
        ("limit", ["category", "Social"], "limit: how long a day for the category 'Social'? (30m, 1h30m, or off)"),
        ("limit", ["Safari", "1h", "30m"], "limit: write the duration as one word: 1h30m"),
        ("limits", ["check", "now"], "limits: too many arguments"),
        ("show", ["x"], "show: 'x' is not full or compact"),
        ("retry", ["x"], "retry: takes no arguments"),
    ])
    func wordsThatDoNotFitSayWhy(name: String, words: [String], message: String) {
        let command = CommandTable.named(name)
        #expect(throws: ShellError.usage(command: name, problem: String(message.dropFirst(name.count + 2)), usage: command.usage)) {
            try command.arguments(words)
        }
    }

    @Test func helpOfAnUnknownCommandIsTheUnknownCommandError() {
        #expect(throws: ShellError.unknownCommand("chrt", suggestion: "chart")) { try CommandTable.named("help").arguments(["chrt"]) }
    }

    /// Completion follows every way the grammar can go after the words typed.
    @Test(arguments: [
        ("apps", [], [ArgumentKind.keywords(["top", "category", "last", "week", "month", "year"])]),
        ("apps", ["category", "Social"], [.keywords(["top", "last", "week", "month", "year"])]),
        ("apps", ["top"], []),
        ("limit", [], [.apps, .keywords(["category"])]),
        ("limit", ["category"], [.categories]),
        ("limit", ["Safari"], [.keywords(["off", "30m", "1h"])]),
        ("export", [], [.paths, .keywords(["report"] + CommandTable.exportViews)]),
        ("export", ["report"], [.paths, .keywords(["--force"])]),
        ("export", ["report", "x.csv"], [.keywords(["--force"])]),
        ("export", ["report", "x.csv", "--force"], []),
        ("load", ["a.json"], [.paths, .keywords([SourceRef.sampleName, SourceRef.activityWatchName])]),
        ("chart", ["hourly"], [.keywords(["by"])]),
        ("chart", ["category"], []),
        ("set", ["tz"], [.zones]),
        ("day", ["x", "y"], []),
    ])
    func completionFollowsTheGrammar(name: String, typed: [String], kinds: [ArgumentKind]) {
        #expect(CommandTable.named(name).completions(after: typed) == kinds)
    }
}

struct PrefixMatchTests {
    static let words = ["today", "tuesday", "thursday", "prev", "next"]

    @Test(arguments: [
        ("today", PrefixMatch.Outcome<String>.match("today")),
        ("TODAY", .match("today")),
        ("tod", .match("today")),
        ("t", .ambiguous(["today", "tuesday", "thursday"])),
        ("th", .match("thursday")),
        ("x", .none),
        ("", .none),
    ])
    func aWordIsAWholeSpellingOrTheOnlyOneItBegins(typed: String, outcome: PrefixMatch.Outcome<String>) {
        #expect(PrefixMatch.resolve(typed, among: Self.words.map { PrefixMatch.Candidate($0, spellings: [$0]) }) == outcome)
    }

    @Test func spellingsOfOneCandidateCountOnce() {
        let candidates = [PrefixMatch.Candidate("prev", spellings: ["prev", "previous"]), PrefixMatch.Candidate("next", spellings: ["next"])]
        #expect(PrefixMatch.resolve("p", among: candidates) == .match("prev"))
        #expect(PrefixMatch.resolve("previous", among: candidates) == .match("prev"))
    }

    @Test func aWholeOnlyCandidateIsNamedOnlyWhole() {
        let candidates = [PrefixMatch.Candidate("category", spellings: ["category"], wholeOnly: true)]
        #expect(PrefixMatch.resolve("cat", among: candidates) == .none)
        #expect(PrefixMatch.resolve("Category", among: candidates) == .match("category"))
    }

    /// Commands, setting names and day words all go through the one matcher.
    @Test func theShellsShortenedWordsUseIt() {
        #expect(DayQuery("p") == .relativeToSelected(-1))
        #expect(DayQuery("t") == nil)
        #expect(Settings.named("ti") == nil)
        #expect(Settings.named("timeo")?.name == "timeout")
        guard case .failure(.ambiguousCommand("c", let candidates)) = CommandTable.resolve("c") else { return #expect(Bool(false)) }
        #expect(candidates == ["chart", "check", "categories", "category", "calendar", "continue", "clear"])
    }
}
