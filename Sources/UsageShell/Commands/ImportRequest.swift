// ImportRequest.swift — what `import` is asked to do, typed once for the prompt's command and `usage-shell import`: the sources as named, the device their sessions are filed under, how they are read (the zone of a CSV's times without an offset, its columns), and what cancels it.
import UsageCore
import UsageFormats

/// One `import`: the prompt's command makes it from its words, `usage-shell import` from its
/// parsed options; both run it through `CommandTable.importSources`.
public struct ImportRequest: Sendable {
    /// What to import, as named: a file, `-`, a URL, `aw://HOST:PORT`, `activitywatch`,
    /// `:sample:`, or `store:LOCATION` alone.
    public var sources: [String]
    /// The device sessions are filed under when their source names none (nil: this machine's).
    public var device: String?
    /// The zone a CSV's times without a UTC offset are read in (nil: the shell's, `set data-tz`).
    public var dataZone: Zone?
    /// Which CSV column holds which field (nil: the shell's, `set columns`).
    public var columns: ColumnMapping?
    /// Stops the import, reading or writing: cancelled (by Ctrl-C at the prompt, by SIGINT or
    /// SIGTERM to `usage-shell import`), it writes nothing.
    public var cancellation: CancellationToken

    public init(
        sources: [String], device: String? = nil, dataZone: Zone? = nil, columns: ColumnMapping? = nil,
        cancellation: CancellationToken = CancellationToken()
    ) {
        self.sources = sources
        self.device = device
        self.dataZone = dataZone
        self.columns = columns
        self.cancellation = cancellation
    }

    /// How its sources are read: the shell's options, with what the request says in their place.
    func readOptions(_ shell: ReadOptions) -> ReadOptions {
        var options = shell
        if let dataZone { options.localZone = dataZone }
        if let columns { options.columns = columns }
        return options
    }
}
