// NewcomerTests.swift — what a newcomer tripped on (issue 35), through the built binary: times typed without a date are today's whichever day is shown, a mistyped --db is one line and no sample, the default day is no tail, a CSV header that does not change on an empty day, a typo that would make a new task, and the smaller lines (a huge top N, an empty CSV, import of a folder, stop --at a minute ahead, a day word misspelt, the calendar's due digits, import --help, apps' <1m).
import Foundation
import Testing

/// A zone where the local time is now between 13:00 and 14:00, so that `9:00` has passed today
/// and a time a few minutes ahead is still today, whenever the tests run; with its local date.
struct Afternoon {
    let zone: String
    let offsetHours: Int

    init() {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        offsetHours = 13 - hour
        // IANA's Etc zones are signed the POSIX way: Etc/GMT-5 is five hours ahead of UTC.
        zone = offsetHours == 0 ? "UTC" : offsetHours > 0 ? "Etc/GMT-\(offsetHours)" : "Etc/GMT+\(-offsetHours)"
    }

    /// `Wed 2026-11-25`, the date there `minutes` from now.
    func date(inMinutes minutes: Int = 0) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offsetHours * 3600)
        formatter.dateFormat = "EEE yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(Double(minutes) * 60))
    }

    /// `13:42`, the clock there `minutes` from now.
    func clock(inMinutes minutes: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offsetHours * 3600)
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: Date().addingTimeInterval(Double(minutes) * 60))
    }
}

struct NewcomerTests {
    // MARK: 1. Times without a date are today's

    /// On the sample, `day last` then `track Email 9:00 9:30` tracked Mon 2026-02-23, months
    /// back, and `today` said `<1m`. A time without a date is today's, whichever day is shown
    /// (as in Timewarrior); the confirmation names the date; a date says otherwise (an end
    /// without one is on the start's day).
    @Test func bugTrackTimesWentToTheDayBeingBrowsed() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let environment = ["XDG_DATA_HOME": w.url.path]
        let r = try Binary.run(
            ["--tz", here.zone, "-c", "day last", "-c", "track Email 9:00 9:30", "-c", "today", "-c", "track Email 2026-02-23T10:00 10:30"],
            environment: environment)
        let today = here.date()
        #expect(r.stderr == "")
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                Monday, February 23, 2026
                7h 32m total · 6h 22m screen time
                tracked Email \(today) 09:00–09:30 (@1, 30m)
                new task 1 Email
                Today · \(today)
                tracked 30m · nothing running
                streak 1 day (longest 1 day)

                nothing due today or overdue

                Sessions today · 1 session · 30m
                  @1  09:00–09:30  30m  Email
                tracked Email Mon 2026-02-23 10:00–10:30 (@2, 30m)

                """)
        // `--at` times mean today too, on the day shown or not.
        let at = try Binary.run(["--tz", here.zone, "-c", "day 2026-02-20", "-c", "start Email --at 9:40", "-c", "stop --at 9:50"], environment: environment)
        #expect(at.stderr == "")
        #expect(at.stdout.hasSuffix("started Email at 09:40 (@3)\nstopped Email after 10m (@3, 09:40–09:50)\n"), "\(at.stdout)")
    }

    // MARK: 2. A store named explicitly that is not there

    /// `usage-shell --db /tmp/my.sqltie --format csv -c 'apps top 3'` printed the sample's apps,
    /// status 0, nothing on stderr: a cron job reported fake data. A store named explicitly
    /// (--db, USAGE_SHELL_DB) that does not exist is one line and status 1 for every command
    /// that reads it; nothing is made.
    @Test(arguments: [
        "apps top 3", "show", "day", "day 2026-02-23", "week", "insights", "check", "limits", "export x.json", "store", "status", "today",
        "tasks", "calendar", "categories", "task 1", "task done 1", "stop", "pause", "resume", "forget before 2026-01-01 --yes",
        "category delete Work --yes", "sites",
    ])
    func bugAMistypedDbShowedTheSample(command: String) throws {
        let w = try StoreWorkspace()
        let typo = w.url.appendingPathComponent("my.sqltie").path
        let line = "no store at '\(typo)' yet (import FILE, start TASK or task add NAME makes it)"
        let r = try Binary.run(["--db", typo, "--format", "csv", "-c", command])
        #expect(r.stdout == "")
        #expect(r.stderr == "error: line 1: \(line)\n")
        #expect(r.status == 1)
        let named = try Binary.run(["-c", command], environment: ["USAGE_SHELL_DB": typo])
        #expect(named.stdout == "")
        #expect(named.stderr == "error: line 1: \(line)\n")
        #expect(named.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.url.path) == [], "nothing is made")
    }

    /// The default store missing (no --db: `load store`, `usage-shell export`) advised
    /// "import something first: usage-shell import FILE", a named one "import FILE, start TASK
    /// or task add NAME makes it": one store, two answers. Both give the second now.
    @Test func bugTheDefaultStoreMissingGaveOtherAdviceThanANamedOne() throws {
        let w = try StoreWorkspace()
        let store = w.url.appendingPathComponent("usage-shell/usage.sqlite").path
        let advice = "there is no store there yet (import FILE, start TASK or task add NAME makes it)"
        let exported = try Binary.run(["export", w.url.appendingPathComponent("x.json").path], environment: ["XDG_DATA_HOME": w.url.path])
        #expect(exported.stderr == "error: cannot load 'store': \(store): \(advice)\n")
        #expect(exported.status == 1)
        let loaded = try Binary.run(["-c", "load store"], environment: ["XDG_DATA_HOME": w.url.path])
        #expect(loaded.stderr.hasPrefix("error: line 1: cannot load 'store': \(store): \(advice); "), "\(loaded.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.url.path) == [], "nothing is made")
    }

    /// Commands that write make the store named, as before, and the shell then shows it: the
    /// run goes on after the store was found missing (a batch run stops after a failed load).
    @Test func aWriteMakesTheNamedStoreAndItIsShownThen() throws {
        let w = try StoreWorkspace()
        let data = try w.write("d.json", StoreEndToEndTests.day)
        let r = try Binary.run(["--db", w.db, "-c", "apps", "-c", "import \(data)", "-c", "apps"], environment: ["COLUMNS": "1000"])
        #expect(r.status == 1)
        #expect(r.stderr == "error: line 1: no store at '\(w.db)' yet (import FILE, start TASK or task add NAME makes it)\n")
        #expect(
            r.stdout == """
                imported \(data): 2 added, 0 updated, 0 unchanged
                the store holds 2 sessions: \(w.db)
                Apps
                  1. Mail  ██████████████████████████████  Work · 1 session   30m  100%
                  30m total

                """)
        // Tracking makes one too; the store then shown holds no session: an empty day, not the sample.
        let other = w.url.appendingPathComponent("tracked.sqlite").path
        let tracked = try Binary.run(["--db", other, "--format", "json", "-c", "track Email 2026-02-23T09:00 2026-02-23T09:30", "-c", "day 2026-02-23"])
        #expect(tracked.stderr == "")
        #expect(tracked.status == 0)
        #expect(tracked.stdout.hasSuffix(#"{"day":"2026-02-23","time_zone":"UTC","total_seconds":0,"screen_time_seconds":0}"# + "\n"), "\(tracked.stdout)")
    }

    // MARK: 3. The default day

    /// On a month of generated sessions, `day` showed the last day with 1h 23m: only the
    /// sessions running past the last midnight. The default day is the last day on which a
    /// session starts, from a file and after `import` alike.
    @Test func bugTheDefaultDayCouldBeATail() throws {
        let w = try StoreWorkspace()
        let data = try w.write(
            "tail.json",
            #"""
            [{"session_id":"a","app_name":"Mail","category":"Work","start_timestamp":"2026-02-22T10:00:00Z","end_timestamp":"2026-02-22T11:00:00Z"},
             {"session_id":"b","app_name":"Safari","category":"Web","start_timestamp":"2026-02-23T23:30:00Z","end_timestamp":"2026-02-24T00:20:00Z"}]
            """#)
        let expected = #"{"day":"2026-02-23","time_zone":"UTC","total_seconds":1800,"screen_time_seconds":1800}"# + "\n"
        let file = try Binary.run([data, "--format", "json", "-c", "day"])
        #expect(file.stdout == expected)
        #expect(file.stderr == "")
        #expect(try Binary.run(["--db", w.db, "import", data]).status == 0, "the import the test goes on from")
        let store = try Binary.run(["--db", w.db, "--format", "json", "-c", "day"])
        #expect(store.stdout == expected)
        #expect(store.stderr == "")
        // At the prompt's state after an import into the store shown: the new last start.
        let later = try w.write(
            "later.json",
            #"[{"session_id":"c","app_name":"Notes","category":"Work","start_timestamp":"2026-02-25T08:00:00Z","end_timestamp":"2026-02-25T08:10:00Z"}]"#)
        let imported = try Binary.run(["--db", w.db, "--format", "json", "-c", "import \(later)", "-c", "day"])
        #expect(imported.stdout.hasSuffix(#"{"day":"2026-02-25","time_zone":"UTC","total_seconds":600,"screen_time_seconds":600}"# + "\n"))
    }

    // MARK: 4. A CSV header that does not change

    /// `--day yesterday --format csv -c 'apps top 3'` on a day without data printed
    /// `day,time_zone,total_seconds`, which broke `>> log.csv`. Every view's CSV has its header
    /// with rows or without; where a view's columns name data (an hour's apps, a week's
    /// categories), the empty day's header is the start of the full one.
    @Test(arguments: [
        ("apps top 3", true), ("apps", true), ("apps category Productivity", true), ("show", true), ("chart category", true),
        ("app Safari", true), ("day", true), ("limits", true), ("rules", true), ("tasks", true), ("today", true), ("categories", true),
        ("chart hourly", false), ("hour 9", false), ("week", false), ("days 3", false),
    ])
    func bugTheCSVHeaderChangedOnAnEmptyDay(command: String, fixed: Bool) throws {
        let full = try Binary.run(["--day", "2026-02-23", "--format", "csv", "-c", command])
        let empty = try Binary.run(["--day", "2025-01-01", "--format", "csv", "-c", command])
        #expect(full.status == 0 && empty.status == 0, "\(full.stderr)\(empty.stderr)")
        // Records end with CRLF (one Character in Swift).
        let fullHeader = full.stdout.components(separatedBy: "\r\n")[0]
        let emptyHeader = empty.stdout.components(separatedBy: "\r\n")[0]
        if fixed {
            #expect(emptyHeader == fullHeader)
        } else {
            #expect(fullHeader.hasPrefix(emptyHeader), "\(emptyHeader) / \(fullHeader)")
        }
        if command == "apps top 3" {
            #expect(empty.stdout == "day,time_zone,total_seconds,name,category,seconds,sessions,share\r\n")
        }
    }

    /// The store's sources, before any import and after one.
    @Test func theStoresCSVHeaderIsTheSameBeforeAnyImport() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "-c", "task add Write"]).status == 0, "a store with no source")
        let before = try Binary.run(["--db", w.db, "--format", "csv", "-c", "store"])
        #expect(try Binary.run(["--db", w.db, "import", w.write("d.json", StoreEndToEndTests.day)]).status == 0)
        let after = try Binary.run(["--db", w.db, "--format", "csv", "-c", "store"])
        let header = "path,bytes,read_only,sessions,apps,first_day,last_day,retention_days,source,shown,device,sources.sessions,imports,first_import,last_import"
        #expect(before.stdout.components(separatedBy: "\r\n").first == header)
        #expect(before.stdout.components(separatedBy: "\r\n").count == 2, "the header alone: no source yet: \(before.stdout)")
        #expect(after.stdout.components(separatedBy: "\r\n").first == header)
    }

    // MARK: 6. A typo makes a new task

    /// `start Emial` with a task `Email` made task 2 `Emial`. A new name a slip away from an
    /// existing task is refused in a batch run, with the suggestion and the form that goes ahead.
    @Test func bugATypoMadeANewTask() throws {
        let w = try StoreWorkspace()
        #expect(try Binary.run(["--db", w.db, "-c", "task add Email"]).status == 0)
        let start = try Binary.run(["--db", w.db, "-c", "start Emial"])
        #expect(start.stdout == "")
        #expect(start.stderr == "error: line 1: no task 'Emial' — did you mean 'Email'? (start Emial --new makes a new one)\n")
        #expect(start.status == 1)
        let track = try Binary.run(["--db", w.db, "-c", "track Emial 2026-02-23T09:00 2026-02-23T09:30"])
        #expect(track.stderr == "error: line 1: no task 'Emial' — did you mean 'Email'? (track Emial 2026-02-23T09:00 2026-02-23T09:30 --new makes a new one)\n")
        #expect(track.status == 1)
        let tasks = try Binary.run(["--db", w.db, "--format", "csv", "-c", "tasks all"])
        #expect(tasks.stdout.components(separatedBy: "\r\n").count == 3, "the header and Email: \(tasks.stdout)")
        // `--new` goes ahead; a name far from any is made without a word; an existing one is used.
        let made = try Binary.run(["--db", w.db, "-c", "track Emial 2026-02-23T09:00 2026-02-23T09:30 --new", "-c", "track Write 2026-02-23T10:00 2026-02-23T10:30", "-c", "track email 2026-02-23T11:00 2026-02-23T11:30"])
        #expect(made.stderr == "")
        #expect(
            made.stdout == """
                tracked Emial Mon 2026-02-23 09:00–09:30 (@1, 30m)
                new task 2 Emial
                tracked Write Mon 2026-02-23 10:00–10:30 (@2, 30m)
                new task 3 Write
                tracked Email Mon 2026-02-23 11:00–11:30 (@3, 30m)

                """)
    }

    // MARK: 7. The smaller lines

    @Test func bugAHugeTopSaidNotAPositiveNumber() throws {
        let r = try Binary.run(["-c", "apps top 99999999999999999999", "-c", "apps top 1000001", "-c", "apps top 0"])
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                error: line 1: apps: '99999999999999999999' is too large: N is at most 1000000 (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])
                error: line 2: apps: '1000001' is too large: N is at most 1000000 (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])
                error: line 3: apps: '0' is not a positive number (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])

                """)
        #expect(r.status == 1)
    }

    @Test func bugAnEmptyCSVSaidExpectedAJSONArray() throws {
        let w = try StoreWorkspace()
        let empty = try w.write("empty.csv", "")
        let r = try Binary.run([empty, "-c", "day"])
        #expect(r.stdout == "")
        #expect(r.stderr == "error: cannot load '\(empty)': no data: the input is empty\n")
        #expect(r.status == 1)
    }

    /// `usage-shell import DIR` said `error: line 1: … 'retry' tries again`: a one-off command
    /// has no lines and no `retry` (nor has `import` at the prompt: `retry` is `load`'s).
    @Test func bugImportOfAFolderSpokeOfLineOneAndRetry() throws {
        let w = try StoreWorkspace()
        let folder = w.url.appendingPathComponent("exports").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = try Binary.run(["--db", w.db, "import", folder])
        #expect(r.stdout == "")
        #expect(r.stderr == "error: cannot load '\(folder)': it is a directory; nothing was imported\n")
        #expect(r.status == 1)
        let shell = try Binary.run(["--db", w.db, "-c", "import \(folder)"])
        #expect(shell.stderr == "error: line 1: cannot load '\(folder)': it is a directory; nothing was imported\n")
        #expect(!FileManager.default.fileExists(atPath: w.db))
    }

    /// `stop --at` a minute ahead was taken as yesterday's time, and the refusal said the end
    /// was not after the start: it is later than now, and that is what is said.
    @Test func bugStopAtAMinuteAheadSaidTheEndWasNotAfterTheStart() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let ahead = here.clock(inMinutes: 2)
        let r = try Binary.run(["--db", w.db, "--tz", here.zone, "-c", "start Write", "-c", "stop --at \(ahead)", "-c", "status"])
        #expect(r.stderr == "error: line 2: \(ahead) is later than now\n")
        #expect(r.status == 1)
        #expect(r.stdout.contains("\n● Write 0:0"), "still running: \(r.stdout)")
    }

    @Test func bugDayYestredayGotNoSuggestion() throws {
        let r = try Binary.run(["-c", "day yestreday", "-c", "app spotfy", "-c", "forget before yestreday --yes", "-c", "task add X due tomorow"])
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                error: line 1: day: 'yestreday' is not a day — did you mean 'yesterday'? (usage: day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday])
                error: line 2: no app named 'spotfy' — did you mean 'Spotify'?
                error: line 3: forget: 'yestreday' is not a day — did you mean 'yesterday'? (usage: forget before DATE [--yes], forget older-than AGE [--yes], forget import N [--yes], forget device NAME [--yes])
                error: line 4: task: 'tomorow' is not a day — did you mean 'tomorrow'? (usage: task add NAME [due DAY] [priority high|medium|low] [category CATEGORY] [estimate ESTIMATE], task done TASK, task undone TASK, task edit TASK name|due|priority|category|estimate VALUE, task delete TASK [--with-time] [--yes], task TASK)

                """)
        let option = try Binary.run(["--day", "yestreday", "-c", "day"])
        #expect(option.stderr.hasPrefix("error: 'yestreday' is not a day — did you mean 'yesterday'?\n"))
        #expect(option.status == 64)
    }

    /// In `calendar`, a day's count of tasks due sat against the next day's date (`1 28`).
    @Test func bugADueDigitSatAgainstTheNextDate() throws {
        let w = try StoreWorkspace()
        let setup = try Binary.run(["--db", w.db, "-c", "task add A due 2026-02-27", "-c", "task add B due 2026-02-20", "-c", "task add C due 2026-02-20"])
        #expect(setup.status == 0)
        let r = try Binary.run(["--db", w.db, "--day", "2026-02-10", "--width", "80", "-c", "calendar 2026-02", "-c", "set width 40", "-c", "calendar 2026-02"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains(" 16        17        18        19        20     2  21        22"), "\(r.stdout)")
        #expect(lines.contains(" 23        24        25        26        27     1  28"))
        #expect(lines.contains("░ <1h  ▒ 1–3h  ▓ 3–6h  █ 6h+  · a digit: tasks due"))
        // Narrower than a blank can follow: a mark, not a digit.
        #expect(lines.contains(" 16   17   18   19   20 ! 21   22"))
        #expect(lines.contains(" 23   24   25   26   27 ! 28"))
        #expect(lines.contains("░ <1h ▒ 1–3h ▓ 3–6h █ 6h+ · !: tasks due"))
    }

    @Test func bugImportHelpNamedFewerFormatsThanItTakes() throws {
        let r = try Binary.run(["import", "--help"], environment: ["COLUMNS": "1000"])
        #expect(r.status == 0)
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("a file (sessions JSON, NDJSON, CSV, ActivityWatch or Timewarrior export), an http(s) URL, aw://HOST:PORT or activitywatch, - for standard input, :sample: for the bundled sample."), "\(text)")
        #expect(text.contains("--format <format> Output format: table (the default), json (one JSON document a command) or csv (RFC 4180, the JSON's fields). (values: table, json, csv)"))
        let csv = try Binary.run(["import", ":sample:", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.hasPrefix("store,forgotten,sessions,source,added,updated,unchanged,"))
    }

    /// Three sessions of 20 s: `apps` gave one of them `1m` (the rows added up to the total's
    /// minute), where the tracker and every other line show 20 s as `<1m`.
    @Test func bugAppsShowedAMinuteWhereTheTrackerShowedLessThanOne() throws {
        let w = try StoreWorkspace()
        let data = try w.write(
            "short.json",
            #"""
            [{"session_id":"a","app_name":"Mail","category":"Work","start_timestamp":"2026-02-22T10:00:00Z","end_timestamp":"2026-02-22T10:00:20Z"},
             {"session_id":"b","app_name":"Safari","category":"Web","start_timestamp":"2026-02-22T11:00:00Z","end_timestamp":"2026-02-22T11:00:20Z"},
             {"session_id":"c","app_name":"Notes","category":"Web","start_timestamp":"2026-02-22T12:00:00Z","end_timestamp":"2026-02-22T12:00:20Z"}]
            """#)
        let r = try Binary.run([data, "--width", "80", "-c", "apps"])
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                Apps
                  1. Mail    ██████████████████████████████  Work · 1 session   <1m  33%
                  2. Notes   ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓  Web · 1 session    <1m  33%
                  3. Safari  ▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒  Web · 1 session    <1m  33%
                  1m total

                """)
    }
}
