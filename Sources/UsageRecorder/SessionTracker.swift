// SessionTracker.swift — the recorder's sessions as a state machine, pure: what is focused and whether the person is active go in (with the instants they changed), closed sessions and the open one come out; no clock, no I/O.
import UsageCore

/// One session = the same app focused without a break while the person is not idle. The
/// tracker holds the focused app and the active state; every change closes the open session at
/// the instant the change happened (idle: the last input; a suspend: the last wakeup before it).
public struct SessionTracker {
    /// A session shorter than this was a window passing through, and is not kept.
    public static let shortest: Micros = 1_000_000

    /// What names an app's category (the category rules; nil: Other).
    private let categoryOf: (String) -> String?
    private let zone: Zone
    public private(set) var app: String?
    public private(set) var active = true
    /// When the open session started (an app focused while active), else nil.
    public private(set) var openStart: Micros?
    /// Sessions closed since the last write.
    public private(set) var closed: [RecordedSession] = []

    public init(zone: Zone, categoryOf: @escaping (String) -> String?) {
        self.zone = zone
        self.categoryOf = categoryOf
    }

    /// The focused app is now `newApp` (nil: none) since `at`; the same app again is no change.
    public mutating func focus(_ newApp: String?, at: Micros) {
        guard newApp != app else { return }
        close(at: at)
        app = newApp
        if active, newApp != nil { openStart = at }
    }

    /// Input stopped at `lastInput` and has not come back for the idle threshold.
    public mutating func idle(since lastInput: Micros) {
        guard active else { return }
        close(at: lastInput)
        active = false
    }

    /// Input came back at `at`.
    public mutating func resume(at: Micros) {
        guard !active else { return }
        active = true
        if app != nil { openStart = at }
    }

    /// Ends the open session at `at` (the recorder stops, the machine slept); it opens again at
    /// `again` when given (after a suspend: the app is still there).
    public mutating func cut(at: Micros, again: Micros? = nil) {
        close(at: at)
        if let again, active, app != nil { openStart = again }
    }

    /// The sessions to write at `now`: the closed ones and the open one up to `now`.
    public func pending(now: Micros) -> [RecordedSession] {
        var out = closed
        if let open = openSession(until: now) { out.append(open) }
        return out
    }

    /// The open session up to `now`, once it is long enough to keep.
    public func openSession(until now: Micros) -> RecordedSession? {
        guard let start = openStart, let app, now - start >= Self.shortest else { return nil }
        return session(app, start, now)
    }

    /// The closed sessions were written.
    public mutating func written() { closed.removeAll() }

    /// The category the rules give an app.
    public func category(of app: String) -> String {
        Normalise.category(categoryOf(app))
    }

    private mutating func close(at end: Micros) {
        defer { openStart = nil }
        guard let start = openStart, let app, end - start >= Self.shortest else { return }
        closed.append(session(app, start, end))
    }

    private func session(_ app: String, _ start: Micros, _ end: Micros) -> RecordedSession {
        RecordedSession(
            app: app, category: category(of: app), start: start, end: end, startOffset: zone.offsetSeconds(at: start) / 60,
            endOffset: zone.offsetSeconds(at: end) / 60)
    }
}
