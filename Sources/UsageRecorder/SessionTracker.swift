// SessionTracker.swift — the recorder's sessions as a state machine, pure: what is focused, whether the person is active and whether the screen is locked go in (with the instants they changed), closed sessions and the open one come out; no clock, no I/O.
import UsageCore

/// One session = the same app focused without a break while the person is not idle and the
/// screen is not locked. The tracker holds the focused app, the active state and the lock;
/// every change closes the open session at the instant the change happened (idle: the last
/// input; a suspend: the last wakeup before it; the lock: its instant). Idle and the lock are
/// independent: a session runs only while neither holds.
public struct SessionTracker {
    /// A session shorter than this was a window passing through, and is not kept.
    public static let shortest: Micros = 1_000_000

    /// What names an app's category (the category rules; nil: Other).
    private let categoryOf: (String) -> String?
    private let zone: Zone
    public private(set) var app: String?
    public private(set) var active = true
    /// Whether the screen is locked (away, whatever the input says).
    public private(set) var locked = false
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
        if counting, newApp != nil { openStart = at }
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
        if !locked, app != nil { openStart = at }
    }

    /// The screen locked at `at`: no session runs until it unlocks. `idleSince`: the last input,
    /// when the idle time had passed the threshold already at the lock but idle was not told yet
    /// (an X server delivers its idle alarm seconds late under load): the session ends there.
    public mutating func lock(at: Micros, idleSince: Micros? = nil) {
        if let idleSince { idle(since: idleSince) }
        guard !locked else { return }
        close(at: at)
        locked = true
    }

    /// The screen unlocked at `at`: a session opens when the person is not idle.
    public mutating func unlock(at: Micros) {
        guard locked else { return }
        locked = false
        if active, app != nil { openStart = at }
    }

    /// Whether time counts now: active and not locked.
    private var counting: Bool { active && !locked }

    /// Ends the open session at `at` (the recorder stops, the machine slept); it opens again at
    /// `again` when given (after a suspend: the app is still there).
    public mutating func cut(at: Micros, again: Micros? = nil) {
        close(at: at)
        if let again, counting, app != nil { openStart = again }
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
