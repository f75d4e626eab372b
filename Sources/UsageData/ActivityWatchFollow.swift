// ActivityWatchFollow.swift — an ActivityWatch server followed as it records: the window and AFK events read once, then at each update only the buckets that changed and only their events since the newest one known (the API's `start`), merged by event id into what is kept.
import Foundation
import UsageCore

/// The window and AFK events of an ActivityWatch server, kept between reads so that a refresh
/// asks only for what is new.
///
/// The first update reads every event of every window and AFK bucket (`limit=-1`), as a load
/// does. Later updates read the bucket list (`GET /api/0/buckets/`), skip the buckets whose
/// `last_updated` has not moved (or that have none yet, still empty), and ask each other bucket only for the events that end at or
/// after the start of its newest event known (`?start=…`): a watcher's heartbeats grow that
/// newest event, and new events come after it. The server trims an event that began before
/// `start` to begin there; such an event is known by its id and keeps the start it had.
/// Events are merged by id (a grown event replaces the one kept). A bucket that appears is
/// read whole; one that goes away is dropped. Events changed or inserted further back than
/// the newest one known (an import into the server, a deletion) are seen by the next `load`.
public struct ActivityWatchEvents: Sendable {
    /// One bucket as kept: its metadata, its events (newest first, as the server sends them),
    /// where each id sits, and the server's `last_updated` at the last read.
    struct Kept: Sendable {
        var bucket: ActivityWatchBucket
        var positions: [String: Int] = [:]
        /// The events without an id (a server always gives ids; kept apart so a read again
        /// does not double them).
        var anonymous: Set<String> = []

        init(_ bucket: ActivityWatchBucket) {
            self.bucket = bucket
            for (k, element) in (bucket.events ?? []).enumerated() {
                guard case .object(let event) = element else { continue }
                if let id = event.id { positions[id] = k } else { anonymous.insert(Self.signature(event)) }
            }
        }

        /// The start of the newest event, rounded down to the millisecond (the server's own
        /// resolution for `start`); nil when no event has a readable start.
        var newestStart: Micros? {
            var newest: Micros?
            for case .object(let event) in bucket.events ?? [] {
                guard let text = event.timestamp.value, let t = RFC3339.parse(text) else { continue }
                newest = max(newest ?? t, t)
            }
            return newest.map { $0 - (($0 % 1000) + 1000) % 1000 }
        }

        /// Merges events read with `start` into those kept; returns whether anything changed.
        mutating func merge(_ read: [LenientElement<ActivityWatchEvent>], since start: Micros) -> Bool {
            var events = bucket.events ?? []
            var added: [LenientElement<ActivityWatchEvent>] = []
            var addedIDs: Set<String> = []
            var changed = false
            // Only objects: an element that is no object cannot be told from the same one read before.
            for case .object(let event) in read {
                guard let id = event.id else {
                    if anonymous.insert(Self.signature(event)).inserted { added.append(.object(event)) }
                    continue
                }
                guard let k = positions[id], case .object(let known) = events[k] else {
                    if addedIDs.insert(id).inserted { added.append(.object(event)) }
                    continue
                }
                let whole = Self.untrimmed(event, known: known, start: start)
                if !Self.same(whole, known) {
                    events[k] = .object(whole)
                    changed = true
                }
            }
            guard !added.isEmpty else {
                bucket.events = events
                return changed
            }
            // New events are newer than those kept: they go first, in the order read.
            bucket.events = added + events
            self = Kept(bucket)
            return true
        }

        /// The event as it is, where the server trimmed it to begin at `start`: the start kept
        /// before, with the end read now (the event kept, when that end did not move).
        static func untrimmed(_ event: ActivityWatchEvent, known: ActivityWatchEvent, start: Micros) -> ActivityWatchEvent {
            guard let readText = event.timestamp.value, let readStart = RFC3339.parse(readText), readStart == start,
                let knownText = known.timestamp.value, let knownStart = RFC3339.parse(knownText), knownStart < start,
                let seconds = event.duration.value, seconds.isFinite
            else { return event }
            let readEnd = Double(readStart) + seconds * 1e6
            if case .value(let knownSeconds) = known.duration, abs(Double(knownStart) + knownSeconds * 1e6 - readEnd) < 1,
                event.app == known.app, event.status == known.status
            {
                return known
            }
            var whole = event
            whole.timestamp = .value(knownText)
            whole.duration = .value((readEnd - Double(knownStart)) / 1e6)
            return whole
        }

        /// The same event: the same instants (however the timestamp is written), data and id.
        static func same(_ a: ActivityWatchEvent, _ b: ActivityWatchEvent) -> Bool {
            guard a.id == b.id, a.duration == b.duration, a.app == b.app, a.status == b.status else { return false }
            if a.timestamp == b.timestamp { return true }
            guard let x = a.timestamp.value.flatMap(RFC3339.parse), let y = b.timestamp.value.flatMap(RFC3339.parse) else { return false }
            return x == y
        }

        static func signature(_ event: ActivityWatchEvent) -> String {
            "\(event.timestamp)|\(event.duration)|\(event.app)|\(event.status ?? "")"
        }
    }

    /// The buckets kept, by id.
    private var kept: [String: Kept] = [:]
    /// Whether the first read happened.
    public private(set) var hasRead = false

    public init() {}

    /// Reads what changed on the server since the last update (everything the first time).
    /// Returns whether anything changed. On a failure nothing kept changes.
    public mutating func update(
        from server: ActivityWatchRepository, cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> Bool {
        let listing = try server.bucketList(cancellation: cancellation, progress: progress)
        var next: [String: Kept] = [:]
        var changed = !hasRead
        // A server that says when its buckets changed says nothing of one that is still empty.
        let tellsUpdates = listing.values.contains { $0.lastUpdated != nil }
        for (key, meta) in listing.sorted(by: { $0.key < $1.key }) {
            guard let type = meta.type, type == ActivityWatchFormat.windowType || type == ActivityWatchFormat.afkType else { continue }
            let id = meta.id ?? key
            if hasRead, var known = kept[id], known.bucket.type == meta.type, known.bucket.hostname == meta.hostname {
                if tellsUpdates, meta.lastUpdated == known.bucket.lastUpdated {
                    next[id] = known
                    continue
                }
                if let start = known.newestStart {
                    let read = try server.events(bucket: id, since: start, cancellation: cancellation, progress: progress)
                    if known.merge(read, since: start) { changed = true }
                    known.bucket.lastUpdated = meta.lastUpdated
                    next[id] = known
                    continue
                }
            }
            var bucket = meta
            bucket.id = id
            bucket.events = try server.events(bucket: id, since: nil, cancellation: cancellation, progress: progress)
            next[id] = Kept(bucket)
            changed = true
        }
        if Set(next.keys) != Set(kept.keys) { changed = true }
        kept = next
        hasRead = true
        return changed
    }

    /// The sessions of the events kept (ActivityWatchFormat's rules: window time inside not-AFK time).
    public func dataset(source: String, cancellation: CancellationToken) throws(LoadError) -> Dataset {
        do {
            return try ActivityWatchFormat.sessions(
                from: kept.sorted { $0.key < $1.key }.map(\.value.bucket), source: source, cancellation: cancellation)
        } catch .cancelled {
            throw .cancelled(source: source)
        } catch {
            throw .invalid(source: source, error)
        }
    }

    /// The number of events kept (all buckets).
    public var eventCount: Int { kept.values.reduce(0) { $0 + ($1.bucket.events?.count ?? 0) } }

    /// `2026-02-23T09:00:00.123Z`: an instant as the API's `start` takes it (milliseconds, UTC).
    static func apiTime(_ t: Micros) -> String {
        let dayLength: Int64 = 86_400_000_000
        let day = t >= 0 ? t / dayLength : (t - dayLength + 1) / dayLength
        let inDay = t - day * dayLength
        let date = LocalDate(daysSinceEpoch: Int(day))
        let seconds = inDay / 1_000_000
        let millis = (inDay % 1_000_000) / 1000
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = String(millis + 1000).dropFirst()
        return "\(date)T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(fraction)Z"
    }
}
