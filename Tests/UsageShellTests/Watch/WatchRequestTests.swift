// WatchRequestTests.swift — `watch [SECONDS] [COMMAND…] [--count N]` read: defaults, interval forms, --count anywhere, commands that may and may not be watched, the watched command's own arguments checked at once, and Tab after watch.
import Testing
import UsageCore
@testable import UsageShell

struct WatchRequestTests {
    @Test func aloneItShowsEveryTwoSecondsUntilStopped() throws {
        let request = try WatchRequest.parse([])
        #expect(request == WatchRequest(interval: 2, words: ["show"], count: nil))
        #expect(request.intervalText == "2 s")
    }

    static let intervals: [([String], Double, [String])] = [
        (["5"], 5, ["show"]), (["0.5", "apps", "top", "3"], 0.5, ["apps", "top", "3"]), (["2m", "week"], 120, ["week"]),
        (["1h"], 3600, ["show"]), (["90s", "status"], 90, ["status"]), (["apps"], 2, ["apps"]),
    ]

    @Test(arguments: intervals)
    func theIntervalIsSecondsOrAUnitAndTheCommandFollows(words: [String], interval: Double, command: [String]) throws {
        let request = try WatchRequest.parse(words)
        #expect(request.interval == interval)
        #expect(request.words == command)
    }

    @Test func countMayStandAnywhere() throws {
        #expect(try WatchRequest.parse(["5", "show", "--count", "3"]).count == 3)
        #expect(try WatchRequest.parse(["--count", "2", "5", "day"]) == WatchRequest(interval: 5, words: ["day"], laterWords: ["day"], count: 2))
        #expect(try WatchRequest.parse(["--count=4"]).count == 4)
    }

    @Test func aCommandIsNamedInFullWhateverItsTypedPrefix() throws {
        #expect(try WatchRequest.parse(["sh"]).words == ["show"])
        #expect(try WatchRequest.parse(["ch", "h"]).words == ["chart", "h"])
    }

    @Test func argumentsThatSelectADaySelectOnceAndLaterTicksShowIt() throws {
        let day = try WatchRequest.parse(["day", "prev"])
        #expect(day.words == ["day", "prev"])
        #expect(day.laterWords == ["day"])
        #expect(try WatchRequest.parse(["week", "prev"]).laterWords == ["week"])
        #expect(try WatchRequest.parse(["calendar", "next"]).laterWords == ["calendar"])
        #expect(try WatchRequest.parse(["apps", "top", "5"]).laterWords == ["apps", "top", "5"])
    }

    static let refusals: [([String], String)] = [
        (["0"], "watch: '0' is not an interval: seconds from 0.1 to 86400 (or 2m, 1h)"),
        (["2d"], "watch: '2d' is not an interval: seconds from 0.1 to 86400 (or 2m, 1h)"),
        (["100000"], "watch: '100000' is not an interval: seconds from 0.1 to 86400 (or 2m, 1h)"),
        (["--count"], "watch: '--count' needs a number of times"),
        (["--count", "0"], "watch: '0' is not a number of times (1 or more)"),
        (["load"], "watch: 'load' does not only show data: watch a command that shows data (show, day, apps, week, status, today, …)"),
        (["set", "tz", "UTC"], "watch: 'set' does not only show data: watch a command that shows data (show, day, apps, week, status, today, …)"),
        (["task", "add", "x"], "watch: 'task' does not only show data: watch a command that shows data (show, day, apps, week, status, today, …)"),
        (["watch"], "watch: 'watch' is already watching: watch a command that shows data (show, day, apps, week, status, today, …)"),
        (["quit"], "watch: 'quit' does not only show data: watch a command that shows data (show, day, apps, week, status, today, …)"),
        (["shwo"], "unknown command 'shwo' — did you mean 'show'?"),
        (["apps", "top", "x"], "apps: 'x' is not a positive number (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])"),
        (["show", "now"], "show: 'now' is not full or compact (usage: show [full|compact])"),
    ]

    @Test(arguments: refusals)
    func whatCannotBeWatchedIsRefusedAtOnce(words: [String], message: String) {
        #expect(throws: ShellError.self) { try WatchRequest.parse(words) }
        do {
            _ = try WatchRequest.parse(words)
        } catch {
            let text = error.description
            #expect(text == message || text == message + " (usage: watch [SECONDS] [COMMAND [ARGUMENT...]] [--count N])")
        }
    }

    @Test func aTaskIsWatchedButNotAddedOrChanged() throws {
        #expect(try WatchRequest.parse(["task", "3"]).words == ["task", "3"])
        for change in ["add", "done", "undone", "edit", "delete"] {
            #expect(CommandTable.named("task").watchRole([change, "3"]) == .refused)
        }
    }

    @Test func theWatchCommandReturnsTheRequestForTheRunner() {
        let shell = loadedShell()
        #expect(shell.execute("watch 5 apps top 3 --count 2") == .watch(WatchRequest(interval: 5, words: ["apps", "top", "3"], count: 2)))
    }

    @Test func tabAfterWatchCompletesTheWatchedCommand() {
        let shell = loadedShell()
        let names = Completer.complete("watch 5 ap", shell: shell).candidates.map(\.display)
        #expect(names.sorted() == ["app", "apps"])
        #expect(!Completer.complete("watch l", shell: shell).candidates.map(\.display).contains("load"))
        #expect(Completer.complete("watch app Saf", shell: shell).candidates.map(\.display) == ["Safari"])
        #expect(Completer.complete("watch --count 3 2 app M", shell: shell).candidates.map(\.display) == ["Maps"])
    }
}
