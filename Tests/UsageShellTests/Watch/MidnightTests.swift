// MidnightTests.swift — the day following the clock, with an injected clock instead of a real midnight: `today` moves at midnight in the selected zone (Tokyo's, not UTC's), a date never moves, a file's default day stays, live and stored data's day moves on from today; at the prompt a note says so and the prompt shows the new day.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageData
@testable import UsageShell

struct DayFollowTests {
    let monday = LocalDate(iso: "2026-02-23")!
    var tuesday: LocalDate { monday.adding(days: 1) }

    @Test func todayMovesAtMidnight() {
        var follow = DayFollow()
        let moved1 = follow.observe(today: monday, selection: .today, live: false, shown: monday)
        #expect(!moved1)
        let moved2 = follow.observe(today: monday, selection: .today, live: false, shown: monday)
        #expect(!moved2)
        let moved3 = follow.observe(today: tuesday, selection: .today, live: false, shown: monday)
        #expect(moved3)
    }

    @Test func aDateNeverMoves() {
        var follow = DayFollow()
        _ = follow.observe(today: monday, selection: .fixed(monday), live: true, shown: monday)
        let moved4 = follow.observe(today: tuesday, selection: .fixed(monday), live: true, shown: monday)
        #expect(!moved4)
        #expect(follow.automaticDay(dataDefault: monday) == monday)
    }

    @Test func liveDataShownAsTodayMovesOnAndADayOfOlderDataStays() {
        var follow = DayFollow()
        _ = follow.observe(today: monday, selection: .automatic, live: true, shown: monday)
        let moved5 = follow.observe(today: tuesday, selection: .automatic, live: true, shown: monday)
        #expect(moved5)
        #expect(follow.automaticDay(dataDefault: monday) == tuesday)
        // The data's own later day still wins.
        #expect(follow.automaticDay(dataDefault: tuesday.adding(days: 1)) == tuesday.adding(days: 1))

        var older = DayFollow()
        _ = older.observe(today: monday, selection: .automatic, live: true, shown: monday.adding(days: -7))
        let moved6 = older.observe(today: tuesday, selection: .automatic, live: true, shown: monday.adding(days: -7))
        #expect(!moved6)
    }

    @Test func aFilesDefaultDayStays() {
        var follow = DayFollow()
        _ = follow.observe(today: monday, selection: .automatic, live: false, shown: monday)
        let moved7 = follow.observe(today: tuesday, selection: .automatic, live: false, shown: monday)
        #expect(!moved7)
        #expect(follow.automaticDay(dataDefault: monday) == monday)
    }
}

struct MidnightRolloverTests {
    static let tokyo = Zone(identifier: "Asia/Tokyo")!

    @Test func todayOnAFileMovesAtTokyosMidnightNotUTCs() throws {
        // 23:59:58 in Tokyo on Monday is 14:59:58 UTC.
        let clock = TestClock("2026-02-23T14:59:58Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(day: "2026-02-23", minutes: 30))
        let shell = watchShell(.file(path), clock: clock, zone: Self.tokyo)
        try shell.selectDay("today")
        #expect(shell.model.selectedDay.description == "2026-02-23")
        clock.advance(seconds: 3)
        #expect(shell.model.followClock())
        #expect(shell.model.selectedDay.description == "2026-02-24")
        // UTC's midnight, nine hours later, moves nothing more.
        clock.set("2026-02-24T00:00:01Z")
        #expect(!shell.model.followClock())
        #expect(shell.model.selectedDay.description == "2026-02-24")
    }

    @Test func aDateGivenNeverMoves() throws {
        let clock = TestClock("2026-02-23T23:59:59Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let shell = watchShell(.file(path), clock: clock)
        try shell.selectDay("2026-02-23")
        clock.advance(seconds: 2)
        #expect(!shell.model.followClock())
        #expect(shell.model.selectedDay.description == "2026-02-23")
    }

    @Test func theStoresDayMovesOnFromTodayWithNoDayGiven() throws {
        let clock = TestClock("2026-02-23T23:59:59Z")
        let vm = UsageViewModel(zone: .utc, now: { clock.now })
        // The store as a source (its reading stubbed: what matters is that it is live).
        vm.load(.store, repository: StubRepository(.success(sampleDataset())))
        #expect(vm.selectedDay.description == "2026-02-23")
        clock.advance(seconds: 2)
        #expect(vm.followClock())
        #expect(vm.selectedDay.description == "2026-02-24")
    }

    @Test func aSetZoneIsNoMidnight() throws {
        let clock = TestClock("2026-02-23T20:00:00Z")
        let vm = UsageViewModel(zone: .utc, now: { clock.now })
        vm.load(.file("data.json"), repository: StubRepository(.success(sampleDataset())))
        vm.select(.relativeToToday(0))
        vm.zone = Self.tokyo  // already Tuesday there
        #expect(!vm.followClock())
        #expect(vm.selectedDay.description == "2026-02-24")
    }

    @Test func atThePromptANoteSaysTheDayMovedAndThePromptShowsIt() throws {
        let clock = TestClock("2026-02-23T23:59:59Z")
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let shell = watchShell(.file(path), clock: clock)
        try shell.selectDay("today")
        let (out, err) = (BufferSink(), BufferSink())
        let runner = Runner(shell: shell, out: out, err: err)
        #expect(runner.prompt == "usage Mon 2026-02-23> ")
        let reader = ClockedReader(["day", "day"], clock: clock)
        runner.interactive(reader: reader, banner: "banner")
        #expect(err.text.contains("note: midnight passed: the day is now Tue 2026-02-24\n"))
        #expect(reader.prompts == ["usage Mon 2026-02-23> ", "usage Tue 2026-02-24> ", "usage Tue 2026-02-24> "])
        #expect(out.text.hasPrefix("Tuesday, February 24, 2026\n"))
    }
}

/// A prompt reader whose user takes two seconds to type each line.
final class ClockedReader: LineReader {
    var answers: [String]
    let clock: TestClock
    private(set) var prompts: [String] = []
    init(_ answers: [String], clock: TestClock) {
        self.answers = answers
        self.clock = clock
    }
    func readLine(prompt: String) -> String? {
        prompts.append(prompt)
        clock.advance(seconds: 2)
        return answers.isEmpty ? nil : answers.removeFirst()
    }
}
