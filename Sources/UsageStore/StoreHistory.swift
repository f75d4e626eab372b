// StoreHistory.swift — the store as a SessionHistory: a snapshot of its names and facts taken at load, and windows read from the start index (only the sessions touching the days shown), cached.
import GRDB
import GRDBSQLite
import Synchronization
import UsageCore

/// The store's sessions as reports read them. Opening reads no session: the names, the count,
/// the span and the longest session are kept up to date by every change. A window reads only
/// the rows that start in it (or up to a day before it), plus the few sessions longer than a
/// day through their own index, so its cost grows with the days shown, not the years kept.
///
/// It is a snapshot: sessions another process adds later (rows past `lastRow`) are not seen
/// until the next load.
public final class StoreHistory: SessionHistory {
    public let store: Store
    public let source: String
    public let apps: [String]
    public let categories: [String]
    public let sessionCount: Int
    public let span: (start: Micros, end: Micros)?
    public let parts: [SourcePart]
    public var skipped: SkipSummary { SkipSummary() }
    public var repairedStrings: Int { 0 }
    /// The longest session (how far before a window a session may start; see `Schema.longSession`).
    let longest: Micros
    /// The last row of the snapshot.
    let lastRow: Int64

    private struct State {
        var windows: [WindowKey: SessionWindow] = [:]
        var order: [WindowKey] = []
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

    /// A snapshot of `store`, named `source` in messages.
    public init(store: Store, source: String) throws(StoreError) {
        self.store = store
        self.source = source
        let snapshot = try store.read { db in
            let apps = try Self.names(db, table: "app")
            let categories = try Self.names(db, table: "category")
            let count = try Store.meta(db, Store.MetaKey.sessions) ?? 0
            let latestEnd = try Store.meta(db, Store.MetaKey.latestEnd)
            let longest = try Store.meta(db, Store.MetaKey.longest) ?? 0
            let lastRow = try Int64.fetchOne(db, sql: "SELECT max(id) FROM session") ?? 0
            let first = try Int64.fetchOne(db, sql: "SELECT min(start) FROM session")
            return (apps, categories, count, latestEnd, longest, lastRow, first)
        }
        (apps, categories) = (snapshot.0, snapshot.1)
        sessionCount = Int(snapshot.2)
        span = snapshot.6.flatMap { first in snapshot.3.map { (first, $0) } }
        longest = snapshot.4
        lastRow = snapshot.5
        parts = [SourcePart(source: source, sessions: sessionCount, skipped: SkipSummary(), repairedStrings: 0)]
    }

    /// Names by id (`id - 1`); ids are never reused, names never deleted.
    private static func names(_ db: Database, table: String) throws -> [String] {
        var names: [String] = []
        for (id, name) in try Store.names(db, table: table) {
            while names.count < Int(id) - 1 { names.append(Normalise.unknownApp) }
            names.append(name)
        }
        return names
    }

    public func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow {
        let key = WindowKey(from: from, to: to, ids: ids)
        let cached: SessionWindow? = state.withLock { state in
            if let exact = state.windows[key] { return exact }
            // A window holds every session touching it, so one that covers this one serves it
            // too (one with ids serves one without).
            for (other, window) in state.windows where other.from <= from && other.to >= to && (other.ids || !ids) {
                return window.narrowed(from: from, to: to)
            }
            return nil
        }
        if let cached { return cached }
        do {
            let window = try read(from: from, to: to, ids: ids)
            state.withLock { state in
                state.windows[key] = window
                state.order.append(key)
                if state.order.count > Self.cachedWindows { state.windows[state.order.removeFirst()] = nil }
            }
            return window
        } catch {
            state.withLock { $0.failure = $0.failure ?? error.description }
            return .empty(from: from, to: to)
        }
    }

    /// How many windows are kept now (for tests).
    var cachedWindowCount: Int { state.withLock { $0.windows.count } }

    /// A window read for one pass (the colours' walk over all the years): read like any other,
    /// but not kept, so the cache still holds the days shown and memory stays one stretch's.
    public func passingWindow(from: Micros, to: Micros) -> SessionWindow {
        let key = WindowKey(from: from, to: to, ids: false)
        if let cached = state.withLock({ $0.windows[key] }) { return cached }
        do {
            return try read(from: from, to: to, ids: false)
        } catch {
            state.withLock { $0.failure = $0.failure ?? error.description }
            return .empty(from: from, to: to)
        }
    }

    /// The rows touching `[from, to)`: those starting from a day before `from` (through the
    /// start index), and the longer ones starting earlier (through their own index).
    private func read(from: Micros, to: Micros, ids: Bool) throws(StoreError) -> SessionWindow {
        let (earliest, overflow) = from.subtractingReportingOverflow(Schema.longSession)
        let recentFrom = overflow ? Int64.min : earliest
        let (apps, categories, lastRow, longest) = (self.apps.count, self.categories.count, self.lastRow, self.longest)
        let columns = try store.read { db -> SessionColumns in
            var columns = SessionColumns()
            func collect(_ sql: String, _ arguments: [Int64]) throws {
                let statement = try db.makeStatement(sql: sql)
                let s = statement.sqliteStatement
                for (k, value) in arguments.enumerated() { sqlite3_bind_int64(s, Int32(k + 1), value) }
                while true {
                    let step = sqlite3_step(s)
                    if step == SQLITE_DONE { break }
                    guard step == SQLITE_ROW else {
                        throw DatabaseError(resultCode: ResultCode(rawValue: step), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                    let start = sqlite3_column_int64(s, 0)
                    let end = start + sqlite3_column_int64(s, 1)
                    let app = Int(sqlite3_column_int64(s, 2)) - 1
                    let category = Int(sqlite3_column_int64(s, 3)) - 1
                    // Names added after the snapshot belong to sessions it does not show.
                    guard app >= 0, app < apps, category >= 0, category < categories else { continue }
                    var id: String?
                    if ids, let text = sqlite3_column_text(s, 4) {
                        id = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(s, 4))), as: UTF8.self)
                    }
                    columns.append(start: start, end: end, app: Int32(app), category: Int32(category), id: id)
                }
            }
            let idColumn = ids ? "ext_id" : "NULL"
            try collect(
                "SELECT start, length, app, category, \(idColumn) FROM session WHERE start >= ? AND start < ? AND start + length > ? AND id <= ? ORDER BY start",
                [recentFrom, to, from, lastRow])
            if longest > Schema.longSession, !overflow {
                try collect(
                    "SELECT start, length, app, category, \(idColumn) FROM session WHERE length > \(Schema.longSession) AND start < ? AND start + length > ? AND id <= ?",
                    [recentFrom, from, lastRow])
            }
            return columns.sortedByStart()
        }
        return SessionWindow(columns: columns, candidates: 0..<columns.count, from: from, to: to)
    }

    public func latestCategory(ofApp app: Int32) -> Int32? {
        do {
            return try store.read { db in
                try Int64.fetchOne(db, sql: "SELECT category FROM app_latest WHERE app = ?", arguments: [Int64(app) + 1])
            }.map { Int32($0 - 1) }
        } catch {
            state.withLock { $0.failure = $0.failure ?? error.description }
            return nil
        }
    }

    /// The store's sessions were categorised when they were imported.
    public func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory { self }

    public func takeReadFailure() -> String? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }
}
