// ShellModesTests.swift — the binary's batch side of the interactive-shell issue: colour, history never written by batch runs, completion scripts current.
import Foundation
import TestSupport
import Testing

/// The repository's root (tests read only the clone's own files).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

struct ShellModesTests {
    @Test func colourIsOnlyTheProgramsOwnSGRAndOnlyWhenAsked() throws {
        let always = try Binary.run(["--color", "always", "-c", "show"])
        #expect(always.stdout.hasPrefix("\u{1B}[1mMonday, February 23, 2026\u{1B}[0m\n"))
        // Every escape is one of the program's SGR sequences: `ESC [` digits and `;`, then `m`.
        let escapes = always.stdout.components(separatedBy: "\u{1B}").dropFirst()
        #expect(escapes.allSatisfy { $0.wholeMatch(of: /\[[0-9;]*m(?s:.*)/) != nil })
        #expect(escapes.contains { $0.hasPrefix("[94m") }, "charts are coloured")
        for arguments in [["--color", "never"], ["--color", "auto"], []] {
            let r = try Binary.run(arguments + ["-c", "show"], environment: ["NO_COLOR": ""])
            #expect(!r.stdout.contains("\u{1B}"), "\(arguments): stdout is a pipe")
        }
        let set = try Binary.run(["-c", "set color always", "-c", "day"])
        #expect(set.stdout.contains("\u{1B}[1mMonday"))
    }

    @Test func batchRunsStoreNoHistory() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let history = state.appendingPathComponent("usage-shell/history")
        for arguments in [["-c", "show"], []] {
            let r = try Binary.run(arguments, stdin: "day\nshow\n", environment: ["XDG_STATE_HOME": state.path])
            #expect(r.status == 0)
        }
        let withFlag = try Binary.run(["--no-history", "-c", "day"], environment: ["USAGE_SHELL_HISTORY": history.path])
        #expect(withFlag.status == 0)
        #expect(!FileManager.default.fileExists(atPath: history.path))
    }

    @Test func setWorksInScripts() throws {
        let r = try Binary.run(["-c", "set format json", "-c", "day", "-c", "set format table width 40", "-c", "day"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == #"{"format":"json","color":"auto","glyphs":"auto","accessible":false,"width":"auto","tz":"UTC","pager":"auto","timer":false,"timeout":30,"data_tz":"auto","columns":"auto","raw_csv":false,"week_start":"monday","retention":null,"web":true}"#)
        #expect(lines.contains(#"{"day":"2026-02-23","time_zone":"UTC","total_seconds":27123,"screen_time_seconds":22928}"#))
        #expect(lines.last == "7h 32m total · 6h 22m screen time")
    }

    @Test func theCompletionScriptsAreCurrent() throws {
        for (shell, file) in [("bash", "usage-shell.bash"), ("zsh", "_usage-shell"), ("fish", "usage-shell.fish")] {
            let generated = try Binary.run(["--generate-completion-script", shell])
            #expect(generated.status == 0)
            let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            #expect(generated.stdout == committed, "completions/\(file) is stale: run scripts/gen-completions")
        }
    }

    /// Bug (found by review, 2026-11-28): once the root declared only the options every command
    /// uses, argument-parser's bash script offered nothing for `usage-shell -c ch<Tab>` (the shell
    /// is the default subcommand); the binary's script now falls through to the shell's.
    @Test func bugTheRootNoLongerCompletedTheShellsOptionsInBash() throws {
        let script = repositoryRoot.appendingPathComponent("completions/usage-shell.bash").path
        // `-c`'s value completes through the binary (the one under test, as `usage-shell` on PATH).
        let complete = """
            dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT; ln -s "$1" "$dir/usage-shell"; PATH="$dir:$PATH"
            source '\(script)'
            t() { COMP_LINE="$1"; COMP_POINT=${#1}; read -ra COMP_WORDS <<<"$1"; [[ "$1" == *" " ]] && COMP_WORDS+=("")
                  COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
                  _usage-shell usage-shell "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                  printf '%s\\n' "${COMPREPLY[@]}" | sort -u | paste -sd' '; }
            t "usage-shell -c ch"; t "usage-shell -c 'cha"; t "usage-shell --form"; t "usage-shell --format j"; t "usage-shell import --for"
            """
        let run = try Binary.run([], launcher: ["/bin/bash", "-c", complete, "bash"])
        #expect(run.status == 0, "\(run.stderr)")
        // `ch` is chart's abbreviation, as at the prompt.
        #expect(run.stdout == "chart\nchart\n--format\njson\n--format\n", "\(run.stdout)")
    }

    /// bash as it completes `usage-shell -c 'chart <Tab>`: COMP_WORDS with the word as typed (its
    /// quote and all), `cur` without its quote; the installed script calls the binary back.
    @Test func bugBashCompletedOnlyCommandNamesInsideTheCommandArgument() throws {
        let script = repositoryRoot.appendingPathComponent("completions/usage-shell.bash").path
        let complete = """
            dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT; ln -s "$1" "$dir/usage-shell"; PATH="$dir:$PATH"
            source '\(script)'
            t() { COMP_LINE="$1"; COMP_POINT=${#1}; COMP_WORDS=("${@:3}"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
                  _usage-shell usage-shell "$2" "${COMP_WORDS[COMP_CWORD - 1]}"; printf '%s|' "${COMPREPLY[@]}"; echo; }
            t "usage-shell -c 'chart " "chart " usage-shell -c "'chart "
            t "usage-shell -c 'cha" "cha" usage-shell -c "'cha"
            t "usage-shell -c \\"summary la" "summary la" usage-shell -c "\\"summary la"
            t "usage-shell shell -c 'chart h" "chart h" usage-shell shell -c "'chart h"
            t "usage-shell -c 'app Goo" "app Goo" usage-shell -c "'app Goo"
            t "usage-shell -c chart" "chart" usage-shell -c chart
            """
        let run = try Binary.run([], launcher: ["/bin/bash", "-c", complete, "bash"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout == "chart category|chart hourly|\nchart|\nsummary last|\nchart hourly|\napp \"Google Chrome\"|\nchart|\n", "\(run.stdout)")
    }

    /// What a completion script reads from the binary for `-c` is the candidates alone: the
    /// shell's warning about a TZ that names no zone would land amid the line being edited.
    @Test func bugTheCommandArgumentsCompletionWarnedAboutTZAmidTheLine() throws {
        let run = try Binary.run(
            ["---completion", "shell", "--", "-c", "2", "3", "usage-shell", "-c", "'ch"], environment: ["TZ": "Bogus/Zone", "SAP_SHELL": "bash"])
        #expect(run.status == 0)
        #expect(run.stdout == "chart\n")
        #expect(run.stderr == "")
    }

    @Test func theBashCompletionScriptParsesAndAsksTheBinaryForTheCommandArgument() throws {
        let syntax = try ProcessRun.run(URL(fileURLWithPath: "/bin/bash"), ["-n", repositoryRoot.appendingPathComponent("completions/usage-shell.bash").path])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let script = try String(contentsOf: repositoryRoot.appendingPathComponent("completions/usage-shell.bash"), encoding: .utf8)
        #expect(script.contains("__usage-shell_custom_complete ---completion shell -- -c "))
    }
}

struct CommandReferenceTests {
    @Test func theCommandReferenceDocumentsEveryCommandWithAnExample() throws {
        let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/COMMANDS.md"), encoding: .utf8)
        let help = try Binary.run(["--width", "200", "-c", "help"])
        // `help` lists them a line each in its groups, several to a line (`limit, limits  …`);
        // `record` runs from the command line, and has a section of its own.
        let names = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }
            .compactMap { $0.dropFirst(2).components(separatedBy: "  ").first }
            .flatMap { $0.components(separatedBy: ", ") }.filter { $0 != "record" }
        #expect(names.count >= 45)
        let rows = reference.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for name in names {
            let row = rows.first { $0.hasPrefix("| `\(name)") }
            #expect(row != nil, "docs/COMMANDS.md has no row for \(name)")
            // The example column holds the command itself.
            #expect(row.map { $0.split(separator: "|").last?.contains("`\(name)") == true } == true, "\(name)")
        }
    }
}
