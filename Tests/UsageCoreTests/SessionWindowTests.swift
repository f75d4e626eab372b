// SessionWindowTests.swift — the one window every report reads: the sessions touching [from, to), clipped, in order, empty ones skipped, ids on demand, the whole history with no overflow.
import Testing
@testable import UsageCore
@testable import UsageFormats

struct SessionWindowTests {
    static let dataset = try! SessionsJSON.decode(
        """
        [{"session_id":"a","app_name":"A","category":"X","start_timestamp":"2026-02-22T23:00:00Z","end_timestamp":"2026-02-23T01:00:00Z"},
         {"session_id":"b","app_name":"B","category":"Y","start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T10:30:00Z"},
         {"app_name":"A","category":"X","start_timestamp":"2026-02-23T23:30:00Z","end_timestamp":"2026-02-24T00:30:00Z"},
         {"session_id":"d","app_name":"C","category":"Y","start_timestamp":"2026-02-21T00:00:00Z","end_timestamp":"2026-02-21T01:00:00Z"}]
        """)

    static func t(_ text: String) -> Micros { RFC3339.parse(text)! }

    @Test func aDayWindowClipsAtBothEndsAndSaysSo() {
        let window = Self.dataset.window(Zone.utc.window(for: LocalDate(iso: "2026-02-23")!))
        let sessions = Array(window)
        #expect(sessions.map(\.start) == [Self.t("2026-02-23T00:00:00Z"), Self.t("2026-02-23T10:00:00Z"), Self.t("2026-02-23T23:30:00Z")])
        #expect(sessions.map(\.end) == [Self.t("2026-02-23T01:00:00Z"), Self.t("2026-02-23T10:30:00Z"), Self.t("2026-02-24T00:00:00Z")])
        #expect(sessions.map(\.startsBefore) == [true, false, false])
        #expect(sessions.map(\.endsAfter) == [false, false, true])
        #expect(sessions.map { window.id(of: $0) } == ["a", "b", nil])
        #expect(sessions.map(\.length).reduce(0, +) == 3_600_000_000 * 2)
    }

    /// `insights`' longest session, found in one tight pass: the walk over the clipped sessions
    /// it replaced gives the same one (the first of equals), in every window of the history.
    @Test func theLongestClippedSessionIsTheWalksLongest() {
        let hours = (0..<48).map { Self.t("2026-02-21T00:00:00Z") + Micros($0) * 3_600_000_000 }
        for from in hours {
            for to in hours where to > from {
                let window = Self.dataset.window(from: from, to: to)
                var walked: (app: Int32, start: Micros, length: Micros)?
                for s in window where s.length > (walked?.length ?? 0) { walked = (s.app, s.start, s.length) }
                let fast = window.longestClipped
                #expect(fast?.app == walked?.app && fast?.start == walked?.start && fast?.length == walked?.length)
            }
        }
        #expect(SessionWindow.empty(from: 0, to: 10).longestClipped == nil)
    }

    @Test func aWindowWithNothingInItYieldsNothing() {
        #expect(Array(Self.dataset.window(from: Self.t("2026-02-22T01:00:00Z"), to: Self.t("2026-02-22T23:00:00Z"))).isEmpty)
        #expect(Array(Dataset.empty.window(from: 0, to: 10)).isEmpty)
        #expect(Array(SessionWindow.empty(from: 0, to: 10)).isEmpty)
    }

    @Test func theWholeHistoryIsEverySessionUnclipped() {
        let all = Array(Self.dataset.all)
        #expect(all.count == 4)
        #expect(all.allSatisfy { $0.start == $0.sessionStart && $0.end == $0.sessionEnd })
        #expect(all.map { Self.dataset.apps[Int($0.app)] } == ["C", "A", "B", "A"])
    }

    @Test func theLatestCategoryOfAnApp() {
        let a = Int32(Self.dataset.apps.firstIndex(of: "A")!)
        #expect(Self.dataset.latestCategory(ofApp: a).map { Self.dataset.categories[Int($0)] } == "X")
    }

    @Test func hourSlotsOverlappedBySpanAndClip() {
        let day = Zone.utc.window(for: LocalDate(iso: "2026-02-23")!)
        var seen: [(Int, Micros)] = []
        day.forEachSlot(overlapping: Self.t("2026-02-23T09:45:00Z"), Self.t("2026-02-23T11:15:00Z")) { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == [9, 10, 11])
        let minute: Micros = 60_000_000
        #expect(seen.map(\.1) == [15 * minute, 60 * minute, 15 * minute])
    }
}
