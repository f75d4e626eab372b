// Limits.swift — daily limits on an app, a category or a site: how much of one a day used, and the moment the limit was crossed.

/// What a limit applies to: one app, one category (names compare by Unicode scalars), or a
/// site (a `SitePattern` as written: `youtube.com`, `*.example.org`).
public enum LimitTarget: Hashable, Sendable {
    case app(String)
    case category(String)
    case site(String)

    public var name: String {
        switch self {
        case .app(let n), .category(let n), .site(let n): return n
        }
    }

    /// Whether two targets are the same app or category, scalar for scalar.
    public func sameAs(_ other: LimitTarget) -> Bool {
        switch (self, other) {
        case (.app(let a), .app(let b)), (.category(let a), .category(let b)):
            return a.sameScalars(as: b)
        case (.site(let a), .site(let b)):
            return a == b
        default:
            return false
        }
    }
}

/// A daily limit.
public struct UsageLimit: Hashable, Sendable {
    public let target: LimitTarget
    public let micros: Micros

    public init(target: LimitTarget, micros: Micros) {
        self.target = target
        self.micros = micros
    }
}

/// How a limit stands on one day.
public struct LimitStatus: Hashable, Sendable {
    public let limit: UsageLimit
    /// The app's (or category's) time that day: its sessions clipped to the day, overlaps counted
    /// as often as they overlap (as the app list counts them).
    public let usedMicros: Micros
    /// When the running total reached the limit (UTC micros), nil when it did not.
    public let crossedAt: Micros?

    public var isCrossed: Bool { crossedAt != nil }

    /// The limit's status on `date` in `zone`, from the day's sessions in time order.
    public init(_ limit: UsageLimit, history: some SessionHistory, date: LocalDate, zone: Zone) {
        self.limit = limit
        let names: [String]
        switch limit.target {
        case .app: names = history.apps
        case .category: names = history.categories
        // A site's time is not in the sessions: `init(_:seen:)` takes it.
        case .site: names = []
        }
        var intervals: [(start: Micros, end: Micros)] = []
        if let id = names.firstIndex(where: { $0.sameScalars(as: limit.target.name) }).map(Int32.init) {
            for s in history.window(zone.window(for: date)) {
                switch limit.target {
                case .app: if s.app == id { intervals.append((s.start, s.end)) }
                case .category: if s.category == id { intervals.append((s.start, s.end)) }
                case .site: break
                }
            }
        }
        usedMicros = intervals.reduce(0) { $0 + $1.end - $1.start }
        crossedAt = Self.moment(of: limit.micros, in: intervals)
    }

    /// A site limit's status from the day's spans in which sites were seen (`SiteTimes.spans`):
    /// those of the sites its pattern matches, in any browser.
    public init(_ limit: UsageLimit, seen spans: [SiteSpan]) {
        self.limit = limit
        let pattern = SitePattern(limit.target.name)
        let intervals = spans.filter { pattern?.matches($0.site) == true }.map { (start: $0.start, end: $0.end) }
        usedMicros = intervals.reduce(0) { $0 + $1.end - $1.start }
        crossedAt = Self.moment(of: limit.micros, in: intervals)
    }

    /// The first instant at which the running total of `intervals` (each counting while it is
    /// open, so two open at once count twice) reaches `limit`; nil when it never does. A limit
    /// of zero is crossed at the first instant of use.
    static func moment(of limit: Micros, in intervals: [(start: Micros, end: Micros)]) -> Micros? {
        guard !intervals.isEmpty else { return nil }
        // Sweep the starts and ends in time order; between two events the total grows at the
        // number of open intervals per microsecond.
        var events = intervals.flatMap { [($0.start, 1), ($0.end, -1)] }
        events.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var total: Micros = 0
        var open = 0
        var previous = events[0].0
        for (t, change) in events {
            if open > 0 {
                let gained = Micros(open) * (t - previous)
                if total + gained >= limit {
                    let needed = limit - total
                    return previous + (needed + Micros(open) - 1) / Micros(open)
                }
                total += gained
            } else if total >= limit {
                return previous
            }
            open += change
            previous = t
        }
        return total >= limit ? previous : nil
    }
}
