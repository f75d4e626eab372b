// DataQuality.swift — what `check` reports about a loaded dataset: counts, skipped rows, overlap and day coverage.

/// A summary of a dataset's health, computed in one pass over its sessions.
public struct DataQuality: Hashable, Sendable {
    /// Where the data came from, as the user named it.
    public let source: String
    /// Valid sessions loaded.
    public let sessions: Int
    /// Rows skipped, by reason, with up to three examples each.
    public let skipped: SkipSummary
    /// Strings in which invalid UTF-8 or a lone surrogate became U+FFFD.
    public let repairedStrings: Int
    /// The sum of all session lengths (overlapping sessions both count).
    public let appTimeMicros: Micros
    /// The length of the union of all sessions (overlaps counted once).
    public let screenTimeMicros: Micros
    /// `appTimeMicros - screenTimeMicros`: time counted more than once because sessions overlap.
    public let overlapMicros: Micros
    /// The first local day with session time in the zone (`nil` with no sessions).
    public let firstDay: LocalDate?
    /// The last local day with session time in the zone (`nil` with no sessions).
    public let lastDay: LocalDate?
    /// Calendar days from `firstDay` to `lastDay`, both included (0 with no sessions).
    public let daysCovered: Int
    /// Distinct local days on which any session has time (a session over midnight counts on both).
    public let daysWithData: Int
    /// Distinct app names that have sessions.
    public let apps: Int
    /// Distinct category names that have sessions.
    public let categories: Int
    /// What each source brought (one part, or several after `load A B`).
    public let parts: [SourcePart]
    /// The sessions still running when the data loaded, in start order.
    public let running: [RunningSession]

    /// Measures `history`, with days taken in `zone`.
    ///
    /// Linear in the sessions; the zone is asked about a session's days only when it reaches
    /// past the last day already counted, so a million sessions over a year cost a few hundred
    /// zone look-ups.
    public init(history: some SessionHistory, zone: Zone) {
        self.source = history.source
        self.sessions = history.sessionCount
        self.skipped = history.skipped
        self.repairedStrings = history.repairedStrings
        self.parts = history.parts

        var appSeen = [Bool](repeating: false, count: history.apps.count)
        var categorySeen = [Bool](repeating: false, count: history.categories.count)
        var appTime: Micros = 0
        var union = UnionLength()
        // The last day counted so far and the instant it ends: every day before it that any
        // session touched is counted already, because sessions come in start order.
        var lastCounted: LocalDate? = nil
        var lastCountedEnd = Micros.min
        var days = 0

        for s in history.all {
            appSeen[Int(s.app)] = true
            categorySeen[Int(s.category)] = true
            appTime += s.end - s.start

            union.add(s.start, s.end)

            guard s.end > lastCountedEnd else { continue }
            let last = zone.localDate(of: s.end - 1)
            var from = s.start < lastCountedEnd ? lastCounted!.adding(days: 1) : zone.localDate(of: s.start)
            if let counted = lastCounted, from <= counted { from = counted.adding(days: 1) }
            if last >= from { days += from.days(to: last) + 1 }
            lastCounted = last
            lastCountedEnd = zone.startOfDay(last.adding(days: 1))
        }
        let screen = union.total
        self.running = history.runningSessions(in: zone)

        self.appTimeMicros = appTime
        self.screenTimeMicros = screen
        self.overlapMicros = appTime - screen
        let range = history.dayRange(in: zone)
        self.firstDay = range?.lowerBound
        self.lastDay = range?.upperBound
        self.daysCovered = range.map { $0.lowerBound.days(to: $0.upperBound) + 1 } ?? 0
        self.daysWithData = days
        self.apps = appSeen.filter { $0 }.count
        self.categories = categorySeen.filter { $0 }.count
    }
}

/// A session still running when its data loaded: its source gave no end (a Timewarrior interval
/// being tracked), so it counts up to the load's clock, `end`.
public struct RunningSession: Hashable, Sendable {
    public let app: String
    public let id: String?
    public let start: Micros
    /// The load's clock: where its time stops counting until the next load.
    public let end: Micros
    /// The zone's UTC offset at `start`, for printing it as local time.
    public let startUTCOffsetSeconds: Int

    public init(app: String, id: String?, start: Micros, end: Micros, startUTCOffsetSeconds: Int) {
        self.app = app
        self.id = id
        self.start = start
        self.end = end
        self.startUTCOffsetSeconds = startUTCOffsetSeconds
    }
}

extension SessionHistory {
    /// The sessions still running when the data loaded, in start order (none is the rule: only
    /// a source that gives no end, such as a Timewarrior interval being tracked, has any).
    public func runningSessions(in zone: Zone) -> [RunningSession] {
        let all = self.all
        guard all.mayHoldRunning else { return [] }
        return all.filter { all.isRunning($0) }.map { s in
            RunningSession(
                app: apps[Int(s.app)], id: all.id(of: s), start: s.start, end: s.end,
                startUTCOffsetSeconds: zone.offsetSeconds(at: s.start))
        }
    }
}
