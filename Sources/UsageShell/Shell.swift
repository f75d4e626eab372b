// Shell.swift — runs one command line against the view model and returns its outcome; never prints.
import UsageCore
import UsageData
import UsageRender

/// How command results are printed.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table
    case json
}

/// What a command produced.
public enum CommandOutcome: Equatable, Sendable {
    /// Lines to print on stdout (a JSON document is one line).
    case output([String])
    /// The command failed; the message goes to stderr.
    case failed(ShellError)
    /// The shell should end.
    case quit
}

/// The shell: the view model, the output settings and the command table.
public final class Shell {
    public let model: UsageViewModel
    public var format: OutputFormat
    /// The width in cells, read anew for every command (the terminal may be resized).
    public var width: () -> Int
    /// The home directory, for `~/` in `load` paths.
    public let home: String?

    public init(
        model: UsageViewModel, format: OutputFormat = .table, home: String? = nil, width: @escaping () -> Int = { 80 }
    ) {
        self.model = model
        self.format = format
        self.home = home
        self.width = width
    }

    /// Runs one line. Empty lines and `#` comments produce no output.
    public func execute(_ line: String) -> CommandOutcome {
        let words: [String]
        do {
            words = try Tokenizer.words(line)
        } catch {
            return .failed(error)
        }
        guard let first = words.first, !first.hasPrefix("#") else { return .output([]) }
        switch CommandTable.resolve(first) {
        case .failure(let error):
            return .failed(error)
        case .success(let command):
            do {
                return try command.run(self, Array(words.dropFirst()))
            } catch {
                return .failed(error)
            }
        }
    }

    /// Loads a source through the view model (for the command line's SOURCE and `load`).
    public func load(_ source: SourceRef) -> CommandOutcome {
        let hadData = model.hasData
        switch model.load(source) {
        case .success(let dataset):
            switch format {
            case .json: return .output([ReportJSON.load(dataset, zone: model.zone).serialized])
            case .table: return .output(TextReport.loaded(dataset, zone: model.zone, width: width()))
            }
        case .failure(let error):
            return .failed(.loadFailed(error, previousDataKept: hadData))
        }
    }

    /// Selects the day a typed word means (`day WORD`, `--day WORD`).
    public func selectDay(_ word: String) throws(ShellError) {
        let usage = CommandTable.dayUsage
        guard let query = DayQuery(word) else {
            throw .usage(command: "day", problem: "'\(word)' is not a day", usage: usage)
        }
        guard model.select(query) != nil else {
            throw .usage(command: "day", problem: "'\(word)' is outside 0000-01-01 … 9999-12-31", usage: usage)
        }
    }

    /// Fails with `noData` (saying why) when nothing has loaded.
    func requireData() throws(ShellError) {
        guard model.hasData else {
            if case .failed(let error) = model.state { throw .noData(lastFailure: error) }
            throw .noData(lastFailure: nil)
        }
    }

    /// The selected day's report, or `noData` when nothing has loaded.
    func requireReport() throws(ShellError) -> DayReport {
        try requireData()
        return model.report
    }

    /// Plain text lines (help), fitted to the width.
    func text(_ lines: [String]) -> CommandOutcome {
        .output(TextReport.wrap(lines, width: max(20, width())))
    }

    /// Renders either the JSON document or the table lines.
    func render(json: () -> JSONText, table: (Int) -> [String]) -> CommandOutcome {
        switch format {
        case .json: return .output([json().serialized])
        case .table: return .output(table(max(20, width())))
        }
    }
}
