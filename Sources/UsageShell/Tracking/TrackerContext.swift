// TrackerContext.swift — what the tracking commands share: the command line's way to the store, the clock and zone they place times in, the times people type (`9:10` is today's, or a named session's day; `2026-03-08T01:30`), and a refusal as the shell's error.
import UsageCore
import UsageRender
import UsageStore

extension Shell {
    /// The command line's way to the store: its one look, its reader and writer (StoreAccess.swift).
    var store: StoreAccess { command.store }

    /// The desktop recorders writing to the store now (one wrote within the last 15 s; it
    /// writes every 5), as (device, PID, seconds since its last write).
    func liveRecorders() -> [(device: String, pid: Int, secondsAgo: Int)] {
        let now = environment.now()
        let recorders: (any RecorderReading)? = store.existing
        return ((try? recorders?.recorders()) ?? []).compactMap { mark in
            let ago = now - mark.seen
            return ago >= -5_000_000 && ago <= 15_000_000 ? (mark.device, mark.pid, Int(max(0, ago) / 1_000_000)) : nil
        }
    }

    /// The tracker's snapshot; an empty one when there is no store yet (unless it was named:
    /// then it says it is not there).
    func trackerSnapshot() throws(ShellError) -> TrackerSnapshot {
        let probe = store.probe
        try requireNamedStore(probe)
        guard probe?.isThere == true else {
            return TrackerSnapshot(tasks: [], intervals: [], categories: [], stopwatch: .idle)
        }
        let reader = try store.reader()
        do {
            return try reader.trackerSnapshot()
        } catch {
            throw .store(error)
        }
    }

    /// Task categories renamed (old name → new): a category rule naming the old one means the new.
    func categoryRenames() -> [String: String] {
        (try? store.existing?.categoryRenames()) ?? [:]
    }

    /// What `insights` adds on tracked time: estimated against actual, and the streaks.
    func trackerInsights() throws(ShellError) -> (estimates: TrackerFacts.EstimateFacts, streak: (current: Int, longest: Int)) {
        let snapshot = try trackerSnapshot()
        let clock = trackerClock
        let days = TrackerFacts.perDay(snapshot.intervals, now: clock.now, zone: clock.zone).filter { $0.value > 0 }.keys
        return (TrackerFacts.estimates(snapshot, now: clock.now), TrackerFacts.streaks(days: Set(days), today: clock.day))
    }

    /// Today in the selected zone, and the clock.
    var trackerClock: TrackerClock {
        let now = environment.now()
        return TrackerClock(zone: model.zone, now: now, day: model.zone.localDate(of: now))
    }

    /// The day `calendar` marks, `sessions` lists and `timesheet` and `tasks RANGE` take their
    /// range around: the day chosen with `day` (or `--day`), else today — not the default day
    /// of whatever data is loaded (the sample's). Typed times never use it: a time without a
    /// date is today's (`TypedTime`).
    var calendarSelected: LocalDate {
        model.chosenDay ?? model.zone.localDate(of: environment.now())
    }

    /// A typed time as `track` places it: `HH:MM` today's (whichever day is shown), a dated
    /// time as written.
    func placed(_ typed: TypedTime) -> Micros {
        typed.instant(now: environment.now(), zone: model.zone)
    }

    /// A typed time in a command that names a session (`session edit|move|split`, `continue
    /// @N`): `HH:MM` on the session's own day (`TypedTime.near`), a dated time as written.
    func placed(_ typed: TypedTime, near interval: TrackedInterval) -> Micros {
        typed.near(interval.start, interval.end ?? environment.now(), zone: model.zone)
    }

    /// An instant with its offset and zone, as the store keeps it.
    func stamp(_ t: Micros) -> Stamp {
        Stamp(instant: t, offsetMinutes: model.zone.offsetSeconds(at: t) / 60, zone: model.zone.identifier)
    }

    /// How an instant is named in a refusal: `09:10` today, else with its day.
    func describe(_ t: Micros) -> String { trackerClock.when(t) }
}

/// Times as typed: `9:10`, `09:10`, `2026-03-08T01:30`, local to the selected zone. Every
/// command that takes a time reads it here, so they all mean the same by it (`HelpTable.timeRule`):
/// a time without a date is today's — the clock's day, whichever day is being browsed (as in
/// Timewarrior) —, but in a command that names a session (@N) on that session's own day; a
/// date says otherwise.
enum TypedTime: Sendable {
    case clock(hour: Int, minute: Int)
    case dated(LocalDate, hour: Int, minute: Int)

    init?(_ word: String) {
        let parts = word.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let date = LocalDate(iso: parts[0]), let (h, m) = Self.clock(parts[1]) else { return nil }
            self = .dated(date, hour: h, minute: m)
        } else {
            guard let (h, m) = Self.clock(Substring(word)) else { return nil }
            self = .clock(hour: h, minute: m)
        }
    }

    /// `FROM-TO` as one word (`9:00-10:30`, `9:00–10:30`, `2026-02-22T16:00-2026-02-22T17:10`):
    /// cut at the dash whose two sides are both times.
    static func span(_ word: String) -> TypedSpan? {
        for (k, c) in zip(word.indices, word) where c == "-" || c == "–" {
            if let from = TypedTime(String(word[..<k])), let to = TypedTime(String(word[word.index(after: k)...])) {
                return TypedSpan(from: from, to: to)
            }
        }
        return nil
    }

    private static func clock(_ text: Substring) -> (Int, Int)? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, (1...2).contains(pieces[0].count), pieces[1].count == 2,
            pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let h = Int(pieces[0]), let m = Int(pieces[1]),
            (0...23).contains(h), (0...59).contains(m)
        else { return nil }
        return (h, m)
    }

    /// The instant meant: a dated time as written; `HH:MM` today's (the clock's day in `zone`).
    func instant(now: Micros, zone: Zone) -> Micros {
        on(zone.localDate(of: now), zone: zone)
    }

    /// An interval's end typed after its `start` (`track`): a dated time as written; `HH:MM` on
    /// the start's day, or the day after when that is before the start (`track 3 23:30 0:45`).
    /// The start's own time stays on its day (`track Email 9:00 9:00` is an end not after its
    /// start, not a day of it).
    func end(after start: Micros, zone: Zone) -> Micros {
        let day = zone.localDate(of: start)
        let t = on(day, zone: zone)
        if case .clock = self, t < start { return on(day.adding(days: 1), zone: zone) }
        return t
    }

    /// The instant on the day of `start` (`HH:MM`), or as written (a dated time): the end as
    /// typed, which a refusal names rather than a next day's reading never typed.
    func onDay(of start: Micros, zone: Zone) -> Micros {
        on(zone.localDate(of: start), zone: zone)
    }

    /// A session's new end (`session edit @N end TIME`), for the session `[start, end]`: a dated
    /// time as written; `HH:MM` on the start's day when the session does not cross midnight
    /// (an end before the start is then refused, naming both times), else as `end(after:)`.
    func end(ofSession start: Micros, _ end: Micros, zone: Zone) -> Micros {
        guard case .clock = self, zone.localDate(of: start) == zone.localDate(of: end) else { return self.end(after: start, zone: zone) }
        return onDay(of: start, zone: zone)
    }

    /// In a command that names a session `[start, end]`: a dated time as written; `HH:MM` on the
    /// session's own day — for one across midnight (or longer), on the day of those it touches
    /// where the time falls inside it, else where it is nearest to it (the earlier day of equals).
    func near(_ start: Micros, _ end: Micros, zone: Zone) -> Micros {
        guard case .clock = self else { return instant(now: start, zone: zone) }
        let first = zone.localDate(of: start)
        // A session of weeks (a stopwatch left running) is looked at around its ends.
        let days = min(first.days(to: zone.localDate(of: end)), 366)
        var best: (t: Micros, distance: Micros)?
        for k in 0...days {
            let t = on(first.adding(days: k), zone: zone)
            let distance = t < start ? start - t : t > end ? t - end : 0
            if distance < best?.distance ?? .max { best = (t, distance) }
        }
        return best!.t
    }

    /// `--at`: a dated time as written; `HH:MM` the latest such time not after `now` (today's,
    /// else yesterday's: `stop --at 17:30` the morning after means last evening).
    func latest(notAfter now: Micros, zone: Zone) -> Micros {
        let t = instant(now: now, zone: zone)
        guard case .clock = self, t > now else { return t }
        return on(zone.localDate(of: now).adding(days: -1), zone: zone)
    }

    /// Today's instant of an `HH:MM` that is later than `now` (which `latest` took as
    /// yesterday's), for the refusal that says so; nil otherwise.
    func laterToday(than now: Micros, zone: Zone) -> Micros? {
        guard case .clock = self else { return nil }
        let t = instant(now: now, zone: zone)
        return t > now ? t : nil
    }

    /// The instant on `day` (its own date for a dated time) in `zone`.
    private func on(_ day: LocalDate, zone: Zone) -> Micros {
        let (date, h, m): (LocalDate, Int, Int)
        switch self {
        case .clock(let hour, let minute): (date, h, m) = (day, hour, minute)
        case .dated(let d, let hour, let minute): (date, h, m) = (d, hour, minute)
        }
        let wall = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60)
        return zone.instant(ofWallSeconds: wall) * 1_000_000
    }

    static let hint = "'HH:MM' or 'YYYY-MM-DDTHH:MM', local to the selected zone"
}

/// FROM and TO typed as one word (`9:00-10:30`).
struct TypedSpan: Sendable {
    let from: TypedTime
    let to: TypedTime
}

extension Shell {
    /// A tracking refusal as the shell says it: its times in the selected zone.
    func refusal(_ error: TrackingError) -> ShellError {
        if case .store(let store) = error { return .store(store) }
        let clock = trackerClock
        return .refused(error.description(when: { clock.when($0) }, range: { clock.range($0, $1) }))
    }
}
