// Recorder.swift — `usage-shell record`'s loop on one thread: wait (poll) on the backend's descriptors, the lock watch's, the signal pipe and the next timer; hand what happened to the session tracker; write the sessions every few seconds (a kill -9 loses at most that much); notice a suspend; close the open session on a stop.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore
import UsageStore

/// How a recorder runs.
public struct RecorderSettings: Sendable {
    /// No input for this long is idle (its time is not counted).
    public var idle: Micros = 180_000_000
    /// The running session is written this often.
    public static let heartbeat: Micros = 5_000_000
    public var device: String
    public var zone: Zone

    public init(device: String, zone: Zone, idle: Micros) {
        self.device = device
        self.zone = zone
        self.idle = idle
    }
}

/// The recorder.
public final class Recorder {
    private let store: any RecorderWriting & HistoryReading & SiteReading
    private let backend: any RecorderBackend
    /// The screen lock (the same for every backend), when watched.
    private let lock: LockWatch?
    private let settings: RecorderSettings
    private var tracker: SessionTracker
    private let limits: LimitWatch?
    private let say: (String) -> Void
    private let warn: (String) -> Void
    private var warned: Set<String> = []
    private var failing = false
    public private(set) var written = 0

    /// `say` prints a line of what happens, `warn` one of what went wrong (once each).
    public init(
        store: any RecorderWriting & HistoryReading & SiteReading, backend: any RecorderBackend, lock: LockWatch? = nil, settings: RecorderSettings,
        categoryOf: @escaping (String) -> String?, limits: LimitWatch?, say: @escaping (String) -> Void, warn: @escaping (String) -> Void
    ) {
        self.store = store
        self.backend = backend
        self.lock = lock
        self.settings = settings
        self.limits = limits
        self.say = say
        self.warn = warn
        tracker = SessionTracker(zone: settings.zone, categoryOf: categoryOf)
    }

    /// Records until SIGINT, SIGTERM or SIGHUP (or the desktop ends); the open session is then
    /// closed at once. Throws when the last write fails.
    public func run() throws(RecorderError) {
        RecorderSignals.install()
        backend.whenLost { [self] in finish(at: RecorderClock.wall(), why: "the X server went away") }
        var now = RecorderClock.wall()
        var monotonic = RecorderClock.monotonic()
        for warning in backend.startWarnings + (lock?.startWarnings ?? []) { note(warning) }
        tracker.focus(try backend.focused(), at: now)
        // Locked already: no session from the start.
        apply(lock?.beforeWait(now: now) ?? [])
        limits?.start(store: store, tracker: tracker, now: now, monotonic: monotonic)
        write(now: now)
        // The start is over: what only it touched (the store's opening, the first write) goes.
        ResidentMemory.settle()
        var nextWrite = monotonic + RecorderSettings.heartbeat
        var suspend = SuspendDetector(lead: RecorderClock.suspended())
        var lastWake = now
        loop: while true {
            apply(backend.beforeWait(now: now))
            apply(lock?.beforeWait(now: now) ?? [])
            // The next crossing foreseen from what is in front now: a focus Xlib held and gave
            // only here would otherwise wait for the next wakeup to be seen (a limit said late).
            limits?.check(tracker: tracker, now: now, monotonic: monotonic)
            let deadline = [nextWrite, backend.deadline, limits?.deadline].compactMap { $0 }.min()!
            let lockDescriptors = lock?.descriptors ?? []
            var fds = ([RecorderSignals.readEnd] + backend.descriptors + lockDescriptors).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let wait = max(0, (deadline - monotonic + 999) / 1000)
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(wait, 60_000)))
            now = RecorderClock.wall()
            monotonic = RecorderClock.monotonic()
            if let slept = suspend.slept(lead: RecorderClock.suspended()) {
                say("the machine slept \(slept / 1_000_000) s: the session ended at the last moment seen before")
                tracker.cut(at: lastWake, again: now)
            }
            if ready > 0 {
                if fds[0].revents != 0 { break loop }
                for entry in fds.dropFirst() where entry.revents != 0 {
                    if let lock, lockDescriptors.contains(entry.fd) {
                        apply(lock.readable(entry.fd, now: now))
                        continue
                    }
                    do {
                        apply(try backend.readable(entry.fd, now: now))
                    } catch .desktopEnded(let what) {
                        say(RecorderError.desktopEnded(what).description)
                        break loop
                    }
                }
            }
            if let due = backend.deadline, due <= monotonic { apply(backend.timer(now: now, monotonic: monotonic)) }
            if monotonic >= nextWrite {
                write(now: now)
                nextWrite = monotonic + RecorderSettings.heartbeat
            }
            lastWake = now
        }
        backend.stop()
        lock?.stop()
        finish(at: RecorderClock.wall(), why: nil)
        if failing { throw .store(lastError!) }
    }

    private var lastError: StoreError?

    /// Closes the open session at `at` and writes, the recorder's mark removed.
    private func finish(at: Micros, why: String?) {
        tracker.cut(at: at)
        do {
            try store.record(tracker.pending(now: at), device: settings.device, now: at, mark: nil)
            written += tracker.closed.count
            tracker.written()
            failing = false
        } catch {
            lastError = error
            failing = true
            warn("the last sessions could not be written: \(error)")
        }
        if let why { say(why + "; the last session is closed") }
    }

    private func apply(_ events: [RecorderEvent]) {
        for event in events {
            switch event {
            case .focus(let app, let at): tracker.focus(app, at: at)
            case .idle(let since): tracker.idle(since: since)
            case .resume(let at): tracker.resume(at: at)
            case .locked(let at):
                // Idle past the threshold already (its alarm not yet read): the session ends at the last input.
                let idle = tracker.active ? backend.idleMilliseconds().map { $0 * 1000 } : nil
                tracker.lock(at: at, idleSince: idle.flatMap { $0 >= settings.idle ? at - $0 : nil })
            case .unlocked(let at): tracker.unlock(at: at)
            case .warning(let text): note(text)
            }
        }
    }

    private func write(now: Micros) {
        let mark = RecorderMark(device: settings.device, pid: Int(getpid()), seen: now)
        do {
            try store.record(tracker.pending(now: now), device: settings.device, now: now, mark: mark)
            written += tracker.closed.count
            tracker.written()
            if failing { say("the store takes writes again") }
            failing = false
            limits?.written(store: store, tracker: tracker, now: now)
        } catch {
            lastError = error
            if !failing { warn("cannot write to the store (tried again every few seconds; nothing is lost meanwhile): \(error)") }
            failing = true
        }
    }

    private func note(_ warning: String) {
        if warned.insert(warning).inserted { warn(warning) }
    }
}
