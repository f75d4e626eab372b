// ActivityWatchFollowTests.swift — the events of an ActivityWatch server merged as `watch` reads them: a grown event replaces the one kept, an event the server trimmed to the `start` asked for keeps its own start, new events are added once, an unchanged one changes nothing; `last_updated` read from the listing; and `start` written as the API takes it.
import ReferenceReaders
import Testing
@testable import UsageCore
@testable import UsageFormats
@testable import UsageData

struct ActivityWatchFollowTests {
    typealias Event = (id: String?, timestamp: String, seconds: Double)

    func json(_ events: [Event], app: String = "Editor") -> [UInt8] {
        let items = events.map { e in
            let id = e.id.map { "\"id\": \($0), " } ?? ""
            return "{\(id)\"timestamp\": \"\(e.timestamp)\", \"duration\": \(e.seconds), \"data\": {\"app\": \"\(app)\"}}"
        }
        return Array(("[" + items.joined(separator: ", ") + "]").utf8)
    }

    /// A bucket holding `events`, read as the first update reads it, with the read it belongs to.
    func kept(_ events: [Event]) throws -> (ActivityWatchRead, ActivityWatchBucket) {
        var read = ActivityWatchRead()
        var bucket = ActivityWatchBucket(key: "w")
        bucket.type = ActivityWatchRead.windowType
        try json(events).withUnsafeBufferPointer { bytes throws(IngestError) in try read.readEvents(bytes, into: &bucket) }
        return (read, bucket)
    }

    func merge(_ read: inout ActivityWatchRead, _ bucket: inout ActivityWatchBucket, _ events: [Event], since start: Micros) throws -> Bool {
        try json(events).withUnsafeBufferPointer { bytes throws(IngestError) in try read.mergeEvents(bytes, into: &bucket, since: start) }
    }

    /// Each event kept: its id, start and length in seconds.
    func events(_ bucket: ActivityWatchBucket) -> [(String?, Micros, Double)] {
        let e = bucket.events
        return (0..<e.count).map { (e.ids.text(at: $0), e.starts[$0], Double(e.ends[$0] - e.starts[$0]) / 1e6) }
    }

    func t(_ text: String) -> Micros { RFC3339.parse(text)! }

    @Test func theNewestStartIsWhatTheNextReadAsksFromInMilliseconds() throws {
        let (_, bucket) = try kept([("2", "2026-02-23T09:10:00.123456+00:00", 60), ("1", "2026-02-23T09:00:00Z", 300)])
        #expect(bucket.newestStart == t("2026-02-23T09:10:00.123Z"))
        #expect(ActivityWatchFollow.apiTime(bucket.newestStart!) == "2026-02-23T09:10:00.123Z")
        #expect(ActivityWatchFollow.apiTime(t("1969-12-31T23:59:59.5Z")) == "1969-12-31T23:59:59.500Z")
    }

    @Test func aGrownEventReplacesTheOneKept() throws {
        var (read, bucket) = try kept([("2", "2026-02-23T09:10:00Z", 60), ("1", "2026-02-23T09:00:00Z", 300)])
        let start = t("2026-02-23T09:10:00Z")
        #expect(try merge(&read, &bucket, [("2", "2026-02-23T09:10:00+00:00", 90)], since: start))
        #expect(events(bucket).map(\.2) == [90, 300])
        #expect(events(bucket).map(\.1) == [t("2026-02-23T09:10:00Z"), t("2026-02-23T09:00:00Z")])
    }

    @Test func anEventTrimmedToTheStartAskedForKeepsItsOwnStart() throws {
        // The server cuts an event that began before `start` to begin there (aw-server's get_events).
        var (read, bucket) = try kept([("2", "2026-02-23T09:10:00Z", 60), ("1", "2026-02-23T09:00:00Z", 900)])
        let start = t("2026-02-23T09:10:00Z")
        // Event 1 reaches past the start, unchanged: trimmed to 09:10, 300 s left.
        #expect(try !merge(&read, &bucket, [("2", "2026-02-23T09:10:00+00:00", 60), ("1", "2026-02-23T09:10:00+00:00", 300)], since: start))
        #expect(events(bucket).map(\.2) == [60, 900])
        // Grown meanwhile by 60 s: its own start, its new end.
        #expect(try merge(&read, &bucket, [("1", "2026-02-23T09:10:00+00:00", 360)], since: start))
        let grown = events(bucket).last!
        #expect(grown.0 == "1" && grown.1 == t("2026-02-23T09:00:00Z") && grown.2 == 960)
    }

    @Test func newEventsAreAddedOnceNewestFirst() throws {
        var (read, bucket) = try kept([("1", "2026-02-23T09:00:00Z", 60)])
        let start = t("2026-02-23T09:00:00Z")
        let again: [Event] = [("3", "2026-02-23T09:05:00Z", 30), ("2", "2026-02-23T09:02:00Z", 30), ("1", "2026-02-23T09:00:00Z", 60)]
        #expect(try merge(&read, &bucket, again, since: start))
        #expect(events(bucket).map(\.0) == ["3", "2", "1"])
        #expect(try !merge(&read, &bucket, again, since: start))
        #expect(events(bucket).count == 3)
        // Events without an id (no server sends them) are told apart by what they hold.
        #expect(try merge(&read, &bucket, [(nil, "2026-02-23T09:06:00Z", 5)], since: start))
        #expect(try !merge(&read, &bucket, [(nil, "2026-02-23T09:06:00Z", 5)], since: start))
        #expect(events(bucket).count == 4)
        // The merged events make the sessions a whole read of the same events makes.
        read.replaceBuckets([bucket])
        var whole = ActivityWatchRead()
        var all = ActivityWatchBucket(key: "w")
        all.type = ActivityWatchRead.windowType
        try json([(nil, "2026-02-23T09:06:00Z", 5)] + again).withUnsafeBufferPointer { bytes throws(IngestError) in
            try whole.readEvents(bytes, into: &all)
        }
        whole.replaceBuckets([all])
        let merged = try read.dataset(source: "aw"), fresh = try whole.dataset(source: "aw")
        #expect(LoadFacts(.success(merged)) == LoadFacts(.success(fresh)))
    }

    @Test func theListingGivesEachBucketsLastUpdated() throws {
        let listing = Array(
            """
            {"w": {"id": "w", "type": "currentwindow", "hostname": "h", "last_updated": "2026-02-23T09:10:00.5+00:00"},
             "a": {"id": "a", "type": "afkstatus", "hostname": "h", "last_updated": null}}
            """.utf8)
        let read = try listing.withUnsafeBufferPointer { bytes throws(IngestError) in try ActivityWatchRead.read(bytes, document: .listing) }
        let byKey = Dictionary(uniqueKeysWithValues: read.buckets.map { ($0.key, $0.lastUpdated) })
        #expect(byKey["w"] == "2026-02-23T09:10:00.5+00:00")
        #expect(byKey["a"] == .some(nil))
    }

    /// Watch read the bucket again at every tick, and its repaired strings were added each time.
    @Test func bugRepairedStringsGrewAtEveryRefresh() throws {
        var read = ActivityWatchRead()
        var bucket = ActivityWatchBucket(key: "w")
        bucket.type = ActivityWatchRead.windowType
        // An app name with an invalid UTF-8 byte, repaired to U+FFFD.
        let bad: [UInt8] = Array(#"[{"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "Ed"#.utf8) + [0xFF]
            + Array(#""}}]"#.utf8)
        try bad.withUnsafeBufferPointer { bytes throws(IngestError) in try read.readEvents(bytes, into: &bucket) }
        read.replaceBuckets([bucket])
        #expect(try read.dataset(source: "aw").repairedStrings == 1)
        for _ in 0..<3 {
            _ = try bad.withUnsafeBufferPointer { bytes throws(IngestError) in
                try read.mergeEvents(bytes, into: &bucket, since: t("2026-02-23T09:00:00Z"))
            }
            try bad.withUnsafeBufferPointer { bytes throws(IngestError) in try read.readEvents(bytes, into: &bucket) }
            read.replaceBuckets([bucket])
        }
        #expect(try read.dataset(source: "aw").repairedStrings == 1)
        read.replaceBuckets([bucket], listingRepairs: 2)
        #expect(try read.dataset(source: "aw").repairedStrings == 3)
    }

    /// The newest event, its duration not written yet, still says where the next read starts.
    @Test func anEventWithoutADurationStillTellsWhereTheBucketsNewestStartIs() throws {
        var read = ActivityWatchRead()
        var bucket = ActivityWatchBucket(key: "w")
        bucket.type = ActivityWatchRead.windowType
        let events = Array(
            #"[{"id": 2, "timestamp": "2026-02-23T09:10:00Z", "data": {"app": "Ed"}}, {"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "Ed"}}]"#
                .utf8)
        try events.withUnsafeBufferPointer { bytes throws(IngestError) in try read.readEvents(bytes, into: &bucket) }
        #expect(bucket.newestStart == t("2026-02-23T09:10:00Z"))
        read.replaceBuckets([bucket])
        let d = try read.dataset(source: "aw")
        #expect(d.sessionCount == 1)
        #expect(d.skipped.count(.missingTimestamp) == 1)
    }
}
