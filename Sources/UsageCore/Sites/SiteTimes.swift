// SiteTimes.swift — a site's time as a person saw it: each visit intersected with the sessions of its browser's app on the same device (the recorder's sessions leave out idle and locked time and other apps in front), one site at a time where visits overlap, clipped to a range, added up per site and browser.

/// A stretch of time a browser showed one site in front on a device (as the store keeps it).
public struct SiteVisit: Equatable, Sendable {
    public let device: Int64
    /// The browser family (`BrowserApps.families`).
    public let browser: String
    public let site: String
    public let start: Micros
    public let end: Micros

    public init(device: Int64, browser: String, site: String, start: Micros, end: Micros) {
        self.device = device
        self.browser = browser
        self.site = site
        self.start = start
        self.end = end
    }
}

/// A session of an app on a device (its name decides the browser it is).
public struct AppSpan: Equatable, Sendable {
    public let device: Int64
    public let app: String
    public let start: Micros
    public let end: Micros

    public init(device: Int64, app: String, start: Micros, end: Micros) {
        self.device = device
        self.app = app
        self.start = start
        self.end = end
    }
}

/// A stretch of a visit during which its browser was in front: time a person saw the site.
public struct SiteSpan: Equatable, Sendable {
    public let site: String
    public let browser: String
    public let start: Micros
    public let end: Micros
    /// Which visit it is part of (a visit in and out of front is several spans).
    public let visit: Int

    public init(site: String, browser: String, start: Micros, end: Micros, visit: Int) {
        self.site = site
        self.browser = browser
        self.start = start
        self.end = end
        self.visit = visit
    }
}

/// One site's time in one browser.
public struct SiteTime: Equatable, Sendable {
    public let site: String
    public let browser: String
    /// µs seen, within the range.
    public let micros: Micros
    /// How many visits added to it.
    public let sessions: Int

    public init(site: String, browser: String, micros: Micros, sessions: Int) {
        self.site = site
        self.browser = browser
        self.micros = micros
        self.sessions = sessions
    }
}

/// One site's time, every browser's added up (`sites`).
public struct SiteTotal: Equatable, Sendable {
    public let site: String
    public let micros: Micros
    public let sessions: Int

    public init(site: String, micros: Micros, sessions: Int) {
        self.site = site
        self.micros = micros
        self.sessions = sessions
    }
}

public enum SiteTimes {
    /// Each site's time per browser within `[from, to)`: its visits' time while one of its
    /// browser's apps was in front on the visit's device, so that a browser's sites add up to
    /// no more than the browser's time. Most time first, then by site and browser; a site
    /// whose visits fell outside every session is left out.
    public static func seen(_ visits: [SiteVisit], sessions: [AppSpan], from: Micros, to: Micros) -> [SiteTime] {
        times(spans(visits, sessions: sessions, from: from, to: to))
    }

    /// The spans of `[from, to)` during which each visit's browser was in front on its device,
    /// in the order of the visits.
    public static func spans(_ visits: [SiteVisit], sessions: [AppSpan], from: Micros, to: Micros) -> [SiteSpan] {
        // Each device's and browser's time in front, as disjoint sorted intervals.
        var fronts: [Key: [(Micros, Micros)]] = [:]
        for span in sessions {
            guard let browser = BrowserApps.family(ofApp: span.app) else { continue }
            let (start, end) = (max(span.start, from), min(span.end, to))
            if start < end { fronts[Key(device: span.device, browser: browser), default: []].append((start, end)) }
        }
        for (key, spans) in fronts { fronts[key] = merged(spans) }
        var out: [SiteSpan] = []
        for piece in inFront(visits) {
            let visit = visits[piece.visit]
            guard let front = fronts[Key(device: visit.device, browser: visit.browser)] else { continue }
            for (start, end) in overlaps(max(piece.start, from), min(piece.end, to), with: front) {
                out.append(SiteSpan(site: visit.site, browser: visit.browser, start: start, end: end, visit: piece.visit))
            }
        }
        return out
    }

    /// The visits made one site at a time per device and browser: where visits overlap (the
    /// extension's beside an imported ActivityWatch history of the same hours, or two windows'
    /// reports), the one that began last is the site in front until it ends, then the earlier
    /// one still open resumes. Pieces of each visit (its index), in the order of the visits.
    static func inFront(_ visits: [SiteVisit]) -> [(visit: Int, start: Micros, end: Micros)] {
        var byKey: [Key: [Int]] = [:]
        for (k, visit) in visits.enumerated() where visit.start < visit.end {
            byKey[Key(device: visit.device, browser: visit.browser), default: []].append(k)
        }
        var pieces: [(visit: Int, start: Micros, end: Micros)] = []
        for indices in byKey.values {
            let order = indices.sorted { (visits[$0].start, $0) < (visits[$1].start, $1) }
            // The open visits, the one begun last on top; one that ended is dropped when it surfaces.
            var open: [Int] = []
            var now = Micros.min
            func advance(to time: Micros) {
                while now < time, let top = open.last {
                    let end = visits[top].end
                    if end <= now {
                        open.removeLast()
                        continue
                    }
                    let until = min(end, time)
                    pieces.append((top, now, until))
                    now = until
                    if end <= now { open.removeLast() }
                }
                now = max(now, time)
            }
            for k in order {
                advance(to: visits[k].start)
                open.append(k)
            }
            advance(to: Micros.max)
        }
        return pieces.sorted { ($0.visit, $0.start) < ($1.visit, $1.start) }
    }

    /// Spans added up per site and browser (a visit counted once however many spans it has),
    /// most time first, then by site and browser.
    /// The spans of a history held in memory (a file loaded without the store): its visits
    /// touching `[from, to)` against its own sessions of the browsers' apps, as one device's.
    public static func spans(of history: any SessionHistory, from: Micros, to: Micros) -> [SiteSpan] {
        let visits = history.visits.filter { $0.start < to && $0.end > from }.map {
            SiteVisit(device: 0, browser: $0.browser, site: $0.site, start: max($0.start, from), end: min($0.end, to))
        }
        guard !visits.isEmpty else { return [] }
        let browsers = Set(history.apps.indices.filter { BrowserApps.family(ofApp: history.apps[$0]) != nil }.map(Int32.init))
        let sessions = history.uncachedWindow(from: from, to: to).compactMap { s -> AppSpan? in
            browsers.contains(s.app) ? AppSpan(device: 0, app: history.apps[Int(s.app)], start: s.start, end: s.end) : nil
        }
        return spans(visits, sessions: sessions, from: from, to: to)
    }

    public static func times(_ spans: [SiteSpan]) -> [SiteTime] {
        var times: [SiteKey: (micros: Micros, visits: Set<Int>)] = [:]
        for span in spans {
            let key = SiteKey(site: span.site, browser: span.browser)
            times[key, default: (0, [])].micros += span.end - span.start
            times[key, default: (0, [])].visits.insert(span.visit)
        }
        return times.map { SiteTime(site: $0.key.site, browser: $0.key.browser, micros: $0.value.micros, sessions: $0.value.visits.count) }
            .sorted { ($1.micros, $0.site, $0.browser) < ($0.micros, $1.site, $1.browser) }
    }

    /// The sites' times with every browser's added up, most time first.
    public static func totals(_ times: [SiteTime]) -> [SiteTotal] {
        var sums: [String: (micros: Micros, sessions: Int)] = [:]
        for time in times {
            sums[time.site, default: (0, 0)].micros += time.micros
            sums[time.site, default: (0, 0)].sessions += time.sessions
        }
        return sums.map { SiteTotal(site: $0.key, micros: $0.value.micros, sessions: $0.value.sessions) }
            .sorted { ($1.micros, $0.site) < ($0.micros, $1.site) }
    }

    private struct Key: Hashable {
        let device: Int64
        let browser: String
    }

    private struct SiteKey: Hashable {
        let site: String
        let browser: String
    }

    /// Intervals made disjoint and sorted (overlapping and touching ones joined).
    static func merged(_ spans: [(Micros, Micros)]) -> [(Micros, Micros)] {
        var out: [(Micros, Micros)] = []
        for span in spans.sorted(by: { $0.0 < $1.0 }) {
            if let last = out.last, span.0 <= last.1 {
                out[out.count - 1].1 = max(last.1, span.1)
            } else {
                out.append(span)
            }
        }
        return out
    }

    /// The parts of `[start, end)` the disjoint sorted `spans` cover, in order.
    static func overlaps(_ start: Micros, _ end: Micros, with spans: [(Micros, Micros)]) -> [(Micros, Micros)] {
        // The first span ending after start.
        var low = 0
        var high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].1 <= start { low = mid + 1 } else { high = mid }
        }
        var out: [(Micros, Micros)] = []
        var i = low
        while i < spans.count, spans[i].0 < end {
            let part = (max(start, spans[i].0), min(end, spans[i].1))
            if part.0 < part.1 { out.append(part) }
            i += 1
        }
        return out
    }
}
