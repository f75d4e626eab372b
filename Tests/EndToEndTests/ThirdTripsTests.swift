// ThirdTripsTests.swift — issue 51's items 6, 8 and 10 through the built binary (item 9, forget device, is in ImportsForgetTests, on both backends): a store in a folder that is not there, time errors that name what was typed, and the smaller trips.
import Foundation
import Testing

struct ThirdTripsTests {
    // MARK: 6. A store in a folder that is not there

    /// `--db /nonexistent/dir/x.sqlite import …` made `/nonexistent/dir` (mode 700) and the
    /// store in it. A store named in a folder that is not there is refused in one line, as
    /// sqlite3 refuses it, and nothing is made; the default store's folder is still made.
    @Test func item6DbInAFolderThatDoesNotExistIsRefused() throws {
        let w = try StoreWorkspace()
        let file = try w.sessions("a.json", count: 3)
        let db = w.url.appendingPathComponent("no/such/dir/x.sqlite").path
        let reason = "its folder '\(w.url.path)/no/such/dir' does not exist; nothing was made (make the folder first, or name a store in one that is there)"
        let line = "cannot use the store '\(db)': \(reason)"
        // The shell opens on the named store: its first look refuses it, before any command.
        let atPrompt = try Binary.run(["--db", db, "-c", "import \(file)"])
        #expect(atPrompt.stdout == "")
        #expect(atPrompt.stderr == "error: cannot load 'store': \(db): \(reason)\n")
        #expect(atPrompt.status == 1)
        let subcommand = try Binary.run(["--db", db, "import", file])
        #expect(subcommand.stdout == "")
        #expect(subcommand.stderr == "error: \(line)\n")
        #expect(subcommand.status == 1)
        let named = try Binary.run(["-c", "store"], environment: ["USAGE_SHELL_DB": db])
        #expect(named.stderr == "error: cannot load 'store': \(db): \(reason)\n")
        #expect(named.status == 1)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: w.url.path)) == ["a.json"], "nothing is made")
        // The default store's folder, under an XDG_DATA_HOME whose folders are not there yet, is made.
        let data = w.url.appendingPathComponent("fresh/data").path
        let standard = try Binary.run(["-c", "import \(file)"], environment: ["XDG_DATA_HOME": data])
        #expect(standard.stderr == "")
        #expect(standard.status == 0)
        let folder = try FileManager.default.attributesOfItem(atPath: data + "/usage-shell")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(FileManager.default.fileExists(atPath: data + "/usage-shell/usage.sqlite"))
    }

    // MARK: 8. Time errors name a day that was never typed

    /// `track Email 9:00 9:00` said `Sun 2026-11-29 09:00 is later than now`: it read the end as
    /// the next day's. An end not after the start says so, naming both times as typed; so does an
    /// end before the start whose next day's reading is later than now. The next day's is still
    /// taken where it is past (`track Late 23:30 0:45` of yesterday's night: dated here).
    @Test func item8TrackWithTheEndAtTheStartSaysTheEndIsNotAfterTheStart() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let base = ["--tz", here.zone, "--db", w.db]
        let r = try Binary.run(base + ["-c", "track Email 9:00 9:00", "-c", "track Email 12:00 11:00", "-c", "track Email 9:00-9:00"])
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                error: line 1: the end 09:00 is not after the start 09:00
                error: line 2: the end 11:00 is not after the start 12:00
                error: line 3: the end 09:00 is not after the start 09:00

                """)
        #expect(r.status == 1)
        let night = try Binary.run(base + ["-c", "track Late 2026-02-23T23:30 0:45"])
        #expect(night.stdout == "tracked Late Mon 2026-02-23 23:30–Tue 2026-02-24 00:45 (@1, 1h 15m)\nnew task 1 Late\n")
        #expect(night.status == 0)
    }

    /// `session edit @3 end 12:00` of a 13:00–17:15 session said it overlapped the next day's @4:
    /// 12:00 was read as the next day's. On a session that does not cross midnight, an end before
    /// the start is refused naming both times; one across midnight still takes the next day's.
    @Test func item8SessionEditEndBeforeTheStartNamesBothTimes() throws {
        let w = try StoreWorkspace()
        let here = Afternoon()
        let base = ["--tz", here.zone, "--db", w.db]
        let setUp = try Binary.run(
            base + ["-c", "track Acme 2026-02-23T13:00 17:15", "-c", "track Acme 2026-02-24T09:00 13:00", "-c", "track Late 2026-02-24T23:00 01:30"])
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let r = try Binary.run(base + ["-c", "session edit @1 end 12:00", "-c", "session edit @3 end 1:00", "-c", "session edit @1 end 16:00"])
        #expect(
            r.stdout == """
                changed @3 Late Tue 2026-02-24 23:00–Wed 2026-02-25 01:00 (2h)
                changed @1 Acme Mon 2026-02-23 13:00–16:00 (3h)

                """)
        #expect(r.stderr == "error: line 1: the end Mon 2026-02-23 12:00 is not after the start Mon 2026-02-23 13:00\n")
        #expect(r.status == 1)
    }

    // MARK: 10. Smaller

    /// `summary last wek` got no "did you mean", though `apps tpo 5` did. A range's word a slip
    /// away from one gets it, after `last` and alone.
    @Test func item10SummaryLastWekGetsADidYouMean() throws {
        let r = try Binary.run(["-c", "summary last wek", "-c", "summary wek", "-c", "apps top 3 last yaer"])
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                error: line 1: summary: 'wek' is not a number of days from 1 to 36525, week, month or year — did you mean 'week'? (usage: summary [last N|week|month|year|RANGE])
                error: line 2: summary: 'wek' is not a range (week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO) — did you mean 'week'? (usage: summary [last N|week|month|year|RANGE])
                error: line 3: apps: 'yaer' is not a number of days from 1 to 36525, week, month or year — did you mean 'year'? (usage: apps [top N] [category NAME] [last N|week|month|year|RANGE])

                """)
        #expect(r.status == 1)
    }

    /// `-f` of a binary file ran it line by line and printed kilobytes of escaped bytes. It is
    /// refused in one line before a line of it runs, as bash refuses one (a NUL byte in its
    /// first block); a text script still runs.
    @Test func item10DashFOfABinaryFileIsRefused() throws {
        for binary in ["/bin/true", Binary.url.path] {
            let r = try Binary.run(["-f", binary])
            #expect(r.stdout == "")
            #expect(r.stderr == "error: cannot run script '\(binary)': it is a binary file, not text (a script is one command a line)\n")
            #expect(r.status == 1)
        }
        let w = try StoreWorkspace()
        let script = try w.write("script.txt", "# a comment\nday 2026-02-23\n")
        let text = try Binary.run(["-f", script])
        #expect(text.stderr == "")
        #expect(text.status == 0)
    }

    /// `apps top 5` did not say how many apps it left out, though `show compact` and `summary`
    /// do. It says so under the rows, in the minutes that make them add up to the total.
    @Test func item10AppsTopSaysHowManyAppsItLeftOut() throws {
        let r = try Binary.run(["--width", "100", "-c", "apps top 5", "-c", "apps top 3 category Social", "-c", "apps"])
        #expect(r.stderr == "")
        #expect(r.stdout.contains("  5. Mail "))
        #expect(r.stdout.contains("\n  11 more apps 2h 28m\n  7h 32m total · 6h 22m screen time\n"), "\(r.stdout)")
        #expect(r.stdout.contains("\n  1 more app 2m\n  1h 5m in Social · 14% of the day\n"), "\(r.stdout)")
        #expect(r.stdout.components(separatedBy: " more app").count == 3, "the whole list leaves nothing out")
        let compact = try Binary.run(["--width", "100", "-c", "show compact"])
        #expect(compact.stdout.contains("11 more apps 2h 28m"), "\(compact.stdout)")
    }

    /// Counts printed two ways (`400000 sessions` in the banner, `4,500 sessions` elsewhere):
    /// every count of sessions has its thousands separated by commas.
    @Test func item10CountsPrintOneWay() throws {
        let w = try StoreWorkspace()
        let file = try w.sessions("big.json", count: 1200)
        let r = try Binary.run(
            ["--db", w.db, "--width", "200", "-c", "import \(file)", "-c", "store", "-c", "load \(file)", "-c", "forget before 2100-01-01 --yes"])
        #expect(r.stderr == "")
        #expect(r.stdout.hasPrefix("imported \(file): 1,200 added, 0 updated, 0 unchanged\nthe store holds 1,200 sessions: \(w.db)\n"), "\(r.stdout)")
        #expect(r.stdout.contains("sessions   1,200 from 40 apps, "), "\(r.stdout)")
        #expect(r.stdout.contains(": 1,200 sessions, last imported "), "\(r.stdout)")
        #expect(r.stdout.contains("\nloaded 1,200 sessions from \(file), "), "\(r.stdout)")
        #expect(r.stdout.contains("\nforgot 1,200 of 1,200 imported sessions (those that end before "), "\(r.stdout)")
    }

    /// `store` right after forgetting everything said `0 sessions from 30 apps, size 34.7 MB`:
    /// every app ever seen, and the file and its write-ahead log added. It counts the apps that
    /// still have sessions, and the size is the database's own (the file's once closed).
    @Test func item10StoreAfterForgettingEverythingSaysWhatIsStillUsed() throws {
        let w = try StoreWorkspace()
        let file = try w.sessions("big.json", count: 3000)
        #expect(try Binary.run(["--db", w.db, "import", file]).status == 0)
        let r = try Binary.run(["--db", w.db, "--width", "200", "-c", "forget before 2100-01-01 --yes", "-c", "store"])
        #expect(r.stderr == "")
        #expect(r.stdout.contains("\nsessions   0 from 0 apps\n"), "\(r.stdout)")
        let bytes = try FileManager.default.attributesOfItem(atPath: w.db)[.size] as! Int
        #expect(r.stdout.contains("\nsize       \(String(format: "%.1f", Double(bytes) / 1000)) kB\n"), "\(bytes): \(r.stdout)")
    }

    /// A right-to-left category name came out reordered (`1 · עברית session`) in SVG and HTML:
    /// a name written right to left is isolated (U+2068 … U+2069, as `<bdi>` does).
    @Test func item10ARightToLeftNameIsIsolatedInSVGAndHTML() throws {
        let w = try StoreWorkspace()
        let file = try w.write(
            "rtl.json",
            #"[{"session_id":"a","app_name":"Notes","category":"עברית","start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T09:30:00Z"}]"#)
        let svg = w.url.appendingPathComponent("day.svg").path
        let html = w.url.appendingPathComponent("day.html").path
        let r = try Binary.run([file, "-c", "apps", "-c", "save \(svg)", "-c", "save \(html)"])
        #expect(r.stderr == "")
        for path in [svg, html] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\u{2068}עברית\u{2069} · 1 session"), "\(path)")
            #expect(!text.contains("\u{2068}Notes"), "a left-to-right name is left as it is")
        }
    }

    /// A store that holds only tracked time opened on the bundled sample. It opens on the
    /// tracked time, as `load tracked` shows it.
    @Test func item10AStoreOfTrackedTimeAloneOpensOnIt() throws {
        let here = Afternoon()
        let w = try StoreWorkspace()
        // The default store, under XDG_DATA_HOME (not named).
        let data = ["XDG_DATA_HOME": w.url.path]
        let track = try Binary.run(["--tz", here.zone, "-c", "track Email 9:00 9:30"], environment: data)
        #expect(track.status == 0, "\(track.stderr)")
        let r = try Binary.run(["--tz", here.zone, "--format", "json", "-c", "apps"], environment: data)
        #expect(r.stderr == "")
        #expect(r.stdout.contains(#""name":"Email""#), "\(r.stdout)")
        #expect(!r.stdout.contains("Spotify"), "not the sample")
    }
}
