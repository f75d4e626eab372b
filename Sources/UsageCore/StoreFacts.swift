// StoreFacts.swift — what the store's commands report, as plain values for the renderers: what an import did per source, and what the store holds.

/// What an import did with one source.
public struct ImportResult: Sendable, Equatable {
    /// The source as the user named it.
    public let source: String
    /// The device its sessions were filed under.
    public var device: String?
    /// Sessions new to the store.
    public var added = 0
    /// Sessions the store had, changed since (an ActivityWatch event that grew): updated in place.
    public var updated = 0
    /// Sessions the store had already, as they are.
    public var unchanged = 0
    /// The rows the source skipped, by reason (as `check` counts them).
    public let skipped: SkipSummary
    /// Site visits new to the store (an ActivityWatch export's web buckets); nil when the
    /// source held none.
    public var visits: Int?

    public init(source: String, skipped: SkipSummary) {
        self.source = source
        self.skipped = skipped
    }
}

/// What a whole import did, and the store after it.
public struct ImportSummary: Sendable, Equatable {
    /// The store's file.
    public let path: String
    public let sources: [ImportResult]
    /// Sessions the retention setting forgot afterwards.
    public let forgotten: Int
    /// The retention in days, when one is set.
    public let retentionDays: Int?
    /// Sessions in the store now.
    public let sessions: Int

    public init(path: String, sources: [ImportResult], forgotten: Int, retentionDays: Int?, sessions: Int) {
        self.path = path
        self.sources = sources
        self.forgotten = forgotten
        self.retentionDays = retentionDays
        self.sessions = sessions
    }
}

/// What a copy did.
public struct CopySummary: Sendable, Equatable {
    public var from: String
    public var into: String
    public var sessionsAdded = 0
    public var sessionsKept = 0
    public var tasksAdded = 0
    public var intervalsAdded = 0
    public var intervalsKept = 0

    public init(from: String, into: String) {
        self.from = from
        self.into = into
    }
}

/// A device whose sessions or site visits the store holds (`devices`).
public struct DeviceSummary: Sendable, Equatable {
    public let name: String
    /// Its sessions in the store now.
    public let sessions: Int
    /// Its browsers' site visits in the store now (a device may have these alone: its browser
    /// extension wrote them and no session was imported or recorded there).
    public let siteVisits: Int
    /// When its sessions were first and last imported (nil: never, a device with none).
    /// (The store's last write of its sessions, a file's import or the recorder's.)
    public let firstImport: Micros?
    public let lastImport: Micros?
    /// When `usage-shell record` last wrote its sessions here (nil: never recorded, only imported).
    public let lastRecorded: Micros?

    public init(name: String, sessions: Int, siteVisits: Int = 0, firstImport: Micros?, lastImport: Micros?, lastRecorded: Micros? = nil) {
        self.name = name
        self.sessions = sessions
        self.siteVisits = siteVisits
        self.firstImport = firstImport
        self.lastImport = lastImport
        self.lastRecorded = lastRecorded
    }
}

/// What `store` shows: where the store is, how big, what it holds and keeps.
public struct StoreSummary: Sendable, Equatable {
    /// One source that was imported.
    public struct Source: Sendable, Equatable {
        /// What makes it the same source (an absolute path, a URL, `aw://HOST:PORT`).
        public let identity: String
        /// As the user named it at the last import.
        public let shown: String
        /// The device its sessions were filed under (a source is one per device).
        public let device: String
        /// Its sessions in the store now.
        public let sessions: Int
        public let imports: Int
        public let firstImport: Micros
        public let lastImport: Micros

        public init(identity: String, shown: String, device: String, sessions: Int, imports: Int, firstImport: Micros, lastImport: Micros) {
            self.identity = identity
            self.shown = shown
            self.device = device
            self.sessions = sessions
            self.imports = imports
            self.firstImport = firstImport
            self.lastImport = lastImport
        }
    }

    public let path: String
    /// The database and its write-ahead log, in bytes.
    public let bytes: Int64
    public let readOnly: Bool
    public let sessions: Int
    /// Apps that have sessions (names are kept once, even after their sessions are forgotten).
    public let apps: Int
    /// The first and last local days with session time, in the zone shown.
    public let days: ClosedRange<LocalDate>?
    public let sources: [Source]
    /// Keep the last N days of imported sessions; nil keeps everything.
    public let retentionDays: Int?

    public init(
        path: String, bytes: Int64, readOnly: Bool, sessions: Int, apps: Int, days: ClosedRange<LocalDate>?, sources: [Source],
        retentionDays: Int?
    ) {
        self.path = path
        self.bytes = bytes
        self.readOnly = readOnly
        self.sessions = sessions
        self.apps = apps
        self.days = days
        self.sources = sources
        self.retentionDays = retentionDays
    }
}
