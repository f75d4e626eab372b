// SessionEditTests.swift — each session edit (start, end, task, move, split, join, delete, continue) against the store's rules, table-driven, on every backend: the previous and next interval, a running one, the future, an end not after its start, an unknown id, a spring-forward day; a refused edit changes nothing (the tables compared in plain SQL) and names the interval in the way; after every edit the rules hold.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageStore

/// A store with four intervals (UTC, 2026-02-23): @1 Write 09:00–10:00, @2 Mail 10:30–11:00,
/// @3 Write 11:00–12:00, @4 Review from 13:00, running; now is 14:00. On either backend.
struct EditFixture {
    static let zone = "UTC"
    static func t(_ clock: String) -> Micros { RFC3339.parse("2026-02-23T\(clock):00Z")! }
    static func at(_ clock: String) -> Stamp { Stamp(instant: t(clock), offsetMinutes: 0, zone: zone) }
    static let now = t("14:00")

    let backend: BackendStore
    var store: any StoreWriter { backend.store }

    init(_ on: Backend = .sqlite) throws {
        backend = try BackendStore(on)
        _ = try store.track("Write", from: Self.at("09:00"), to: Self.at("10:00"))
        _ = try store.track("Mail", from: Self.at("10:30"), to: Self.at("11:00"))
        _ = try store.track("Write", from: Self.at("11:00"), to: Self.at("12:00"))
        _ = try store.start("Review", at: Self.at("13:00"))
    }

    /// The tracker's tables and the journal, as the database holds them.
    func dump() throws -> [String] { try backend.trackerDump() }

    /// Every interval as `id task start–end` (`clock` times, `HH:MM` by default; `now` while
    /// running), in start order.
    func intervals(clock: (Micros) -> String = { String(RFC3339.format($0).dropFirst(11).prefix(5)) }) throws -> [String] {
        let snapshot = try store.trackerSnapshot()
        return snapshot.intervals.map { i in
            "@\(i.id) \(snapshot.task(i.task)!.name) \(clock(i.start))–\(i.end.map(clock) ?? "now")"
        }
    }

    /// Makes `change` and checks what it came to: the intervals after (`clock` times), or the
    /// refusal expected (and its line, when `message` is given, its times by `clock`), the store
    /// then exactly as before, not even the journal changed; the store's rules hold either way.
    func expect(
        _ change: (any StoreWriter) throws(TrackingError) -> Void, _ expected: Result<[String], TrackingError>, message: String? = nil,
        clock: @escaping (Micros) -> String = { String(RFC3339.format($0).dropFirst(11).prefix(5)) }, name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try dump()
        var refusal: TrackingError?
        do throws(TrackingError) {
            try change(store)
        } catch {
            refusal = error
        }
        switch (expected, refusal) {
        case (.success(let intervals), nil):
            #expect(try self.intervals(clock: clock) == intervals, sourceLocation: sourceLocation)
        case (.failure(let expected), let error?):
            #expect(error == expected, sourceLocation: sourceLocation)
            if let message {
                #expect(error.description(when: clock, range: { "\(clock($0))–\($1.map(clock) ?? "now")" }) == message, sourceLocation: sourceLocation)
            }
            #expect(try dump() == before, "a refused change changes nothing", sourceLocation: sourceLocation)
        default:
            Issue.record("\(name): \(refusal.map { "refused: \($0)" } ?? "done"), but \(expected) was expected", sourceLocation: sourceLocation)
        }
        try expectTheRulesHold(store, sourceLocation: sourceLocation)
    }
}

extension RFC3339 {
    /// `2026-02-23T09:00:00Z` (tests only).
    static func format(_ t: Micros) -> String {
        let date = Date(timeIntervalSince1970: Double(t) / 1_000_000)
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }
}

/// The store's rules, checked on what it holds: ends after starts, at most one running, no overlap.
func expectTheRulesHold(_ store: any StoreWriter, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let intervals = try store.trackerSnapshot().intervals
    #expect(intervals.filter(\.isRunning).count <= 1, sourceLocation: sourceLocation)
    for i in intervals { if let end = i.end { #expect(end > i.start, sourceLocation: sourceLocation) } }
    for (a, b) in zip(intervals, intervals.dropFirst()) {
        #expect((a.end ?? .max) <= b.start, "@\(a.id) overlaps @\(b.id)", sourceLocation: sourceLocation)
    }
}

struct SessionEditTests {
    typealias F = EditFixture

    /// An edit, and what it leaves: the intervals after, or the refusal.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let edit: @Sendable (any StoreWriter) throws(TrackingError) -> Void
        let expected: Result<[String], TrackingError>
        var testDescription: String { name }
    }

    static let unchanged = ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]

    static let cases: [Case] = [
        Case(
            name: "a start over the previous interval", edit: { s throws(TrackingError) in _ = try s.editSession(2, .start(F.at("09:30")), now: F.now) },
            expected: .failure(.overlap(session: 1, task: "Write", start: F.t("09:00"), end: F.t("10:00")))),
        Case(
            name: "a start touching the previous interval", edit: { s throws(TrackingError) in _ = try s.editSession(2, .start(F.at("10:00")), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:00–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"])),
        Case(
            name: "an end over the next interval", edit: { s throws(TrackingError) in _ = try s.editSession(2, .end(F.at("11:30")), now: F.now) },
            expected: .failure(.overlap(session: 3, task: "Write", start: F.t("11:00"), end: F.t("12:00")))),
        Case(
            name: "an end earlier", edit: { s throws(TrackingError) in _ = try s.editSession(2, .end(F.at("10:45")), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–10:45", "@3 Write 11:00–12:00", "@4 Review 13:00–now"])),
        Case(
            name: "an end over the running interval", edit: { s throws(TrackingError) in _ = try s.editSession(3, .end(F.at("13:30")), now: F.now) },
            expected: .failure(.overlap(session: 4, task: "Review", start: F.t("13:00"), end: nil))),
        Case(
            name: "an end at the start", edit: { s throws(TrackingError) in _ = try s.editSession(2, .end(F.at("10:30")), now: F.now) },
            expected: .failure(.endNotAfterStart(start: F.t("10:30"), end: F.t("10:30")))),
        Case(
            name: "a start at the end", edit: { s throws(TrackingError) in _ = try s.editSession(2, .start(F.at("11:00")), now: F.now) },
            expected: .failure(.endNotAfterStart(start: F.t("11:00"), end: F.t("11:00")))),
        Case(
            name: "an end in the future", edit: { s throws(TrackingError) in _ = try s.editSession(3, .end(F.at("15:00")), now: F.now) },
            expected: .failure(.inFuture(F.t("15:00")))),
        Case(
            name: "the running one's start over the one before", edit: { s throws(TrackingError) in _ = try s.editSession(4, .start(F.at("11:30")), now: F.now) },
            expected: .failure(.overlap(session: 3, task: "Write", start: F.t("11:00"), end: F.t("12:00")))),
        Case(
            name: "the running one's start earlier", edit: { s throws(TrackingError) in _ = try s.editSession(4, .start(F.at("12:00")), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 12:00–now"])),
        Case(
            name: "the running one's start in the future", edit: { s throws(TrackingError) in _ = try s.editSession(4, .start(F.at("14:30")), now: F.now) },
            expected: .failure(.inFuture(F.t("14:30")))),
        Case(
            name: "the running one given an end stops it", edit: { s throws(TrackingError) in _ = try s.editSession(4, .end(F.at("13:30")), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–13:30"])),
        Case(
            name: "another task", edit: { s throws(TrackingError) in _ = try s.editSession(2, .task("wri"), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Write 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"])),
        Case(
            name: "a new task", edit: { s throws(TrackingError) in _ = try s.editSession(4, .task("Calls"), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Calls 13:00–now"])),
        Case(
            name: "a move onto the previous", edit: { s throws(TrackingError) in _ = try s.editSession(2, .move(F.at("09:45")), now: F.now) },
            expected: .failure(.overlap(session: 1, task: "Write", start: F.t("09:00"), end: F.t("10:00")))),
        Case(
            name: "a move onto the running one", edit: { s throws(TrackingError) in _ = try s.editSession(2, .move(F.at("12:45")), now: F.now) },
            expected: .failure(.overlap(session: 4, task: "Review", start: F.t("13:00"), end: nil))),
        Case(
            name: "a move into a gap keeps the length", edit: { s throws(TrackingError) in _ = try s.editSession(2, .move(F.at("12:00")), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@3 Write 11:00–12:00", "@2 Mail 12:00–12:30", "@4 Review 13:00–now"])),
        Case(
            name: "a move of the running one", edit: { s throws(TrackingError) in _ = try s.editSession(4, .move(F.at("12:30")), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 12:30–now"])),
        Case(
            name: "a move ending in the future", edit: { s throws(TrackingError) in _ = try s.editSession(1, .move(F.at("13:30")), now: F.now) },
            expected: .failure(.movedPastNow(session: 1, start: F.t("13:30"), end: F.t("14:30")))),
        Case(
            name: "a split", edit: { s throws(TrackingError) in _ = try s.splitSession(1, at: F.at("09:20"), now: F.now) },
            expected: .success(["@1 Write 09:00–09:20", "@5 Write 09:20–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"])),
        Case(
            name: "a split at the end", edit: { s throws(TrackingError) in _ = try s.splitSession(1, at: F.at("10:00"), now: F.now) },
            expected: .failure(.notInside(F.t("10:00"), session: 1, start: F.t("09:00"), end: F.t("10:00")))),
        Case(
            name: "a split at the start", edit: { s throws(TrackingError) in _ = try s.splitSession(1, at: F.at("09:00"), now: F.now) },
            expected: .failure(.notInside(F.t("09:00"), session: 1, start: F.t("09:00"), end: F.t("10:00")))),
        Case(
            name: "a split of the running one", edit: { s throws(TrackingError) in _ = try s.splitSession(4, at: F.at("13:30"), now: F.now) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–13:30", "@5 Review 13:30–now"])),
        Case(
            name: "a split of the running one after now", edit: { s throws(TrackingError) in _ = try s.splitSession(4, at: F.at("14:30"), now: F.now) },
            expected: .failure(.notInside(F.t("14:30"), session: 4, start: F.t("13:00"), end: nil))),
        Case(
            name: "a join across another task's interval", edit: { s throws(TrackingError) in _ = try s.joinSessions(1, 3) },
            expected: .failure(.overlap(session: 2, task: "Mail", start: F.t("10:30"), end: F.t("11:00")))),
        Case(
            name: "a join of neighbours takes the first's task", edit: { s throws(TrackingError) in _ = try s.joinSessions(2, 3) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–12:00", "@4 Review 13:00–now"])),
        Case(
            name: "a join named in either order", edit: { s throws(TrackingError) in _ = try s.joinSessions(3, 2) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–12:00", "@4 Review 13:00–now"])),
        Case(
            name: "a join with the running one runs", edit: { s throws(TrackingError) in _ = try s.joinSessions(3, 4) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–now"])),
        Case(
            name: "a join with itself", edit: { s throws(TrackingError) in _ = try s.joinSessions(3, 3) },
            expected: .failure(.joinItself(3))),
        Case(
            name: "a delete of the running one", edit: { s throws(TrackingError) in _ = try s.deleteSession(4) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00"])),
        Case(
            name: "an unknown id", edit: { s throws(TrackingError) in _ = try s.editSession(9, .end(F.at("12:00")), now: F.now) },
            expected: .failure(.unknownSession(9))),
        Case(
            name: "continue: the task stopped last, the running one stopped", edit: { s throws(TrackingError) in _ = try s.continueTask(.last, at: F.at("14:00")) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–14:00", "@5 Write 14:00–now"])),
        Case(
            name: "continue a session's task", edit: { s throws(TrackingError) in _ = try s.continueTask(.session(2), at: F.at("14:00")) },
            expected: .success(["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–14:00", "@5 Mail 14:00–now"])),
        Case(
            name: "continue the running task changes nothing", edit: { s throws(TrackingError) in _ = try s.continueTask(.task("Review"), at: F.at("14:00")) },
            expected: .success(unchanged)),
        Case(
            name: "continue into the running one's time", edit: { s throws(TrackingError) in _ = try s.continueTask(.task("Mail"), at: F.at("12:30")) },
            expected: .failure(.startNotAfterRunning(task: "Review", session: 4, since: F.t("13:00"), at: F.t("12:30")))),
    ]

    @Test(arguments: Backend.allCases, cases)
    func anEditKeepsTheRules(backend: Backend, _ c: Case) throws {
        guard available(backend) else { return }
        try EditFixture(backend).expect(c.edit, c.expected, name: c.name)
    }

    /// New York springs forward at 02:00 on 2026-03-08: `move` keeps the real length, and each
    /// end keeps the offset in effect at it.
    @Test(arguments: Backend.allCases)
    func onASpringForwardDayAMoveKeepsTheRealLengthAndEachEndItsOffset(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let store = s.store
        let ny = Zone(identifier: "America/New_York")!
        func at(_ text: String) -> Stamp {
            let t = RFC3339.parse(text)!
            return Stamp(instant: t, offsetMinutes: ny.offsetSeconds(at: t) / 60, zone: ny.identifier)
        }
        let now = RFC3339.parse("2026-03-08T12:00:00-04:00")!
        _ = try store.track("Night", from: at("2026-03-08T01:00:00-05:00"), to: at("2026-03-08T01:50:00-05:00"))
        _ = try store.track("Day", from: at("2026-03-08T03:10:00-04:00"), to: at("2026-03-08T03:40:00-04:00"))
        // 01:30 EST + 50 min is 03:20 EDT: over Day.
        #expect(throws: TrackingError.overlap(session: 2, task: "Day", start: RFC3339.parse("2026-03-08T03:10:00-04:00")!, end: RFC3339.parse("2026-03-08T03:40:00-04:00")!)) {
            try store.editSession(1, .move(at("2026-03-08T01:30:00-05:00")), now: now)
        }
        // Day moved to 01:50 EST: it ends at 02:20 EST, which is 03:20 EDT, 30 real minutes later.
        let moved = try store.editSession(2, .move(at("2026-03-08T01:50:00-05:00")), now: now).sessions[0].interval
        #expect(moved.start == RFC3339.parse("2026-03-08T01:50:00-05:00"))
        #expect(moved.end == RFC3339.parse("2026-03-08T03:20:00-04:00"))
        #expect(moved.startOffsetMinutes == -300)
        #expect(moved.endOffsetMinutes == -240)
        #expect(moved.length(now: now) == 30 * 60_000_000)
        // Night's end past the gap: 01:00 EST to 03:00 EDT is one real hour, not two.
        #expect(throws: TrackingError.overlap(session: 2, task: "Day", start: moved.start, end: moved.end)) {
            try store.editSession(1, .end(at("2026-03-08T03:00:00-04:00")), now: now)
        }
        let night = try store.editSession(1, .end(at("2026-03-08T01:50:00-05:00")), now: now).sessions[0].interval
        #expect(night.endOffsetMinutes == -300)
        // Split across the gap: both parts keep their real lengths.
        let split = try store.splitSession(2, at: at("2026-03-08T03:00:00-04:00"), now: now).sessions.map(\.interval)
        #expect(split.map { $0.length(now: now) } == [10 * 60_000_000, 20 * 60_000_000])
        #expect(split[1].startOffsetMinutes == -240)
        try expectTheRulesHold(store)
    }
}
