// MoreCommandsTests.swift — the commands of the interactive-shell issue through the shell: app, hour, check, set, apps category, names.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageData
import UsageRender
@testable import UsageShell

/// A setup step that must succeed (a silent failure would make the test prove nothing).
func succeed(_ outcome: CommandOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
    if case .failed(let error) = outcome { Issue.record("setup failed: \(error)", sourceLocation: sourceLocation) }
}

func failure(_ outcome: CommandOutcome) -> String? {
    if case .failed(let error) = outcome { return error.description }
    return nil
}

func json(_ outcome: CommandOutcome) -> [String: Any] {
    guard case .output(let lines) = outcome, lines.count == 1,
        let object = try? JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    else {
        Issue.record("expected one JSON line, got \(outcome)")
        return [:]
    }
    return object
}

struct MoreCommandsTests {
    @Test(arguments: [
        "app \"Google Chrome\"", "app 'google chrome'", "app Google\\ Chrome", "app \"google c\"", "app caf",
        "hour 10", "hour 08", "hour 8:00", "check", "set", "set tz", "apps category productivity",
        "apps top 1 category Prod", "apps category Prod top 1", "help app",
    ])
    func commandsSucceed(line: String) {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-20"))
        #expect(!outputLines(shell.execute(line)).isEmpty, "\(line)")
    }

    @Test(arguments: [
        ("app", "app: which app? (usage: app NAME)"),
        ("app Google Chrome", "app: one name (quote names with spaces) (usage: app NAME)"),
        ("app Goog", "'Goog' could be the app 'Google Chrome', 'Google Docs': type more of the name"),
        ("app Saffari", "no app named 'Saffari' in the loaded data"),
        ("app \"Gogle Chrome\"", "no app named 'Gogle Chrome' — did you mean 'Google Chrome'?"),
        ("hour 24", "hour: '24' is not an hour from 0 to 23 (usage: hour H)"),
        ("hour", "hour: which hour? (usage: hour H)"),
        ("hour ٣", "hour: '٣' is not an hour from 0 to 23 (usage: hour H)"),
        ("apps category Sports", "no category named 'Sports' in the loaded data"),
        ("help quit now", "help: one command at a time (usage: help [COMMAND])"),
        ("load \"\"", "load: a source is empty (usage: load [SOURCE...])"),
        ("set f xml", "set: format must be table, json or csv, not 'xml'"),
        ("set c x", "set: color must be auto, always, never, 16, 256 or truecolor, not 'x'"),
        ("apps top", "apps: 'top' needs a value (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])"),
        ("apps top 2 top 3", "apps: 'top' is not a range (week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO) (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])"),
        ("set colour never", "set: unknown setting 'colour': use format, color, glyphs, accessible, width, tz, pager, timer, timeout, data-tz, columns, raw-csv, week-start, retention, web"),
        ("set co x", "set: color must be auto, always, never, 16, 256 or truecolor, not 'x'"),  // kept for color, though columns begins so too
        ("set col x", "set: color must be auto, always, never, 16, 256 or truecolor, not 'x'"),
        ("set colu x", "set: columns: 'x' is not FIELD=COLUMN; use FIELD=COLUMN pairs separated by commas, e.g. app=Program,start=From,end=To"),
        ("set columns where=From", "set: columns: unknown field 'where': the fields are id, app, category, start, end, duration"),
        ("set data-tz Mars/Olympus", "set: data-tz must be auto or a time zone (an IANA name such as Europe/Paris, or UTC), not 'Mars/Olympus'"),
        ("set raw-csv maybe", "set: raw-csv must be on or off, not 'maybe'"),
        ("set glyphs braille", "set: glyphs must be auto, unicode or ascii, not 'braille'"),
        ("set accessible maybe", "set: accessible must be on or off, not 'maybe'"),
        ("set timer maybe", "set: timer must be on or off, not 'maybe'"),
        ("set timeout 0", "set: timeout must be a number of seconds from 1 to 86400 (120, 2m), not '0'"),
        ("set timeout soon", "set: timeout must be a number of seconds from 1 to 86400 (120, 2m), not 'soon'"),
        ("set format csv2", "set: format must be table, json or csv, not 'csv2'"),
        ("set width 10", "set: width must be auto or a number from 20 to 1000, not '10'"),
        ("set tz GMT+5", "set: unknown time zone 'GMT+5': use an IANA name such as Europe/Paris, or UTC"),
        ("set format json width", "set: 'width' needs a value"),
        ("check now", "check: 'now' is not fix (usage: check [fix [--yes]])"),
    ])
    func errorsSayWhatIsWrong(line: String, message: String) {
        #expect(failure(completionShell().execute(line)) == message)
    }

    @Test func appShowsTheSessionsOfTheSelectedDay() {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-20"))
        let lines = outputLines(shell.execute("app \"google ch\""))
        #expect(lines.first == "Google Chrome · Productivity · Fri 2026-02-20")
        #expect(lines.contains { $0.contains("10:00–11:00") })
        shell.output.format = .json
        let object = json(shell.execute("app \"Google Chrome\""))
        #expect(object["app"] as? String == "Google Chrome")
        #expect(object["seconds"] as? Int == 3600)
        #expect((object["sessions"] as? [Any])?.count == 1)
    }

    @Test func hourListsTheAppsOfThatSlot() {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-23"))
        #expect(outputLines(shell.execute("hour 8")).contains { $0.contains("Say \"hi\"") })
        shell.output.format = .json
        let object = json(shell.execute("hour 8"))
        #expect(object["hour"] as? Int == 8)
        let slots = object["slots"] as? [[String: Any]]
        #expect(slots?.first?["seconds"] as? Int == 1800)
    }

    @Test func bugASkippedHourFailedTheRunThoughItIsNoError() {
        let shell = completionShell()
        succeed(shell.execute("set tz America/New_York"))
        succeed(shell.execute("day 2026-03-08"))
        #expect(outputLines(shell.execute("hour 2")) == ["no such hour on Sunday, March 8, 2026: the clocks skip it"])
        shell.output.format = .json
        #expect((json(shell.execute("hour 2"))["slots"] as? [Any])?.isEmpty == true)
        #expect(failure(shell.execute("hour 3")) == nil)
    }

    @Test(arguments: [("set fo j", "json"), ("set f t", "table"), ("set format JSON", "json")])
    func bugSettingsTookNoPrefixes(line: String, format: String) {
        let shell = completionShell()
        succeed(shell.execute(line))
        #expect(shell.output.format.rawValue == format)
    }

    @Test func setPrefixesForEverySetting() {
        let shell = completionShell()
        succeed(shell.execute("set c al w 90 tz Europe/Paris timer on timeo 2m"))
        #expect(shell.model.timeout == 120)
        #expect(shell.output.timer)
        #expect(shell.output.colorMode == .always)
        #expect(shell.output.fixedWidth == 90)
        #expect(shell.model.zone.identifier == "Europe/Paris")
        succeed(shell.execute("set w a"))
        #expect(shell.output.fixedWidth == nil)
    }

    @Test func appsCategoryListsThatCategorysAppsWithItsTotal() {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-20"))
        let lines = outputLines(shell.execute("apps category productivity"))
        #expect(lines.first == "Apps in Productivity")
        #expect(lines.last == "  1h in Productivity · 100% of the day")
        shell.output.format = .json
        let object = json(shell.execute("apps category prod"))
        #expect(object["category"] as? String == "Productivity")
        #expect(object["category_seconds"] as? Int == 3600)
        #expect((object["apps"] as? [Any])?.count == 1)
    }

    @Test func setChangesAndShowsTheSettings() {
        let shell = completionShell()
        #expect(outputLines(shell.execute("set")) == [
            "format      table", "color       never", "glyphs      auto (unicode)", "accessible  off", "width       auto (80)",
            "tz          UTC", "pager       auto", "timer       off", "timeout     30 s", "data-tz     auto (UTC)", "columns     auto", "raw-csv     off",
            "week-start  monday", "retention   off (keep everything)", "web         on (the browser extension's sites are recorded)",
        ])
        #expect(outputLines(shell.execute("set width 100 color always glyphs ascii accessible on")) == [
            "format      table", "color       always (16 colours)", "glyphs      ascii", "accessible  on", "width       100",
            "tz          UTC", "pager       auto", "timer       off", "timeout     30 s", "data-tz     auto (UTC)", "columns     auto", "raw-csv     off",
            "week-start  monday", "retention   off (keep everything)", "web         on (the browser extension's sites are recorded)",
        ])
        #expect(
            Array(outputLines(shell.execute("set data-tz Europe/Paris columns 'app=Program, start=From,end = To' raw-csv on")).dropLast(3).suffix(3))
                == ["data-tz     Europe/Paris", "columns     app=Program,start=From,end=To", "raw-csv     on"])
        #expect(shell.model.dataZone?.identifier == "Europe/Paris")
        #expect(shell.model.readOptions.localZone?.identifier == "Europe/Paris")
        #expect(shell.model.columns.description == "app=Program,start=From,end=To")
        #expect(shell.output.rawCSV)
        succeed(shell.execute("set data-tz auto columns auto raw-csv off"))
        #expect(shell.model.readOptions.localZone?.identifier == "UTC")  // auto: the selected zone
        #expect(shell.model.columns.isEmpty && !shell.output.rawCSV)
        #expect(shell.width == 100)
        #expect(shell.theme == Theme(color: true, glyphs: .ascii, accessible: true))
        #expect(outputLines(shell.execute("set tz")) == ["tz          UTC"])
        succeed(shell.execute("set format json"))
        #expect(json(shell.execute("set")).count == 15)
        #expect(json(shell.execute("set"))["week_start"] as? String == "monday")
        #expect(json(shell.execute("set"))["data_tz"] as? String == "auto")
        #expect(json(shell.execute("set"))["raw_csv"] as? Bool == false)
        #expect(json(shell.execute("set")) ["timeout"] as? Int == 30)
        #expect(json(shell.execute("set")) ["width"] as? Int == 100)
    }

    @Test func aBadPairInSetChangesNothing() {
        let shell = completionShell()
        #expect(failure(shell.execute("set width 100 format xml")) != nil)
        #expect(shell.output.fixedWidth == nil)
        #expect(shell.output.format == .table)
    }

    @Test func setTzMovesTheDayBoundaries() {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-23"))
        shell.output.format = .json
        let utc = json(shell.execute("day"))["total_seconds"] as? Int
        succeed(shell.execute("set tz Asia/Tokyo"))
        let tokyo = json(shell.execute("day"))
        #expect(tokyo["time_zone"] as? String == "Asia/Tokyo")
        #expect(utc == 1800)
        #expect(tokyo["total_seconds"] as? Int == 1800)  // 08:00Z is 17:00 in Tokyo, the same day
    }

    @Test func colourStylesOnlyTitlesAndNeverData() {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-23"))
        shell.output.colorMode = .always
        let lines = outputLines(shell.execute("show"))
        #expect(lines.first == "\u{1B}[1mMonday, February 23, 2026\u{1B}[0m")
        shell.output.colorMode = .never
        #expect(!outputLines(shell.execute("show")).joined().contains("\u{1B}"))
    }

    @Test func bugChIsChartThoughCheckBeginsSoToo() throws {
        #expect(try CommandTable.resolve("ch").get().name == "chart")
        #expect(try CommandTable.resolve("che").get().name == "check")
        #expect(failure(completionShell().execute("c")) == "ambiguous command 'c': could be 'chart', 'check', 'categories', 'category', 'calendar', 'continue', 'clear'")
    }

    @Test func bugChangingTheZoneForgotAFailedLoadsRetry() {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.sample)
        vm.load(.file("nosuch.json"), repository: StubRepository(.failure(.notFound(source: "nosuch.json"))))
        vm.zone = Zone(identifier: "Europe/Paris")!
        #expect(vm.retrySource == .file("nosuch.json"))
        #expect(vm.state == .failed(.notFound(source: "nosuch.json")))
        #expect(vm.history.source == ":sample:")
    }

    @Test func everyCommandHasAnExampleThatParses() {
        for command in CommandTable.all {
            #expect(!command.examples.isEmpty, "\(command.name)")
            for example in command.examples {
                let words = try? Tokenizer.words(example)
                #expect(words.flatMap { try? CommandTable.resolve($0[0]).get().name } == command.name, "\(example)")
            }
        }
    }
}

struct TimerTests {
    @Test func timerOnWritesEachCommandsTimeToStderrAfterItsOutput() {
        let out = BufferSink()
        let err = BufferSink()
        let runner = Runner(shell: completionShell(), out: out, err: err)
        runner.run(lines: ["set timer on", "day", "chrt", "set timer off", "day"])
        let lines = err.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)  // day, chrt's error and its time, set timer off
        #expect(lines[0].hasPrefix("time: ") && lines[0].hasSuffix(" ms"))
        #expect(lines[1].hasPrefix("error: line 3:"))
        #expect(lines[2].hasPrefix("time: "))
        #expect(lines.allSatisfy { $0.hasPrefix("error:") || $0.wholeMatch(of: /time: \d+\.\d{3} ms/) != nil })
    }
}

struct NameMatchTests {
    @Test(arguments: [
        ("Safari", "Safari"),
        ("safari", "Safari"),
        ("saf", "Safari"),
        ("Notes", "Notes"),
        ("notes", "notes"),  // exact beats ignoring case
    ])
    func resolves(word: String, name: String) throws {
        #expect(try NameMatch.resolve(word, among: ["Safari", "Notes", "notes", "Notion"], kind: "app").get() == name)
    }

    @Test func aPrefixOfSeveralIsAmbiguous() {
        let result = NameMatch.resolve("no", among: ["Safari", "Notes", "Notion"], kind: "app")
        #expect(throws: ShellError.ambiguousName(kind: "app", "no", candidates: ["Notes", "Notion"])) { try result.get() }
    }

    @Test func bugATypedNameWasMatchedAgainstWholeHugeNames() throws {
        // Lowercasing and edit distance ran over every whole name: a 200 MB name took seconds
        // per `app` command. Only the start of a name can match; only names of about the typed
        // length can be 2 edits away.
        let huge = "Ab" + String(repeating: "c", count: 1_000_000)
        let names = ["Safari", huge, "Notes"]
        #expect(try NameMatch.resolve("ab", among: names, kind: "app").get() == huge)
        #expect(try NameMatch.resolve("safari", among: names, kind: "app").get() == "Safari")
        #expect(throws: ShellError.unknownName(kind: "app", "Notas", suggestion: "Notes")) {
            try NameMatch.resolve("Notas", among: names, kind: "app").get()
        }
        #expect(NameMatch.folded("ÉCOLE", scalars: 3) == ("éco", false))
        #expect(NameMatch.folded("ÉCOLE", scalars: 5) == ("école", true))
        // A name longer than the word never equals it ignoring case, though its start does.
        #expect(try NameMatch.resolve("abc", among: ["ABC", "ABCD"], kind: "app").get() == "ABC")
    }
}

struct TerminalLoadTests {
    /// A presenter that cancels as Ctrl-C would, before the work finishes.
    final class CancellingPresenter: LoadPresenter {
        func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError> {
            cancellation.cancel()
            return .failure(.cancelled(source: source.description))
        }
    }

    @Test func aCancelledLoadKeepsThePreviousDataAndCanBeRetried() {
        let shell = completionShell { $0.loadPresenter = CancellingPresenter() }
        #expect(failure(shell.execute("load big.json")) == "load of 'big.json' cancelled; the previous data is kept, 'retry' tries again")
        #expect(shell.model.history.source == "data.json")
        #expect(shell.model.retrySource == .file("big.json"))
        #expect(failure(shell.execute("show")) == nil)
    }
}

struct ChartArgumentTests {
    /// Bug: `by` alone needed typing in full (`ch h b c` failed) although keywords take prefixes.
    @Test func bugByCouldNotBeShortened() throws {
        let args = try CommandTable.named("chart").arguments(["h", "b", "c"])
        #expect(args[CommandTable.hourlyChoice] == "hourly")
        #expect(args[CommandTable.stackChoice] == "category")
    }
}

struct LimitsShellTests {
    /// Bug: an open shell read limits.json once and wrote its own copy back on the next `limit`,
    /// losing limits another run had added meanwhile.
    @Test func bugAnOpenShellOverwroteLimitsAnotherRunHadAdded() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let path = folder.path + "/config/limits.json"
        let shell = completionShell { $0.limitsFile = LimitsFile(path: path) }
        succeed(shell.execute("limit \"Google Docs\" 30m"))
        _ = try LimitsFile(path: path).update { $0 + [UsageLimit(target: .app("Mail"), micros: 3_600_000_000)] }
        succeed(shell.execute("limit \"Google Chrome\" 1h"))
        #expect(try LimitsFile(path: path).load().limits.map(\.target.name) == ["Google Docs", "Mail", "Google Chrome"])
    }
}
