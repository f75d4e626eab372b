// SessionDayTests.swift — issue 44, item 1, through the built binary: a bare HH:MM in a command that names a session is on that session's own day (the one a session across midnight holds it on, else the nearer), `track` keeps today, every refusal naming another day names its date, and the rule is said once, the same way, in `help` and COMMANDS.md.
import Foundation
import Testing

struct SessionDayTests {
    /// With @3 on a Tuesday 09:00–12:00, `session split @3 10:30` said `10:30 is not inside @3`
    /// (today's 10:30); `session edit @1 start 9:15` of a Monday's @1 said the end was not after
    /// the start; `session move @4 17:00` named a time never typed. Each is on its session's day.
    @Test func item1ABareTimeOnASessionMeansTheSessionsOwnDay() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let base = ["--tz", here.zone, "--db", w.db, "--width", "200"]
        let setUp = try Binary.run(
            base + [
                "-c", "track Acme 2026-02-23T09:15 10:30", "-c", "track Beta 2026-02-23T13:00 15:30", "-c", "track Acme 2026-02-24T09:00 12:00",
                "-c", "track Acme 2026-02-24T16:00 17:00", "-c", "track Late 2026-02-24T23:00 01:30",
            ])
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let r = try Binary.run(
            base + [
                "-c", "session split @3 10:30", "-c", "session edit @1 start 9:05", "-c", "session move @4 17:00", "-c", "session split @5 0:30",
                "-c", "session edit @5 start 23:30", "-c", "session split @3 13:00", "-c", "continue @7 --at 2:00", "-c", "stop --at 2026-02-25T02:30",
                "-c", "track Today 9:00 9:30",
            ])
        #expect(
            r.stdout == """
                split @3 Acme Tue 2026-02-24 09:00–10:30 (1h 30m) and @6 Acme Tue 2026-02-24 10:30–12:00 (1h 30m)
                changed @1 Acme Mon 2026-02-23 09:05–10:30 (1h 25m)
                moved @4 Acme Tue 2026-02-24 17:00–18:00 (1h)
                split @5 Late Tue 2026-02-24 23:00–Wed 2026-02-25 00:30 (1h 30m) and @7 Late Wed 2026-02-25 00:30–01:30 (1h)
                changed @5 Late Tue 2026-02-24 23:30–Wed 2026-02-25 00:30 (1h)
                started Late at Wed 2026-02-25 02:00 (@8)
                stopped Late after 30m (@8, Wed 2026-02-25 02:00–02:30)
                tracked Today \(here.date()) 09:00–09:30 (@9, 30m)
                new task 4 Today

                """)
        // A time on another day than today is named with its date.
        #expect(
            r.stderr
                == "error: line 6: Tue 2026-02-24 13:00 is not inside @3 (Tue 2026-02-24 09:00–10:30): a split is between its start and its end\n")
        #expect(r.status == 1)
    }

    /// `session move @5 17:00` said `17:30 is later than now`: a time never typed. The move is
    /// named with the end it would bring.
    @Test func item1AMoveThatWouldEndAfterNowSaysSo() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let base = ["--tz", here.zone, "--db", w.db]
        #expect(try Binary.run(base + ["-c", "track Now 12:00 12:30"]).status == 0)
        let (from, to, ahead) = (here.clock(inMinutes: -10), here.clock(inMinutes: 20), here.clock(inMinutes: 5))
        let r = try Binary.run(base + ["-c", "session move @1 \(from)", "-c", "session move @1 \(ahead)"])
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                error: line 1: @1 moved to \(from) would end at \(to), later than now
                error: line 2: \(ahead) is later than now

                """)
    }

    /// Three places said three things of a bare time (today's; on the selected day; `HH:MM
    /// today` in help): the rule is said once, in help's words, and COMMANDS.md has them.
    @Test func item1TheRuleOfTimesIsSaidOnceTheSameWay() throws {
        let rule =
            "Times: HH:MM is today's (with --at, the latest not in the future), but in a command that names a session (@N) it is on that session's day; YYYY-MM-DDTHH:MM names the day."
        let help = try Binary.run(["--width", "1000", "-c", "help", "-c", "help track", "-c", "help session"])
        #expect(help.stdout.split(separator: "\n").contains(Substring(rule)))
        #expect(!help.stdout.contains("today (whichever"))
        let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/COMMANDS.md"), encoding: .utf8)
        #expect(reference.contains("**Times**, as `help` says it: " + rule))
        #expect(!reference.contains("on the selected day, or `YYYY-MM-DDTHH:MM`"))
        #expect(!reference.contains("TIME is `HH:MM` (today's"))
    }
}
