// NewcomerAgainShellTests.swift — issue 44 through the shell with a clock the test moves: what a stopwatch run says of its seconds, and (items 1 and 2) where a bare time goes and which days a week is.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageRender
import UsageStore
@testable import UsageShell

/// A shell on a store of its own in a temporary folder, in UTC, whose clock the test sets.
final class ClockedShell {
    // The shell before the folder: it lets go of the store before the folder goes.
    let shell: Shell
    let folder: TemporaryFolder
    private let clock: Clock

    final class Clock: @unchecked Sendable {
        var now: Micros
        init(_ now: Micros) { self.now = now }
    }

    /// The clock at `now` (`2026-11-27T14:00:00Z` by default: a Friday).
    init(now: String = "2026-11-27T14:00:00Z", zone: Zone = .utc) throws {
        folder = try TemporaryFolder()
        let clock = Clock(Self.instant(now))
        self.clock = clock
        let model = UsageViewModel(zone: zone, now: { clock.now })
        shell = Shell(
            model: model, output: OutputSettings(fixedWidth: 1000),
            environment: ShellEnvironment(store: .sqlite(path: folder.path + "/usage.sqlite"), storeNamed: true, now: { clock.now }))
    }


    static func instant(_ text: String) -> Micros {
        Micros(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1_000_000)
    }

    /// Moves the clock on by `seconds`.
    func wait(_ seconds: Int) { clock.now += Micros(seconds) * 1_000_000 }

    /// A command's output lines; a failure is recorded and gives none.
    func run(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let outcome = shell.execute(line)
        if case .failed(let error) = outcome { Issue.record("\(line): \(error)", sourceLocation: sourceLocation) }
        if case .output(let lines) = outcome { return lines }
        return []
    }

    /// A command's failure line (nil when it did not fail).
    func refusal(_ line: String) -> String? {
        if case .failed(let error) = shell.execute(line) { return error.description }
        return nil
    }
}

struct NewcomerAgainShellTests {
    /// A 94-second stopwatch run said `2m`; a run under an hour says its seconds, one of an hour
    /// or more its minutes.
    @Test func item8AStopwatchRunSaysItsSeconds() throws {
        let s = try ClockedShell()
        _ = s.run("start Email")
        s.wait(94)
        #expect(s.run("stop") == ["stopped Email after 1m 34s (@1, 14:00–14:01)"])
        _ = s.run("start Email")
        s.wait(40)
        #expect(s.run("pause") == ["paused Email after 40s (@2, 14:01–14:02)"])
        _ = s.run("resume")
        s.wait(3600 + 125)
        #expect(s.run("stop") == ["stopped Email after 1h 2m (@3, 14:02–15:04)"])
        #expect(TextFormat.runDuration(0) == "0s")
        #expect(TextFormat.runDuration(120_000_000) == "2m")
        #expect(TextFormat.runDuration(3_599_999_999) == "59m 59s")
    }

    /// `export VIEW … FILE` takes every command that shows data, the commands `watch` may show:
    /// a new view can be exported the day it is added.
    @Test func item8ExportTakesEveryViewThatWatchMayShow() {
        let shows = CommandTable.all.filter { $0.watchRole([]) != .refused }.map(\.name)
        #expect(CommandTable.exportViews.sorted() == shows.sorted())
    }

    /// Item 1 with the clock on Friday 2026-11-27 14:00 UTC: a bare time in a command naming a
    /// session falls on the day it is inside the session, else on the nearer day it touches
    /// (the earlier of two as near); a running session reaches to now; a date says otherwise.
    @Test func item1ABareTimeFallsOnTheSessionsDayInsideItOrNearest() throws {
        let s = try ClockedShell()
        _ = s.run("track Long 2026-11-23T10:00 2026-11-24T10:00")  // @1: Monday 10:00 to Tuesday 10:00
        _ = s.run("track Night 2026-11-24T23:00 2026-11-25T01:00")  // @2: Tuesday night
        // Both ends are at 10:00: the earlier is taken, the start, where no split can be.
        #expect(s.refusal("session split @1 10:00") == "Mon 2026-11-23 10:00 is not inside @1 (Mon 2026-11-23 10:00–Tue 2026-11-24 10:00): a split is between its start and its end")
        #expect(s.run("session split @1 22:00") == ["split @1 Long Mon 2026-11-23 10:00–22:00 (12h) and @3 Long Mon 2026-11-23 22:00–Tue 2026-11-24 10:00 (12h)"])
        // 22:30 is inside neither: Tuesday's is 30 minutes before @2, Wednesday's 21h30 after.
        #expect(s.run("session edit @2 start 22:30") == ["changed @2 Night Tue 2026-11-24 22:30–Wed 2026-11-25 01:00 (2h 30m)"])
        #expect(s.run("session edit @2 start 0:15") == ["changed @2 Night Wed 2026-11-25 00:15–01:00 (45m)"])
        // A dated time as written.
        #expect(s.run("session edit @2 start 2026-11-24T23:45") == ["changed @2 Night Tue 2026-11-24 23:45–Wed 2026-11-25 01:00 (1h 15m)"])
        // A running session reaches to now: Thursday 20:00 to Friday 14:00; 9:00 is Friday's.
        _ = s.run("start Run --at 2026-11-26T20:00")
        #expect(s.run("session split @4 9:00") == ["split @4 Run Thu 2026-11-26 20:00–Fri 2026-11-27 09:00 (13h) and @5 Run 09:00–now (5h)"])
    }

    /// `split @4 Run Thu 2026-11-26 20:00–09:00 (13h)`: an end today after a start on another
    /// day was written without its date, and read as the start's day (an end before its start).
    @Test func bugAnEndTodayAfterAStartOnAnotherDayReadAsTheStartsDay() {
        let clock = TrackerClock(zone: .utc, now: ClockedShell.instant("2026-11-27T14:00:00Z"), day: LocalDate(iso: "2026-11-27")!)
        let thursday = ClockedShell.instant("2026-11-26T20:00:00Z")
        #expect(clock.range(thursday, ClockedShell.instant("2026-11-27T09:00:00Z")) == "Thu 2026-11-26 20:00–Fri 2026-11-27 09:00")
        #expect(clock.range(ClockedShell.instant("2026-11-27T08:00:00Z"), ClockedShell.instant("2026-11-27T09:00:00Z")) == "08:00–09:00")
        #expect(clock.range(thursday, ClockedShell.instant("2026-11-26T21:00:00Z")) == "Thu 2026-11-26 20:00–21:00")
    }
}
