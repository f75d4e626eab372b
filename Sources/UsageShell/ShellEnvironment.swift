// ShellEnvironment.swift — what the shell needs from the world, given to it once: the home folder, the terminal's width, the prompt's screen, how loads are shown, the files it keeps, what standard input may do, where the store is and the process's open stores, the recorder's backends' names for `help record`.
import Foundation
import UsageCore
import UsageData
import UsageStore

/// The shell's dependencies, as one value the executable (or a test) builds and hands to `Shell.init`.
public struct ShellEnvironment {
    /// The home directory, for `~/` in paths.
    public var home: String?
    /// The terminal's width in cells, read anew for every command (it may be resized).
    public var terminalWidth: () -> Int
    /// Runs loads: at once here; the executable's terminal version adds a spinner and Ctrl-C.
    public var loadPresenter: any LoadPresenter
    /// Zone names for completing `set tz`.
    public var zoneNames: () -> [String]
    /// Lists a directory for completing paths (`(path, includeHidden)`).
    public var listDirectory: (String, Bool) -> [DirectoryEntry]?
    /// Where limits are kept (nil: in memory only, as in tests).
    public var limitsFile: LimitsFile?
    /// Where the category rules are (nil: none, as in tests).
    public var rulesFile: CategoryRulesFile?
    /// Whether `-` may read standard input (the executable says; tests leave it a terminal).
    public var stdin: StdinUse
    /// The terminal the prompt's results go to: only an interactive run whose stdout is a
    /// terminal has one (its height, clearing it, paging); nil in batch runs and pipes.
    public var screen: (any TerminalScreen)?
    /// The pager command (`$PAGER`, else `less -FRX`; nil for none), used with `screen`.
    public var pager: String?
    /// Where the store is (`--db`, `USAGE_SHELL_DB`, else under `XDG_DATA_HOME`); nil: no store.
    public var store: StoreLocation?
    /// Whether the store was named explicitly (`--db`, `USAGE_SHELL_DB`): then it is what a run
    /// with no SOURCE shows, never the sample, and every command that reads it says in one
    /// line when it does not exist (a mistyped path must not show other data).
    public var storeNamed: Bool
    /// The process's open stores, which every store the shell reads or changes is opened
    /// through (the executable gives its one; a test its own, whose looks it may count).
    public var stores: OpenStores
    /// The clock, for `import` and retention (the view model has its own, for "today").
    public var now: () -> Micros
    /// The names `usage-shell record --backend` takes, in the order tried (`help record` lists
    /// them; the executable hands over the recorder's list, which this module does not import).
    public var recorderBackends: [String]

    public init(
        home: String? = nil, terminalWidth: @escaping () -> Int = { 80 }, screen: (any TerminalScreen)? = nil, pager: String? = nil,
        loadPresenter: any LoadPresenter = DirectLoadPresenter(),
        zoneNames: @escaping () -> [String] = { Zone.knownIdentifiers },
        listDirectory: @escaping (String, Bool) -> [DirectoryEntry]? = DirectoryListing.entries(of:hidden:),
        limitsFile: LimitsFile? = nil, rulesFile: CategoryRulesFile? = nil, stdin: StdinUse = .terminal,
        store: StoreLocation? = nil, storeNamed: Bool = false, stores: OpenStores = OpenStores(),
        now: @escaping () -> Micros = { Micros(Date().timeIntervalSince1970 * 1_000_000) }, recorderBackends: [String] = []
    ) {
        self.home = home
        self.terminalWidth = terminalWidth
        self.screen = screen
        self.pager = pager
        self.loadPresenter = loadPresenter
        self.zoneNames = zoneNames
        self.listDirectory = listDirectory
        self.limitsFile = limitsFile
        self.rulesFile = rulesFile
        self.stdin = stdin
        self.store = store
        self.storeNamed = storeNamed
        self.stores = stores
        self.now = now
        self.recorderBackends = recorderBackends
    }
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
