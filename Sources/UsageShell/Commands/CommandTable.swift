// CommandTable.swift — the one table of shell commands (each area's commands in its own file): dispatch, help, completion and "did you mean" all read it.
import UsageCore

/// The shell's commands, in the order `help` lists them.
public enum CommandTable {
    public static let all: [Command] =
        dayCommands + [checkCommand, setCommand] + sourceCommands + storeCommands + taskCommands + trackCommands + limitCommands
        + [watchCommand] + shellCommands

    /// The command a typed word names: a name, alias or abbreviation, else the one command it begins.
    public static func resolve(_ word: String) -> Result<Command, ShellError> {
        let candidates = all.map { PrefixMatch.Candidate($0.name, spellings: [$0.name] + $0.aliases + $0.abbreviations) }
        switch PrefixMatch.resolve(word, among: candidates) {
        case .match(let name): return .success(named(name))
        case .ambiguous(let names): return .failure(.ambiguousCommand(word, candidates: names))
        case .none: return .failure(.unknownCommand(word, suggestion: suggestion(for: word.lowercased())))
        }
    }

    /// The command of this name (which must be one of the table's).
    static func named(_ name: String) -> Command {
        all.first { $0.name == name }!
    }

    /// Every name and alias, sorted (completion of command names).
    static var names: [String] { all.flatMap { [$0.name] + $0.aliases }.sorted() }

    /// The closest command name within an edit distance of 2, if any.
    static func suggestion(for word: String) -> String? {
        NameMatch.closest(to: word, among: all.flatMap { [$0.name] + $0.aliases })
    }
}
