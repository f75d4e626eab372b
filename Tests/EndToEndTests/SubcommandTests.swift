// SubcommandTests.swift — issue 44, item 3, through the built binary: import, export and record are argument-parser subcommands (the shell the default), listed by --help; the options every command uses stand before or after the subcommand, a subcommand's own after it; an option a subcommand has no use for is refused by argument-parser (issue 52, item 4), and one before the subcommand that is not the root's says where it goes; --device shows one device's sessions in the shell and export; help at the prompt knows record, import and export.
import Foundation
import Testing
import UsageRecorder

struct SubcommandTests {
    /// `usage-shell --help` listed no subcommands.
    @Test func item3HelpListsTheSubcommands() throws {
        let r = try Binary.run(["--help"], environment: ["COLUMNS": "1000"])
        #expect(r.status == 0)
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("SUBCOMMANDS: shell (default) The shell"), "\(text)")
        for name in ["import Put sources into the store", "export Write the store out", "record Record the desktop into the store"] {
            #expect(text.contains(name), "\(name)")
        }
        // The root's options are the ones every command uses; the shell's own are on its page
        // (issue 52, item 4), and every subcommand has its own.
        #expect(text.contains("OPTIONS: --db <path>") && !text.contains("-c <command>") && !text.contains("--format <format>"), "\(text)")
        let shell = try Binary.run(["shell", "--help"], environment: ["COLUMNS": "1000"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(shell.contains("--data-tz <zone>") && shell.contains("-c <command> Run a command (repeatable), then exit."), "\(shell)")
        for name in ["import", "export", "record"] {
            let help = try Binary.run([name, "--help"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: usage-shell \(name)"), "\(name)")
        }
    }

    /// `usage-shell --device phone import x.csv` said `Unknown option '--device'` while `--db`
    /// worked there: the options the commands share stand before or after the subcommand.
    @Test func item3SharedOptionsStandBeforeOrAfterTheSubcommand() throws {
        let w = try StoreWorkspace()
        let phone = try w.sessions("phone.json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "p")
        let laptop = try w.sessions("laptop.json", count: 2, first: "2026-02-23T10:00:00Z", prefix: "l")
        // The subcommand's own options follow it (issue 52, item 4).
        let before = try Binary.run(["--device", "phone", "--db", w.db, "import", phone, "--format", "json"])
        #expect(before.stderr == "")
        #expect(before.stdout.contains(#""device":"phone","added":3"#), "\(before.stdout)")
        let after = try Binary.run(["import", laptop, "--device", "laptop", "--db", w.db])
        #expect(after.stderr == "" && after.status == 0)
        let devices = try Binary.run(["--db", w.db, "-c", "devices"]).stdout
        #expect(devices.contains("  phone   3 sessions") && devices.contains("  laptop  2 sessions"), "\(devices)")
        // The shell and export show one device's sessions with it.
        let shown = try Binary.run(["--db", w.db, "--device", "lap", "--format", "json", "-c", "day 2026-02-23"])
        #expect(shown.stdout.hasPrefix(#"{"device":"laptop","day":"2026-02-23""#), "\(shown.stdout)")
        let file = w.url.appendingPathComponent("phone-out.json").path
        let exported = try Binary.run(["export", file, "--db", w.db, "--device", "phone"])
        #expect(exported.stdout == "exported 3 sessions to \(file) (json)\n", "\(exported.stderr)")
        let unknown = try Binary.run(["--db", w.db, "--device", "tablet", "-c", "show"])
        #expect(unknown.stderr == "error: --device: no device 'tablet' in the store (devices lists them)\n")
        #expect(unknown.status == 1)
    }

    /// An option the subcommand has no use for is refused in one line (it would seem to do
    /// something), as an unknown one is: status 64, nothing done. Since issue 52, item 4, by
    /// argument-parser itself: the subcommand does not declare it.
    @Test func item3AnOptionASubcommandHasNoUseForIsRefused() throws {
        let w = try StoreWorkspace()
        for (arguments, line) in [
            (["import", "x.json", "-c", "show"], "error: Unknown option '-c'"),
            (["record", "--format", "json"], "error: Unknown option '--format'"),
            (["record", "--once", "--width", "100"], "error: Unknown option '--width'. Did you mean '--idle'?"),
            (["export", "x.json", "--timeout", "5"], "error: Unknown option '--timeout'"),
            // Issue 52, item 4: the reading options are the shell's and import's, checked by the rules of `set`.
            (["import", "x.csv", "--width", "80"], "error: Unknown option '--width'"),
            (["import", "x.csv", "--data-tz", "Mars/Olympus"],
             "error: --data-tz must be auto or a time zone (an IANA name such as Europe/Paris, or UTC), not 'Mars/Olympus'"),
            (["import", "x.csv", "--columns", "where=From"], "error: --columns: unknown field 'where': the fields are id, app, category, start, end, duration"),
            (["export", "x.json", "--columns", "start=From"], "error: Unknown option '--columns'"),
            (["record", "--once", "--data-tz", "UTC"], "error: Unknown option '--data-tz'"),
        ] {
            let r = try Binary.run(["--db", w.db] + arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.hasPrefix(line + "\n"), "\(arguments): \(r.stderr)")
            #expect(r.stdout == "")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.url.path) == [], "nothing is made")
    }

    /// Issue 52, item 4: each subcommand declares the options it uses and the root only those of
    /// every command, so argument-parser refuses the others in its own words, with the
    /// subcommand's usage (the hand lists that said it are gone). An option before the subcommand
    /// that is not the root's makes argument-parser run the shell, which would read the
    /// subcommand's name as a file: that is refused, saying where the option goes.
    @Test func item4AnOptionASubcommandCannotUseIsRefusedByTheParser() throws {
        let w = try StoreWorkspace()
        let record = try Binary.run(["--db", w.db, "record", "--once", "--format", "json"])
        #expect(record.status == 64)
        #expect(record.stdout == "")
        #expect(record.stderr == """
            error: Unknown option '--format'
            Usage: usage-shell record [--idle <time>] [--backend <backend>] [--once] [--enable] [--disable] [--on-limit <command>] [--db <path>] [--tz <tz>] [--device <name>]
              See 'usage-shell record --help' for more information.

            """)
        let export = try Binary.run(["export", "x.json", "--no-history", "--db", w.db])
        #expect(export.status == 64)
        #expect(export.stderr == """
            error: Unknown option '--no-history'
            Usage: usage-shell export [<target> ...] [--force] [--db <path>] [--tz <tz>] [--device <name>] [--format <format>] [--raw-csv] [--day <day>] [--week-start <week-start>]
              See 'usage-shell export --help' for more information.

            """)
        // The value of an unknown option is no word of the target: the option is what is refused.
        let valued = try Binary.run(["--db", w.db, "export", "x.json", "--data-tz", "UTC"])
        #expect(valued.status == 64 && valued.stderr.hasPrefix("error: Unknown option '--data-tz'\n"), "\(valued.stderr)")
        // A target of two words that is no view is still refused, once the options are known.
        let twoFiles = try Binary.run(["--db", w.db, "export", "a.json", "b.json"])
        #expect(twoFiles.status == 64)
        #expect(twoFiles.stderr.hasPrefix("error: one target (quote paths with spaces), report FILE, or VIEW [ARG...] FILE\n"), "\(twoFiles.stderr)")
        for (arguments, name) in [
            (["--format", "json", "import", "x.json"], "import"), (["--day", "today", "import", "x.json"], "import"),
            (["--width", "100", "record", "--once"], "record"), (["--raw-csv", "export", "x.json"], "export"),
            (["-c", "show", "shell"], "shell"),
        ] {
            let r = try Binary.run(["--db", w.db] + arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stdout == "")
            #expect(r.stderr == """
                error: \(name): only --db, --tz and --device may stand before a subcommand, its own options after it (a file named \(name) is ./\(name))
                Usage: usage-shell shell [<options>] [<source> ...]
                  See 'usage-shell shell --help' for more information.

                """, "\(arguments)")
        }
        // The root's options stand before the subcommand, its own after it.
        let phone = try w.sessions("phone.json", count: 2, first: "2026-02-23T09:00:00Z", prefix: "p")
        let r = try Binary.run(["--tz", "UTC", "--device", "phone", "--db", w.db, "import", phone, "--format", "json", "--timeout", "5"])
        #expect(r.status == 0 && r.stderr == "", "\(r.stderr)")
        #expect(r.stdout.contains(#""device":"phone","added":2"#), "\(r.stdout)")
        // With no subcommand named, the shell's options stand anywhere.
        let shown = try Binary.run(["--format", "json", "--db", w.db, "-c", "devices"])
        #expect(shown.status == 0 && shown.stdout.contains("phone"), "\(shown.stderr)")
    }

    /// `help record` at the prompt said `unknown command 'record'`: help knows the commands that
    /// run from the command line, and says so of import and export.
    @Test func item3HelpAtThePromptKnowsRecordImportAndExport() throws {
        let r = try Binary.run(["--width", "1000", "-c", "help record", "-c", "help import", "-c", "help export"])
        #expect(r.stderr == "")
        #expect(r.stdout.hasPrefix("usage: usage-shell record [--once | --enable] [--idle TIME] [--device NAME] [--backend \(BackendChoice.names.joined(separator: "|"))] [--on-limit COMMAND] [--db PATH] [--tz ZONE]\n"))
        #expect(r.stdout.contains("It runs from the command line (or as the systemd user unit), not at this prompt"))
        #expect(r.stdout.contains("\nalso from the command line, for cron: usage-shell import SOURCE... [--device NAME] [--data-tz ZONE] [--columns MAPPING] (exit status 0 when every source went in, 1 when not)\n"))
        #expect(r.stdout.contains("\nalso from the command line: usage-shell export TARGET [--force] (exit status 0 when it was written, 1 when not)\n"))
    }

    /// `record` typed at the prompt said `unknown command 'record'` although `help` lists it and
    /// `help record` describes it (found by a reviewing helper).
    @Test func bugRecordAtThePromptWasAnUnknownCommand() throws {
        let r = try Binary.run(["-c", "record --once"])
        #expect(r.status == 1)
        #expect(r.stderr == "error: line 1: record runs from the command line, not at this prompt: usage-shell record … (help record says how)\n")
    }
}
