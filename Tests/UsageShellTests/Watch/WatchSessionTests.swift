// WatchSessionTests.swift — a watch's ticks without a terminal: new totals after a rewrite, a broken rewrite keeping the last good picture with the error in the status, the day moving at midnight during a watch, `day prev` stepping once; the plain driver's outputs with their timestamp lines (--count, JSON one document per tick, a stop ending the run); the status line's words and width; the frame diff.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
import UsageData
import UsageRender
@testable import UsageShell

struct WatchSessionTests {
    @Test func aRewrittenFileShowsItsNewTotalsAtTheNextTick() throws {
        let clock = TestClock("2026-02-23T12:00:00Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let shell = watchShell(.file(path), clock: clock)
        let session = WatchSession(shell: shell, request: try WatchRequest.parse(["1", "day"]))
        #expect(session.start(refreshing: DirectRefreshRunner()) == nil)
        #expect(session.output == ["Monday, February 23, 2026", "30m total"])
        folder.writeSettled("data.json", sessionsJSON(minutes: 45))
        clock.advance(seconds: 1)
        session.tick(refreshing: DirectRefreshRunner())
        #expect(session.output == ["Monday, February 23, 2026", "45m total"])
        #expect(session.status.refreshed == "12:00:01")
        #expect(session.status.failure == nil)
    }

    @Test func aBrokenRewriteKeepsTheLastGoodPictureAndSaysWhyInTheStatus() throws {
        let clock = TestClock("2026-02-23T12:00:00Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let shell = watchShell(.file(path), clock: clock)
        let session = WatchSession(shell: shell, request: try WatchRequest.parse(["1", "day"]))
        _ = session.start(refreshing: DirectRefreshRunner())
        folder.writeSettled("data.json", "[{\"app_name\": \"Editor\",")
        clock.advance(seconds: 1)
        session.tick(refreshing: DirectRefreshRunner())
        #expect(session.output == ["Monday, February 23, 2026", "30m total"])
        let status = session.status
        #expect(status.refreshed == "12:00:00")
        #expect(status.failedAt == "12:00:01")
        #expect(status.failure?.hasPrefix("cannot load '\(path)': ") == true)
        let line = status.line(width: 300, theme: .plain)
        #expect(line.contains("refresh failed at 12:00:01 (the data of 12:00:00 shown): cannot load"))
        // Narrower, the error goes before the time of the data shown, and the way to stop stays.
        let narrow = status.line(width: 80, theme: .plain)
        #expect(narrow.hasPrefix("refresh failed at 12:00:01: cannot load"))
        #expect(narrow.hasSuffix(" · Ctrl-C or q to stop"))
        // Mended: the next tick reads it, and the failure is gone.
        folder.writeSettled("data.json", sessionsJSON(minutes: 40))
        clock.advance(seconds: 1)
        session.tick(refreshing: DirectRefreshRunner())
        #expect(session.output == ["Monday, February 23, 2026", "40m total"])
        #expect(session.status.failure == nil)
    }

    @Test func todayMovesToTheNewDayAtMidnightDuringAWatch() throws {
        let clock = TestClock("2026-02-23T23:59:59Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30) + "\n")
        let shell = watchShell(.file(path), clock: clock)
        try shell.selectDay("today")
        let session = WatchSession(shell: shell, request: try WatchRequest.parse(["1", "day"]))
        _ = session.start(refreshing: DirectRefreshRunner())
        #expect(session.output.first == "Monday, February 23, 2026")
        #expect(session.nextMidnight() == RFC3339.parse("2026-02-24T00:00:00Z"))
        clock.advance(seconds: 1)
        session.tick(refreshing: DirectRefreshRunner())
        #expect(session.output == ["Tuesday, February 24, 2026", "0m total · no usage recorded"])
    }

    @Test func aDayStepIsTakenOnceNotAtEveryTick() throws {
        let clock = TestClock("2026-02-23T12:00:00Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let shell = watchShell(.file(path), clock: clock)
        let session = WatchSession(shell: shell, request: try WatchRequest.parse(["1", "day", "prev"]))
        _ = session.start(refreshing: DirectRefreshRunner())
        session.tick(refreshing: DirectRefreshRunner())
        session.tick(refreshing: DirectRefreshRunner())
        #expect(session.output.first == "Sunday, February 22, 2026")
    }

    @Test func aCommandThatFailsAtTheFirstTickDoesNotStartTheWatch() throws {
        let clock = TestClock("2026-02-23T12:00:00Z")
        let folder = try! TemporaryFolder("watch")
        let shell = watchShell(.file(folder.writeSettled("data.json", sessionsJSON(minutes: 30))), clock: clock)
        let session = WatchSession(shell: shell, request: try WatchRequest.parse(["app", "Nothing"]))
        #expect(session.start(refreshing: DirectRefreshRunner())?.description == "no app named 'Nothing' in the loaded data")
    }
}

struct PlainWatchTests {
    func run(_ line: String, format: OutputFormat = .table, stopAfter: Int? = nil, lines more: [String] = [])
        -> (out: String, err: String, status: Int32, timer: FakeWatchTimer)
    {
        let clock = TestClock("2026-02-23T12:00:00Z")
        let folder = try! TemporaryFolder("watch")
        let shell = watchShell(.file(folder.writeSettled("data.json", sessionsJSON(minutes: 30))), clock: clock, format: format)
        let (out, err) = (BufferSink(), BufferSink())
        let runner = Runner(shell: shell, out: out, err: err)
        let timer = FakeWatchTimer(clock: clock, stopAfter: stopAfter)
        runner.watchDriver = PlainWatchDriver(timer: timer, stopEndsRun: true)
        runner.run(lines: [line] + more)
        return (out.text, err.text, runner.exitStatus, timer)
    }

    @Test func countThreePrintsThreeOutputsEachAfterATimestampLine() {
        let r = run("watch 5 day --count 3")
        #expect(r.out == """
            Mon 2026-02-23 12:00:00 UTC (every 5 s)
            Monday, February 23, 2026
            30m total

            Mon 2026-02-23 12:00:05 UTC (every 5 s)
            Monday, February 23, 2026
            30m total

            Mon 2026-02-23 12:00:10 UTC (every 5 s)
            Monday, February 23, 2026
            30m total


            """)
        #expect(r.err.isEmpty)
        #expect(r.status == 0)
        #expect(r.timer.waits == 2)
    }

    @Test func inJSONStdoutHoldsOneDocumentPerTickAndTheTimestampsGoToStderr() {
        let r = run("watch 1 day --count 2", format: .json)
        let documents = r.out.split(separator: "\n")
        #expect(documents.count == 2)
        #expect(documents.allSatisfy { $0.hasPrefix("{\"day\":\"2026-02-23\"") })
        #expect(r.err == "Mon 2026-02-23 12:00:00 UTC (every 1 s)\nMon 2026-02-23 12:00:01 UTC (every 1 s)\n")
    }

    @Test func aStopEndsTheWatchAndTheRunWithStatusZero() {
        let r = run("watch 1 day", stopAfter: 4, lines: ["show"])
        #expect(r.out.components(separatedBy: "Monday, February 23, 2026").count - 1 == 5)
        #expect(!r.out.contains("By category"))  // `show` after it never ran
        #expect(r.status == 0)
    }

    @Test func aWatchedCommandThatFailsLaterIsAnErrorLineAndTheWatchGoesOn() throws {
        let clock = TestClock("2026-02-23T12:00:00Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(app: "Editor", minutes: 30))
        let shell = watchShell(.file(path), clock: clock)
        let (out, err) = (BufferSink(), BufferSink())
        let runner = Runner(shell: shell, out: out, err: err)
        let timer = FakeWatchTimer(clock: clock)
        timer.beforeEachTick = { n in
            if n == 1 { folder.writeSettled("data.json", sessionsJSON(app: "Mail", minutes: 30)) }
            if n == 2 { folder.writeSettled("data.json", "not json") }
        }
        runner.watchDriver = PlainWatchDriver(timer: timer)
        runner.run(lines: ["watch 1 app Editor --count 3"])
        #expect(out.text.components(separatedBy: "Editor · Work").count - 1 == 1)
        #expect(err.text.contains("error: no app named 'Editor'"))
        #expect(err.text.contains("warning: refresh failed: cannot load '\(path)': "))
        #expect(runner.exitStatus == 0)
    }
}

struct WatchStatusTests {
    let status = WatchStatus(
        command: "show", interval: "2 s", source: "/home/ann/data.json", sessions: 1204, refreshed: "14:03:07",
        stopwatch: "● Write report 0:25")

    @Test func everyPieceWhenTheyFit() {
        #expect(
            status.line(width: 200, theme: .plain)
                == "every 2 s: show · /home/ann/data.json (1,204 sessions) · refreshed 14:03:07 · ● Write report 0:25 · Ctrl-C or q to stop")
    }

    @Test func theLeastNeededGoFirstAndTheWayToStopStays() {
        #expect(status.line(width: 90, theme: .plain) == "every 2 s: show · refreshed 14:03:07 · ● Write report 0:25 · Ctrl-C or q to stop")
        #expect(status.line(width: 60, theme: .plain) == "every 2 s: show · refreshed 14:03:07 · Ctrl-C or q to stop")
        #expect(status.line(width: 45, theme: .plain) == "refreshed 14:03:07 · Ctrl-C or q to stop")
        for width in [20, 30, 45, 60, 80, 120] {
            #expect(TerminalText.cells(status.line(width: width, theme: .plain)) <= width)
        }
    }

    @Test func aFailureIsCutBeforeTheWayToStop() {
        var failed = status
        failed.failure = "cannot load '/home/ann/data.json': not valid JSON at line 1, column 25"
        failed.failedAt = "14:03:09"
        let line = failed.line(width: 80, theme: .plain)
        #expect(line.hasPrefix("refresh failed at 14:03:09: cannot load '/home/ann/data.j"))
        #expect(line.hasSuffix("… · Ctrl-C or q to stop"))
        #expect(TerminalText.cells(line) <= 80)
    }

    @Test func dataInTheStatusLineIsSanitisedAndColourIsReverseVideoAcrossTheWidth() {
        var hostile = status
        hostile.source = "evil\u{1B}]0;pwned\u{07}.json"
        let plain = hostile.line(width: 200, theme: .plain)
        #expect(!plain.unicodeScalars.contains("\u{1B}"))
        let colour = hostile.line(width: 200, theme: Theme(color: true))
        #expect(colour.hasPrefix("\u{1B}[7m") && colour.hasSuffix("\u{1B}[0m"))
        #expect(TerminalText.cells(colour) == 200)
        #expect(TerminalText.withoutSGR(colour).unicodeScalars.allSatisfy { $0 != "\u{1B}" })
    }

    @Test func theTimestampLineNamesTheDayTheTimeTheZoneAndTheInterval() {
        let tokyo = Zone(identifier: "Asia/Tokyo")!
        #expect(WatchStatus.timestamp(RFC3339.parse("2026-02-23T15:04:05Z")!, zone: tokyo, interval: "5 s") == "Tue 2026-02-24 00:04:05 Asia/Tokyo (every 5 s)")
    }
}

struct FrameDiffTests {
    let esc = "\u{1B}"

    @Test func anUnknownScreenIsClearedAndDrawnWhole() {
        let bytes = FrameDiff.update(from: nil, to: ["status", "a", "b"], width: 10)
        #expect(bytes == "\(esc)[?2026h\(esc)[H\(esc)[2J\(esc)[1;1Hstatus\(esc)[K\(esc)[2;1Ha\(esc)[K\(esc)[3;1Hb\(esc)[K\(esc)[?2026l")
    }

    @Test func onlyTheRowsThatChangedAreWrittenAndNothingForTheSameFrame() {
        #expect(FrameDiff.update(from: ["s", "a", "b"], to: ["s", "a", "b"], width: 10) == "")
        #expect(FrameDiff.update(from: ["s 1", "a", "b"], to: ["s 2", "a", "c"], width: 10)
            == "\(esc)[?2026h\(esc)[1;1Hs 2\(esc)[K\(esc)[3;1Hc\(esc)[K\(esc)[?2026l")
    }

    @Test func rowsNoLongerUsedAreErasedAndAFullRowIsNotFollowedByAnErase() {
        #expect(FrameDiff.update(from: ["s", "a", "b"], to: ["s"], width: 10) == "\(esc)[?2026h\(esc)[2;1H\(esc)[K\(esc)[3;1H\(esc)[K\(esc)[?2026l")
        #expect(FrameDiff.update(from: ["s"], to: ["0123456789"], width: 10) == "\(esc)[?2026h\(esc)[1;1H0123456789\(esc)[?2026l")
    }

    @Test func anOutputTallerThanTheScreenIsCutWithALineSayingHowMuchAndAWideLineIsWrapped() {
        let rows = WatchFrame.rows(status: "status", output: (1...10).map { "line \($0)" }, width: 40, height: 5)
        #expect(rows == ["status", "line 1", "line 2", "line 3", "… 7 more lines: a taller terminal shows them"].map { TerminalText.fit($0, width: 40) })
        #expect(WatchFrame.rows(status: "s", output: ["{\"a\":\"0123456789\"}"], width: 8, height: 10) == ["s", "{\"a\":\"01", "23456789", "\"}"])
    }
}
