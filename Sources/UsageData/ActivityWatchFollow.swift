// ActivityWatchFollow.swift — an ActivityWatch server followed as it records: the window, AFK and aw-watcher-web events read once, then at each update only the buckets that changed and only their events since the newest one known (the API's `start`), merged by event id into what is kept (ActivityWatchMerge, in the readers' columns).
import Foundation
import UsageCore
import UsageFormats

/// The window, AFK and aw-watcher-web events of an ActivityWatch server, kept between reads so
/// that a refresh asks only for what is new (the web buckets' are the loaded server's site visits).
///
/// The first update reads every event of every window, AFK and web bucket (`limit=-1`), as a load
/// does. Later updates read the bucket list (`GET /api/0/buckets/`), skip the buckets whose
/// `last_updated` has not moved (or that have none yet, still empty), and ask each other bucket only for the events that end at or
/// after the start of its newest event known (`?start=…`): a watcher's heartbeats grow that
/// newest event, and new events come after it. The server trims an event that began before
/// `start` to begin there; such an event is known by its id and keeps the start it had.
/// Events are merged by id (a grown event replaces the one kept). A bucket that appears is
/// read whole; one that goes away is dropped. Events changed or inserted further back than
/// the newest one known (an import into the server, a deletion) are seen by the next `load`.
public struct ActivityWatchFollow: Sendable {
    /// The buckets kept with their events (their app names in one table), in the listing's key order.
    private var read = ActivityWatchRead()
    /// Whether the first read happened.
    public private(set) var hasRead = false

    public init() {}

    /// Reads what changed on the server since the last update (everything the first time).
    /// Returns whether anything changed. On a failure nothing kept changes.
    public mutating func update(
        from server: ActivityWatchRepository, cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> Bool {
        let listing = try server.bucketList(cancellation: cancellation, progress: progress)
        var work = read
        var kept: [String: ActivityWatchBucket] = [:]
        for bucket in work.buckets { kept[bucket.id ?? bucket.key] = kept[bucket.id ?? bucket.key] ?? bucket }
        var next: [ActivityWatchBucket] = []
        var changed = !hasRead
        // A server that says when its buckets changed says nothing of one that is still empty.
        let tellsUpdates = listing.buckets.contains { $0.lastUpdated != nil }
        // Bucket ids placed: two listing keys naming the same id are one bucket (the first).
        var placed: Set<String> = []
        for meta in listing.buckets.sorted(by: { $0.key < $1.key }) {
            guard let type = meta.type,
                type == ActivityWatchRead.windowType || type == ActivityWatchRead.afkType || type == ActivityWatchWeb.webType
            else { continue }
            let id = meta.id ?? meta.key
            guard placed.insert(id).inserted else { continue }
            if hasRead, var known = kept[id], known.type == meta.type, known.hostname == meta.hostname {
                if tellsUpdates, meta.lastUpdated == known.lastUpdated {
                    next.append(known)
                    continue
                }
                if let start = known.newestStart {
                    let body = try server.events(bucket: id, since: start, cancellation: cancellation, progress: progress)
                    let merged = try server.decode(body) { bytes throws(IngestError) in
                        try work.mergeEvents(bytes, into: &known, since: start, cancellation: cancellation)
                    }
                    if merged { changed = true }
                    known.lastUpdated = meta.lastUpdated
                    next.append(known)
                    continue
                }
            }
            var bucket = meta
            bucket.id = id
            let body = try server.events(bucket: id, since: nil, cancellation: cancellation, progress: progress)
            try server.decode(body) { bytes throws(IngestError) in
                try work.readEvents(bytes, into: &bucket, cancellation: cancellation)
            }
            next.append(bucket)
            changed = true
        }
        if Set(next.map { $0.id ?? $0.key }) != Set(kept.keys) { changed = true }
        work.replaceBuckets(next, listingRepairs: listing.repairedStrings)
        read = work
        hasRead = true
        return changed
    }

    /// The sessions of the events kept (window time inside not-AFK time, as for an export),
    /// with the site visits of the web buckets kept, as a loaded export file carries them.
    public func dataset(source: String, cancellation: CancellationToken) throws(LoadError) -> Dataset {
        do {
            var dataset = try read.dataset(source: source, cancellation: cancellation)
            dataset.visits = read.visits
            return dataset
        } catch {
            throw LoadError(error, source: source)
        }
    }

    /// The sessions of the events kept, each host's apart, with its site visits.
    public func datasetsByHost(source: String, cancellation: CancellationToken) throws(LoadError) -> [DevicePart] {
        do {
            return try read.datasetsByHost(source: source, cancellation: cancellation)
        } catch {
            throw LoadError(error, source: source)
        }
    }

    /// The number of events kept (all buckets).
    public var eventCount: Int { read.buckets.reduce(0) { $0 + $1.eventCount } }

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
