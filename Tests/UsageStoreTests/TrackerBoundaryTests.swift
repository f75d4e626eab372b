// TrackerBoundaryTests.swift — every refusal of the tracker at its boundary, on every backend: the instant equal to a start, an end or now is on the right side of each rule, one microsecond over is refused with its exact error and message, and a refusal changes nothing.
import Foundation
import Testing
import UsageCore
@testable import UsageStore

/// One change at a boundary of the edit fixture (@1 Write 09:00–10:00, @2 Mail 10:30–11:00,
/// @3 Write 11:00–12:00, @4 Review from 13:00 running; now 14:00), and what it must come to:
/// the intervals after (times to the microsecond), or the refusal and the line the user reads.
struct BoundaryCase: CustomTestStringConvertible, Sendable {
    let name: String
    let change: @Sendable (any StoreWriter) throws(TrackingError) -> Void
    let expected: Result<[String], TrackingError>
    let message: String?
    var testDescription: String { name }

    init(_ name: String, _ change: @escaping @Sendable (any StoreWriter) throws(TrackingError) -> Void, _ intervals: [String]) {
        self.name = name
        self.change = change
        expected = .success(intervals)
        message = nil
    }

    init(_ name: String, _ change: @escaping @Sendable (any StoreWriter) throws(TrackingError) -> Void, refused: TrackingError, _ message: String) {
        self.name = name
        self.change = change
        expected = .failure(refused)
        self.message = message
    }
}

private typealias F = EditFixture
private let µs: Micros = 1

/// `HH:MM` on the fixture's day, and `+Nµs` when the instant is not on the minute.
private func clock(_ t: Micros) -> String {
    let ofDay = t - F.t("00:00")
    let minutes = ofDay / 60_000_000
    let rest = ofDay % 60_000_000
    let text = String(format: "%02d:%02d", Int(minutes / 60), Int(minutes % 60))
    return rest == 0 ? text : text + "+\(rest)µs"
}

private func at(_ t: Micros) -> Stamp { Stamp(instant: t, offsetMinutes: 0, zone: F.zone) }

struct TrackerBoundaryTests {
    static let unchanged = ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]
    static let now = F.now

    static let cases: [BoundaryCase] = [
        // An interval is [start, end): one may end where the next starts, not a microsecond later.
        BoundaryCase(
            "track ending at the next one's start", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("08:00"), to: F.at("09:00")) },
            ["@5 Plan 08:00–09:00"] + unchanged),
        BoundaryCase(
            "track ending a microsecond into the next one", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("08:00"), to: at(F.t("09:00") + µs)) },
            refused: .overlap(session: 1, task: "Write", start: F.t("09:00"), end: F.t("10:00")),
            "that overlaps @1 'Write' tracked 09:00–10:00; nothing was changed"),
        BoundaryCase(
            "track filling a gap exactly", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("10:00"), to: F.at("10:30")) },
            ["@1 Write 09:00–10:00", "@5 Plan 10:00–10:30", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]),
        BoundaryCase(
            "track starting a microsecond before the previous one ends", { s throws(TrackingError) in _ = try s.track("Plan", from: at(F.t("10:00") - µs), to: F.at("10:30")) },
            refused: .overlap(session: 1, task: "Write", start: F.t("09:00"), end: F.t("10:00")),
            "that overlaps @1 'Write' tracked 09:00–10:00; nothing was changed"),
        BoundaryCase(
            "track ending at the running one's start", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("12:00"), to: F.at("13:00")) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@5 Plan 12:00–13:00", "@4 Review 13:00–now"]),
        BoundaryCase(
            "track ending a microsecond into the running one", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("12:00"), to: at(F.t("13:00") + µs)) },
            refused: .overlap(session: 4, task: "Review", start: F.t("13:00"), end: nil),
            "that overlaps @4 'Review' tracked 13:00–now; nothing was changed"),
        // An end must be after its start: equal is refused, a microsecond after is an interval.
        BoundaryCase(
            "track ending at its start", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("12:30"), to: F.at("12:30")) },
            refused: .endNotAfterStart(start: F.t("12:30"), end: F.t("12:30")),
            "the end 12:30 is not after the start 12:30"),
        BoundaryCase(
            "track ending a microsecond after its start", { s throws(TrackingError) in _ = try s.track("Plan", from: F.at("12:30"), to: at(F.t("12:30") + µs)) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@5 Plan 12:30–12:30+1µs", "@4 Review 13:00–now"]),
        BoundaryCase(
            "stop at the running one's start", { s throws(TrackingError) in _ = try s.stop(at: F.at("13:00")) },
            refused: .endNotAfterStart(start: F.t("13:00"), end: F.t("13:00")),
            "the end 13:00 is not after the start 13:00"),
        BoundaryCase(
            "stop a microsecond after the running one's start", { s throws(TrackingError) in _ = try s.stop(at: at(F.t("13:00") + µs)) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–13:00+1µs"]),
        BoundaryCase(
            "an edited end at the start", { s throws(TrackingError) in _ = try s.editSession(2, .end(F.at("10:30")), now: now) },
            refused: .endNotAfterStart(start: F.t("10:30"), end: F.t("10:30")),
            "the end 10:30 is not after the start 10:30"),
        BoundaryCase(
            "an edited start a microsecond before the end", { s throws(TrackingError) in _ = try s.editSession(2, .start(at(F.t("11:00") - µs)), now: now) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:59+59999999µs–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]),
        // Edits meet their neighbours the same way.
        BoundaryCase(
            "an edited end at the next one's start", { s throws(TrackingError) in _ = try s.editSession(1, .end(F.at("10:30")), now: now) },
            ["@1 Write 09:00–10:30", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]),
        BoundaryCase(
            "an edited end a microsecond into the next one", { s throws(TrackingError) in _ = try s.editSession(1, .end(at(F.t("10:30") + µs)), now: now) },
            refused: .overlap(session: 2, task: "Mail", start: F.t("10:30"), end: F.t("11:00")),
            "that overlaps @2 'Mail' tracked 10:30–11:00; nothing was changed"),
        BoundaryCase(
            "an edited start a microsecond into the previous one", { s throws(TrackingError) in _ = try s.editSession(2, .start(at(F.t("10:00") - µs)), now: now) },
            refused: .overlap(session: 1, task: "Write", start: F.t("09:00"), end: F.t("10:00")),
            "that overlaps @1 'Write' tracked 09:00–10:00; nothing was changed"),
        // Another task's start must be after the running one's: equal is refused.
        BoundaryCase(
            "start another task at the running one's start", { s throws(TrackingError) in _ = try s.start("Mail", at: F.at("13:00")) },
            refused: .startNotAfterRunning(task: "Review", session: 4, since: F.t("13:00"), at: F.t("13:00")),
            "'Review' (@4) has run only since 13:00, not before 13:00, so it cannot stop then; nothing was changed (another shell or machine may have started it at that moment)"),
        BoundaryCase(
            "start another task a microsecond after the running one's start", { s throws(TrackingError) in _ = try s.start("Mail", at: at(F.t("13:00") + µs)) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–13:00+1µs", "@5 Mail 13:00+1µs–now"]),
        BoundaryCase(
            "continue at the running one's start", { s throws(TrackingError) in _ = try s.continueTask(.task("Mail"), at: F.at("13:00")) },
            refused: .startNotAfterRunning(task: "Review", session: 4, since: F.t("13:00"), at: F.t("13:00")),
            "'Review' (@4) has run only since 13:00, not before 13:00, so it cannot stop then; nothing was changed (another shell or machine may have started it at that moment)"),
        // Now is allowed, a microsecond later is the future.
        BoundaryCase(
            "an end at now", { s throws(TrackingError) in _ = try s.editSession(4, .end(at(now)), now: now) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–14:00"]),
        BoundaryCase(
            "an end a microsecond after now", { s throws(TrackingError) in _ = try s.editSession(4, .end(at(now + µs)), now: now) },
            refused: .inFuture(now + µs), "14:00+1µs is later than now"),
        BoundaryCase(
            "the running one's start at now", { s throws(TrackingError) in _ = try s.editSession(4, .start(at(now)), now: now) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 14:00–now"]),
        BoundaryCase(
            "the running one's start a microsecond after now", { s throws(TrackingError) in _ = try s.editSession(4, .start(at(now + µs)), now: now) },
            refused: .inFuture(now + µs), "14:00+1µs is later than now"),
        // A move may end at now and touch its neighbours.
        BoundaryCase(
            "a move ending at now", { s throws(TrackingError) in _ = try s.editSession(2, .move(F.at("12:00")), now: F.t("12:30")) },
            ["@1 Write 09:00–10:00", "@3 Write 11:00–12:00", "@2 Mail 12:00–12:30", "@4 Review 13:00–now"]),
        BoundaryCase(
            "a move ending a microsecond after now", { s throws(TrackingError) in _ = try s.editSession(2, .move(F.at("12:00")), now: F.t("12:30") - µs) },
            refused: .movedPastNow(session: 2, start: F.t("12:00"), end: F.t("12:30")),
            "@2 moved to 12:00 would end at 12:30, later than now"),
        BoundaryCase(
            "a move ending at the running one's start", { s throws(TrackingError) in _ = try s.editSession(2, .move(F.at("12:30")), now: now) },
            ["@1 Write 09:00–10:00", "@3 Write 11:00–12:00", "@2 Mail 12:30–13:00", "@4 Review 13:00–now"]),
        BoundaryCase(
            "a move a microsecond into the running one", { s throws(TrackingError) in _ = try s.editSession(2, .move(at(F.t("12:30") + µs)), now: now) },
            refused: .overlap(session: 4, task: "Review", start: F.t("13:00"), end: nil),
            "that overlaps @4 'Review' tracked 13:00–now; nothing was changed"),
        BoundaryCase(
            "a move a microsecond into the previous one", { s throws(TrackingError) in _ = try s.editSession(2, .move(at(F.t("12:00") - µs)), now: now) },
            refused: .overlap(session: 3, task: "Write", start: F.t("11:00"), end: F.t("12:00")),
            "that overlaps @3 'Write' tracked 11:00–12:00; nothing was changed"),
        // A split is strictly inside: a microsecond in from either end, and up to now when running.
        BoundaryCase(
            "a split a microsecond after the start", { s throws(TrackingError) in _ = try s.splitSession(1, at: at(F.t("09:00") + µs), now: now) },
            ["@1 Write 09:00–09:00+1µs", "@5 Write 09:00+1µs–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]),
        BoundaryCase(
            "a split a microsecond before the end", { s throws(TrackingError) in _ = try s.splitSession(1, at: at(F.t("10:00") - µs), now: now) },
            ["@1 Write 09:00–09:59+59999999µs", "@5 Write 09:59+59999999µs–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–now"]),
        BoundaryCase(
            "a split at the start", { s throws(TrackingError) in _ = try s.splitSession(1, at: F.at("09:00"), now: now) },
            refused: .notInside(F.t("09:00"), session: 1, start: F.t("09:00"), end: F.t("10:00")),
            "09:00 is not inside @1 (09:00–10:00): a split is between its start and its end"),
        BoundaryCase(
            "a split at the end", { s throws(TrackingError) in _ = try s.splitSession(1, at: F.at("10:00"), now: now) },
            refused: .notInside(F.t("10:00"), session: 1, start: F.t("09:00"), end: F.t("10:00")),
            "10:00 is not inside @1 (09:00–10:00): a split is between its start and its end"),
        BoundaryCase(
            "a split of the running one at now", { s throws(TrackingError) in _ = try s.splitSession(4, at: at(now), now: now) },
            ["@1 Write 09:00–10:00", "@2 Mail 10:30–11:00", "@3 Write 11:00–12:00", "@4 Review 13:00–14:00", "@5 Review 14:00–now"]),
        BoundaryCase(
            "a split of the running one a microsecond after now", { s throws(TrackingError) in _ = try s.splitSession(4, at: at(now + µs), now: now) },
            refused: .notInside(now + µs, session: 4, start: F.t("13:00"), end: nil),
            "14:00+1µs is not inside @4 (13:00–now): a split is between its start and its end"),
    ]

    @Test(arguments: Backend.allCases, cases)
    func aRuleHoldsAtItsBoundary(backend: Backend, _ c: BoundaryCase) throws {
        guard available(backend) else { return }
        try EditFixture(backend).expect(c.change, c.expected, message: c.message, clock: clock, name: c.name)
    }
}
