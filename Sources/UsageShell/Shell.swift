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
    /// The limits, once read from the file.
    private(set) var limitsCache: [UsageLimit]?
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

    /// Loads a source through the view model (for the command line's SOURCE and `load`).
    public func load(_ source: SourceRef) -> CommandOutcome {
        let hadData = model.hasData
        switch model.load(source, presenter: loadPresenter) {
        case .success(let dataset):
            switch format {
            case .json: return .output([ReportJSON.load(dataset, zone: model.zone).serialized])
            case .table: return .output(TextReport.loaded(dataset, zone: model.zone, width: width))
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

    /// The daily limits, read from the limits file on first use. A corrupt file is set aside and
    /// reported once (this call fails); the limits then start empty.
    func limits() throws(ShellError) -> [UsageLimit] {
        if let limitsCache { return limitsCache }
        guard let limitsFile else {
            limitsCache = []
            return []
        }
        do {
            let loaded = try limitsFile.load()
            limitsCache = loaded
            return loaded
        } catch {
            if case .corrupt = error { limitsCache = [] }
            throw .limitsFile(error)
        }
    }

    /// Replaces the limits, writing the file first: a failed write changes nothing.
    func store(_ limits: [UsageLimit]) throws(ShellError) {
        do {
            try limitsFile?.save(limits)
        } catch {
            throw .limitsFile(error)
        }
        limitsCache = limits
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
