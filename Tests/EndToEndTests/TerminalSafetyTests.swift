// TerminalSafetyTests.swift — docs/DATA.md §6 through the built binary: every command of the command table (the list comes from CommandTable.all), on its data path and its error paths, with colour off, colour on, JSON and accessible, on hostile names, ids, file names and arguments (TerminalSafetyMaterial.swift).
import Foundation
import Testing
import UsageRender
import UsageShell

// MARK: - Every command

/// One representative use of a command: lines run in order in one process.
struct SafetyCase: Sendable, CustomTestStringConvertible {
    /// The command of the table this case is for.
    let command: String
    let lines: [String]
    /// The exit status: 0, 1 (a line failed) or 3 (`limits check` found a crossed limit).
    let status: Int32
    /// Text that must appear (sanitised placeholders) on stdout or stderr of the table runs: the
    /// data path was reached, or the error echoed the hostile argument.
    let shows: [String]
    /// Strings the JSON documents on stdout must hold exactly (raw placeholders).
    let json: [String]
    let setup: Setup
    /// Whether the case reaches what the command shows (by default: when it does not fail).
    let reachesData: Bool

    init(
        _ command: String, _ lines: [String], status: Int32 = 0, dataPath: Bool? = nil, shows: [String] = [], json: [String] = [],
        setup: Setup = .plain
    ) {
        self.command = command
        self.reachesData = dataPath ?? (status != 1)
        self.lines = lines
        self.status = status
        self.shows = shows
        self.json = json
        self.setup = setup
    }

    var testDescription: String { "\(command): \(lines.joined(separator: " ; ").debugDescription)" }
}

/// How a run prints.
enum SafetyMode: String, CaseIterable, Sendable {
    case colourNever, colourAlways, json, accessible, csv

    var arguments: [String] {
        switch self {
        case .colourNever: return ["--color", "never"]
        case .colourAlways: return ["--color", "always"]
        // Colour on, so that nothing of the theme may leak into JSON either.
        case .json: return ["--format", "json", "--color", "always"]
        // Charts as sentences, ASCII glyphs: other renderers of the same names.
        case .accessible: return ["--accessible", "--glyphs", "ascii", "--color", "never"]
        // CSV printed shows controls as escapes, as tables do (only --raw-csv to a file is exact).
        case .csv: return ["--format", "csv", "--color", "always"]
        }
    }
}

let allApps = Hostile.apps.map { "{\($0.key)}" }
let dayCategories = ["{social}", "{ignore}", "{bell}", "{iso}", "{c1cat}", "{ruled}"]

/// Every command, its data path and its error paths. `everyCommandOfTheTableHasCases` keeps
/// this list complete: a new command fails it until it has cases here.
let safetyCases: [SafetyCase] = [
    // show
    SafetyCase("show", ["show"], shows: ["{title}", "{social}", "{rlo}", "{ruled}"], json: allApps + dayCategories),
    SafetyCase("show", ["show {evil}"], status: 1, shows: ["show: '{evil}' is not full or compact"]),
    SafetyCase("show", ["show compact"]),
    // day
    SafetyCase("day", ["day"], shows: ["Monday, February 23, 2026"]),
    SafetyCase("day", ["day 2026-02-22"], shows: ["Sunday, February 22, 2026"], json: ["2026-02-22"]),
    SafetyCase("day", ["day {evilday}"], status: 1, shows: ["'{evilday}' is not a day"]),
    // chart
    SafetyCase("chart", ["chart category"], shows: ["{social}", "{iso}", "{ruled}"], json: dayCategories),
    SafetyCase("chart", ["chart hourly"], shows: ["{uncat}"], json: ["{title}", "{clear}", "{c1}"]),
    SafetyCase("chart", ["chart hourly by category"], shows: ["{social}"], json: ["{social}", "{iso}"]),
    SafetyCase("chart", ["chart {evil}"], status: 1, shows: ["'{evil}' is not a chart"]),
    SafetyCase("chart", ["chart hourly by {evil}"], status: 1, shows: ["'{evil}' is not app or category"]),
    // apps
    // Long names are cut to their column (`Link\e]8;;http://x\…`): the short ones show whole.
    SafetyCase("apps", ["apps"], shows: allApps.filter { $0 != "{tab}" && $0 != "{link}" } + ["Tab\\tNew\\nLine"], json: allApps),
    SafetyCase("apps", ["apps top 3"], json: ["{uncat}"]),
    SafetyCase("apps", ["apps category {social}"], shows: ["Apps in {social}", "{title}", "Tab\\tNew\\nLine"], json: ["{social}", "{title}", "{tab}"]),
    SafetyCase("apps", ["apps category soc"], shows: ["Apps in {social}"], json: ["{social}"]),
    SafetyCase("apps", ["apps category {c1cat}"], shows: ["{rlo}"], json: ["{c1cat}", "{rlo}"]),
    SafetyCase("apps", ["apps category {evil}"], status: 1, shows: ["no category named '{evil}'"]),
    SafetyCase("apps", ["apps top {evil}"], status: 1, shows: ["'{evil}' is not a positive number"]),
    SafetyCase("apps", ["apps {evil} 1"], status: 1, shows: ["'{evil}' is not a range"]),
    SafetyCase("apps", ["apps top"], status: 1, shows: ["'top' needs a value"]),
] + Hostile.apps.map { app in
    SafetyCase("app", ["app {\(app.key)}"], shows: ["{\(app.key)} · "], json: ["{\(app.key)}"])
} + [
    SafetyCase("app", ["app {evil}"], status: 1, shows: ["no app named '{evil}'"]),
    SafetyCase("app", ["app {nearclear}"], status: 1, shows: ["no app named '{nearclear}' — did you mean '{clear}'?"]),
    SafetyCase("app", ["app {esc}"], status: 1, shows: ["'{esc}' could be the app", "'{clear}'", "'{blink}'"]),
    SafetyCase("app", ["app"], status: 1, shows: ["app: which app?"]),
    // hour
    SafetyCase("hour", ["hour 8"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("hour", ["hour 11"], shows: ["{c1}"], json: ["{c1}"]),
    SafetyCase("hour", ["hour {evil}"], status: 1, shows: ["'{evil}' is not an hour from 0 to 23"]),
    // week
    SafetyCase("week", ["week"], shows: ["{social}"], json: ["{social}", "{ignore}"]),
    SafetyCase("week", ["week prev"], shows: ["Week · Mon 16 – Sun 22 Feb 2026"]),
    SafetyCase("week", ["week {evil}"], status: 1, shows: ["'{evil}' is not prev or next"]),
    // days
    SafetyCase("days", ["days"], shows: ["{social}"], json: ["{social}", "{ignore}"]),
    SafetyCase("days", ["days 3"], json: ["{ignore}"]),
    SafetyCase("days", ["days {evil}"], status: 1, shows: ["'{evil}' is not a number of days from 1 to 31"]),
    // insights
    SafetyCase("insights", ["insights"], shows: ["{clear}"], json: ["{clear}"]),
    SafetyCase("insights", ["insights {evil}"], status: 1, shows: ["insights: takes no arguments"]),
    // check
    SafetyCase("check", ["check"], shows: ["source: {data}", "{badid0}", "{badid1}", "{badid2}"], json: ["{data}", "{badid0}", "{badid1}"]),
    SafetyCase("check", ["load {data} {data2}", "check"], shows: ["{data}", "{data2}"], json: ["{data}", "{data2}"]),
    SafetyCase("check", ["check {evil}"], status: 1, shows: ["is not fix (usage: check [fix [--yes]])"]),
    // set
    SafetyCase("set", ["set"], shows: ["tz"]),
    SafetyCase("set", ["set tz UTC", "day"], shows: ["Monday, February 23, 2026"]),
    SafetyCase("set", ["set tz {evil}"], status: 1, shows: ["{evil}"]),
    SafetyCase("set", ["set {evil} on"], status: 1, shows: ["{evil}"]),
    SafetyCase("set", ["set color {evil}"], status: 1, shows: ["{evil}"]),
    SafetyCase("set", ["set width {evil}"], status: 1, shows: ["{evil}"]),
    // load
    SafetyCase("load", ["load {data}"], shows: ["loaded 14 sessions from {data}"], json: ["{data}"]),
    SafetyCase("load", ["load"], shows: ["from {data}"], json: ["{data}"]),
    SafetyCase("load", ["load {data} {data2}"], shows: ["from {data} + {data2}"], json: ["{data} + {data2}"]),
    SafetyCase("load", ["load {missing}"], status: 1, shows: ["cannot load '{missing}': no such file"]),
    SafetyCase("load", ["load {dir}"], status: 1, shows: ["cannot load '{dir}'"]),
    SafetyCase("load", ["load {invalid}"], status: 1, shows: ["cannot load '{invalid}'"]),
    SafetyCase("load", ["load {data} {data}"], status: 1, shows: ["'{data}' is given twice"]),
    SafetyCase("load", ["load {missing}", "show"], status: 1, shows: ["'{missing}'"]),
    // retry: fails on a missing file, then loads it once `export` has written it
    SafetyCase("retry", ["load {out}", "export {out}", "retry"], status: 1, dataPath: true, shows: ["cannot load '{out}'", "from {out}"], json: ["{out}"]),
    SafetyCase("retry", ["load {missing}", "retry"], status: 1, shows: ["cannot load '{missing}'"]),
    SafetyCase("retry", ["retry {evil}"], status: 1, shows: ["retry: takes no arguments"]),
    // rules
    SafetyCase("rules", ["rules"], shows: ["{rulesfile}", "{rulepattern} → {ruled}", "{uncat}"], json: ["{rulesfile}", "{rulepattern}", "{ruled}", "{uncat}"]),
    SafetyCase("rules", ["rules"], status: 1, shows: ["'{badpattern}' is not a regular expression"], setup: .badRules),
    SafetyCase("rules", ["rules {evil}"], status: 1, shows: ["rules: takes no arguments"]),
    // export
    SafetyCase("export", ["export {out}"], shows: ["to {out}"], json: ["{out}"]),
    SafetyCase("export", ["export report {outcsv}"], shows: ["to {outcsv}"], json: ["{outcsv}"]),
    SafetyCase("export", ["export apps top 3 {outcsv}"], shows: ["to {outcsv}"], json: ["{outcsv}"]),
    SafetyCase("export", ["export {noext}"], status: 1, shows: ["cannot tell the format of '{noext}'"]),
    SafetyCase("export", ["export {exists}"], status: 1, shows: ["'{exists}' already exists"]),
    SafetyCase("export", ["export {nowhere}"], status: 1, shows: ["cannot write '{nowhere}'"]),
    // save: the last view, its hostile names into the file (never the terminal), the path said safely
    SafetyCase("save", ["show", "save {outsvg}"], shows: ["to {outsvg}"], json: ["{outsvg}"]),
    SafetyCase("save", ["summary week", "save {outhtml}"], shows: ["to {outhtml}"], json: ["{outhtml}"]),
    SafetyCase("save", ["save {outsvg}"], status: 1, shows: ["nothing to save yet"]),
    SafetyCase("save", ["show", "save {noext}"], status: 1, shows: ["cannot tell the format of '{noext}'"]),
    SafetyCase("save", ["show", "save {exists}"], status: 1, shows: ["'{exists}' already exists"]),
    SafetyCase("save", ["show", "save {nowhere}"], status: 1, shows: ["cannot write '{nowhere}'"]),
    // limit
    SafetyCase("limit", ["limit {title} 30m"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("limit", ["limit category {social} 1h"], shows: ["{social}"], json: ["{social}"]),
    SafetyCase("limit", ["limit {rlo} 1m", "limit {rlo} off", "limit {tab} 2h"], shows: ["{tab}"], json: ["{rlo}", "{tab}"]),
    SafetyCase("limit", ["limit {evil} 30m"], status: 1, shows: ["no app named '{evil}'"]),
    SafetyCase("limit", ["limit {title} {evil}"], status: 1, shows: ["'{evil}' is not a duration"]),
    SafetyCase("limit", ["limit {title}"], status: 1, shows: ["for the app '{title}'?"]),
    SafetyCase("limit", ["limit {title} off"], status: 1, shows: ["there is no limit on the app '{title}'"]),
    // limits
    SafetyCase("limits", ["limit {title} 1m", "limit category {ignore} 1h", "limits"], shows: ["{title}", "{ignore}"], json: ["{title}", "{ignore}"]),
    SafetyCase("limits", ["limit {title} 1m", "limit category {social} 1m", "limits check"], status: 3, shows: ["{title}", "{social}"], json: ["{title}", "{social}"]),
    SafetyCase("limits", ["limits {evil}"], status: 1, shows: ["'{evil}' is not check"]),
    SafetyCase("limits", ["limits"], status: 0, shows: ["the limits file '{limitsfile}' is not valid"], setup: .corruptLimits),
    // import, store, forget: hostile names and paths go into SQLite and come back exactly
    SafetyCase("import", ["import {data}"], shows: ["imported {data}"], json: ["{data}"]),
    SafetyCase("import", ["import {evil}"], status: 1, shows: ["cannot load '{evil}'"]),
    SafetyCase("store", ["import {data}", "store"], shows: ["{data}"], json: ["{data}"]),
    SafetyCase("store", ["import {data}", "load store", "show"], shows: ["{title}", "{social}", "{rlo}", "{ruled}"], json: allApps + dayCategories),
    SafetyCase("store", ["import {data}", "load store", "app {title}"], shows: ["{title} · "], json: ["{title}"]),
    SafetyCase("store", ["store {evil}"], status: 1, shows: ["store: takes no arguments"]),
    SafetyCase("import", ["import {data} --device {title}", "devices"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("devices", ["import {data} --device {title}", "devices"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("devices", ["devices {evil}"], status: 1, shows: ["devices: takes no arguments"]),
    SafetyCase("device", ["import {data} --device {title}", "device {title}", "load store", "show"], shows: ["device {title}", "{social}"], json: ["{title}"]),
    SafetyCase("device", ["import {data} --device {title}", "device {evil}"], status: 1, shows: ["no device '{evil}'"]),
    SafetyCase("forget", ["import {data}", "forget before 2026-03-01 --yes"], shows: ["forgot"]),
    SafetyCase("imports", ["import {data} --device {title}", "imports"], shows: ["{data} as {title}"], json: ["{data}", "{title}"]),
    SafetyCase("imports", ["imports {evil}"], status: 1, shows: ["'{evil}' is not all"]),
    SafetyCase("forget", ["import {data} --device {title}", "forget import 1 --yes"], shows: ["forgot import #1", "{data} as {title}"]),
    SafetyCase("forget", ["import {data} --device {title}", "forget device {title} --yes"], shows: ["forgot device {title}"]),
    SafetyCase("forget", ["import {data}", "forget before {evilday}"], status: 1, shows: ["'{evilday}' is not a day"]),
    SafetyCase("forget", ["import {data}", "forget before 2026-03-01"], status: 1, shows: ["forget before 2026-03-01 --yes"]),
    // tasks, categories and the stopwatch: hostile task and category names go into SQLite and come back sanitised
    SafetyCase("task", ["task add {title} category {social} due 2026-03-01 estimate 1h", "task {title}"], shows: ["{title}", "{social}"], json: ["{title}", "{social}"]),
    SafetyCase("task", ["task {evil}"], status: 1, shows: ["no task '{evil}'"]),
    SafetyCase("tasks", ["task add {title} category {social}", "tasks"], shows: ["{title}", "{social}"], json: ["{title}", "{social}"]),
    SafetyCase("tasks", ["tasks category {evil}"], shows: ["Tasks in {evil}"]),
    SafetyCase("tasks", ["tasks {evil}"], status: 1, shows: ["'{evil}' is not a day"]),
    SafetyCase("categories", ["category add {social}", "categories"], shows: ["{social}"], json: ["{social}"]),
    SafetyCase("categories", ["categories {evil}"], status: 1, shows: ["'{evil}' is not a range"]),
    SafetyCase("category", ["category add {social}", "category rename {social} {title}"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("category", ["category delete {evil} --yes"], status: 1, shows: ["no category '{evil}'"]),
    SafetyCase("start", ["start {title} --at 2026-02-23T09:00", "status"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("start", ["start {title} --at {evil}"], status: 1, shows: ["'{evil}' is not a time"]),
    SafetyCase("pause", ["start {title} --at 2026-02-23T09:00", "pause"], shows: ["paused {title}"], json: ["{title}"]),
    SafetyCase("pause", ["pause --at {evil}"], status: 1, shows: ["'{evil}' is not a time"]),
    SafetyCase("resume", ["start {title} --at 2026-02-23T09:00", "pause --at 2026-02-23T10:00", "resume"], shows: ["started {title}"], json: ["{title}"]),
    SafetyCase("resume", ["resume --at {evil}"], status: 1, shows: ["'{evil}' is not a time"]),
    SafetyCase("stop", ["start {title} --at 2026-02-23T09:00", "stop"], shows: ["stopped {title}"], json: ["{title}"]),
    SafetyCase("stop", ["stop --at {evil}"], status: 1, shows: ["'{evil}' is not a time"]),
    SafetyCase("status", ["start {title} --at 2026-02-23T09:00", "status"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("status", ["status {evil}"], status: 1, shows: ["status: takes no arguments"]),
    SafetyCase("track", ["track {title} 2026-02-23T09:00 2026-02-23T10:00"], shows: ["tracked {title}"], json: ["{title}"]),
    SafetyCase("track", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "track {evil} 2026-02-23T09:30 2026-02-23T10:30"], status: 1, shows: ["overlaps @1 '{title}'"]),
    SafetyCase("today", ["task add {title} due today", "today"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("today", ["today {evil}"], status: 1, shows: ["today: takes no arguments"]),
    SafetyCase("calendar", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "calendar 2026-02"], shows: ["February 2026"]),
    SafetyCase("calendar", ["calendar {evil}"], status: 1, shows: ["'{evil}' is not a month"]),
    SafetyCase("sessions", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "sessions 2026-02-23"], shows: ["@1", "{title}"], json: ["{title}"]),
    SafetyCase("sessions", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "sessions {title}"], shows: ["Sessions · {title}"], json: ["{title}"]),
    SafetyCase("sessions", ["sessions {evil}"], status: 1, shows: ["no task '{evil}'"]),
    SafetyCase(
        "session", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "session edit @1 task {clear}", "session @1"], shows: ["changed @1 {clear}"],
        json: ["{clear}"]),
    SafetyCase("session", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "session edit @1 start {evil}"], status: 1, shows: ["'{evil}' is not a time"]),
    SafetyCase("session", ["session delete {evil}"], status: 1, shows: ["'{evil}' is not a session id"]),
    SafetyCase("continue", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "continue --at 2026-02-23T11:00"], shows: ["started {title}"], json: ["{title}"]),
    SafetyCase("continue", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "continue {evil}"], status: 1, shows: ["no task '{evil}'"]),
    SafetyCase("undo", ["task add {title} category {social}", "undo"], shows: ["undid task add {title}"], json: ["{title}"]),
    SafetyCase("undo", ["undo {evil}"], status: 1, shows: ["undo: takes no arguments"]),
    // watch: each output as the command's (its timestamp line holds no data)
    SafetyCase("watch", ["watch 0.1 show --count 2"], shows: ["{title}", "{social}", "{rlo}", "(every 0.1 s)"], json: allApps + dayCategories),
    SafetyCase("watch", ["watch 0.1 app {title} --count 2"], shows: ["{title} · "], json: ["{title}"]),
    SafetyCase("watch", ["watch {evil}"], status: 1, shows: ["unknown command '{evil}'"]),
    SafetyCase("watch", ["watch 0.1 app {evil} --count 2"], status: 1, shows: ["no app named '{evil}'"]),
    SafetyCase("watch", ["watch 1 apps top {evil}"], status: 1, shows: ["'{evil}' is not a positive number"]),
    // sites: a site is a host name or nothing, so no hostile name is ever stored or read
    // (the hostile file has no web buckets: it says where sites come from)
    SafetyCase("sites", ["sites"], shows: ["no sites in what is loaded"]),
    SafetyCase("sites", ["sites {evil}"], status: 1, shows: ["'{evil}' is not"]),
    // category rule: a hostile category name for a site, a hostile site
    SafetyCase("category", ["category rule a.org {title}"], shows: ["a.org is in {title}"], json: ["{title}"]),
    SafetyCase("category", ["category rule {evil} Web"], status: 1, shows: ["'{evil}' is not a site"]),
    // web
    SafetyCase("web", ["web ignore *.example.org", "web"], shows: ["*.example.org"], json: ["*.example.org"]),
    SafetyCase("web", ["web ignore {evil}"], status: 1, shows: ["'{evil}' is not a site"]),
    // help
    SafetyCase("help", ["help"], shows: ["help, clear, quit"]),
    SafetyCase("help", ["help app"], shows: ["usage: app NAME"]),
    SafetyCase("help", ["help {evil}"], status: 1, shows: ["unknown command '{evil}'"]),
    // clear: a batch run's output is no screen, so it writes nothing
    SafetyCase("clear", ["clear", "show"]),
    SafetyCase("clear", ["clear {evil}"], status: 1, shows: ["clear: takes no arguments"]),
    // quit
    SafetyCase("quit", ["quit", "show"]),
    SafetyCase("quit", ["quit {evil}"], status: 1, shows: ["quit: takes no arguments"]),
    // No command of the table: the first word echoed, an unclosed quote.
    SafetyCase("(none)", ["{evil}"], status: 1, shows: ["unknown command '{evil}'"]),
    SafetyCase("(none)", ["app \"{evil}"], status: 1, shows: ["unclosed quote"]),
] + rangeSafetyCases

struct TerminalSafetyTests {
    @Test func everyCommandOfTheTableHasCasesForItsDataAndItsErrors() {
        for command in CommandTable.all {
            let cases = safetyCases.filter { $0.command == command.name }
            #expect(cases.contains { $0.reachesData }, "no case reaches what '\(command.name)' shows")
            #expect(cases.contains { $0.status == 1 }, "no case reaches an error of '\(command.name)'")
        }
        let known = Set(CommandTable.all.map(\.name) + ["(none)"])
        #expect(safetyCases.allSatisfy { known.contains($0.command) })
    }

    @Test(arguments: safetyCases)
    func everyCommandKeepsTheTerminalSafe(_ c: SafetyCase) throws {
        for mode in SafetyMode.allCases {
            let w = try Workspace(c.setup)
            let arguments = [w.values["data"]!, "--tz", "UTC", "--width", "1000"] + mode.arguments
                + c.lines.flatMap { ["-c", w.line($0)] }
            let r = try w.run(arguments)
            let context = "\(mode) \(c.testDescription)"
            #expect(r.status == c.status, "status in \(context): \(r.stderr)")
            expectPlainSafe(r.stderr, "stderr, \(context)")
            switch mode {
            case .colourNever, .accessible: expectPlainSafe(r.stdout, "stdout, \(context)")
            case .csv:
                // RFC 4180 ends records with CRLF: that CR is the only one allowed.
                expectPlainSafe(r.stdout.replacingOccurrences(of: "\r\n", with: "\n"), "stdout, \(context)")
            case .colourAlways: expectColouredSafe(r.stdout, "stdout, \(context)")
            case .json:
                // Raw controls never appear in JSON either: they are written as \u escapes.
                expectPlainSafe(r.stdout, "stdout, \(context)")
                var strings: [String] = []
                // A case that names JSON strings shows data: then every line is one document.
                for line in r.stdout.split(separator: "\n") where !c.json.isEmpty || line.hasPrefix("{") {
                    do {
                        strings += jsonStrings(try JSONSerialization.jsonObject(with: Data(line.utf8)))
                    } catch {
                        Issue.record("not JSON in \(context): \(line.debugDescription)")
                    }
                }
                for expected in c.json.map(w.exact) {
                    #expect(
                        strings.contains { $0.unicodeScalars.elementsEqual(expected.unicodeScalars) },
                        "\(expected.debugDescription) not exactly in the JSON of \(context): \(r.stdout)")
                }
            }
            // The data path was reached, or the error echoed the argument (the other runs print
            // the same errors, and their names in other words; their safety is checked above).
            if mode == .colourNever || mode == .colourAlways {
                let text = TerminalText.withoutSGR(r.stdout + r.stderr)
                for expected in c.shows.map(w.shown) {
                    #expect(text.contains(expected), "\(expected.debugDescription) not shown in \(context): \(text)")
                }
            }
        }
    }
}
