// Session.swift — the validated session and the dataset that holds them, names interned, sorted by start.

/// One valid usage session: `end > start`, names normalised and interned as ids into the dataset.
public struct Session: Hashable, Sendable {
    /// Start instant, inclusive.
    public var start: Micros
    /// End instant, exclusive; always after `start`.
    public var end: Micros
    /// Index into `Dataset.apps`.
    public var app: Int32
    /// Index into `Dataset.categories`.
    public var category: Int32
    /// The row's `session_id` as written (numbers keep their literal text); `nil` when absent or null.
    public var id: String?
    /// Still running when loaded: its source gave no end, and `end` is the load's clock.
    public var running: Bool

    public init(start: Micros, end: Micros, app: Int32, category: Int32, id: String?, running: Bool = false) {
        self.start = start
        self.end = end
        self.app = app
        self.category = category
        self.id = id
        self.running = running
    }
}

/// Why a row of the input was skipped (docs/DATA.md §1). The raw values are the JSON keys.
public enum SkipReason: String, CaseIterable, Sendable, Hashable {
    /// A timestamp is absent or null.
    case missingTimestamp = "missing_timestamp"
    /// A timestamp is not a valid RFC 3339 string (wrong form, no offset, impossible date, not a string).
    case badTimestamp = "bad_timestamp"
    /// `end_timestamp` is not after `start_timestamp`.
    case endNotAfterStart = "end_not_after_start"
    /// `app_name` or `category` is neither a string nor null.
    case badFieldType = "bad_field_type"
    /// The array element is not an object.
    case notAnObject = "not_an_object"
}

/// One skipped row, kept as an example for `check`.
public struct SkippedRow: Hashable, Sendable {
    public var reason: SkipReason
    /// The row's `session_id`, when it had a string or number one.
    public var sessionID: String?
    /// 1-based line of the input where the row begins; `nil` when the source has no lines
    /// (an ActivityWatch server) or the row is nested deeper than one array.
    public var line: Int?
    /// The source the row came from, when several were loaded together (`load A B`).
    public var source: String?

    public init(reason: SkipReason, sessionID: String?, line: Int?, source: String? = nil) {
        self.reason = reason
        self.sessionID = sessionID
        self.line = line
        self.source = source
    }
}

/// How many rows were skipped, by reason, with up to three examples of each.
public struct SkipSummary: Hashable, Sendable {
    /// The most examples kept per reason.
    public static let examplesPerReason = 3

    public private(set) var counts: [SkipReason: Int] = [:]
    public private(set) var examples: [SkipReason: [SkippedRow]] = [:]

    public init() {}

    /// Rows skipped in all.
    public var total: Int { counts.values.reduce(0, +) }

    /// Rows skipped for one reason (0 when none).
    public func count(_ reason: SkipReason) -> Int { counts[reason, default: 0] }

    /// Counts one skipped row, keeping it as an example while there are fewer than three.
    public mutating func record(_ row: SkippedRow) {
        counts[row.reason, default: 0] += 1
        if examples[row.reason, default: []].count < Self.examplesPerReason {
            examples[row.reason, default: []].append(row)
        }
    }

    /// Replaces the examples' `line` values: `transform` gets them all, reason by reason in
    /// `SkipReason.allCases` order, and returns the new values in the same order.
    package mutating func mapExampleLines(_ transform: ([Int]) -> [Int]) {
        let reasons = SkipReason.allCases.filter { examples[$0] != nil }
        let old = reasons.flatMap { examples[$0]!.compactMap(\.line) }
        var new = transform(old)[...]
        for reason in reasons {
            examples[reason] = examples[reason]!.map { row in
                var row = row
                if row.line != nil { row.line = new.popFirst()! }
                return row
            }
        }
    }

    /// Keeps the first `count(reason)` examples of each reason; the counts are not changed.
    mutating func trimExamples(_ count: (SkipReason) -> Int) {
        for (reason, rows) in examples { examples[reason] = Array(rows.prefix(max(0, count(reason)))) }
        examples = examples.filter { !$0.value.isEmpty }
    }

    /// Adds another summary's counts and examples (used when merging halves and sources);
    /// with `source`, the other's examples that name no source yet are marked as coming from it.
    public mutating func merge(_ other: SkipSummary, source: String? = nil) {
        for reason in SkipReason.allCases {
            counts[reason, default: 0] += other.count(reason)
            for row in other.examples[reason, default: []]
            where examples[reason, default: []].count < Self.examplesPerReason {
                var row = row
                if row.source == nil { row.source = source }
                examples[reason, default: []].append(row)
            }
        }
        counts = counts.filter { $0.value > 0 }
    }
}

/// What one source of a load brought: its valid sessions and skipped rows (`check` shows each
/// source of `load A B` apart).
public struct SourcePart: Hashable, Sendable {
    /// The source as the user named it.
    public var source: String
    /// Valid sessions it held.
    public var sessions: Int
    /// Its skipped rows, with examples.
    public var skipped: SkipSummary
    /// Its strings repaired to U+FFFD.
    public var repairedStrings: Int
    /// Its times written without a UTC offset, and the zone they were read in (a CSV of local
    /// times); nil when it had none.
    public var localTimes: LocalTimes?

    public init(source: String, sessions: Int, skipped: SkipSummary, repairedStrings: Int, localTimes: LocalTimes? = nil) {
        self.source = source
        self.sessions = sessions
        self.skipped = skipped
        self.repairedStrings = repairedStrings
        self.localTimes = localTimes
    }
}

/// Rows of a source whose times had no UTC offset, read as wall-clock times of a zone (said
/// once when the data loads, and by `check`).
public struct LocalTimes: Hashable, Sendable {
    /// Rows with at least one time read so.
    public var rows: Int
    /// The zone they were read in (`Europe/Paris`).
    public var zone: String

    public init(rows: Int, zone: String) {
        self.rows = rows
        self.zone = zone
    }
}

/// What tells a session of a source apart from the others when the source is read again.
public enum SessionIdentity: Sendable, Equatable {
    /// Its own id (`session_id`, an ActivityWatch event id); its content when it has none.
    case byID
    /// Its start: the source's ids are positions that change (Timewarrior numbers intervals
    /// from the latest, `@1`), and no two of its intervals start at once.
    case byStart
}

/// Every valid session of a load, sorted by start, with the interned names and the skip counts:
/// the history held in memory.
public struct Dataset: SessionHistory {
    /// Where the data came from, as the user named it (a path, `:sample:`).
    public let source: String
    /// App names by id; already normalised (trimmed; `(unknown)` for null or blank).
    public let apps: [String]
    /// Category names by id; already normalised (trimmed; `Other` for null, blank, other, others).
    public let categories: [String]
    /// Valid sessions sorted by start, then end, stored by column.
    public let sessions: SessionColumns
    /// The rows that were skipped.
    public let skipped: SkipSummary
    /// How many strings had invalid UTF-8 or lone surrogates replaced by U+FFFD.
    public let repairedStrings: Int
    /// The longest session, so that a range query knows how far back to look.
    public let longestSession: Micros
    /// The latest end of any session (`nil` when there are none): `span` is asked for on every
    /// prompt and report (the default day), so it is measured once here, not per call.
    private let latestEnd: Micros?
    /// What each source brought, in the order loaded: one part, or several after `load A B`.
    public let parts: [SourcePart]
    /// What makes one of its sessions the same session when the source is read again (the store
    /// keys what it imports by it).
    public var identity: SessionIdentity = .byID
    /// The site visits the source held (an ActivityWatch export's aw-watcher-web buckets), for
    /// `sites` of a file loaded without the store (`SiteTimes.spans(of:)`).
    public var visits: [BrowserVisit] = []

    /// An empty dataset (nothing loaded yet).
    public static let empty = Dataset(
        source: "", apps: [], categories: [], sessions: [Session](), skipped: SkipSummary(), repairedStrings: 0)

    /// A dataset of sessions in any order (they are sorted by start, then end; ties keep their order).
    public init(
        source: String, apps: [String], categories: [String], sessions: [Session],
        skipped: SkipSummary, repairedStrings: Int
    ) {
        var columns = SessionColumns()
        columns.reserve(sessions.count)
        for s in sessions {
            columns.append(start: s.start, end: s.end, app: s.app, category: s.category, id: s.id, running: s.running)
        }
        self.init(
            source: source, apps: apps, categories: categories, columns: columns.sortedByStart(), skipped: skipped,
            repairedStrings: repairedStrings)
    }

    /// A dataset of columns already sorted by start, then end (the ingest's fast path).
    package init(
        source: String, apps: [String], categories: [String], columns: SessionColumns,
        skipped: SkipSummary, repairedStrings: Int, parts: [SourcePart]? = nil
    ) {
        self.source = source
        self.apps = apps
        self.categories = categories
        self.sessions = columns
        self.skipped = skipped
        self.repairedStrings = repairedStrings
        (self.longestSession, self.latestEnd) = columns.extent
        self.parts =
            parts ?? [SourcePart(source: source, sessions: columns.count, skipped: skipped, repairedStrings: repairedStrings)]
    }

    /// The indices of the sessions that may overlap `[from, to)`: those that start before `to`
    /// and no earlier than `from` minus the longest session.
    func candidateRange(from: Micros, to: Micros) -> Range<Int> {
        let (earliest, overflow) = from.subtractingReportingOverflow(longestSession)
        let lower = overflow ? 0 : lowerBound(startAtLeast: earliest)
        let upper = lowerBound(startAtLeast: to)
        return lower..<max(lower, upper)
    }

    /// The first index whose session starts at or after `t`.
    private func lowerBound(startAtLeast t: Micros) -> Int {
        sessions.starts.withUnsafeBufferPointer { starts in
            var lo = 0
            var hi = starts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    /// The same dataset with every instant mapped through `transform` (sessions that it would
    /// leave empty are dropped).
    public func mappingTimes(_ transform: (Micros) -> Micros) -> Dataset {
        let mapped = sessions.compactMap { (s: Session) -> Session? in
            var t = s
            t.start = transform(s.start)
            t.end = transform(s.end)
            return t.end > t.start ? t : nil
        }
        return Dataset(
            source: source, apps: apps, categories: categories, sessions: mapped, skipped: skipped,
            repairedStrings: repairedStrings)
    }

    /// The same dataset with its one part noting the local times it read (a format's reader
    /// knows them only once every row is in).
    package func noting(localTimes: LocalTimes?) -> Dataset {
        guard let localTimes else { return self }
        var noted = Dataset(
            source: source, apps: apps, categories: categories, columns: sessions, skipped: skipped,
            repairedStrings: repairedStrings, parts: parts.map { part in
                var noted = part
                noted.localTimes = localTimes
                return noted
            })
        noted.visits = visits
        return noted
    }

    /// The same dataset with other category names and columns (category rules).
    func with(categories: [String], columns: SessionColumns) -> Dataset {
        var changed = Dataset(
            source: source, apps: apps, categories: categories, columns: columns,
            skipped: skipped, repairedStrings: repairedStrings, parts: parts)
        changed.identity = identity
        changed.visits = visits
        return changed
    }

    /// The earliest start and the latest end of all sessions, or `nil` when there are none.
    public var span: (start: Micros, end: Micros)? {
        guard let first = sessions.starts.first, let latestEnd else { return nil }
        return (first, latestEnd)
    }

    public var sessionCount: Int { sessions.count }

    /// The latest start: the last of the columns, sorted by start.
    public var latestStart: Micros? { sessions.starts.last }

    /// The sessions overlapping `[from, to)`: a binary search finds the candidates, which the
    /// window clips as it yields them.
    public func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow {
        SessionWindow(columns: sessions, candidates: candidateRange(from: from, to: to), from: from, to: to, longest: longestSession)
    }

    public func latestCategory(ofApp app: Int32) -> Int32? {
        sessions.apps.lastIndex(of: app).map { sessions.categories[$0] }
    }

    public func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory {
        categorising(categoryOf)
    }

    public func takeReadFailure() -> String? { nil }
}
