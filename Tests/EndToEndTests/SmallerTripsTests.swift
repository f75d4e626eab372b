// SmallerTripsTests.swift — issue 44's smaller items (8), through the built binary: a command typed without -c, a keyword's slip, track's range form, the range error's every form, export of any view, export onto a store already there, a short stopwatch run's seconds, and help's groups on two screens.
import Foundation
import Testing

struct SmallerTripsTests {
    /// `usage-shell show` said `cannot load 'show': no such file`: the word is a command, typed
    /// without `-c`, and the error says so; a file that is simply missing gets no such hint.
    @Test func item8ACommandTypedWithoutDashCSaysDidYouMean() throws {
        let show = try Binary.run(["show"])
        #expect(show.stdout == "")
        #expect(show.stderr == "error: cannot load 'show': no such file — did you mean -c show?\n")
        #expect(show.status == 1)
        let apps = try Binary.run(["apps", "top", "5"])
        #expect(apps.stderr == "error: cannot load 'apps': no such file — did you mean -c 'apps top 5'?\n")
        #expect(apps.status == 1)
        let missing = try Binary.run(["nothere.json"])
        #expect(missing.stderr == "error: cannot load 'nothere.json': no such file\n")
    }

    /// `apps tpo 5` said `'tpo' is not a range`; a word a slip away from a keyword possible
    /// where it stands gets that keyword, as command names get theirs.
    @Test func item8AKeywordsSlipGetsASuggestion() throws {
        let r = try Binary.run(["-c", "apps tpo 5", "-c", "apps top 3 categroy Social", "-c", "apps bottom 3"])
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                error: line 1: apps: unexpected 'tpo' — did you mean 'top'? (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])
                error: line 2: apps: unexpected 'categroy' — did you mean 'category'? (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])
                error: line 3: apps: 'bottom' is not a range (week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO) (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])

                """)
        #expect(r.status == 1)
    }

    /// `track X 9:00-10:30` was refused (`until when?`): the range form is taken, with a hyphen
    /// or an en dash, and dated ends too; a lone time still asks for its end.
    @Test func item8TrackTakesTheRangeForm() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let r = try Binary.run(
            ["--tz", here.zone, "--db", w.db, "-c", "track Email 9:00-9:30", "-c", "track Email 10:00–10:15", "-c", "track Email 2026-02-23T10:00-2026-02-23T10:30",
             "-c", "track Email 11:00"])
        let today = here.date()
        #expect(
            r.stdout == """
                tracked Email \(today) 09:00–09:30 (@1, 30m)
                new task 1 Email
                tracked Email \(today) 10:00–10:15 (@2, 15m)
                tracked Email Mon 2026-02-23 10:00–10:30 (@3, 30m)

                """)
        #expect(
            r.stderr
                == "error: line 4: track: until when? ('HH:MM' or 'YYYY-MM-DDTHH:MM', local to the selected zone) (usage: track TASK FROM TO|FROM-TO [--new])\n")
        #expect(r.status == 1)
    }

    /// The range error listed `last N` but not `last week`; it lists every form, and two words
    /// run together are named.
    @Test func item8TheRangeErrorListsEveryForm() throws {
        let r = try Binary.run(["-c", "summary fortnight", "-c", "summary lastweek"])
        let forms = "week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO"
        #expect(
            r.stderr == """
                error: line 1: summary: 'fortnight' is not a range (\(forms)) (usage: summary [last N|week|month|year|RANGE])
                error: line 2: summary: 'lastweek' is not a range (\(forms)) — did you mean 'last week'? (usage: summary [last N|week|month|year|RANGE])

                """)
    }

    /// `export timesheet FILE` was refused (`one file`); every view writes what its
    /// `--format csv` (or json, by the file's extension) prints, as `export report` writes its file.
    @Test func item8ExportWritesAnyViewAsExportReportDoes() throws {
        let w = try StoreWorkspace()
        let setUp = try Binary.run(["--db", w.db, "-c", "track Email 2026-11-02T09:00 10:30", "-c", "track Report 2026-11-03T14:00 15:15"])
        #expect(setUp.status == 0)
        let sheet = w.url.appendingPathComponent("november.csv").path
        let summary = w.url.appendingPathComponent("apps.json").path
        let r = try Binary.run(["--db", w.db, "-c", "export timesheet 2026-11 \(sheet)", "-c", "export apps 2026-11 \(summary)"])
        #expect(r.stderr == "")
        #expect(r.stdout == "exported timesheet 2026-11 to \(sheet) (csv)\nexported apps 2026-11 to \(summary) (json)\n")
        #expect(r.status == 0)
        let printed = try Binary.run(["--db", w.db, "--format", "csv", "-c", "timesheet 2026-11"])
        #expect(try String(contentsOfFile: sheet, encoding: .utf8) == printed.stdout)
        #expect(printed.stdout.hasPrefix("category,task,2026-11-01,"))
        let json = try Binary.run(["--db", w.db, "--format", "json", "-c", "apps 2026-11"])
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == json.stdout)
        // As every export: never over a file without --force, and a format it cannot tell is said.
        let again = try Binary.run(["--db", w.db, "-c", "export timesheet \(sheet)", "-c", "export timesheet x.txt", "-c", "export timesheet \(sheet) --force"])
        #expect(
            again.stderr == """
                error: line 1: export: '\(sheet)' already exists: add --force to replace it
                error: line 2: export: cannot tell the format of 'x.txt': name it .csv or .json (usage: export FILE [--force], export report FILE [--force], export VIEW [ARG...] FILE [--force])

                """)
        #expect(again.stdout == "exported timesheet to \(sheet) (csv)\n")
    }

    /// `export store:FILE` onto a store already there merged into it without a word, where
    /// `export FILE` asks for `--force`: a batch run is refused without it (nothing changes),
    /// and merges with it, the shell's command and the program's alike.
    @Test func item8ExportOntoAStoreAlreadyThereNeedsForce() throws {
        let w = try StoreWorkspace()
        let backup = w.url.appendingPathComponent("backup.sqlite").path
        #expect(try Binary.run(["--db", w.db, "-c", "track Email 2026-11-02T09:00 10:30", "-c", "export store:\(backup)"]).status == 0)
        #expect(try Binary.run(["--db", w.db, "-c", "track Report 2026-11-03T09:00 10:00"]).status == 0)
        let refused = try Binary.run(["--db", w.db, "-c", "export store:\(backup)"])
        let line = "'\(backup)' is a store already (0 sessions): add --force to merge this store into it (each session kept once)"
        #expect(refused.stderr == "error: line 1: \(line)\n")
        #expect(refused.status == 1)
        let program = try Binary.run(["--db", w.db, "export", "store:\(backup)"])
        #expect(program.stderr == "error: \(line)\n")
        #expect(program.status == 1)
        #expect(try Binary.run(["--db", backup, "-c", "sessions 2026-11-03"]).stdout.contains("Report") == false, "nothing was merged")
        let merged = try Binary.run(["--db", w.db, "export", "store:\(backup)", "--force"], environment: ["COLUMNS": "1000"])
        #expect(merged.stderr == "")
        #expect(merged.stdout == "copied \(w.db) into \(backup): 0 sessions added, 0 there already; 1 task and 1 tracked interval added, 1 there already\n")
        #expect(merged.status == 0)
    }

    /// Help listed 45 commands over 155 lines; it groups them (viewing, ranges, tracking, the
    /// store, settings) a line each, and fits two screens of 24 rows at 80 columns.
    @Test func item8HelpGroupsItsCommandsOnTwoScreens() throws {
        let r = try Binary.run(["--width", "80", "-c", "help"])
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 46, "\(lines.count) lines")
        for title in ["Viewing a day", "Ranges of days", "Tracking your time", "The store and other sources", "Settings and the shell"] {
            #expect(lines.contains(Substring(title)), "\(title)")
        }
        #expect(lines.contains("  record                record this desktop (usage-shell record)"))
    }
}
