// SessionJoinTests.swift — issue 44, item 5, through the built binary: `session join` of sessions of different tasks, or across a gap of more than 5 minutes, says what moves and is refused in a batch run unless --force (nothing changed); a join that moves nothing goes ahead as before.
import Foundation
import Testing

struct SessionJoinTests {
    /// Joining Acme 09:15–10:30 and Beta 13:00–15:30 gave one 6h 15m Acme session: Beta's
    /// 2h 30m gone and the gap billed, without a word.
    @Test func item5AJoinThatMovesTimeSaysWhatAndNeedsForce() throws {
        let w = try StoreWorkspace()
        let base = ["--db", w.db, "--width", "200"]
        let setUp = try Binary.run(
            base + [
                "-c", "track \"Acme website\" 2026-02-23T09:15 10:30", "-c", "track \"Beta API\" 2026-02-23T13:00 15:30",
                "-c", "track \"Acme website\" 2026-02-23T16:00 16:30", "-c", "track \"Acme website\" 2026-02-23T16:33 17:00",
            ])
        #expect(setUp.status == 0)
        let before = try Binary.run(base + ["-c", "sessions 2026-02-23"]).stdout
        let refused = try Binary.run(base + ["-c", "session join @1 @2", "-c", "session join @2 @1", "-c", "session join @1 @3"])
        #expect(refused.stdout == "")
        #expect(
            refused.stderr == """
                error: line 1: joining @1 and @2 moves time: Beta API loses 2h 30m; 2h 30m of gap becomes Acme website; nothing was changed (session join @1 @2 --force joins them)
                error: line 2: joining @1 and @2 moves time: Beta API loses 2h 30m; 2h 30m of gap becomes Acme website; nothing was changed (session join @2 @1 --force joins them)
                error: line 3: that overlaps @2 'Beta API' tracked Mon 2026-02-23 13:00–15:30; nothing was changed

                """)
        #expect(refused.status == 1)
        #expect(try Binary.run(base + ["-c", "sessions 2026-02-23"]).stdout == before, "nothing changed")
        // A gap of a few minutes, of one task, is joined as before; --force joins anything.
        let joined = try Binary.run(base + ["-c", "session join @3 @4", "-c", "session join @1 @2 --force"])
        #expect(joined.stderr == "")
        #expect(
            joined.stdout == """
                joined @4 into @3 Acme website Mon 2026-02-23 16:00–17:00 (1h)
                joined @2 into @1 Acme website Mon 2026-02-23 09:15–15:30 (6h 15m)

                """)
        #expect(joined.status == 0)
    }

    /// A join across another task's session said "22h 30m of gap becomes Acme" (the session in
    /// between counted as gap), asked, and after a yes (or --force) was refused for the session
    /// in the way (found by a reviewing helper). It is now refused at once, for that session, and
    /// offers no --force.
    @Test func bugAJoinAcrossAnotherSessionWasAskedAboutThenRefused() throws {
        let w = try StoreWorkspace()
        let base = ["--db", w.db, "--width", "200"]
        _ = try Binary.run(
            base + ["-c", "track Acme 2026-02-23T09:15 10:30", "-c", "track Beta 2026-02-23T13:00 15:30", "-c", "track Acme 2026-02-24T09:00 12:00"])
        for force in ["", " --force"] {
            let r = try Binary.run(base + ["-c", "session join @1 @3" + force])
            #expect(r.stderr == "error: line 1: that overlaps @2 'Beta' tracked Mon 2026-02-23 13:00–15:30; nothing was changed\n")
            #expect(r.status == 1)
        }
    }
}
