// SharedOptions.swift — the options several commands take, declared once as argument-parser @OptionGroups — the store's (--db, --tz, --device: every command, read by the root so that they stand before or after the subcommand: `usage-shell --device phone import x.csv`, `usage-shell import x.csv --device phone`), --format (the shell, import, export), --data-tz and --columns (the shell, import: how a source is read), --timeout (the shell, import), --raw-csv, --day and --week-start (the shell, export) — each group declared by the subcommands that use it, so argument-parser refuses it elsewhere as unknown; checked by the settings table's own rules.
import ArgumentParser
import UsageCore
import UsageFormats
import UsageShell

extension OutputFormat: ExpressibleByArgument {}

/// The options of every command: which store, which zone, which device. The root command and
/// each subcommand declare this group: argument-parser reads it once, wherever it stands on the
/// line, and hands the same values to the subcommand. The other groups are the subcommands'
/// alone: they follow the subcommand.
struct SharedOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).",
            valueName: "path"), completion: .file())
    var db: String?

    @Option(help: "The time zone days are cut in (IANA name or UTC); default: $TZ, else the system's.")
    var tz: String?

    @Option(
        help: ArgumentHelp(
            "A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine's host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).",
            valueName: "name"))
    var device: String?

    func validate() throws {
        // The same rules, and the same words, as `set tz`.
        if let tz, let problem = Settings.problem("tz", tz) { throw ValidationError(problem.hasPrefix("tz") ? "--" + problem : problem) }
        if let device, device.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--device: a device's name cannot be empty") }
    }
}

/// `--format`: the commands that print a report (the shell, `import`, `export`).
struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: table (the default), json (one JSON document a command) or csv (RFC 4180, the JSON's fields).")
    var format: OutputFormat?
}

/// `--data-tz` and `--columns`: how a source is read, for the commands that read sources (the
/// shell, `import`); checked by the rules, and said in the words, of `set data-tz` and `set columns`.
struct ReadingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The zone a CSV's times without a UTC offset are read in (IANA name or UTC); default: the selected zone (--tz).",
            valueName: "zone"))
    var dataTz: String?

    @Option(
        help: ArgumentHelp(
            "Which CSV column holds which field, when its header's names do not say: FIELD=COLUMN pairs (fields: id, app, category, start, end, duration), e.g. app=Program,start=From,end=To.",
            valueName: "mapping"))
    var columns: String?

    func validate() throws {
        for (name, value) in [("data-tz", dataTz), ("columns", columns)] {
            guard let value, let problem = Settings.problem(name, value) else { continue }
            throw ValidationError(problem.hasPrefix(name) ? "--" + problem : problem)
        }
    }

    /// The zone `--data-tz` names (nil: none given, or `auto`).
    var zone: Zone? { dataTz.flatMap { Zone(identifier: $0) } }
    /// The mapping `--columns` gives (nil: none given, or `auto`).
    var mapping: ColumnMapping? { columns.flatMap { try? ColumnMapping(parsing: $0) } }
}

/// `--timeout`: the commands that load sources (the shell, `import`).
struct WaitOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "How long a load waits for a pipe, FIFO or HTTP server that sends nothing: seconds, or 2m, 1h (1 s to 24 h; default 30).",
        valueName: "seconds"))
    var timeout: String?

    func validate() throws {
        // The same rules, and the same words, as `set timeout`.
        if let timeout, let problem = Settings.problem("timeout", timeout) { throw ValidationError("--" + problem) }
    }
}

/// `--raw-csv`, `--day` and `--week-start`: the commands that show or write views (the shell, `export`).
struct ReportOptions: ParsableArguments {
    @Flag(help: "Write CSV cells as they are, without the ' that keeps a spreadsheet from running a cell as a formula.")
    var rawCsv = false

    @Option(
        parsing: .unconditional,
        help: "The day to select (the shell; export report FILE): YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N, monday…sunday.",
        completion: .list(DayQuery.words))
    var day: String?

    func validate() throws {
        if let day, DayQuery(day) == nil {
            // A slip from a day word is named; else the forms are listed.
            let suggesting = DayQuery.problemSuggesting(day)
            throw ValidationError(
                suggesting != DayQuery.problem(day) ? suggesting : suggesting + ": use YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N or a weekday")
        }
    }

    @Option(help: "The day a calendar week begins on (week, a RANGE's week, the timesheet, the calendar): monday (default) or sunday.")
    var weekStart: WeekStart = .monday
}
