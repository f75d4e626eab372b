// Shell.swift — runs one command line against the view model and returns its outcome; never prints. Holds the session's state: the view model, the output settings, the limits and rules sessions, the store awaited, the last view shown, the series colours; and the context of the line being run (its one look at the store, the warnings and notes it left for stderr).
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore
import UsageData
import UsageRender
import UsageStore

/// The shell: the view model, the output settings (`set`) and the command table.
public final class Shell {
    public let model: UsageViewModel
    /// How results are printed (`set format`, `set color`…).
    public var output: OutputSettings
    /// What the shell was given of the world.
    public let environment: ShellEnvironment
    /// The daily limits (read anew by every limits command).
    public let limits: LimitsSession
    /// The category rules (read anew at every load and by `rules`).
    public let rules: RulesSession
    /// Whether `-` may read standard input now (it is read once).
    public internal(set) var stdin: StdinUse
    /// What the command line being run has of the shell: its one look at the store, the
    /// reader and writer opened from it, and the warnings and notes it leaves for stderr
    /// (CommandContext.swift). A new one begins with each line (`beginLine`).
    private(set) var command: CommandContext
    /// A store named explicitly that did not exist when the run began: reading commands say
    /// so, and the command that makes it loads it (NamedStore.swift).
    public internal(set) var awaitedStore: StoreLocation?
    /// The last view that draws, for `save` (ShownView.swift).
    public internal(set) var shownView: ShownView?
    /// The session's series colours for one history and zone.
    private var colorsCache: (generation: Int, zone: Zone, colors: SeriesColors)?

    public init(model: UsageViewModel, output: OutputSettings = OutputSettings(), environment: ShellEnvironment = ShellEnvironment()) {
        self.model = model
        self.output = output
        self.environment = environment
        self.limits = LimitsSession(file: environment.limitsFile)
        self.rules = RulesSession(file: environment.rulesFile)
        self.stdin = environment.stdin
        self.command = CommandContext(store: StoreAccess(location: environment.store, stores: environment.stores))
        model.store = environment.store
        model.stores = environment.stores
    }

    /// Begins a command line: a new attempt at the process's stores (a server that could not
    /// be reached is asked again) and a new look at the store, which the stopwatch's notice,
    /// the command and the prompt after it share.
    func beginLine() {
        environment.stores.newAttempt()
        lookAgain()
    }

    /// A new look at the store between lines, for Tab (completing `@N`, a task, a device reads
    /// the store as it is now, as the next line would); no new attempt, so a server found
    /// unreachable is not asked again at every Tab.
    func lookAgain() {
        command = command.next()
    }

    /// The width tables are drawn at now: `set width`, else the terminal's (never below 20).
    public var width: Int { output.width(terminal: environment.terminalWidth()) }

    /// The styling table output uses now.
    public var theme: Theme { output.theme }

    /// The colours of the session: handed out once from the whole loaded data (`SeriesColors`),
    /// anew only when the data, the category rules or the zone change; computed when a
    /// coloured chart first needs them.
    public var seriesColors: SeriesColors {
        let (generation, zone) = (model.historyVersion, model.zone)
        if let cache = colorsCache, cache.generation == generation, cache.zone == zone { return cache.colors }
        let history = model.history
        let colors = SeriesColors(SeriesLeaders(history: history, zone: zone), appNames: history.apps, categoryNames: history.categories)
        colorsCache = (generation, zone, colors)
        return colors
    }

    /// The session's colours if a coloured chart has handed them out for the data and zone of
    /// now; never computed here.
    var seriesColorsIfKnown: SeriesColors? {
        guard let cache = colorsCache, cache.generation == model.historyVersion, cache.zone == model.zone else { return nil }
        return cache.colors
    }

    /// A day's series with the session's colours (monochrome needs none: its patterns go by rank).
    func palette(_ r: DayReport, theme: Theme) -> Palette {
        Palette(r, colors: theme.color ? seriesColors : nil)
    }

    /// The home directory, for `~/` in paths.
    public var home: String? { environment.home }

    /// Runs one line, as a line of its own (its own look at the store). Empty lines and `#`
    /// comments produce no output.
    public func execute(_ line: String) -> CommandOutcome {
        beginLine()
        return run(line)
    }

    /// Runs one line in the line begun (`beginLine`): the runner's, whose notice before the
    /// command and prompt after it use the same look at the store.
    func run(_ line: String) -> CommandOutcome {
        let words: [String]
        do {
            words = try Tokenizer.words(line)
        } catch {
            return .failed(error)
        }
        return run(words: words)
    }

    /// Runs one command given as words, as a line of its own (`watch` runs its command so at
    /// each tick).
    public func execute(words: [String]) -> CommandOutcome {
        beginLine()
        return run(words: words)
    }

    private func run(words: [String]) -> CommandOutcome {
        guard let first = words.first, !first.hasPrefix("#") else { return .output([]) }
        switch CommandTable.resolve(first) {
        case .failure(let error):
            return .failed(error)
        case .success(let command):
            return running { () throws(ShellError) in try command.run(self, Array(words.dropFirst())) }
        }
    }

    /// Runs `import` as asked by a typed request (`usage-shell import`), as its line would run,
    /// in the line begun (`beginLine`: the runner's).
    func run(_ request: ImportRequest) -> CommandOutcome {
        running { () throws(ShellError) in try CommandTable.importSources(self, request) }
    }

    /// Runs `export` as asked by a typed request (`usage-shell export`), as its line would run,
    /// in the line begun (`beginLine`: the runner's).
    func run(_ request: ExportRequest) -> CommandOutcome {
        running { () throws(ShellError) in try CommandTable.export(self, request) }
    }

    /// Runs a command's body: one screen, one state of the data (a store's windows read in one transaction).
    private func running(_ body: () throws(ShellError) -> CommandOutcome) -> CommandOutcome {
        let outcome: CommandOutcome
        do {
            outcome = try model.history.readingAsOne { () throws(ShellError) -> CommandOutcome in try body() }
        } catch {
            outcome = .failed(error)
        }
        // A window that could not be read came back empty: what was computed from it is not shown.
        if let failure = model.history.takeReadFailure() {
            model.forgetReports()
            return .failed(.historyUnreadable(failure))
        }
        loadAwaitedStoreIfMade()
        return outcome
    }

    /// Loads a source through the view model (for `load` and `retry`) and reports it.
    public func load(_ source: SourceRef) -> CommandOutcome {
        let hadData = model.hasData
        switch loadSource(source) {
        case .success(let history):
            return render(json: { ReportJSON.load(history, zone: model.zone) }, csv: .record) { width, _ in
                TextReport.loaded(history, zone: model.zone, width: width)
            }
        case .failure(.loadFailed(let error, _)):
            return .failed(.loadFailed(error, previousDataKept: hadData))
        case .failure(let error):
            return .failed(error)
        }
    }

    /// Loads a source (the command line's SOURCE, `load`, `retry`): no source twice, standard
    /// input only where it holds data, the category rules read anew and applied.
    public func loadSource(_ source: SourceRef) -> Result<any SessionHistory, ShellError> {
        // A source named twice would count its time twice (`load a b a`, `usage-shell x x`).
        if let twice = SourceRef.repeated(source.parts) {
            let problem = "'\(TerminalText.sanitize(twice.description))' is given twice"
            return .failure(.usage(command: "load", problem: problem, usage: CommandTable.named("load").usage))
        }
        // The store's own file read as a file would drop the locks SQLite holds on it in this
        // process (closing any descriptor of a file ends them all): it is named as the store.
        if let path = environment.store?.file, source.parts.contains(where: { if case .file(let f) = $0 { return Self.sameFile(f, path) } else { return false } }) {
            return .failure(.usage(command: "load", problem: "that file is the store: load store (or :store:)", usage: CommandTable.named("load").usage))
        }
        // Tracked time of a store named explicitly that is not there is no empty source: it is said.
        // The look is the load's: the store is not looked at again before it is read.
        var seen: StoreProbe?
        if source.parts.contains(.tracked), environment.storeNamed, let location = environment.store {
            seen = command.store.probe
            if seen == .absent { return .failure(.store(.missing(path: location.description))) }
        }
        if source.readsStdin {
            if let refusal = stdin.refusal { return .failure(.stdinUnavailable(refusal)) }
            stdin = .consumed
        }
        let renames = categoryRenames()
        model.setRules(rules.readForLoad(warn: warn).map { rules in { rules.category(for: $0).map { renames[$0] ?? $0 } } })
        let result = model.load(source, presenter: environment.loadPresenter, seen: seen)
        // Skipped rows make every total lower: said once per load, on stderr, in batch runs too.
        // The bundled sample's dirty rows are there to show `check`, and are not the user's.
        if case .success(let history) = result, source != .sample, let warning = TextReport.skipWarning(history) {
            warn(warning)
        }
        return result.mapError { .loadFailed($0, previousDataKept: model.hasData) }
    }

    /// Reads the category rules anew and gives them to the view model (none when there is no
    /// file); a bad file fails, and no rules apply until it is mended.
    @discardableResult
    func applyRules() throws(ShellError) -> CategoryRules? {
        do {
            let read = try rules.read()
            let renames = categoryRenames()
            model.setRules(read.map { rules in { rules.category(for: $0).map { renames[$0] ?? $0 } } })
            return read
        } catch {
            model.setRules(nil)
            throw .rulesFile(error)
        }
    }

    /// Whether two paths name one file (device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat()
        var y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Leaves a warning for stderr (`warning: …`), taken by the runner after the command.
    func warn(_ text: String) {
        command.warnings.append(text)
    }

    /// The warnings left so far, emptied.
    public func takeWarnings() -> [String] {
        defer { command.warnings = [] }
        return command.warnings
    }

    /// Leaves a note for stderr (`note: …`: what a word it took now means), taken with the warnings.
    func note(_ text: String) {
        command.notes.append(text)
    }

    /// The notes left so far, emptied.
    public func takeNotes() -> [String] {
        defer { command.notes = [] }
        return command.notes
    }

    /// Selects the day a typed word means (`day WORD`, `--day WORD`).
    public func selectDay(_ word: String) throws(ShellError) {
        let usage = CommandTable.named("day").usage
        guard let query = DayQuery(word) else {
            throw .usage(command: "day", problem: DayQuery.problemSuggesting(word), usage: usage)
        }
        try selectDay(query, typed: word)
    }

    /// Selects the day a parsed query means.
    func selectDay(_ query: DayQuery, typed word: String) throws(ShellError) {
        guard model.select(query) != nil else {
            throw .usage(
                command: "day", problem: "'\(word)' is outside 0000-01-01 … 9999-12-31", usage: CommandTable.named("day").usage)
        }
    }

    /// Fails with `noData` (saying why) when nothing has loaded.
    func requireData() throws(ShellError) {
        guard model.hasData else {
            if let awaitedStore { throw .store(.missing(path: awaitedStore.description)) }
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
        .output(TextReport.wrap(lines, width: width))
    }

    /// The device whose sessions the loaded store shows (`device NAME`), nil for every device's
    /// or when the store is not what is loaded.
    var shownDevice: String? {
        guard let device = model.device, model.loadedSource?.parts.contains(.store) == true else { return nil }
        return device
    }

    /// `render` of a view of the loaded data: one device's says so (its JSON's `device` member
    /// first, a line over its table).
    func renderData(json: () -> JSONText, csv shape: CSVShape = .firstList, table: (Int, Theme) -> [String]) -> CommandOutcome {
        guard let device = shownDevice else { return render(json: json, csv: shape, table: table) }
        return render(json: { json().leading("device", .string(device)) }, csv: shape) { width, theme in
            TextReport.deviceNote(device, width: width) + table(width, theme)
        }
    }

    /// Renders the JSON document, the table lines, or the CSV made from the JSON document
    /// (`shape` says whether its rows are the document's first list or the document itself).
    /// A command whose CSV is a table of its own (`timesheet`'s sheet) rather than its JSON's.
    func render(json: () -> JSONText, csvTable: () -> CSVTable, table: (Int, Theme) -> [String]) -> CommandOutcome {
        guard output.format == .csv else { return render(json: json, table: table) }
        return .output(csvTable().records(output.outputCells).map { $0 + "\r" })
    }

    func render(json: () -> JSONText, csv shape: CSVShape = .firstList, table: (Int, Theme) -> [String]) -> CommandOutcome {
        switch output.format {
        case .json: return .output([json().serialized])
        case .table: return .output(table(width, theme))
        // RFC 4180 ends records with CRLF: each line carries its CR, the runner adds the LF.
        case .csv: return .output(CSVTable(json(), shape: shape).records(output.outputCells).map { $0 + "\r" })
        }
    }
}
