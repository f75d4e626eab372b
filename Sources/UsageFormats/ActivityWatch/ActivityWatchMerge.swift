// ActivityWatchMerge.swift — a bucket's events read again since a start (the server's `?start=`) merged into those kept, in their columns: a grown event replaces the one kept, an event the server trimmed to that start keeps its own start, new events go first, once.
import UsageCore
import Foundation

/// Where each event id of a bucket sits, and the events without an id (told apart by what
/// they hold; no server sends them, but a read again must not double them).
struct ActivityWatchEventIndex: Sendable {
    var positions: [String: Int] = [:]
    var anonymous: Set<Signature> = []

    struct Signature: Hashable, Sendable {
        var start: Micros
        var end: Micros
        var outcome: UInt8
        var app: Int32
        var site: Int32
    }

    init(_ events: ActivityWatchEvents) {
        positions.reserveCapacity(events.count)
        for k in 0..<events.count where events.outcomes[k] & ActivityWatchEvents.Outcome.reasonMask != ActivityWatchEvents.Outcome.notAnObject {
            if let id = events.ids.text(at: k) {
                positions[id] = k  // a repeated id: the last one is the one merged into
            } else {
                anonymous.insert(Self.signature(events, k))
            }
        }
    }

    static func signature(_ e: ActivityWatchEvents, _ k: Int) -> Signature {
        Signature(start: e.starts[k], end: e.ends[k], outcome: e.outcomes[k], app: e.apps[k], site: e.sites[k])
    }
}

extension ActivityWatchEvents {
    /// Whether event `k` has a start that was read (its timestamp was there and valid, even
    /// where its duration was not).
    func hasStart(_ k: Int) -> Bool { outcomes[k] & Outcome.started != 0 }

    /// Whether event `k` is a span (a start and a valid duration).
    func isSpan(_ k: Int) -> Bool { outcomes[k] & Outcome.reasonMask == Outcome.span }

    /// Event `k` as it is now: its start, end, outcome, app and site.
    mutating func set(_ k: Int, start: Micros, end: Micros, outcome: UInt8, app: Int32, site: Int32) {
        starts[k] = start
        ends[k] = end
        outcomes[k] = outcome
        apps[k] = app
        sites[k] = site
    }

    /// Event `k` of `other` appended, with its id.
    mutating func append(from other: ActivityWatchEvents, at k: Int) {
        starts.append(other.starts[k])
        ends.append(other.ends[k])
        outcomes.append(other.outcomes[k])
        apps.append(other.apps[k])
        sites.append(other.sites[k])
        ids.append(from: other.ids, at: k)
    }
}

extension ActivityWatchBucket {
    /// The start of the newest event, rounded down to the millisecond (the server's own
    /// resolution for `start`); nil when no event has a readable start.
    public var newestStart: Micros? {
        var newest: Micros?
        for k in 0..<events.count where events.hasStart(k) {
            newest = max(newest ?? events.starts[k], events.starts[k])
        }
        return newest.map { $0 - (($0 % 1000) + 1000) % 1000 }
    }
}

extension ActivityWatchRead {
    /// The buckets become `buckets` (each with its events as they are; their app ids are this
    /// read's, as `readEvents` and `mergeEvents` made them), read from a listing in which
    /// `listingRepairs` strings needed repair.
    public mutating func replaceBuckets(_ buckets: [ActivityWatchBucket], listingRepairs: Int = 0) {
        self.buckets = buckets
        repairedStrings = listingRepairs
    }

    /// Reads a bucket's events (the server's `[event, …]`) into `bucket`, replacing any it had.
    public mutating func readEvents(
        _ bytes: UnsafeBufferPointer<UInt8>, into bucket: inout ActivityWatchBucket, cancellation: CancellationToken? = nil,
        chunking: Chunking = .standard
    ) throws(IngestError) {
        let (events, repaired) = try events(bytes, cancellation: cancellation, chunking: chunking)
        bucket.repaired = repaired
        bucket.events = events
        bucket.hasEvents = true
        bucket.index = nil
    }

    /// Merges a bucket's events read with `start` (the server's answer to `?start=`: the events
    /// that end at or after it, one that began before trimmed to begin there) into those kept:
    /// an event known by its id is replaced by the one read (a grown event), keeping its own
    /// start where the server trimmed it; events not known go first (they are newer), once.
    /// Elements that are not objects are left out (one cannot be told from the same read
    /// before). Returns whether anything changed.
    public mutating func mergeEvents(
        _ bytes: UnsafeBufferPointer<UInt8>, into bucket: inout ActivityWatchBucket, since start: Micros,
        cancellation: CancellationToken? = nil, chunking: Chunking = .standard
    ) throws(IngestError) -> Bool {
        // Repaired strings are counted where a bucket is read whole: those of events read again
        // (a grown event, at every refresh) would count again and again.
        let read = try events(bytes, cancellation: cancellation, chunking: chunking).events
        var index = bucket.index ?? ActivityWatchEventIndex(bucket.events)
        var kept = bucket.events
        var added: [Int] = []
        var addedIDs: Set<String> = []
        var changed = false
        for k in 0..<read.count where read.outcomes[k] & ActivityWatchEvents.Outcome.reasonMask != ActivityWatchEvents.Outcome.notAnObject {
            guard let id = read.ids.text(at: k) else {
                if index.anonymous.insert(ActivityWatchEventIndex.signature(read, k)).inserted { added.append(k) }
                continue
            }
            guard let known = index.positions[id] else {
                if addedIDs.insert(id).inserted { added.append(k) }
                continue
            }
            let (s, e, outcome) = Self.untrimmed(read, k, known: kept, known, start: start)
            if kept.starts[known] != s || kept.ends[known] != e || kept.outcomes[known] != outcome || kept.apps[known] != read.apps[k]
                || kept.sites[known] != read.sites[k]
            {
                kept.set(known, start: s, end: e, outcome: outcome, app: read.apps[k], site: read.sites[k])
                changed = true
            }
        }
        if added.isEmpty {
            bucket.events = kept
            bucket.index = index
            return changed
        }
        // New events are newer than those kept: they go first, in the order read.
        var merged = ActivityWatchEvents()
        merged.ids.reserve(added.count + kept.count)
        for k in added { merged.append(from: read, at: k) }
        for k in 0..<kept.count { merged.append(from: kept, at: k) }
        bucket.events = merged
        bucket.index = ActivityWatchEventIndex(merged)
        return true
    }

    /// Event `k` of `read` as it is, where the server trimmed it to begin at `start`: the start
    /// kept before, with the end read now (the event kept, when that end did not move).
    static func untrimmed(
        _ read: ActivityWatchEvents, _ k: Int, known kept: ActivityWatchEvents, _ j: Int, start: Micros
    ) -> (start: Micros, end: Micros, outcome: UInt8) {
        let asRead = (read.starts[k], read.ends[k], read.outcomes[k])
        guard read.isSpan(k), read.starts[k] == start, kept.hasStart(j), kept.starts[j] < start else { return asRead }
        if kept.isSpan(j), kept.ends[j] == read.ends[k], kept.apps[j] == read.apps[k], kept.sites[j] == read.sites[k],
            kept.outcomes[j] & ActivityWatchEvents.Outcome.notAFK == read.outcomes[k] & ActivityWatchEvents.Outcome.notAFK
        {
            return (kept.starts[j], kept.ends[j], kept.outcomes[j])
        }
        return (kept.starts[j], read.ends[k], read.outcomes[k])
    }

    /// One events document read with this read's app and site names (which it adds to), and the number
    /// of its strings that needed repair.
    private mutating func events(
        _ bytes: UnsafeBufferPointer<UInt8>, cancellation: CancellationToken?, chunking: Chunking
    ) throws(IngestError) -> (events: ActivityWatchEvents, repaired: Int) {
        let (apps, sites) = (self.apps, self.sites)
        let scanned = try Self.inMemory(bytes, chunking: chunking) { reader throws(StreamError<Never>) in
            try Self.scan(reader, ActivityWatchReader(document: .events, apps: apps, sites: sites), cancellation: cancellation)
        }
        if let problem = scanned.reader.shapeProblem { throw .malformed(format: Self.formatName, problem: problem) }
        self.apps = scanned.reader.apps
        self.sites = scanned.reader.sites
        return (scanned.reader.result.first?.events ?? ActivityWatchEvents(), scanned.repaired)
    }
}
