// SharedOptions.swift — the options several commands take, declared once as argument-parser @OptionGroups — the store's (--db, --tz, --device: every command), --format (the shell, import, export), --data-tz and --columns (the shell, import: how a source is read), --timeout (the shell, import), --raw-csv and --day (the shell, export) — given before or after the subcommand (`usage-shell --device phone import x.csv`, `usage-shell import x.csv --device phone`), checked by the settings table's own rules, refused by a command that has no use for one.
import ArgumentParser
import UsageCore
import UsageFormats
import UsageShell

extension OutputFormat: ExpressibleByArgument {}

/// The options of every command: which store, which zone, which device. The root command and
/// each subcommand declare this group: argument-parser reads it once, wherever it stands on the
/// line, and hands the same values to the subcommand.
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

    var given: [String] { format == nil ? [] : ["--format"] }
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

    var given: [String] { [dataTz.map { _ in "--data-tz" }, columns.map { _ in "--columns" }].compactMap { $0 } }
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

    var given: [String] { timeout == nil ? [] : ["--timeout"] }
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

    var given: [String] { (rawCsv ? ["--raw-csv"] : []) + (day == nil ? [] : ["--day"]) + (weekStart == .monday ? [] : ["--week-start"]) }
}

/// What a subcommand says of the options given on its line that it has no use for (the root
/// reads every group wherever it stands, so they arrive): the shell's own, and the groups it
/// does not declare. Taken quietly, they would seem to do something.
func refuseUnused(
    _ root: UsageShellCommand, for command: String, format: Bool = false, wait: Bool = false, report: Bool = false, reading: Bool = false
) throws {
    if let option = root.shell.given.first { throw ValidationError("\(option) is an option of the shell, not of usage-shell \(command)") }
    let unused = (reading ? [] : root.reading.given) + (format ? [] : root.format.given) + (wait ? [] : root.wait.given) + (report ? [] : root.report.given)
    if let option = unused.first { throw ValidationError("\(option) is not an option of usage-shell \(command)") }
}
