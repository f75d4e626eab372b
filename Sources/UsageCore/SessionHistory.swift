// SessionHistory.swift — what every report reads: a history of sessions that hands over the sessions touching a time window, already clipped to it (the in-memory Dataset is one history; the store is another).

/// All the sessions a load gave, with their names, able to hand over any window of them.
///
/// Reports never walk a history themselves: they ask for the window they show (a day, a week)
/// and read the clipped sessions it yields. A history held in memory answers from its columns;
/// one held in a database reads only the window's rows. Names are interned: a session's `app`
/// and `category` index `apps` and `categories`.
public protocol SessionHistory: Sendable {
    /// Where the data came from, as the user named it (a path, `:sample:`, `a.json + b.csv`).
    var source: String { get }
    /// App names by id (normalised: trimmed, `(unknown)` for null or blank).
    var apps: [String] { get }
    /// Category names by id (normalised: `Other` for null, blank, other, others).
    var categories: [String] { get }
    /// Valid sessions in all.
    var sessionCount: Int { get }
    /// The earliest start and the latest end of all sessions, or `nil` when there are none.
    var span: (start: Micros, end: Micros)? { get }
    /// The latest start of any session, or `nil` when there are none (the default day's; a
    /// store reads it through its start index, never walking its sessions).
    var latestStart: Micros? { get }
    /// The rows the load skipped, by reason, with examples.
    var skipped: SkipSummary { get }
    /// Strings in which invalid UTF-8 or a lone surrogate became U+FFFD.
    var repairedStrings: Int { get }
    /// What each source brought, in the order loaded.
    var parts: [SourcePart] { get }

    /// The sessions that overlap `[from, to)`, clipped to it, in (start, end) order; with
    /// `ids`, their ids can be asked for (a store reads them only then).
    /// The site visits it holds (a file's: an ActivityWatch export's web buckets; a store's
    /// are read by range from the store instead: none here).
    var visits: [BrowserVisit] { get }

    func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow

    /// The sessions that overlap `[from, to)`, as `window` gives them without ids, read for one
    /// pass and not kept (a store reads them anew, leaving its cache of shown days alone).
    func uncachedWindow(from: Micros, to: Micros) -> SessionWindow

    /// The category of the app's most recent session (by start), or nil when it has none.
    func latestCategory(ofApp app: Int32) -> Int32?

    /// What the days of `bounds` add up to (`summary`); with `detail`, also per app and
    /// category. A history summing its window answers by default; a store answers from the
    /// totals it keeps, without reading the sessions of the days in between.
    func rangeTotals(_ bounds: DayBounds, detail: Bool) -> RangeTotals

    /// The same history with the category `categoryOf` names given to uncategorised sessions
    /// (`Other`), for the apps it names one for (the category rules).
    func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory

    /// What went wrong reading windows since the last call (a store's damaged page, a file
    /// gone), said once; nil when nothing did. A window that could not be read comes back
    /// empty, so whatever was computed from it meanwhile must not be shown: the caller asks
    /// here after each command. A history held in memory never fails.
    func takeReadFailure() -> String?

    /// Runs `body` with every window it reads taken from one state of the history: a store
    /// reads one screen's windows in one transaction, so that a change committed meanwhile by
    /// another process cannot show half; a history held in memory just runs it.
    func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T
}

extension SessionHistory {
    /// None, unless the history holds some (a `Dataset` of a file that had them).
    public var visits: [BrowserVisit] { [] }

    /// A history held in memory is one state already.
    public func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try body()
    }

    /// The sessions that overlap `[from, to)`, clipped to it, without their ids.
    public func window(from: Micros, to: Micros) -> SessionWindow {
        window(from: from, to: to, ids: false)
    }

    /// Every session, unclipped, with its id (`check`, `rules`, `export` look at the whole history).
    public var all: SessionWindow { window(from: .min, to: .max, ids: true) }

    /// A history without totals of its own sums its window.
    public func rangeTotals(_ bounds: DayBounds, detail: Bool) -> RangeTotals {
        summingRangeTotals(bounds, detail: detail)
    }

    /// An in-memory history's windows cost nothing to keep: the same as `window`.
    public func uncachedWindow(from: Micros, to: Micros) -> SessionWindow {
        window(from: from, to: to, ids: false)
    }

    /// Every session once, in start order, unclipped (`sessionStart`, `sessionEnd`), read a
    /// stretch of `days` days at a time through `uncachedWindow`, so that a store's years are
    /// never in memory at once; a stretch with nothing in it doubles the next one, so gaps of
    /// years cost a few reads.
    public func forEachSession(days: Int = 32, _ body: (ClippedSession) -> Void) {
        guard let span else { return }
        let stretch = Micros(days) * 24 * DayWindow.hour
        var (from, length) = (span.start, stretch)
        while from < span.end {
            let (end, overflow) = from.addingReportingOverflow(length)
            let to = overflow ? Micros.max : end
            var any = false
            for s in uncachedWindow(from: from, to: to) where s.sessionStart >= from && s.sessionStart < to {
                any = true
                body(s)
            }
            if overflow { break }
            from = to
            length = any ? stretch : min(length * 2, Micros.max / 4)
        }
    }

    /// The first and last local days that hold any session time, in `zone` (docs/DATA.md §3).
    public func dayRange(in zone: Zone) -> ClosedRange<LocalDate>? {
        guard let span else { return nil }
        return zone.localDate(of: span.start)...zone.localDate(of: span.end - 1)
    }

    /// docs/DATA.md §3's default day: the last local day on which a session starts — not the
    /// tail of one running past the last midnight, which would show a day of a few minutes —
    /// or today when a session reaches into today; with no data, today.
    public func defaultDay(in zone: Zone, now: Micros) -> LocalDate {
        let today = zone.localDate(of: now)
        guard let span, let latestStart else { return today }
        let lastStart = zone.localDate(of: latestStart)
        if lastStart < today, zone.localDate(of: span.end - 1) >= today { return today }
        return lastStart
    }

    /// The sessions of one local day, clipped to it.
    public func window(_ day: DayWindow, ids: Bool = false) -> SessionWindow {
        window(from: day.start, to: day.end, ids: ids)
    }
}

/// One session as a window yields it: its part inside the window.
public struct ClippedSession: Sendable {
    /// Start of the part inside the window (the window's start when the session began earlier).
    public let start: Micros
    /// End of the part inside the window, exclusive; always after `start`.
    public let end: Micros
    /// The session's own start, before clipping.
    public let sessionStart: Micros
    /// The session's own end, before clipping.
    public let sessionEnd: Micros
    /// Index into the history's `apps`.
    public let app: Int32
    /// Index into the history's `categories`.
    public let category: Int32
    /// Where the session sits in the window's columns (for its id).
    @usableFromInline let position: Int

    /// The clipped length, > 0.
    @inline(__always) public var length: Micros { end - start }
    /// The session began before the window and was clipped at its start.
    public var startsBefore: Bool { sessionStart < start }
    /// The session ran past the window and was clipped at its end.
    public var endsAfter: Bool { sessionEnd > end }
}

/// The sessions of a history that overlap a window `[from, to)`, clipped to it: a sequence in
/// (start, end) order that skips every candidate left empty by the clipping. It shares the
/// history's columns (no copy) and reads only the candidate range.
public struct SessionWindow: Sequence, Sendable {
    /// The window's first instant.
    public let from: Micros
    /// The window's end (exclusive).
    public let to: Micros
    let columns: SessionColumns
    /// The candidates: indices of `columns` that may overlap the window.
    let candidates: Range<Int>
    /// The longest session among the columns (how far back a narrower window looks).
    let longest: Micros

    /// A window over `columns` (sorted by start), reading only `candidates`, whose longest
    /// session is at most `longest` long (measured when not given).
    public init(columns: SessionColumns, candidates: Range<Int>, from: Micros, to: Micros, longest: Micros? = nil) {
        self.columns = columns
        self.candidates = candidates
        self.from = from
        self.to = to
        self.longest = longest ?? columns.extent.longest
    }

    /// A window with no sessions.
    public static func empty(from: Micros, to: Micros) -> SessionWindow {
        SessionWindow(columns: SessionColumns(), candidates: 0..<0, from: from, to: to)
    }

    /// The same sessions seen through a narrower window inside this one (a window holds every
    /// session touching it, so it holds every session touching a part of it).
    public func narrowed(from: Micros, to: Micros) -> SessionWindow {
        precondition(from >= self.from && to <= self.to, "a narrower window")
        let (earliest, overflow) = from.subtractingReportingOverflow(longest)
        let lower = overflow ? candidates.lowerBound : firstCandidate(startingAtOrAfter: earliest)
        let upper = firstCandidate(startingAtOrAfter: to)
        return SessionWindow(columns: columns, candidates: lower..<Swift.max(lower, upper), from: from, to: to, longest: longest)
    }

    /// The window cut into consecutive windows of at most `size` candidates each (at least
    /// one): read one after another they yield exactly this window's sessions, in order. For
    /// writers that share the sessions out among threads.
    public func pieces(of size: Int) -> [SessionWindow] {
        precondition(size > 0)
        let bounds = Array(stride(from: candidates.lowerBound, to: candidates.upperBound, by: size))
        guard !bounds.isEmpty else { return [self] }
        return bounds.map { lower in
            SessionWindow(
                columns: columns, candidates: lower..<Swift.min(lower + size, candidates.upperBound), from: from, to: to,
                longest: longest)
        }
    }

    /// The first candidate whose session starts at or after `t` (candidates are sorted by start).
    private func firstCandidate(startingAtOrAfter t: Micros) -> Int {
        columns.starts.withUnsafeBufferPointer { starts in
            var lo = candidates.lowerBound
            var hi = candidates.upperBound
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    /// Calls `body` with each session the window yields, as the iterator yields it (clipped
    /// start and end, app, category), in order: read straight from the columns, for the day
    /// reports' passes, which touch nothing else.
    @inline(__always) public func forEachClipped(_ body: (_ start: Micros, _ end: Micros, _ app: Int32, _ category: Int32) -> Void) {
        columns.starts.withUnsafeBufferPointer { starts in
            columns.ends.withUnsafeBufferPointer { ends in
                columns.apps.withUnsafeBufferPointer { apps in
                    columns.categories.withUnsafeBufferPointer { categories in
                        for k in candidates {
                            let start = Swift.max(starts[k], from)
                            let end = Swift.min(ends[k], to)
                            if end > start { body(start, end, apps[k], categories[k]) }
                        }
                    }
                }
            }
        }
    }

    /// The longest session as the window clips it (the first of equals, in the window's
    /// order): its app, clipped start and clipped length; nil when the window yields none. One
    /// tight pass over the candidates' times, making no `ClippedSession`.
    public var longestClipped: (app: Int32, start: Micros, length: Micros)? {
        columns.starts.withUnsafeBufferPointer { starts in
            columns.ends.withUnsafeBufferPointer { ends in
                var best = -1
                var bestLength: Micros = 0
                var bestStart: Micros = 0
                for k in candidates {
                    let start = Swift.max(starts[k], from)
                    let length = Swift.min(ends[k], to) - start
                    if length > bestLength {
                        (best, bestLength, bestStart) = (k, length, start)
                    }
                }
                return best < 0 ? nil : (columns.apps[best], bestStart, bestLength)
            }
        }
    }

    /// The session id of a yielded session, or nil when its row had none (made into text only here).
    public func id(of session: ClippedSession) -> String? {
        columns.id(at: session.position)
    }

    /// The UTC offsets a yielded session's timestamps were written with, when its source said.
    public func offsets(of session: ClippedSession) -> UTCOffsets {
        columns.offsets(at: session.position)
    }

    /// Calls `body` with the UTF-8 bytes of a yielded session's id (nil when it has none),
    /// making no `String` (bulk paths: the store's import).
    public func withID<R>(of session: ClippedSession, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        try columns.withID(at: session.position, body)
    }

    /// Calls `body` with the ids of the window's sessions as bytes, for writers that go
    /// through many sessions and make no `String` (`export`): one call, not a closure per id.
    public func withIDs<R>(_ body: (SessionIDs) throws -> R) rethrows -> R {
        try columns.withIDs(body)
    }

    /// Whether a yielded session was still running when loaded (its end is the load's clock).
    public func isRunning(_ session: ClippedSession) -> Bool {
        columns.isRunning(at: session.position)
    }

    /// Whether any session of the history is running (so that most walks need not ask each one).
    public var mayHoldRunning: Bool { columns.hasRunning }

    public func makeIterator() -> Iterator {
        Iterator(window: self, position: candidates.lowerBound)
    }

    public struct Iterator: IteratorProtocol {
        let window: SessionWindow
        var position: Int

        @inline(__always) public mutating func next() -> ClippedSession? {
            let columns = window.columns
            while position < window.candidates.upperBound {
                let k = position
                position += 1
                let s = columns.core(k)
                let start = Swift.max(s.start, window.from)
                let end = Swift.min(s.end, window.to)
                guard end > start else { continue }
                return ClippedSession(
                    start: start, end: end, sessionStart: s.start, sessionEnd: s.end, app: s.app, category: s.category,
                    position: k)
            }
            return nil
        }
    }
}

extension DayWindow {
    /// Calls `body` with each hour slot that `[start, end)` (inside the day) overlaps, and the
    /// length of the overlap: the one walk over hour slots the hourly reports share.
    @inline(__always) public func forEachSlot(overlapping start: Micros, _ end: Micros, _ body: (Int, Micros) -> Void) {
        var k = Int((start - self.start) / DayWindow.hour)
        while k < slots.count, slots[k].start < end {
            let overlap = min(end, slots[k].end) - max(start, slots[k].start)
            if overlap > 0 { body(k, overlap) }
            k += 1
        }
    }
}
