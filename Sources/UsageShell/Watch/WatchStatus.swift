// WatchStatus.swift — the status line of `watch` at a terminal (what is watched and how often, what is loaded, when it was last refreshed or why the refresh failed, the stopwatch, how to stop), fitted to the width; and the timestamp line between outputs elsewhere.
import UsageCore
import UsageRender

/// What the status line says, as facts; `line(width:theme:)` words and fits them.
public struct WatchStatus: Equatable, Sendable {
    /// The command watched, as run (`show`, `apps top 5`).
    public var command: String
    /// The interval as said (`2 s`).
    public var interval: String
    /// What is loaded (`data.json`, `aw://localhost:5600`), and its sessions.
    public var source: String
    public var sessions: Int
    /// The local time of the last refresh that worked (`14:03:07`), nil before any.
    public var refreshed: String?
    /// Why the last refresh (or the command) failed, and when; nil when it worked.
    public var failure: String?
    public var failedAt: String?
    /// The running stopwatch (`● Write report 0:25`), nil when none runs.
    public var stopwatch: String?

    /// How to stop: shown whatever else has to go.
    public static let stopHint = "Ctrl-C or q to stop"

    public init(
        command: String, interval: String, source: String, sessions: Int, refreshed: String? = nil, failure: String? = nil,
        failedAt: String? = nil, stopwatch: String? = nil
    ) {
        self.command = command
        self.interval = interval
        self.source = source
        self.sessions = sessions
        self.refreshed = refreshed
        self.failure = failure
        self.failedAt = failedAt
        self.stopwatch = stopwatch
    }

    /// The line at `width` cells: every piece while they fit; then the least needed go first
    /// (the source, the stopwatch, the interval), and what is left is cut. With colour it is
    /// drawn in reverse video across the whole width; data text in it is sanitised.
    public func line(width: Int, theme: Theme) -> String {
        let watched = "every \(interval): \(command)"
        let loaded = "\(source) (\(TextReport.grouped(sessions)) session\(sessions == 1 ? "" : "s"))"
        var state: String
        if let failure {
            // When the whole of it does not fit, the error goes before the time of the data shown.
            let failed = "refresh failed" + (failedAt.map { " at \($0)" } ?? "")
            state = failed + (refreshed.map { " (the data of \($0) shown)" } ?? "") + ": " + failure
            if TerminalText.cells(state + " · " + Self.stopHint) > width { state = failed + ": " + failure }
        } else {
            state = refreshed.map { "refreshed \($0)" } ?? "not refreshed yet"
        }
        // From the most needed to the least: the state, how to stop, what runs, the stopwatch, what is loaded.
        var pieces: [(text: String, order: Int)] = [(watched, 0), (loaded, 1), (state, 2)]
        if let stopwatch { pieces.append((stopwatch, 3)) }
        pieces.append((Self.stopHint, 4))
        var text = Self.joined(pieces)
        // What is loaded is first cut in its middle (`/home/ann/…/data.json`), while that keeps some of it.
        let over = TerminalText.cells(text) - width
        let sessionsText = loaded.dropFirst(source.count)
        let room = TerminalText.cells(TerminalText.sanitize(source)) - over
        if over > 0, room >= 16 {
            pieces[1].text = TerminalText.fitMiddle(source, width: room) + sessionsText
            text = Self.joined(pieces)
        }
        for order in [1, 3, 0] where TerminalText.cells(text) > width {
            pieces.removeAll { $0.order == order }
            text = Self.joined(pieces)
        }
        if TerminalText.cells(text) > width {
            // The state is cut, so that the way to stop stays in view.
            let room = width - TerminalText.cells(Self.stopHint) - 3
            text = room >= 10 ? TerminalText.fit(state, width: room) + " · " + Self.stopHint : TerminalText.fit(text, width: width)
        }
        let fitted = TerminalText.fit(text, width: width)
        guard theme.color else { return fitted }
        return "\u{1B}[7m" + fitted + String(repeating: " ", count: max(0, width - TerminalText.cells(fitted))) + "\u{1B}[0m"
    }

    private static func joined(_ pieces: [(text: String, order: Int)]) -> String {
        TerminalText.sanitize(pieces.map(\.text).joined(separator: " · "))
    }

    /// The line before each output where there is no screen, as psql's `\watch` titles them:
    /// `Mon 2026-02-23 14:03:07 UTC (every 2 s)`.
    public static func timestamp(_ t: Micros, zone: Zone, interval: String) -> String {
        let day = zone.localDate(of: t)
        return "\(TextFormat.shortWeekday(day)) \(day) \(clock(t, zone: zone)) \(zone.identifier) (every \(interval))"
    }

    /// `14:03:07`, local to `zone`.
    public static func clock(_ t: Micros, zone: Zone) -> String {
        let wall = (t + Int64(zone.offsetSeconds(at: t)) * 1_000_000)
        let inDay = ((wall % 86_400_000_000) + 86_400_000_000) % 86_400_000_000 / 1_000_000
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))"
    }
}
