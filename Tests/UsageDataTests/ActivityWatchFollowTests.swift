// ActivityWatchFollowTests.swift — the events of an ActivityWatch server merged as `watch` reads them: a grown event replaces the one kept, an event the server trimmed to the `start` asked for keeps its own start, new events are added once, an unchanged one changes nothing; and `start` written as the API takes it.
import Testing
import UsageCore
@testable import UsageData

struct ActivityWatchFollowTests {
    func event(_ id: String?, _ timestamp: String, _ seconds: Double, app: String = "Editor") -> LenientElement<ActivityWatchEvent> {
        .object(ActivityWatchEvent(id: id, timestamp: .value(timestamp), duration: .value(seconds), app: .value(app), status: nil))
    }

    func kept(_ events: [LenientElement<ActivityWatchEvent>]) -> ActivityWatchEvents.Kept {
        ActivityWatchEvents.Kept(ActivityWatchBucket(id: "w", type: "currentwindow", hostname: "h", events: events))
    }

    func events(_ k: ActivityWatchEvents.Kept) -> [(String?, String?, Double?)] {
        (k.bucket.events ?? []).compactMap {
            if case .object(let e) = $0 { return (e.id, e.timestamp.value, e.duration.value) }
            return nil
        }
    }

    @Test func theNewestStartIsWhatTheNextReadAsksFromInMilliseconds() {
        let k = kept([event("2", "2026-02-23T09:10:00.123456+00:00", 60), event("1", "2026-02-23T09:00:00Z", 300)])
        #expect(k.newestStart == RFC3339.parse("2026-02-23T09:10:00.123Z"))
        #expect(ActivityWatchEvents.apiTime(k.newestStart!) == "2026-02-23T09:10:00.123Z")
        #expect(ActivityWatchEvents.apiTime(RFC3339.parse("1969-12-31T23:59:59.5Z")!) == "1969-12-31T23:59:59.500Z")
    }

    @Test func aGrownEventReplacesTheOneKept() {
        var k = kept([event("2", "2026-02-23T09:10:00Z", 60), event("1", "2026-02-23T09:00:00Z", 300)])
        let start = RFC3339.parse("2026-02-23T09:10:00Z")!
        let changed1 = k.merge([event("2", "2026-02-23T09:10:00+00:00", 90)], since: start)
        #expect(changed1)
        #expect(events(k).map(\.2) == [90, 300])
        #expect(events(k).map(\.1) == ["2026-02-23T09:10:00+00:00", "2026-02-23T09:00:00Z"])
    }

    @Test func anEventTrimmedToTheStartAskedForKeepsItsOwnStart() {
        // The server cuts an event that began before `start` to begin there (aw-server's get_events).
        var k = kept([event("2", "2026-02-23T09:10:00Z", 60), event("1", "2026-02-23T09:00:00Z", 900)])
        let start = RFC3339.parse("2026-02-23T09:10:00Z")!
        // Event 1 reaches past the start, unchanged: trimmed to 09:10, 300 s left.
        let changed2 = k.merge([event("2", "2026-02-23T09:10:00+00:00", 60), event("1", "2026-02-23T09:10:00+00:00", 300)], since: start)
        #expect(!changed2)
        #expect(events(k).map(\.2) == [60, 900])
        // Grown meanwhile by 60 s: its own start, its new end.
        let changed3 = k.merge([event("1", "2026-02-23T09:10:00+00:00", 360)], since: start)
        #expect(changed3)
        let grown = events(k).last!
        #expect(grown.0 == "1" && grown.1 == "2026-02-23T09:00:00Z" && grown.2 == 960)
    }

    @Test func newEventsAreAddedOnceNewestFirst() {
        var k = kept([event("1", "2026-02-23T09:00:00Z", 60)])
        let start = RFC3339.parse("2026-02-23T09:00:00Z")!
        let read = [event("3", "2026-02-23T09:05:00Z", 30), event("2", "2026-02-23T09:02:00Z", 30), event("1", "2026-02-23T09:00:00Z", 60)]
        let changed4 = k.merge(read, since: start)
        #expect(changed4)
        #expect(events(k).map(\.0) == ["3", "2", "1"])
        let changed5 = k.merge(read, since: start)
        #expect(!changed5)
        #expect(events(k).count == 3)
        // Events without an id (no server sends them) are told apart by what they hold.
        let changed6 = k.merge([event(nil, "2026-02-23T09:06:00Z", 5)], since: start)
        #expect(changed6)
        let changed7 = k.merge([event(nil, "2026-02-23T09:06:00Z", 5)], since: start)
        #expect(!changed7)
        #expect(events(k).count == 4)
    }
}
