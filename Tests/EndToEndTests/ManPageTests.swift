// ManPageTests.swift — docs/usage-shell.1 is the page scripts/gen-manpage makes from this binary, lists every command of the table with its examples, and man and groff read it without a warning.
import Foundation
import TestSupport
import Testing
import UsageShell

struct ManPageTests {
    static let page = repositoryRoot.appendingPathComponent("docs/usage-shell.1")

    /// Runs a program (found on PATH) in the repository; its stdout, stderr and status.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        try ProcessRun.run(arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: repositoryRoot)
    }

    @Test func theManPageIsWhatTheProgramsDefinitionsMake() throws {
        let generated = try Self.run(["python3", "scripts/gen-manpage", "--bin", Binary.url.path, "--stdout"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let committed = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(generated.stdout == committed, "docs/usage-shell.1 is stale: run scripts/gen-manpage")
    }

    @Test func groffAndManReadThePageWithoutAWarning() throws {
        for device in ["ps", "utf8", "ascii"] {
            let groff = try Self.run(["groff", "-ww", "-z", "-man", "-T", device, Self.page.path])
            #expect(groff.status == 0)
            #expect(groff.stderr == "", "groff -T \(device): \(groff.stderr)")
        }
        let man = try Self.run(["man", "--warnings", "-l", Self.page.path], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "LANG": "C.UTF-8"])
        #expect(man.status == 0)
        #expect(man.stderr == "", "\(man.stderr)")
        #expect(man.stdout.hasPrefix("USAGE-SHELL(1)"))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "IMPORT", "EXPORT", "RECORD", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] {
            #expect(man.stdout.contains("\n\(section)\n"), "no section \(section)")
        }
        // What the page says of the command line and the commands is the binary's own.
        #expect(man.stdout.contains("monday...sunday"))
        #expect(man.stdout.contains("64     for a bad command line"))
    }

    /// Every command of the table is on the page, each example of it on a line of its own.
    @Test func thePageListsEveryCommandWithItsExamples() throws {
        let roff = try String(contentsOf: Self.page, encoding: .utf8)
        let lines = Set(roff.split(separator: "\n").map(String.init))
        func roffText(_ text: String) -> String {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
                .replacingOccurrences(of: "…", with: ".\\|.\\|.")
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }
        for command in CommandTable.all {
            #expect(lines.contains { $0.hasPrefix("\\fB\(roffText(command.name))\\fR") }, "no entry for \(command.name)")
            for example in command.examples {
                #expect(lines.contains(roffText(example)), "\(command.name): no line for the example \(example)")
            }
        }
    }
}
