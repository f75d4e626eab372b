// CalendarWeekTests.swift — issue 44, item 2, through the built binary: `week` is the calendar week holding the selected day everywhere (the chart, summary, apps, sessions, timesheet), `days 7` draws what `week` drew before byte for byte, `set week-start sunday` moves every week, and the tasks due soon have words of their own while `tasks week` says what it became.
import Foundation
import Testing

struct CalendarWeekTests {
    /// On the sample, `week` said 47h 44m (the 7 days ending on the selected day) and `summary
    /// week` 7h 32m (the calendar week): `week` is the calendar week, Monday to Sunday, its
    /// seven days drawn (the days after the data empty), compared with the week before.
    @Test func item2WeekIsTheCalendarWeekOfTheSelectedDayEverywhere() throws {
        let r = try Binary.run(["-c", "week"])
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                Week · Mon 23 Feb – Sun 1 Mar 2026
                  8h│▌▌▌▌▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔
                    │▌▌▌▌▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔ ▔  avg 7h 32m
                  6h│▒▒▒▒▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔
                    │▓▓▓▓
                  4h│▓▓▓▓▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔
                    │████
                  2h│████▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔
                    │████
                    ▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔
                     Mon    Tue    Wed    Thu    Fri    Sat    Sun
                      23     24     25     26     27     28     1
                      ▲
                  ██ Productivity 2h 58m   ▓▓ Entertainment 2h 12m   ▒▒ Navigation 1h 10m
                  ▌▌ Social 1h 5m   ▚▚ Other 5m   ░░ System 2m
                  7h 32m in 7 days · 7h 32m a day on average over the 1 day with data · busiest
                    Mon 23 Feb (7h 32m) · ▲ 12% vs the previous week

                """)
        let days = try Binary.json(["-c", "week"])["days"] as? [[String: Any]] ?? []
        #expect(days.compactMap { $0["day"] as? String } == ["2026-02-23", "2026-02-24", "2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01"])
        // The same days, the same total, in every command that takes `week`.
        for day in ["2026-02-23", "2026-02-20"] {
            let week = try Binary.json(["--day", day, "-c", "week"])["days"] as? [[String: Any]] ?? []
            let total = week.compactMap { $0["total_seconds"] as? Double }.reduce(0, +)
            let summary = try Binary.json(["--day", day, "-c", "summary week"])
            let apps = try Binary.json(["--day", day, "-c", "apps week"])
            #expect(summary["from"] as? String == week.first?["day"] as? String)
            #expect(summary["to"] as? String == week.last?["day"] as? String)
            #expect(summary["total_seconds"] as? Double == total, "\(day)")
            #expect(apps["from"] as? String == summary["from"] as? String)
        }
        let w = try StoreWorkspace()
        let tracked = try Binary.run(
            ["--db", w.db, "--width", "200", "--day", "2026-02-20", "-c", "track Email 2026-02-16T09:00 10:00", "-c", "track Email 2026-02-23T09:00 10:00",
             "-c", "sessions week", "-c", "timesheet"])
        #expect(tracked.stdout.contains("Sessions · Mon 2026-02-16 – Sun 2026-02-22 · 1 session · 1h\n"), "\(tracked.stdout)")
        #expect(tracked.stdout.contains("Timesheet · Mon 16 – Sun 22 Feb 2026\n"), "\(tracked.stdout)")
    }

    /// The 7 days ending on a day stay `days 7`: what `week` printed before, byte for byte.
    @Test func item2DaysSevenKeepsTheOldWeekChartByteForByte() throws {
        let r = try Binary.run(["-c", "days 7"])
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                Week ending Monday, February 23, 2026
                  9h│    ▔▔▔    ▔▔▔    ▔▔▔    ▔▔▔▚▚▚▚▔▔▔▚▚▚▚▔▔▔
                    │                            ▌▌▌▌   ▒▒▒▒   ▌▌▌▌
                    │╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌▌▌▌▌╌╌╌▒▒▒▒╌╌╌▒▒▒▒╌╌╌▌▌▌▌ avg 6h 49m
                  6h│▌▌▌▌▔▔▔    ▔▔▔▌▌▌▌▔▔▔▒▒▒▒▔▔▔▒▒▒▒▔▔▔▒▒▒▒▔▔▔▒▒▒▒
                    │▌▌▌▌   ▚▚▚▚   ▓▓▓▓   ▓▓▓▓   ▓▓▓▓   ▒▒▒▒   ▓▓▓▓
                    │▓▓▓▓   ▌▌▌▌   ▓▓▓▓   ▓▓▓▓   ████   ████   ▓▓▓▓
                  3h│▓▓▓▓▔▔▔▒▒▒▒▔▔▔████▔▔▔████▔▔▔████▔▔▔████▔▔▔▓▓▓▓
                    │▓▓▓▓   ▓▓▓▓   ████   ████   ████   ████   ████
                    │████   ████   ████   ████   ████   ████   ████
                    ▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔
                     Tue    Wed    Thu    Fri    Sat    Sun    Mon
                      17     18     19     20     21     22     23
                                                                ▲
                  ██ Entertainment 18h 45m   ▓▓ Productivity 11h 4m   ▒▒ Social 9h 15m
                  ▌▌ Navigation 6h 32m   ▚▚ Other 1h 12m   ░░ other categories 56m
                  47h 44m in 7 days · 6h 49m a day on average · busiest Sun 22 Feb (8h 45m) · no
                    usage in the previous week

                """)
    }

    /// `set week-start sunday` (and `--week-start`) counts weeks from Sunday: the chart, a
    /// RANGE's week, the calendar's rows, the timesheet, `sessions week`.
    @Test func item2WeekStartSundayMovesEveryCalendarWeek() throws {
        let chart = try Binary.run(["--week-start", "sunday", "-c", "week"])
        #expect(chart.stdout.hasPrefix("Week · Sun 22 – Sat 28 Feb 2026\n"), "\(chart.stdout)")
        let set = try Binary.run(["--format", "json", "-c", "set week-start sunday", "-c", "summary week", "-c", "summary last week"])
        let documents = set.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(documents.count == 3)
        #expect(documents.first?["week_start"] as? String == "sunday")
        #expect(documents.dropFirst().map { "\($0["from"] ?? "")..\($0["to"] ?? "")" } == ["2026-02-22..2026-02-28", "2026-02-15..2026-02-21"])
        let w = try StoreWorkspace()
        let tracker = try Binary.run(
            ["--db", w.db, "--width", "200", "--week-start", "sunday", "--day", "2026-02-20", "-c", "track Email 2026-02-15T09:00 10:00", "-c", "calendar",
             "-c", "timesheet", "-c", "sessions week"])
        #expect(tracker.stdout.contains("\n Sun       Mon       Tue       Wed       Thu       Fri       Sat\n"), "\(tracker.stdout)")
        #expect(tracker.stdout.contains("Timesheet · Sun 15 – Sat 21 Feb 2026\n"), "\(tracker.stdout)")
        #expect(tracker.stdout.contains("Sessions · Sun 2026-02-15 – Sat 2026-02-21 · 1 session · 1h\n"), "\(tracker.stdout)")
        let bad = try Binary.run(["--week-start", "friday", "-c", "week"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("error: The value 'friday' is invalid for '--week-start <week-start>'"))
        #expect(try Binary.run(["-c", "set week-start friday"]).stderr == "error: line 1: set: week-start must be monday or sunday, not 'friday'\n")
    }

    /// `tasks week` meant due within 7 days: the tasks due soon are `tasks due 7d`, and `tasks
    /// week` is a range as `tasks month` is, saying so on stderr.
    @Test func item2TasksDueSoonHaveWordsOfTheirOwnAndTasksWeekSaysWhatItBecame() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let base = ["--tz", here.zone, "--db", w.db, "--width", "200"]
        #expect(try Binary.run(base + ["-c", "task add Soon due +3", "-c", "task add Later due +10", "-c", "track Worked 9:00 9:30"]).status == 0)
        let due = try Binary.run(base + ["-c", "tasks due 7d"])
        #expect(due.stderr == "")
        #expect(due.stdout.hasPrefix("Tasks due within 7 days and overdue · 1\n"), "\(due.stdout)")
        #expect(due.stdout.contains("Soon") && !due.stdout.contains("Later"))
        let week = try Binary.run(base + ["-c", "tasks week"])
        #expect(week.stderr == "note: tasks week lists the tasks worked on this week; those due within 7 days are tasks due 7d\n")
        #expect(week.stdout.hasPrefix("Tasks worked on · "), "\(week.stdout)")
        #expect(week.stdout.contains("Worked") && !week.stdout.contains("Soon"))
        #expect(week.status == 0)
        let json = try Binary.run(base + ["--format", "json", "-c", "tasks due 14d"])
        #expect(json.stdout.hasPrefix(#"{"filter":"due 14d""#), "\(json.stdout)")
    }

    /// `usage-shell export timesheet week FILE --week-start sunday` was refused (--week-start was
    /// the shell's alone), so a week from Sunday could not be exported from cron (found by a
    /// reviewing helper).
    @Test func bugAWeekFromSundayCouldNotBeExported() throws {
        let w = try StoreWorkspace()
        _ = try Binary.run(["--db", w.db, "-c", "track Email 2026-11-22T09:00 10:00"])
        let file = w.url.appendingPathComponent("week.csv").path
        let r = try Binary.run(["--db", w.db, "export", "timesheet", "week", file, "--week-start", "sunday", "--day", "2026-11-22"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("category,task,2026-11-22,2026-11-23,"))
    }
}
