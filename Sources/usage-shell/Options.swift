// Options.swift — the command line as argument-parser reads it: SOURCE…, the options and flags with their help, and the checks of their values (the settings table's own rules).
import ArgumentParser
import UsageCore
import UsageData
import UsageRender
import UsageShell

extension OutputFormat: ExpressibleByArgument {}
extension ColorMode: ExpressibleByArgument {}
extension GlyphMode: ExpressibleByArgument {}
extension WeekStart: ExpressibleByArgument {}

@main
struct UsageShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage-shell",
        abstract: "Explore app-usage (screen time) data in a terminal.",
        discussion: """
            With -c or -f, runs those commands and exits; otherwise reads commands from standard \
            input, interactively when it is a terminal. Exit status: 0 when every command succeeded, \
            1 when any failed, 3 when none failed but 'limits check' found a crossed limit, 64 for a bad \
            command line. 'usage-shell import SOURCE...' puts sources into the store (see \
            'usage-shell import --help'); 'usage-shell export TARGET' writes it out (see \
            'usage-shell export --help').
            """,
        version: UsageShellVersion.string
    )

    @Argument(
        help: ArgumentHelp(
            "Data to load, merged when several: a file (sessions JSON, NDJSON, CSV, ActivityWatch or Timewarrior export), an http(s) URL, aw://HOST:PORT or activitywatch, - for standard input, store for the store; absent: the store named by --db or $USAGE_SHELL_DB (one that does not exist is an error for every command that reads it), else the default store when it holds sessions, else the bundled sample (also ':sample:').",
            valueName: "source"),
        completion: .file())
    var sources: [String] = []

    @Option(
        parsing: .unconditional,
        help: "The day to select: YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N, monday…sunday.",
        completion: .list(DayQuery.words))
    var day: String?

    @Option(help: "The time zone days are cut in (IANA name or UTC); default: $TZ, else the system's.")
    var tz: String?

    @Option(help: "Output format of commands: table, json or csv (RFC 4180, the JSON's fields).")
    var format: OutputFormat = .table

    @Flag(help: "Write CSV cells as they are, without the ' that keeps a spreadsheet from running a cell as a formula.")
    var rawCsv = false

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

    @Option(help: "Colour: auto (when stdout is a terminal, NO_COLOR unset and TERM not dumb), always, never, or a depth: 16, 256 or truecolor (auto and always take the depth COLORTERM and TERM announce).")
    var color: ColorMode = .auto

    @Option(help: "Chart glyphs: auto (Unicode when the locale is UTF-8), unicode or ascii.")
    var glyphs: GlyphMode = .auto

    @Flag(help: "Accessible output: charts become a title, a sentence and one line per data point (also ACCESSIBLE=1).")
    var accessible = false

    @Option(help: "Width of table output in terminal cells (20–1000); default: the terminal's, else $COLUMNS, else 80.")
    var width: Int?

    @Option(help: "The day a calendar week begins on (week, a RANGE's week, the timesheet, the calendar): monday (default) or sunday.")
    var weekStart: WeekStart = .monday

    @Option(
        name: .customShort("c"), help: ArgumentHelp("Run a command (repeatable), then exit.", valueName: "command"),
        completion: .list(CommandTable.all.map(\.name)))
    var commands: [String] = []

    @Option(
        name: .customShort("f"), help: ArgumentHelp("Run the commands of a script file, one per line, then exit.", valueName: "script"),
        completion: .file())
    var script: String?

    @Option(help: ArgumentHelp(
        "How long a load waits for a pipe, FIFO or HTTP server that sends nothing: seconds, or 2m, 1h (1 s to 24 h; default 30).",
        valueName: "seconds"))
    var timeout: String?

    @Option(help: ArgumentHelp(
        "The store: imported sessions (import) and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).",
        valueName: "path"), completion: .file())
    var db: String?

    @Flag(help: "Stop at the first command that fails.")
    var bail = false

    @Flag(help: "Keep no history of this interactive session (read none, write none).")
    var noHistory = false

    func validate() throws {
        // The same rules, and the same words, as `set tz`, `set width`, `set timeout`, `set data-tz` and `set columns`.
        for (name, value) in [
            ("tz", tz), ("width", width.map(String.init)), ("timeout", timeout), ("data-tz", dataTz), ("columns", columns),
        ] {
            guard let value, let problem = Settings.problem(name, value) else { continue }
            throw ValidationError(problem.hasPrefix(name) ? "--" + problem : problem)
        }
        if let day, DayQuery(day) == nil {
            // A slip from a day word is named; else the forms are listed.
            let suggesting = DayQuery.problemSuggesting(day)
            throw ValidationError(
                suggesting != DayQuery.problem(day) ? suggesting : suggesting + ": use YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N or a weekday")
        }
    }
}
