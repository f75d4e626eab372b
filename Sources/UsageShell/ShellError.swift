// ShellError.swift — every way a shell command can fail, each with one user-facing line.
import UsageData
import UsageStore

/// A failed command. The shell prints `description`; nothing is lost by any of these.
public enum ShellError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first word is no command; `suggestion` is the closest name, if any is close.
    case unknownCommand(String, suggestion: String?)
    /// A command that runs from the command line, not at the prompt (`record`): how it is run.
    case commandLineOnly(String, String)
    /// The first word is a prefix of several commands.
    case ambiguousCommand(String, candidates: [String])
    /// The arguments do not fit the command.
    case usage(command: String, problem: String, usage: String)
    /// A quote was opened and not closed.
    case unclosedQuote
    /// The command needs data and none is loaded; `lastFailure` says why, when a load failed.
    case noData(lastFailure: LoadError?)
    /// A load failed; whatever data was loaded before is kept.
    case loadFailed(LoadError, previousDataKept: Bool)
    /// `import` could not read a source: nothing was imported (`retry` is for `load`).
    case importFailed(LoadError)
    /// An import stopped by Ctrl-C or SIGTERM, reading or writing: nothing was written. At the
    /// prompt (`retry`) the same import runs again with `retry`.
    case importCancelled(retry: Bool)
    /// `retry` with no failed load to retry.
    case nothingToRetry
    /// No app or category of the loaded data has this name; `suggestion` is a close one.
    case unknownName(kind: String, String, suggestion: String?)
    /// The word begins several names.
    case ambiguousName(kind: String, String, candidates: [String])
    /// `set` with a setting or value it does not know.
    case badSetting(String)
    /// `limits check` in a session where the limits file could not be read (`path`): the
    /// limits it holds are unknown, so no answer is one (the file's problem was a warning).
    case limitsNotChecked(path: String)
    /// `-` where standard input holds no data to read; the reason says why and what to do.
    case stdinUnavailable(String)
    /// The category rules file could not be read or is not valid.
    case rulesFile(RulesFileError)
    /// `export` could not write its file.
    case export(ExportError)
    /// `save` could not write its file.
    case save(ExportError)
    /// `save` before any view that draws was shown.
    case nothingShown
    /// `save FILE.svg` of a view that draws nothing (a day's totals, a day without usage).
    case nothingToDraw(view: String)
    /// A store command with no store to use: no `--db`, no `USAGE_SHELL_DB`, no home.
    case noStore
    /// The store could not be opened, read or changed.
    case store(StoreError)
    /// The loaded history could not be read while the command ran (a store's damaged page):
    /// what it computed is not shown.
    case historyUnreadable(String)
    /// A command that deletes asked for a yes where nobody can answer (a batch run); `withYes`
    /// is the command written so that it asks nothing.
    case needsYes(String)
    /// A tracking command refused (an overlap, an unknown task, nothing running): nothing changed.
    case refused(String)

    public var description: String {
        switch self {
        case .unknownCommand(let word, let suggestion):
            let base = "unknown command '\(word)'"
            return suggestion.map { "\(base) — did you mean '\($0)'?" } ?? "\(base) — type 'help' for the list"
        case .commandLineOnly(let name, let line):
            return "\(name) runs from the command line, not at this prompt: \(line) (help \(name) says how)"
        case .ambiguousCommand(let word, let candidates):
            return "ambiguous command '\(word)': could be \(candidates.map { "'\($0)'" }.joined(separator: ", "))"
        case .usage(let command, let problem, let usage):
            return "\(command): \(problem) (usage: \(usage))"
        case .unclosedQuote:
            return "unclosed quote"
        case .noData(let failure):
            if let failure { return "no data loaded (\(failure.description)); try 'retry' or 'load SOURCE'" }
            return "no data loaded; try 'load SOURCE'"
        case .loadFailed(let error, let kept):
            return "\(error.description); \(kept ? "the previous data is kept, " : "")'retry' tries again"
        case .importFailed(let error):
            return "\(error.description); nothing was imported"
        case .importCancelled(let retry):
            return "import cancelled: nothing was written" + (retry ? "; 'retry' imports again" : "")
        case .nothingToRetry:
            return "nothing to retry: the last load did not fail"
        case .unknownName(let kind, let word, let suggestion):
            let base = "no \(kind) named '\(word)'"
            return suggestion.map { "\(base) — did you mean '\($0)'?" } ?? "\(base) in the loaded data"
        case .ambiguousName(let kind, let word, let candidates):
            let shown = candidates.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            return "'\(word)' could be the \(kind) \(shown)\(candidates.count > 5 ? ", …" : ""): type more of the name"
        case .badSetting(let problem):
            return "set: \(problem)"
        case .limitsNotChecked(let path):
            return "limits check: the limits file '\(path)' could not be read this session, so its limits were not checked"
        case .stdinUnavailable(let reason):
            return reason
        case .rulesFile(let error):
            return error.description
        case .export(let error):
            return "export: \(error.description)"
        case .save(let error):
            return "save: \(error.description)"
        case .nothingShown:
            return "save: nothing to save yet: show a view first (show, week, summary, today …), then save it"
        case .nothingToDraw(let view):
            return "save: the last view ('\(view)') has no chart to draw as SVG: save it as .html, .txt, .json or .csv"
        case .noStore:
            return StoreError.nowhere
        case .store(let error):
            return error.description
        case .historyUnreadable(let reason):
            return "the data could not be read (\(reason)); nothing is shown"
        case .refused(let reason):
            return reason
        case .needsYes(let withYes):
            return "this deletes data, and a batch run cannot ask: add --yes to go ahead (\(withYes))"
        }
    }
}
