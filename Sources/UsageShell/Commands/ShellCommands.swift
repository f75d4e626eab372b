// ShellCommands.swift — the commands about the shell itself: `help`, `clear` and `quit`.
import UsageCore

extension CommandTable {
    static let commandSlot = Slot<Command>(
        "COMMAND", completion: [.commands],
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
        read: { try? resolve($0).get() })

    static let shellCommands: [Command] = [
        Command(
            "help", aliases: ["?"], syntax: .optional(.value(commandSlot)), summary: "list the commands, or describe one",
            examples: ["help", "help apps"], tooMany: "one command at a time"
        ) { shell, args throws(ShellError) in
            guard let command = args[commandSlot] else {
                return shell.text(all.flatMap { ["  " + $0.usage, "      " + $0.summary + aliasNote($0)] })
            }
            return shell.text(
                ["usage: \(command.usage)", command.summary + aliasNote(command), "examples:"] + command.examples.map { "  " + $0 })
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
