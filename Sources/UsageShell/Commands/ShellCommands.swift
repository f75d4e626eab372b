// ShellCommands.swift — the commands about the shell itself: `help` (the grouped list of HelpTable.swift, or one command in full), `clear` and `quit`.
import UsageCore

/// What `help NAME` describes: a command of the shell, or one that runs only from the command line (`record`).
enum HelpTopic: Sendable {
    case command(Command)
    /// A command that runs only from the command line, by name.
    case commandLine(String)
}

extension CommandTable {
    static let commandSlot = Slot<HelpTopic>(
        "COMMAND", completion: [.commands, .keywords(HelpTable.commandLineNames)],
        refusal: { word in
            switch resolve(word) {
            case .failure(.unknownCommand(let typed, let suggestion?)) where suggestion.contains(" "):
                // `help hourly`: the command that takes the word, not the line (`chart`, not `chart hourly`).
                return .error(.unknownCommand(typed, suggestion: String(suggestion.prefix { $0 != " " })))
            case .failure(let error): return .error(error)
            case .success: break
            }
            return .problem("'\(word)' is not a command")
        },
        read: { word in
            if HelpTable.commandLineNames.contains(word.lowercased()) { return .commandLine(word.lowercased()) }
            return (try? resolve(word).get()).map { .command($0) }
        })

    static let shellCommands: [Command] = [
        Command(
            "help", aliases: ["?"], syntax: .optional(.value(commandSlot)), summary: "list the commands, or describe one",
            examples: ["help", "help apps"], tooMany: "one command at a time"
        ) { shell, args throws(ShellError) in
            switch args[commandSlot] {
            case nil:
                return shell.text(HelpTable.lines)
            case .commandLine(let name):
                return shell.text(HelpTable.commandLine(name, recorderBackends: shell.environment.recorderBackends) ?? [])
            case .command(let command):
                let also = HelpTable.alsoFromTheCommandLine[command.name].map { [$0] } ?? []
                return shell.text(
                    ["usage: \(command.usage)", command.summary + aliasNote(command)] + also + ["examples:"] + command.examples.map { "  " + $0 })
            }
        },
        Command(
            "clear", summary: "clear the screen (Ctrl-L at the prompt too); in a batch run, nothing", examples: ["clear"]
        ) { _, _ throws(ShellError) in
            .clearScreen
        },
        Command(
            "quit", aliases: ["exit"], summary: "leave the shell (Ctrl-D at the prompt too)", examples: ["quit"]
        ) { _, _ throws(ShellError) in
            .quit
        },
    ]

    private static func aliasNote(_ command: Command) -> String {
        let also = command.aliases + command.abbreviations
        return also.isEmpty ? "" : " (also: \(also.joined(separator: ", ")))"
    }
}
