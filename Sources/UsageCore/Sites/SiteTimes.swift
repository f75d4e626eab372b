// SiteTimes.swift — a site's time as a person saw it: each visit intersected with the sessions of its browser's app on the same device (the recorder's sessions leave out idle and locked time and other apps in front), clipped to a range, added up per site and browser.

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
        // Each device's and browser's time in front, as disjoint sorted intervals.
        var fronts: [Key: [(Micros, Micros)]] = [:]
        for span in sessions {
            guard let browser = BrowserApps.family(ofApp: span.app) else { continue }
            let (start, end) = (max(span.start, from), min(span.end, to))
            if start < end { fronts[Key(device: span.device, browser: browser), default: []].append((start, end)) }
        }
        for (key, spans) in fronts { fronts[key] = merged(spans) }
        var times: [SiteKey: (micros: Micros, sessions: Int)] = [:]
        for visit in visits {
            guard let front = fronts[Key(device: visit.device, browser: visit.browser)] else { continue }
            let seen = overlap(visit.start, visit.end, with: front)
            guard seen > 0 else { continue }
            let key = SiteKey(site: visit.site, browser: visit.browser)
            times[key, default: (0, 0)].micros += seen
            times[key, default: (0, 0)].sessions += 1
        }
        return times.map { SiteTime(site: $0.key.site, browser: $0.key.browser, micros: $0.value.micros, sessions: $0.value.sessions) }
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

    /// How much of `[start, end)` the disjoint sorted `spans` cover.
    static func overlap(_ start: Micros, _ end: Micros, with spans: [(Micros, Micros)]) -> Micros {
        // The first span ending after start.
        var low = 0
        var high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].1 <= start { low = mid + 1 } else { high = mid }
        }
        var total: Micros = 0
        var i = low
        while i < spans.count, spans[i].0 < end {
            total += min(end, spans[i].1) - max(start, spans[i].0)
            i += 1
        }
        return total
    }
}
