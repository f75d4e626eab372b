// SubcommandTests.swift — issue 44, item 3, through the built binary: import, export and record are argument-parser subcommands (the shell the default), listed by --help; the options they share stand before or after the subcommand; an option a subcommand has no use for is refused; --device shows one device's sessions in the shell and export; help at the prompt knows record, import and export.
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
        // The shell's own options are on the same page, and every subcommand has its own.
        #expect(text.contains("SHELL OPTIONS: --data-tz <zone>") && text.contains("-c <command> Run a command (repeatable), then exit."))
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
        let before = try Binary.run(["--device", "phone", "--db", w.db, "--format", "json", "import", phone])
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
    /// something), as an unknown one is: status 64, nothing done.
    @Test func item3AnOptionASubcommandHasNoUseForIsRefused() throws {
        let w = try StoreWorkspace()
        for (arguments, line) in [
            (["import", "x.json", "-c", "show"], "error: -c is an option of the shell, not of usage-shell import"),
            (["--day", "today", "import", "x.json"], "error: --day is not an option of usage-shell import"),
            (["record", "--format", "json"], "error: --format is not an option of usage-shell record"),
            (["--width", "100", "record", "--once"], "error: --width is an option of the shell, not of usage-shell record"),
            (["export", "x.json", "--timeout", "5"], "error: --timeout is not an option of usage-shell export"),
            // Issue 52, item 4: the reading options are the shell's and import's, checked by the rules of `set`.
            (["import", "x.csv", "--width", "80"], "error: --width is an option of the shell, not of usage-shell import"),
            (["import", "x.csv", "--data-tz", "Mars/Olympus"],
             "error: --data-tz must be auto or a time zone (an IANA name such as Europe/Paris, or UTC), not 'Mars/Olympus'"),
            (["import", "x.csv", "--columns", "where=From"], "error: --columns: unknown field 'where': the fields are id, app, category, start, end, duration"),
            (["export", "x.json", "--columns", "start=From"], "error: --columns is not an option of usage-shell export"),
            (["record", "--once", "--data-tz", "UTC"], "error: --data-tz is not an option of usage-shell record"),
        ] {
            let r = try Binary.run(["--db", w.db] + arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.hasPrefix(line + "\n"), "\(arguments): \(r.stderr)")
            #expect(r.stdout == "")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.url.path) == [], "nothing is made")
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
