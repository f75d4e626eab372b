// TerminalSafetyCommandLineTests.swift — docs/DATA.md §6 for the command line's own errors and warnings (options, SOURCE, scripts), outside the command table.
import Foundation
import Testing
import UsageRender
import UsageShell

// MARK: - The command line's own errors and warnings

/// One run of the binary outside the command table: options, SOURCE, scripts, warnings.
struct CommandLineSafetyCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// Arguments with placeholders (raw values: argv carries them as they are).
    let arguments: [String]
    var environment: [String: String] = [:]
    var stdin: String?
    let status: Int32
    /// Sanitised placeholders that must appear on stderr (or stdout).
    let shows: [String]
    var setup: Setup = .plain

    var testDescription: String { name }
}

let commandLineSafetyCases: [CommandLineSafetyCase] = [
    .init(name: "a missing SOURCE", arguments: ["{missing}", "-c", "show"], status: 1,
          shows: ["error: cannot load '{missing}': no such file"]),
    .init(name: "a directory as SOURCE", arguments: ["{dir}"], status: 1, shows: ["error: cannot load '{dir}'"]),
    .init(name: "a SOURCE that is not JSON", arguments: ["{invalid}"], status: 1, shows: ["error: cannot load '{invalid}'"]),
    .init(name: "a SOURCE given twice", arguments: ["{data}", "{data}"], status: 1, shows: ["'{data}' is given twice"]),
    .init(name: "--day with escapes", arguments: ["{data}", "--day", "{evilday}"], status: 64, shows: ["error: '{evilday}' is not a day"]),
    .init(name: "--day outside the calendar", arguments: ["{data}", "--day", "+9999999"], status: 1, shows: ["--day:"]),
    .init(name: "--day= with escapes", arguments: ["{data}", "--day={evilday}"], status: 64, shows: ["error: '{evilday}' is not a day"]),
    .init(name: "an unknown option with escapes", arguments: ["--{evil}"], status: 64, shows: ["'--{evil}'"]),
    .init(name: "--format with escapes", arguments: ["--format", "{evil}"], status: 64, shows: ["'{evil}'"]),
    .init(name: "--tz with escapes", arguments: ["--tz", "{evil}"], status: 64, shows: ["unknown time zone '{evil}'"]),
    .init(name: "--width with escapes", arguments: ["--width", "{evil}"], status: 64, shows: ["'{evil}'"]),
    .init(name: "--width that is a newline", arguments: ["--width", "\n"], status: 64, shows: ["'\\n' is invalid for '--width <width>'\nHelp:"]),
    .init(name: "a short option with a newline", arguments: ["-a\nb"], status: 64, shows: ["Unknown option '-a\\nb'"]),
    .init(name: "--color with escapes", arguments: ["--color", "{evil}"], status: 64, shows: ["'{evil}'"]),
    .init(name: "--data-tz with escapes", arguments: ["--data-tz", "{evil}"], status: 64, shows: ["not '{evil}'"]),
    .init(name: "--columns with escapes", arguments: ["--columns", "{evil}=x"], status: 64, shows: ["unknown field '{evil}'"]),
    .init(name: "an aw:// path with escapes", arguments: ["aw://localhost:1/{evil}", "-c", "show"], status: 1,
          shows: ["a path is not used", "drop '/{evil}'"]),
    .init(name: "a missing -f script", arguments: ["{data}", "-f", "{noscript}"], status: 1, shows: ["error: cannot read script '{noscript}'"]),
    .init(name: "a -f script of hostile lines", arguments: ["{data}", "-f", "{script}"], status: 1,
          shows: ["error: line 2: no app named '{evilline}'", "error: line 3: unknown command '{evilline}'"]),
    .init(name: "commands from standard input", arguments: ["{data}"], stdin: "apps\napp {evilline}\n{evilline}\n", status: 1,
          shows: ["error: line 2: no app named '{evilline}'", "error: line 3: unknown command '{evilline}'"]),
    .init(name: "TZ with escapes", arguments: ["{data}", "-c", "day"], environment: ["TZ": "{evil}"], status: 0,
          shows: ["warning: TZ='{evil}' is not an IANA zone name"]),
    .init(name: "a bad rules file", arguments: ["{data}", "-c", "show"], status: 0,
          shows: ["warning: ", "'{badpattern}' is not a regular expression", "no category rules applied"], setup: .badRules),
    .init(name: "--help", arguments: ["--help"], status: 0, shows: ["USAGE: usage-shell"]),
    .init(name: "--version", arguments: ["--version"], status: 0, shows: ["0."]),
]

struct TerminalSafetyCommandLineTests {
    @Test(arguments: commandLineSafetyCases)
    func theCommandLineKeepsTheTerminalSafe(_ c: CommandLineSafetyCase) throws {
        for colour in ["never", "always"] {
            let w = try Workspace(c.setup)
            try Data(w.fill("apps\napp {evilline}\n{evilline}\n", Tokenizer.quoted).utf8).write(to: URL(fileURLWithPath: w.values["script"]!))
            // The colour option goes first, so that the case's own bad options are still the error.
            let r = try w.run(
                ["--color", colour] + c.arguments.map(w.exact), stdin: c.stdin.map { w.fill($0, Tokenizer.quoted) },
                environment: c.environment.mapValues(w.exact))
            let context = "--color \(colour), \(c.name)"
            #expect(r.status == c.status, "status in \(context): \(r.stderr)")
            expectPlainSafe(r.stderr, "stderr, \(context)")
            if colour == "never" { expectPlainSafe(r.stdout, "stdout, \(context)") } else { expectColouredSafe(r.stdout, "stdout, \(context)") }
            let text = TerminalText.withoutSGR(r.stdout + r.stderr)
            for expected in c.shows.map(w.shown) {
                #expect(text.contains(expected), "\(expected.debugDescription) not shown in \(context): \(text)")
            }
        }
    }
}
