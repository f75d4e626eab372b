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
    /// Lines to print, and the run should end with status 3 (`limits check` found a crossed limit).
    case alert([String])
}

/// What `-` (standard input as a source) may do in this run.
public enum StdinUse: Equatable, Sendable {
    /// Data may be read from it (commands come from `-c`/`-f`).
    case available
    /// It is the terminal the user types at.
    case terminal
    /// It carries the commands (`cmds.txt | usage-shell`).
    case commands
    /// It was read already.
    case consumed

    /// Why `-` cannot be read now; nil when it can.
    var refusal: String? {
        switch self {
        case .available: return nil
        case .terminal:
            return "'-' reads data from standard input, which is the terminal here: pipe the data in and give commands with -c or -f (cat FILE | usage-shell - -c show)"
        case .commands:
            return "'-' cannot read data from standard input: it carries the commands here; give them with -c or -f instead"
        case .consumed:
            return "standard input has already been read: '-' can be loaded once per run"
        }
    }
}

/// The shell: the view model, the settings (`set`) and the command table.
public final class Shell {
    public let model: UsageViewModel
    /// `set format`: how results are printed.
    public var format: OutputFormat
    /// `set color`; `autoColor` is what `auto` resolves to (probed once by the executable).
    public var colorMode: ColorMode
    public let autoColor: Bool
    /// `set glyphs` / `--glyphs`; `autoUnicode` is what `auto` resolves to (the locale is UTF-8).
    public var glyphMode: GlyphMode = .auto
    public var autoUnicode = true
    /// `set accessible on` / `--accessible` / `ACCESSIBLE=1`: charts become sentences and lines.
    public var accessible = false
    /// `set width N` / `--width`: a fixed width; `nil` follows the terminal.
    public var fixedWidth: Int?
    /// `set timer on`: each command's run time goes to stderr (`time: 1.234 ms`), as sqlite's `.timer on`.
    public var timer = false
    /// The terminal's width in cells, read anew for every command (it may be resized).
    public var terminalWidth: () -> Int
    /// The home directory, for `~/` in `load` paths.
    public let home: String?
    /// Runs loads: at once here; the executable's terminal version adds a spinner and Ctrl-C.
    public var loadPresenter: any LoadPresenter = DirectLoadPresenter()
    /// Zone names for completing `set tz`.
    public var zoneNames: () -> [String] = { Zone.knownIdentifiers }
    /// Where limits are kept (nil: in memory only, as in tests).
    public var limitsFile: LimitsFile?
    /// The limits when there is no file (tests), or when it cannot be used (`limitsFault`).
    private var memoryLimits: [UsageLimit] = []
    /// Where category rules are kept (nil: none, as in tests).
    public var rulesFile: CategoryRulesFile?
    /// Whether `-` may read standard input (the executable says; tests leave it a terminal).
    public var stdin: StdinUse = .terminal
    /// Warnings a command left for stderr (`warning: …`), taken by the runner after the command.
    public private(set) var warnings: [String] = []
    /// Lists a directory for completing `load` paths (`(path, includeHidden)`).
    public var listDirectory: (String, Bool) -> [DirectoryEntry]? = DirectoryListing.entries(of:hidden:)

    public init(
        model: UsageViewModel, format: OutputFormat = .table, colorMode: ColorMode = .never, autoColor: Bool = false,
        fixedWidth: Int? = nil, home: String? = nil, terminalWidth: @escaping () -> Int = { 80 }
    ) {
        self.model = model
        self.format = format
        self.colorMode = colorMode
        self.autoColor = autoColor
        self.fixedWidth = fixedWidth
        self.home = home
        self.terminalWidth = terminalWidth
    }

    /// The width tables are drawn at now: `set width`, else the terminal's (never below 20).
    public var width: Int { max(20, fixedWidth ?? terminalWidth()) }

    /// The styling table output uses now.
    public var theme: Theme {
        Theme(color: colorMode.enabled(auto: autoColor), glyphs: glyphMode.glyphs(autoUnicode: autoUnicode), accessible: accessible)
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

    /// Loads a source through the view model (for `load` and `retry`) and reports it.
    public func load(_ source: SourceRef) -> CommandOutcome {
        let hadData = model.hasData
        switch loadSource(source) {
        case .success(let dataset):
            switch format {
            case .json: return .output([ReportJSON.load(dataset, zone: model.zone).serialized])
            case .table: return .output(TextReport.loaded(dataset, zone: model.zone, width: width))
            }
        case .failure(.loadFailed(let error, _)):
            return .failed(.loadFailed(error, previousDataKept: hadData))
        case .failure(let error):
            return .failed(error)
        }
    }

    /// Loads a source (the command line's SOURCE, `load`, `retry`): no source twice, standard
    /// input only where it holds data, the category rules read anew and applied.
    public func loadSource(_ source: SourceRef) -> Result<Dataset, ShellError> {
        // A source named twice would count its time twice (`load a b a`, `usage-shell x x`).
        if let twice = SourceRef.repeated(source.parts) {
            let problem = "'\(TerminalText.sanitize(twice.description))' is given twice"
            return .failure(.usage(command: "load", problem: problem, usage: CommandTable.loadUsage))
        }
        if source.readsStdin {
            if let refusal = stdin.refusal { return .failure(.stdinUnavailable(refusal)) }
            stdin = .consumed
        }
        readRules()
        return model.load(source, presenter: loadPresenter).mapError { .loadFailed($0, previousDataKept: model.hasData) }
    }

    /// Reads the category rules file and gives the rules to the view model (none when there is
    /// no file); a bad file fails, and no rules apply until it is mended. The file is the
    /// user's: it is never moved or written, only ignored while it is bad.
    @discardableResult
    func applyRules() throws(ShellError) -> CategoryRules? {
        do {
            let rules = try rulesFile?.load()
            model.setRules(rules.map { rules in { rules.category(for: $0) } })
            rulesProblem = nil
            return rules
        } catch {
            model.setRules(nil)
            rulesProblem = (error, rulesFile.flatMap { FileStamp(of: $0.path) })
            throw .rulesFile(error)
        }
    }

    /// The rules file's problem last reported (by a `load` warning or by `rules`), and the file
    /// as it was then: a load warns once per problem and version of the file, not every time.
    private var rulesProblem: (error: RulesFileError, stamp: FileStamp?)?

    /// `applyRules` for a load: a bad rules file is a warning, not a failed load; the same
    /// problem in the same file is not reported again.
    func readRules() {
        let reported = rulesProblem
        do {
            try applyRules()
        } catch {
            if let reported, let now = rulesProblem, reported.error == now.error, reported.stamp == now.stamp { return }
            warn("\(error.description); no category rules applied")
        }
    }

    /// Leaves a warning for stderr.
    func warn(_ text: String) {
        warnings.append(text)
    }

    /// The warnings left so far, emptied.
    public func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
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

    /// The daily limits, read anew from the limits file by every limits command (another shell
    /// may have changed them). A corrupt file is set aside (one warning) and limits start
    /// empty; a file that cannot be used is reported once, and the session goes on with its
    /// limits in memory, never writing the file.
    func limits() -> [UsageLimit] {
        guard let limitsFile, limitsFault == nil else { return memoryLimits }
        do {
            let loaded = try limitsFile.load()
            if let aside = loaded.setAside { warn(aside.description) }
            return loaded.limits
        } catch {
            keepLimitsInMemory(error, limits: [])
            return memoryLimits
        }
    }

    /// Changes the limits: read, changed and written under the file's lock; in memory once the
    /// file cannot be used (the change then lives as long as the session).
    func updateLimits(_ change: ([UsageLimit]) throws(ShellError) -> [UsageLimit]) throws(ShellError) {
        guard let limitsFile, limitsFault == nil else {
            memoryLimits = try change(memoryLimits)
            return
        }
        var failure: ShellError?
        var read: [UsageLimit]?
        var changed: [UsageLimit]?
        do {
            let written = try limitsFile.update { (limits: [UsageLimit]) -> [UsageLimit] in
                read = limits
                switch Result(catching: { () throws(ShellError) -> [UsageLimit] in try change(limits) }) {
                case .success(let result):
                    changed = result
                    return result
                case .failure(let error):
                    failure = error
                    return limits
                }
            }
            if let aside = written.setAside { warn(aside.description) }
        } catch {
            var fault = error
            if read == nil, case .unwritable = error {
                // The lock could not be taken (a read-only folder): the limits as they stand.
                do {
                    let loaded = try limitsFile.load()
                    if let aside = loaded.setAside { warn(aside.description) }
                    read = loaded.limits
                } catch {
                    fault = error
                }
            }
            keepLimitsInMemory(fault, limits: read ?? [])
            if let changed {
                memoryLimits = changed
            } else if failure == nil {
                memoryLimits = try change(memoryLimits)
            }
        }
        if let failure { throw failure }
    }

    /// Why the limits file is not used this session (reported once, when it happened).
    public private(set) var limitsFault: LimitsFileError?

    /// Stops using the limits file for the session, with one warning; `limits` go on in memory.
    private func keepLimitsInMemory(_ fault: LimitsFileError, limits: [UsageLimit]) {
        limitsFault = fault
        memoryLimits = limits
        warn(fault.description)
    }

    /// The limits' names for completion, without reporting or moving a bad file.
    var limitNamesForCompletion: [UsageLimit] {
        guard let limitsFile, limitsFault == nil else { return memoryLimits }
        return limitsFile.peek()
    }

    /// Plain text lines (help), fitted to the width.
    func text(_ lines: [String]) -> CommandOutcome {
        .output(TextReport.wrap(lines, width: width))
    }

    /// Renders either the JSON document or the table lines.
    func render(json: () -> JSONText, table: (Int, Theme) -> [String]) -> CommandOutcome {
        switch format {
        case .json: return .output([json().serialized])
        case .table: return .output(table(width, theme))
        }
    }
}
