// LimitWatch.swift — daily limits as they are crossed while recording (Screen Time's eventDidReachThreshold): each limit's time today read from the store after every write (a site's from the sites' spans the native host writes), the moment of crossing foreseen while its app or category is in front, said once per limit per day (limits already crossed when the recorder starts are not said again).
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore
import UsageData
import UsageStore

/// Watches the limits file's limits against today's time in the store.
public final class LimitWatch {
    private let file: LimitsFile
    private let zone: Zone
    private let notifier: Notifier
    private let say: (String) -> Void
    private var limits: [UsageLimit] = []
    private var fileStamp: (Int, Int) = (-1, -1)
    /// Limits said (or already crossed at the start), by day.
    private var said: Set<String> = []
    /// Each limit's time today at the last write, and the instant of that write.
    private var used: [UsageLimit: Micros] = [:]
    /// The browser family whose open visit of a site limit's site the store showed at the last
    /// write (the native host writes every 5 s): its time grows while that browser is in front.
    private var siteOpen: [UsageLimit: String] = [:]
    private var writtenAt: Micros = 0
    public private(set) var deadline: Micros?

    public init(file: LimitsFile, zone: Zone, notifier: Notifier, say: @escaping (String) -> Void) {
        self.file = file
        self.zone = zone
        self.notifier = notifier
        self.say = say
    }

    /// Reads the limits and marks those crossed today already as said.
    func start(store: any HistoryReading & SiteReading, tracker: SessionTracker, now: Micros, monotonic: Micros) {
        measure(store: store, now: now)
        for (limit, time) in used where time >= limit.micros { said.insert(key(limit, now)) }
        check(tracker: tracker, now: now, monotonic: monotonic)
    }

    /// After a write that took: each limit's time today anew, from the store.
    func written(store: any HistoryReading & SiteReading, tracker: SessionTracker, now: Micros) {
        measure(store: store, now: now)
        check(tracker: tracker, now: now, monotonic: RecorderClock.monotonic())
    }

    /// At every wakeup: crossings said, and the next one foreseen while the app in front stays
    /// (the least time left of the limits it counts towards).
    func check(tracker: SessionTracker, now: Micros, monotonic: Micros) {
        notifier.reap(now: now)
        deadline = nil
        for limit in limits where !said.contains(key(limit, now)) {
            let time = usedNow(limit, tracker, now: now)
            if time >= limit.micros {
                sayOnce(limit, used: time, now: now)
            } else if let app = tracker.app, tracker.openStart != nil,
                counts(limit, app: app, category: tracker.category(of: app)) || seenNow(limit, app: app)
            {
                let due = monotonic + (limit.micros - time)
                deadline = min(deadline ?? due, due)
            }
        }
    }

    /// A limit's time today now: what the store held at the last write, and what the tracker
    /// saw since (closed sessions not yet written, the open one).
    private func usedNow(_ limit: UsageLimit, _ tracker: SessionTracker, now: Micros) -> Micros {
        var time = used[limit] ?? 0
        for session in tracker.closed where counts(limit, app: session.app, category: session.category) {
            time += max(0, session.end - max(session.start, writtenAt))
        }
        if let start = tracker.openStart, let app = tracker.app,
            counts(limit, app: app, category: tracker.category(of: app)) || seenNow(limit, app: app)
        {
            time += max(0, now - max(start, writtenAt))
        }
        return time
    }

    private func counts(_ limit: UsageLimit, app: String, category: String) -> Bool {
        switch limit.target {
        case .app(let name): return name.sameScalars(as: app)
        case .category(let name): return name.sameScalars(as: category)
        // A site's time is not an app's: the store's spans, and `seenNow`.
        case .site: return false
        }
    }

    /// Whether a site limit's site was open in a browser at the last write and `app` (in
    /// front) is that browser.
    private func seenNow(_ limit: UsageLimit, app: String) -> Bool {
        siteOpen[limit].map { BrowserApps.isApp(app, of: $0) } ?? false
    }

    private func sayOnce(_ limit: UsageLimit, used: Micros, now: Micros) {
        guard said.insert(key(limit, now)).inserted else { return }
        let (_, body) = Notifier.text(limit, used: used)
        say("limit reached: " + body)
        notifier.crossed(limit, used: used, now: now)
    }

    private func key(_ limit: UsageLimit, _ now: Micros) -> String {
        "\(zone.localDate(of: now))|\(limit.target)|\(limit.micros)"
    }

    /// The limits file read again when it changed; each limit's time today from the store.
    private func measure(store: any HistoryReading & SiteReading, now: Micros) {
        var info = stat()
        let stamp = stat(file.path, &info) == 0 ? (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)) : (0, 0)
        if stamp != fileStamp {
            fileStamp = stamp
            limits = (try? file.load().limits) ?? []
        }
        used = [:]
        siteOpen = [:]
        writtenAt = now
        guard !limits.isEmpty, let history = try? store.history(source: "store") else { return }
        let date = zone.localDate(of: now)
        let sites = limits.contains { if case .site = $0.target { true } else { false } }
        let spans = sites ? (try? store.siteSpans(from: zone.startOfDay(date), to: zone.startOfDay(date.adding(days: 1)), device: nil)) ?? [] : []
        for limit in limits {
            guard case .site(let name) = limit.target else {
                used[limit] = LimitStatus(limit, history: history, date: date, zone: zone).usedMicros
                continue
            }
            used[limit] = LimitStatus(limit, seen: spans).usedMicros
            // Seen up to the host's last heartbeat: still in front unless that is older than its gap.
            let pattern = SitePattern(name)
            if let last = spans.filter({ pattern?.matches($0.site) == true }).max(by: { $0.end < $1.end }), now - last.end <= SiteVisits.staleAfter {
                siteOpen[limit] = last.browser
            }
        }
    }
}
