// CompleterTests.swift — tab completion without a terminal: partial-line splitting, quoting, and each argument kind.
import Foundation
import Testing
import UsageCore
import UsageData
import UsageRender
@testable import UsageShell

/// Data with spaces, a quote and a non-ASCII name.
func completionData() -> Dataset {
    let json = """
        [{"app_name": "Google Chrome", "category": "Productivity", "start_timestamp": "2026-02-20T10:00:00Z", "end_timestamp": "2026-02-20T11:00:00Z"},
         {"app_name": "Google Docs", "category": "Productivity", "start_timestamp": "2026-02-21T10:00:00Z", "end_timestamp": "2026-02-21T11:00:00Z"},
         {"app_name": "Café ☕", "category": "Food & Drink", "start_timestamp": "2026-02-22T10:00:00Z", "end_timestamp": "2026-02-22T11:00:00Z"},
         {"app_name": "Say \\"hi\\"", "category": "Social Media", "start_timestamp": "2026-02-23T08:00:00Z", "end_timestamp": "2026-02-23T08:30:00Z"}]
        """
    return sampleDataset(json)
}

/// A shell on `completionData()` and a fake file system; `configure` changes its environment (a
/// limits file, a load presenter).
func completionShell(_ configure: (inout ShellEnvironment) -> Void = { _ in }) -> Shell {
    let vm = UsageViewModel(zone: .utc, now: { fixedNow })
    vm.load(.file("data.json"), repository: StubRepository(.success(completionData())))
    var environment = ShellEnvironment(home: "/home/ann")
    environment.zoneNames = { ["America/New_York", "Europe/Paris", "Europe/Prague", "UTC"] }
    environment.listDirectory = { path, hidden in
        let tree: [String: [DirectoryEntry]] = [
            "": [.init(name: "exports", isDirectory: true), .init(name: "week.json", isDirectory: false)],
            "exports/": [.init(name: "phone.json", isDirectory: false), .init(name: "laptop.json", isDirectory: false)],
            "/home/ann/": [.init(name: "My Data", isDirectory: true)],
        ]
        return tree[path]?.filter { hidden || !$0.name.hasPrefix(".") }
    }
    configure(&environment)
    return Shell(model: vm, environment: environment)
}

func replacements(_ line: String) -> [String] {
    Completer.complete(line, shell: completionShell()).candidates.map(\.replacement)
}

struct CompleterTests {
    @Test(arguments: [
        // Command names; `ch` is chart's abbreviation although check begins so too.
        ("ch", ["chart"]),
        ("che", ["check"]),
        ("he", ["help"]),
        ("ex", ["exit", "export"]),
        ("zz", []),
        // Each command's keywords.
        ("chart h", ["hourly"]),
        ("chart ", ["category", "hourly"]),
        ("ch h", ["hourly"]),
        ("apps ", ["top", "category", "last", "week", "month", "year"]),
        ("apps top 5 ", ["category", "last", "week", "month", "year"]),
        ("apps top 5 category ", ["\"Food & Drink\"", "Productivity", "\"Social Media\""]),
        ("apps category so", ["\"Social Media\""]),
        ("set ", ["format", "color", "glyphs", "accessible", "width", "tz", "pager", "timer", "timeout", "data-tz", "columns", "raw-csv", "week-start", "retention", "web"]),
        ("set gl ", ["auto", "unicode", "ascii"]),
        ("set accessible ", ["on", "off"]),
        ("chart ", ["category", "hourly"]),
        ("chart hourly ", ["by"]),
        ("chart h by ", ["app", "category"]),
        ("set timer ", ["on", "off"]),
        // The commands of the week and limits issue.
        ("week ", ["prev", "next"]),
        ("limits ", ["check"]),
        ("limit Goo", ["\"Google Chrome\"", "\"Google Docs\""]),
        ("limit cat", ["category"]),
        ("limit category so", ["\"Social Media\""]),
        ("limit category Productivity ", ["off", "30m", "1h"]),
        ("limit Safari o", ["off"]),
        ("ins", ["insights"]),
        ("set format ", ["table", "json", "csv"]),
        ("set color a", ["auto", "always"]),
        ("set tz Europe/P", ["Europe/Paris", "Europe/Prague"]),
        ("set width 80 tz am", ["America/New_York"]),
        ("help q", ["quit"]),
        ("help e", ["exit", "export"]),
        // App names, quoted when they need it, matched ignoring case.
        ("app Goo", ["\"Google Chrome\"", "\"Google Docs\""]),
        ("app \"Google C", ["\"Google Chrome\""]),
        ("app goo", ["\"Google Chrome\"", "\"Google Docs\""]),
        ("app caf", ["\"Café ☕\""]),
        ("app Say", ["\"Say \\\"hi\\\"\""]),
        ("app Google Chrome ", []),
        // Dates of the loaded range and the relative words.
        ("day 2026-02-2", ["2026-02-20", "2026-02-21", "2026-02-22", "2026-02-23"]),
        ("day ye", ["yesterday"]),
        ("day mo", ["monday"]),
        ("hour 2", ["2", "20", "21", "22", "23"]),
        // Paths for load.
        ("load ", ["exports/", "week.json", ":sample:", "activitywatch"]),
        ("load exp", ["exports/"]),
        ("load exports/l", ["exports/laptop.json"]),
        ("load ~/", ["\"~/My Data/"]),
        ("load :s", [":sample:"]),
    ])
    func candidates(line: String, expected: [String]) {
        #expect(replacements(line) == expected, "\(line)")
    }

    @Test func aDirectoryIsNotFinishedSoNoSpaceFollows() {
        let completion = Completer.complete("load exp", shell: completionShell())
        #expect(completion.candidates.map(\.isFinal) == [false])
        #expect(Completer.complete("load week", shell: completionShell()).candidates.map(\.isFinal) == [true])
    }

    @Test func bugCompletionMergedCanonicallyEqualNames() {
        let json = """
            [{"app_name": "Caf\\u00e9", "category": "A", "start_timestamp": "2026-02-20T10:00:00Z", "end_timestamp": "2026-02-20T11:00:00Z"},
             {"app_name": "Cafe\\u0301", "category": "A", "start_timestamp": "2026-02-21T10:00:00Z", "end_timestamp": "2026-02-21T11:00:00Z"}]
            """
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset(json))))
        let completion = Completer.complete("app Caf", shell: Shell(model: vm))
        #expect(completion.candidates.count == 2)
        let decomposed = Completer.complete("app Cafe\u{301}", shell: Shell(model: vm))
        #expect(decomposed.candidates.map { Array($0.replacement.unicodeScalars) } == [Array("Cafe\u{301}".unicodeScalars)])
    }

    @Test func severalMatchesOfferWhatTheyShare() {
        let completion = Completer.complete("app g", shell: completionShell())
        #expect(completion.typed == "g")
        #expect(completion.commonPrefix == "\"Google ")
        // Nothing more in common: the list is shown instead.
        #expect(Completer.complete("day 2026-02-2", shell: completionShell()).commonPrefix == nil)
    }

    @Test func theTypedWordIsWhatGetsReplaced() {
        #expect(Completer.complete("app \"Google C", shell: completionShell()).typed == "\"Google C")
        #expect(Completer.complete("chart ", shell: completionShell()).typed == "")
    }

    @Test func everyCompletedNameReadsBackAsItself() throws {
        let shell = completionShell()
        for name in shell.model.history.apps {
            let words = try Tokenizer.words("app " + Tokenizer.quoted(name))
            #expect(words == ["app", name])
        }
    }

    // Bug (fixed): Tab put an app's raw name into the edited line, and libedit drew its controls:
    // a newline broke the line in two, a tab became spaces, a bidi override hid the text after it
    // (docs/DATA.md §6). A name with controls now completes as `$'…'` with them escaped.
    @Test func bugCompletionPutRawControlCharactersIntoTheEditedLine() throws {
        let json = """
            [{"app_name": "evil\\u001b]0;t\\u0007x", "category": "Tab\\tNew\\nLine", "start_timestamp": "2026-02-23T08:00:00Z", "end_timestamp": "2026-02-23T08:30:00Z"},
             {"app_name": "evil\\u001b[2J\\u202e", "category": "C1\\u009b", "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T09:30:00Z"}]
            """
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset(json))))
        let shell = Shell(model: vm)
        // Two apps: the common prefix, open; then each name whole.
        let both = Completer.complete("app ev", shell: shell)
        #expect(both.candidates.count == 2)
        #expect(both.commonPrefix == "$'evil\\e")
        #expect(both.candidates.map(\.display).allSatisfy { $0.hasPrefix("evil\u{1B}") }, "the list sanitises on its own")
        for line in ["app $'evil\\e]", "app $'evil\\e[", "apps category T", "apps category C"] {
            let completion = Completer.complete(line, shell: shell)
            let candidate = try #require(completion.candidates.first, "\(line)")
            #expect(completion.candidates.count == 1)
            #expect(!candidate.replacement.unicodeScalars.contains(where: TerminalText.needsEscape), "\(candidate.replacement)")
            // The completed line names the real app or category.
            let completed = String(line.dropLast(completion.typed.count)) + candidate.replacement
            let words = try Tokenizer.words(completed)
            #expect(words.last.map { Array($0.unicodeScalars) } == Array(candidate.display.unicodeScalars))
            #expect(shell.execute(completed) != .failed(.unclosedQuote))
            if case .failed(let error) = shell.execute(completed) { Issue.record("\(completed): \(error)") }
        }
    }

    @Test func beforeAnyDataThereAreNoNamesAndNoDates() {
        let shell = Shell(model: UsageViewModel(zone: .utc, now: { fixedNow }))
        #expect(Completer.complete("app ", shell: shell).candidates.isEmpty)
        #expect(Completer.complete("day 2", shell: shell).candidates.isEmpty)
    }
}

struct PartialLineTests {
    @Test(arguments: [
        ("", [], "", "", nil),
        ("app", [], "app", "app", nil),
        ("app ", ["app"], "", "", nil),
        ("app \"Google Ch", ["app"], "Google Ch", "\"Google Ch", "\""),
        ("app 'It''s", ["app"], "Its", "'It''s", "'"),
        ("load My\\ Da", ["load"], "My Da", "My\\ Da", nil),
        ("app $'evil\\e[3", ["app"], "evil\u{1B}[3", "$'evil\\e[3", "$"),
        ("app $'ab\\u{20", ["app"], "ab", "$'ab\\u{20", "$"),
        ("app $'a\\'b' x", ["app", "a'b"], "x", "x", nil),
    ] as [(String, [String], String, String, Character?)])
    func splits(line: String, words: [String], current: String, typed: String, quote: Character?) {
        let partial = Tokenizer.partial(line)
        #expect(partial.words == words)
        #expect(partial.current == current)
        #expect(partial.typed == typed)
        #expect(partial.quote == quote)
    }

    @Test(arguments: [
        ("Safari", "Safari"),
        ("Google Chrome", "\"Google Chrome\""),
        ("Say \"hi\"", "\"Say \\\"hi\\\"\""),
        ("back\\slash", "\"back\\\\slash\""),
        ("#hash", "\"#hash\""),
        ("", "\"\""),
        ("evil\u{1B}[31m", "$'evil\\e[31m'"),
        ("it's\u{202E}\\", "$'it\\'s\\u{202E}\\\\'"),
        ("Tab\tNew\nLine\r", "$'Tab\\tNew\\nLine\\r'"),
        ("C1\u{9B}\u{0}\u{7F}\u{2066}", "$'C1\\u{9B}\\u{0}\\u{7F}\\u{2066}'"),
    ])
    func quoting(name: String, quoted: String) {
        #expect(Tokenizer.quoted(name) == quoted)
    }

    /// Quoting reads back scalar for scalar, whatever the name holds: controls, quotes,
    /// backslashes, a combining mark right after a quote or a blank.
    @Test(arguments: [
        "evil\u{1B}]0;t\u{07}x", "a'b\"c\\d\u{202E}", "\"\u{301}x", " \u{301}", "x\u{0}y", "'\u{2028}", "$'x'", "$",
        "\\e", "Ça\u{9B}va",
    ])
    func quotedWordsReadBackAsThemselves(name: String) throws {
        let words = try Tokenizer.words("app " + Tokenizer.quoted(name) + " x")
        #expect(words.map { Array($0.unicodeScalars) } == [Array("app".unicodeScalars), Array(name.unicodeScalars), ["x"]])
    }
}

struct CompletionListTests {
    @Test func namesAreLaidOutInColumnsThatFitAndAreSanitised() {
        let names = (1...10).map { "name-\($0)" } + ["evil\u{1B}[31m"]
        let text = CompletionList.columns(names, width: 40)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("evil\\e[31m"))
        for line in text.split(separator: "\n") {
            #expect(TerminalText.cells(String(line)) <= 40)
        }
        #expect(text.split(separator: "\n").count == 4)  // 11 names, 3 columns of 13 cells
    }
}

struct LoadSpinnerTests {
    @Test(arguments: [(0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (48_200_000, "48.2 MB"), (999_949, "999.9 kB"), (999_950, "1.0 MB")])
    func sizes(bytes: Int, text: String) {
        #expect(LoadSpinner.size(bytes) == text)
    }

    @Test func bugTheSpinnerWrappedOnNarrowTerminalsAndDoubledItsEllipsis() {
        let long = "a_rather_long_directory_name_for_testing/big file with a long name.json"
        for width in [20, 39, 40, 60, 79, 200] {
            let line = LoadSpinner.line(frame: 3, source: long, bytes: 49_800_000, width: width)
            #expect(TerminalText.cells(line) <= width, "\(width): \(line)")
            #expect(!line.contains("……"))
        }
        #expect(LoadSpinner.line(frame: 0, source: "big.json", bytes: 1200, width: 79) == "⠋ loading big.json: 1.2 kB read (Ctrl-C cancels)")
        #expect(LoadSpinner.line(frame: 0, source: "evil\u{1B}[31m", bytes: 0, width: 79).contains("evil\\e[31m"))
    }

    /// Issue 51 item 2: an import's write says that Ctrl-C cancels it too, and never wraps.
    @Test func item2AnImportsWriteShowsItsOwnSpinnerWithTheHint() {
        #expect(LoadSpinner.writing(frame: 1, width: 79) == "⠙ writing to the store (Ctrl-C cancels)")
        for width in [5, 20, 39, 40, 200] {
            #expect(TerminalText.cells(LoadSpinner.writing(frame: 0, width: width)) <= width, "\(width)")
        }
        #expect(LoadSpinner.writing(frame: 0, width: 30) == "⠋ writing to the store")
    }
}
