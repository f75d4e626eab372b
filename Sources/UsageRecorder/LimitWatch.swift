// LimitWatch.swift — daily limits as they are crossed while recording (Screen Time's eventDidReachThreshold): each limit's time today read from the store after every write, the moment of crossing foreseen while its app or category is in front, said once per limit per day (limits already crossed when the recorder starts are not said again).
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
    /// Each limit's time today at the last write, and the monotonic instant of that write.
    private var used: [UsageLimit: Micros] = [:]
    private var writtenAt: Micros = 0
    public private(set) var deadline: Micros?

    public init(file: LimitsFile, zone: Zone, notifier: Notifier, say: @escaping (String) -> Void) {
        self.file = file
        self.zone = zone
        self.notifier = notifier
        self.say = say
    }

    /// Reads the limits and marks those crossed today already as said.
    func start(store: any StoreWriter, tracker: SessionTracker, now: Micros, monotonic: Micros) {
        measure(store: store, now: now)
        for (limit, time) in used where time >= limit.micros { said.insert(key(limit, now)) }
        plan(tracker: tracker, now: now, monotonic: monotonic)
    }

    /// After a write: each limit's time today anew; crossings said.
    func written(store: any StoreWriter, tracker: SessionTracker, now: Micros) {
        let monotonic = RecorderClock.monotonic()
        measure(store: store, now: now)
        writtenAt = monotonic
        for (limit, time) in used where time >= limit.micros { sayOnce(limit, used: time, now: now) }
        plan(tracker: tracker, now: now, monotonic: monotonic)
    }

    /// At a wakeup: a crossing foreseen for now is said.
    func check(tracker: SessionTracker, now: Micros, monotonic: Micros) {
        notifier.reap(now: now)
        guard let due = deadline, due <= monotonic else { return }
        for limit in limits where isInFront(limit, tracker) {
            let time = (used[limit] ?? 0) + (monotonic - writtenAt)
            if time >= limit.micros { sayOnce(limit, used: time, now: now) }
        }
        plan(tracker: tracker, now: now, monotonic: monotonic)
    }

    /// The next crossing while the app in front stays: the least time left of its limits.
    private func plan(tracker: SessionTracker, now: Micros, monotonic: Micros) {
        deadline = nil
        guard tracker.openStart != nil else { return }
        for limit in limits where isInFront(limit, tracker) && !said.contains(key(limit, now)) {
            let left = limit.micros - (used[limit] ?? 0) - (monotonic - writtenAt)
            let due = monotonic + max(0, left)
            deadline = min(deadline ?? due, due)
        }
    }

    private func isInFront(_ limit: UsageLimit, _ tracker: SessionTracker) -> Bool {
        guard tracker.openStart != nil, let app = tracker.app else { return false }
        switch limit.target {
        case .app(let name): return name.sameScalars(as: app)
        case .category(let name): return name.sameScalars(as: tracker.category(of: app))
        }
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
    private func measure(store: any StoreWriter, now: Micros) {
        var info = stat()
        let stamp = stat(file.path, &info) == 0 ? (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)) : (0, 0)
        if stamp != fileStamp {
            fileStamp = stamp
            limits = (try? file.load().limits) ?? []
        }
        used = [:]
        guard !limits.isEmpty, let history = try? store.history(source: "store") else { return }
        let date = zone.localDate(of: now)
        for limit in limits { used[limit] = LimitStatus(limit, history: history, date: date, zone: zone).usedMicros }
    }
}
