// CommandTable.swift — the one table of shell commands (each area's commands in its own file): dispatch, help, completion and "did you mean" all read it.
import UsageCore

/// The shell's commands, in the order `help` lists them.
public enum CommandTable {
    public static let all: [Command] =
        dayCommands + rangeCommands + [checkCommand, setCommand] + sourceCommands + [exportCommand, saveCommand] + storeCommands + [importsCommand] + deviceCommands + taskCommands + trackCommands + sessionCommands + limitCommands + siteCommands
        + [watchCommand] + shellCommands

    /// The command a typed word names: a name, alias or abbreviation, else the one command it begins.
    public static func resolve(_ word: String) -> Result<Command, ShellError> {
        let candidates = all.map { PrefixMatch.Candidate($0.name, spellings: [$0.name] + $0.aliases + $0.abbreviations) }
        switch PrefixMatch.resolve(word, among: candidates) {
        case .match(let name): return .success(named(name))
        case .ambiguous(let names): return .failure(.ambiguousCommand(word, candidates: names))
        case .none:
            // `record` is a command of the command line, which `help` lists: said so, not unknown.
            if HelpTable.commandLineNames.contains(word.lowercased()) {
                return .failure(.commandLineOnly(word.lowercased(), "usage-shell \(word.lowercased()) …"))
            }
            return .failure(.unknownCommand(word, suggestion: suggestion(for: word.lowercased())))
        }
    }

    /// The command of this name (which must be one of the table's).
    static func named(_ name: String) -> Command {
        all.first { $0.name == name }!
    }

    /// Every name and alias, sorted (completion of command names).
    static var names: [String] { all.flatMap { [$0.name] + $0.aliases }.sorted() }

    /// What an unknown command word most likely meant: the command that takes it as its word
    /// (`today` → `day today`, `hourly` → `chart hourly`), else a command name a slip of the
    /// fingers away (`NameMatch.closest`), else nothing.
    static func suggestion(for word: String) -> String? {
        if let line = commandTaking(word) { return line }
        return NameMatch.closest(to: word, among: all.flatMap { [$0.name] + $0.aliases })
    }

    /// The command line a word typed alone belongs to, when it is whole another command's word:
    /// a day word or date for `day`, a chart for `chart`, a form of `show`. Not a prefix (`t`
    /// is no command and no one day) and not a slip: those are for commands' own names.
    static func commandTaking(_ word: String) -> String? {
        let w = word.lowercased()
        if DayQuery.words.contains(w) || w == "previous" || LocalDate(iso: w) != nil { return "day \(w)" }
        if w.count >= 2, w.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), w.first == "+" || w.first == "-", DayQuery(w) != nil {
            return "day \(w)"
        }
        if ["hourly", "category"].contains(w) { return "chart \(w)" }
        if ["compact", "full"].contains(w) { return "show \(w)" }
        return nil
    }
}
