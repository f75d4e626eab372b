// NewcomerAgainShellTests.swift — issue 44 through the shell with a clock the test moves: what a stopwatch run says of its seconds, and (items 1 and 2) where a bare time goes and which days a week is.
import Foundation
import Testing
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
            model: model, environment: ShellEnvironment(store: .sqlite(path: folder.path + "/usage.sqlite"), storeNamed: true, now: { clock.now }))
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
}
