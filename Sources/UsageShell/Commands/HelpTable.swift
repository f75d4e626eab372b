// HelpTable.swift — what `help` alone lists: the commands in groups (viewing, ranges, tracking, the store, settings), a line each, short enough to fit two screens; the rule for typed times said once; and the commands that run only from the command line (`record`), which `help NAME` also knows.

/// The listing of `help`.
enum HelpTable {
    /// A line of the listing: commands that go together, and what they do in a few words.
    struct Entry {
        let names: [String]
        let brief: String
    }

    /// The groups, in order. Every command of the table is in one entry (`HelpTests` checks it).
    static let groups: [(title: String, entries: [Entry])] = [
        (
            "Viewing a day",
            [
                Entry(names: ["show"], brief: "the day screen: totals, both charts, the apps"),
                Entry(names: ["day"], brief: "select a day (a date, today, prev, next, monday…)"),
                Entry(names: ["chart"], brief: "the category or the hourly chart"),
                Entry(names: ["apps"], brief: "the ranked apps of the day, or of a range"),
                Entry(names: ["app", "hour"], brief: "one app's day (sessions, hours, sites); an hour's apps"),
                Entry(names: ["week"], brief: "the calendar week of the selected day, as bars"),
                Entry(names: ["days"], brief: "the N days ending on the selected day"),
                Entry(names: ["insights"], brief: "the 7 days ending on the selected day in facts"),
                Entry(names: ["check"], brief: "data quality: skipped rows, overlaps, days covered"),
                Entry(names: ["limit", "limits"], brief: "daily limits on apps, categories, sites; when crossed"),
                Entry(names: ["sites", "web"], brief: "the websites of a day or range; recording them or not"),
                Entry(names: ["watch"], brief: "a command shown again as its data changes"),
            ]
        ),
        (
            "Ranges of days",
            [
                Entry(names: ["summary"], brief: "a range's totals (week, month, last 30, FROM..TO…)"),
                Entry(names: ["month"], brief: "the days of the selected day's month as bars"),
                Entry(names: ["timesheet"], brief: "tracked time as a sheet (its CSV for a client)"),
            ]
        ),
        (
            "Tracking your time",
            [
                Entry(names: ["start", "stop"], brief: "the stopwatch on a task (--at TIME)"),
                Entry(names: ["pause", "resume"], brief: "pause the running task; start it again"),
                Entry(names: ["status"], brief: "what runs, and the desktop recorder"),
                Entry(names: ["track"], brief: "past time on a task (track Email 9:00-9:30)"),
                Entry(names: ["today"], brief: "today's tracked time, the streak, the tasks due"),
                Entry(names: ["tasks", "task"], brief: "the tasks; one task, add, done, edit, delete"),
                Entry(names: ["categories", "category"], brief: "the task categories; add, rename, delete"),
                Entry(names: ["calendar"], brief: "a month of tracked time as a heat map"),
                Entry(names: ["sessions", "session"], brief: "tracked time by id (@N); edit, move, split, join…"),
                Entry(names: ["continue"], brief: "start again the task stopped last (or TASK, or @N's)"),
                Entry(names: ["undo"], brief: "undo the last change to tracked time or tasks"),
            ]
        ),
        (
            "The store and other sources",
            [
                Entry(names: ["load", "retry"], brief: "load files, URLs, ActivityWatch, the store"),
                Entry(names: ["rules"], brief: "the category rules, applied; what is still uncategorised"),
                Entry(names: ["import", "imports"], brief: "put sources into the store; the imports it keeps"),
                Entry(names: ["export"], brief: "sessions or a view to a file; the store elsewhere"),
                Entry(names: ["save"], brief: "the last view as SVG, a one-file HTML report, text…"),
                Entry(names: ["store"], brief: "the store: where, its size, its sources, the retention"),
                Entry(names: ["forget"], brief: "imported sessions: before a day, an import, a device"),
                Entry(names: ["devices", "device"], brief: "the devices sessions came from; show one of them"),
                Entry(names: ["record"], brief: "record this desktop (usage-shell record)"),
            ]
        ),
        (
            "Settings and the shell",
            [
                Entry(names: ["set"], brief: "format, colour, width, zone, week start, retention…"),
                Entry(names: ["help", "clear", "quit"], brief: "this list; clear the screen; leave"),
            ]
        ),
    ]

    /// How a time typed without a date is placed, said once here and in COMMANDS.md.
    static let timeRule =
        "Times: HH:MM is today's (with --at, the latest not in the future), but in a command that names a session (@N) it is on that session's day; YYYY-MM-DDTHH:MM names the day."

    /// The listing's lines, before they are fitted to the width.
    static var lines: [String] {
        let column = 22
        var lines = ["Commands (help COMMAND shows one in full; Tab completes):"]
        for group in groups {
            lines.append(group.title)
            for entry in group.entries {
                let names = entry.names.joined(separator: ", ")
                let pad = max(2, column - names.count)
                lines.append("  " + names + String(repeating: " ", count: pad) + entry.brief)
            }
        }
        return lines + [timeRule]
    }

    /// The commands that run only from the command line: `help NAME` describes them.
    static let commandLineNames = ["record"]

    /// A command that runs only from the command line, as `help NAME` shows it; `recorderBackends`:
    /// the names `record --backend` takes (the executable's list; none known: NAME).
    static func commandLine(_ name: String, recorderBackends: [String]) -> [String]? {
        guard name == "record" else { return nil }
        let backends = recorderBackends.isEmpty ? "NAME" : recorderBackends.joined(separator: "|")
        return [
            "usage: usage-shell record [--once | --enable] [--idle TIME] [--device NAME] [--backend \(backends)] [--on-limit COMMAND] [--db PATH] [--tz ZONE]",
            "records this desktop into the store: one session per app focused without a break while you are not idle and the screen is not locked, written every 5 s; "
                + "window titles are never recorded. It runs from the command line (or as the systemd user unit), not at this prompt: "
                + "usage-shell record --once shows what it sees and whether a unit runs it; usage-shell record --enable sets the unit up for the next sessions.",
            "examples:",
            "  usage-shell record --once",
            "  usage-shell record --idle 5m --device laptop",
            "  systemctl --user enable --now usage-shell-record.service",
        ]
    }

    /// What `help import` and `help export` add: they also run from the command line.
    static let alsoFromTheCommandLine: [String: String] = [
        "import": "also from the command line, for cron: usage-shell import SOURCE... [--device NAME] [--data-tz ZONE] [--columns MAPPING] (exit status 0 when every source went in, 1 when not)",
        "export": "also from the command line: usage-shell export TARGET [--force] (exit status 0 when it was written, 1 when not)",
    ]
}
