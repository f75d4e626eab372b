// StoreHistory.swift — the store as a SessionHistory, for every backend: a snapshot of its names and facts taken at load, and windows read from the start index (only the sessions touching the days shown), cached while the store does not change; one screen's reads are one snapshot.
import Synchronization
import UsageCore

/// The store's sessions as reports read them. Opening reads no session: the names, the count,
/// the span and the longest session are kept up to date by every change. A window reads only
/// the rows that start in it (or up to a day before it), plus the few sessions longer than a
/// day through their own index, so its cost grows with the days shown, not the years kept.
///
/// It is a snapshot of the sessions there were at load: sessions another process adds later
/// (rows past `lastRow`) are not seen until the next load. Windows are kept while the store
/// does not change; one screen's windows (`readingAsOne`) are read in one transaction.
public final class StoreHistory: SessionHistory {
    /// The names and facts a history is opened with, read in one snapshot.
    struct Facts: Sendable {
        var apps: [String]
        var categories: [String]
        var sessionCount: Int
        var span: (start: Micros, end: Micros)?
        /// The latest start (read through the start index).
        var latestStart: Micros?
        /// The longest session (how far before a window a session may start; see `longSession`).
        var longest: Micros
        /// The last row of the snapshot.
        var lastRow: Int64
        /// The device read (its id), or nil for all of them.
        var device: Int64?
        /// The store's change counter in the snapshot, where the backend keeps one
        /// (PostgreSQL): a window read while it is still the same holds no row past `lastRow`,
        /// so its query needs no `id` filter and the start index alone answers it.
        var version: Int64? = nil
    }

    public let source: String
    public let apps: [String]
    public let categories: [String]
    public let sessionCount: Int
    public let span: (start: Micros, end: Micros)?
    public var latestStart: Micros? { facts.latestStart }
    public let parts: [SourcePart]
    public var skipped: SkipSummary { SkipSummary() }
    public var repairedStrings: Int { 0 }
    let facts: Facts
    let windows: any StoreWindows

    /// Sessions longer than this are few and found through their own index, so that a window
    /// query reads back only one day before its start.
    static let longSession: Int64 = 86_400_000_000

    private struct State {
        var windows: [WindowKey: SessionWindow] = [:]
        var order: [WindowKey] = []
        /// The state the kept windows were read in.
        var version: Int64?
        var failure: String?
    }

    private struct WindowKey: Hashable {
        let from: Micros
        let to: Micros
        /// Whether the window's sessions carry their ids.
        let ids: Bool
    }

    private let state = Mutex(State())
    /// How many windows are kept (a month of days and the month before, for `days 31`).
    static let cachedWindows = 96

    /// The device whose sessions these are (nil: every device's).
    public let device: String?

    /// A snapshot of the store behind `windows` (of `device`'s sessions alone, with one), named
    /// `source` in messages.
    init(windows: any StoreWindows, source: String, device: String? = nil) throws(StoreError) {
        self.windows = windows
        self.source = source
        self.device = device
        facts = try windows.facts(device: device)
        (apps, categories, sessionCount, span) = (facts.apps, facts.categories, facts.sessionCount, facts.span)
        parts = [SourcePart(source: source, sessions: sessionCount, skipped: SkipSummary(), repairedStrings: 0)]
    }

    /// Where the store is.
    public var location: StoreLocation { windows.location }

    public func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow {
        read(from: from, to: to, ids: ids, keep: true)
    }

    /// A window read for one pass (the colours' walk over all the years): read like any other,
    /// but not kept, so the cache still holds the days shown and memory stays one stretch's.
    public func uncachedWindow(from: Micros, to: Micros) -> SessionWindow {
        read(from: from, to: to, ids: false, keep: false)
    }

    private func read(from: Micros, to: Micros, ids: Bool, keep: Bool) -> SessionWindow {
        let key = WindowKey(from: from, to: to, ids: ids)
        do {
            let version = try windows.readVersion()
            let cached: SessionWindow? = state.withLock { state in
                if state.version != version {
                    // The store changed: what is kept is of another state.
                    state.windows = [:]
                    state.order = []
                    state.version = version
                    return nil
                }
                if let exact = state.windows[key] { return exact }
                // A window holds every session touching it, so one that covers this one serves
                // it too (one with ids serves one without).
                for (other, window) in state.windows where other.from <= from && other.to >= to && (other.ids || !ids) {
                    return window.narrowed(from: from, to: to)
                }
                return nil
            }
            if let cached { return cached }
            let (columns, readIn) = try windows.columns(from: from, to: to, ids: ids, facts: facts)
            let window = SessionWindow(columns: columns, candidates: 0..<columns.count, from: from, to: to)
            if keep {
                state.withLock { state in
                    guard state.version == readIn else { return }
                    state.windows[key] = window
                    state.order.append(key)
                    if state.order.count > Self.cachedWindows { state.windows[state.order.removeFirst()] = nil }
                }
            }
            return window
        } catch {
            state.withLock { $0.failure = $0.failure ?? error.description }
            return .empty(from: from, to: to)
        }
    }

    /// How many windows are kept now (for tests).
    var cachedWindowCount: Int { state.withLock { $0.windows.count } }

    public func latestCategory(ofApp app: Int32) -> Int32? {
        do {
            return try windows.latestCategory(ofApp: app)
        } catch {
            state.withLock { $0.failure = $0.failure ?? error.description }
            return nil
        }
    }

    /// A range's totals from the totals the store keeps, the selected device's or every
    /// device's (its windows summed instead when the store gained sessions since this
    /// snapshot, which the kept totals would count).
    public func rangeTotals(_ bounds: DayBounds, detail: Bool) -> RangeTotals {
        do {
            if let kept = try windows.keptRangeTotals(bounds, detail: detail, device: facts.device, upToRow: facts.lastRow) { return kept }
        } catch {
            state.withLock { $0.failure = $0.failure ?? error.description }
            return .empty(days: bounds.count)
        }
        return summingRangeTotals(bounds, detail: detail)
    }

    /// The store's sessions were categorised when they were imported.
    public func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory { self }

    public func takeReadFailure() -> String? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }

    public func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try windows.readingAsOne(body)
    }

    /// `facts` narrowed to the device named `device` (nil: all), read in the same transaction:
    /// its count, span and longest session from its row, its first and latest start through the start index.
    static func narrowed(_ facts: Facts, to device: String?, location: StoreLocation, _ tx: any SQLTransaction) throws -> Facts {
        guard let device else { return facts }
        guard let row = try tx.row("SELECT id, sessions, latest_end, longest FROM device WHERE name = ?", [.text(device)]),
            let id = row.int("id")
        else { throw StoreError.unknownDevice(path: location.description, name: device) }
        var narrowed = facts
        narrowed.device = id
        narrowed.sessionCount = Int(row.int("sessions") ?? 0)
        let first = try tx.int("SELECT min(start) FROM session WHERE device = ?", [.integer(id)])
        narrowed.span = first.flatMap { start in row.int("latest_end").map { (start, $0) } }
        narrowed.latestStart = try tx.int("SELECT max(start) FROM session WHERE device = ?", [.integer(id)])
        narrowed.longest = row.int("longest") ?? 0
        return narrowed
    }

    /// The condition a window's query adds for a device (its one argument follows the others).
    static func deviceCondition(_ facts: Facts) -> String { facts.device == nil ? "" : " AND device = ?" }
}
