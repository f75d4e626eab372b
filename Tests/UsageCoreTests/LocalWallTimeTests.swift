// LocalWallTimeTests.swift — Zone.instant(ofWallSeconds:) at the edges of DST changes (the hour the clocks skip, the hour they repeat, a half-hour change), the length of a DST change's day, and SpreadsheetCell's guard and its exact inverse.
import Testing
import TestSupport
@testable import UsageCore
@testable import UsageFormats

struct ZoneWallTimeTests {
    /// `Zone.instant(ofWallSeconds:)` at the edges of DST changes, in seconds since the epoch.
    @Test(arguments: [
        // New York, spring forward 2026-03-08 02:00 EST → 03:00 EDT (07:00Z).
        ("America/New_York", "2026-03-08T01:59:59Z", "2026-03-08T06:59:59Z"),
        ("America/New_York", "2026-03-08T02:00:00Z", "2026-03-08T07:00:00Z"),  // skipped: moved on by the gap
        ("America/New_York", "2026-03-08T02:59:59Z", "2026-03-08T07:59:59Z"),
        ("America/New_York", "2026-03-08T03:00:00Z", "2026-03-08T07:00:00Z"),
        // Fall back 2026-11-01 02:00 EDT → 01:00 EST (06:00Z): 01:30 twice, the first (EDT) taken.
        ("America/New_York", "2026-11-01T00:59:59Z", "2026-11-01T04:59:59Z"),
        ("America/New_York", "2026-11-01T01:30:00Z", "2026-11-01T05:30:00Z"),
        ("America/New_York", "2026-11-01T02:00:00Z", "2026-11-01T07:00:00Z"),
        ("UTC", "2026-02-23T09:00:00Z", "2026-02-23T09:00:00Z"),
        ("Asia/Kolkata", "2026-02-23T09:00:00Z", "2026-02-23T03:30:00Z"),
        // Lord Howe moves by half an hour: 2026-04-05 02:00 (+11) → 01:30 (+10:30).
        ("Australia/Lord_Howe", "2026-04-05T01:45:00Z", "2026-04-04T14:45:00Z"),
        ("Australia/Lord_Howe", "2026-04-05T02:00:00Z", "2026-04-04T15:30:00Z"),
    ])
    func wallTimesBecomeInstants(zone: String, wall: String, instant: String) {
        let seconds = RFC3339.parse(wall)! / 1_000_000
        #expect(Zone(identifier: zone)!.instant(ofWallSeconds: seconds) == RFC3339.parse(instant)! / 1_000_000)
    }

    /// Berlin's changes of 2026 (CET → CEST on 29 March at 01:00Z, back on 25 October at
    /// 01:00Z), in seconds since the epoch: a wall time the clocks show twice is the first of
    /// the two instants (the CEST one), never the second (noted beside each); one they skip is
    /// moved on by the gap.
    @Test(arguments: [
        ("2026-10-25T01:59:59Z", "2026-10-24T23:59:59Z"),
        ("2026-10-25T02:00:00Z", "2026-10-25T00:00:00Z"),  // not 01:00:00Z
        ("2026-10-25T02:30:00Z", "2026-10-25T00:30:00Z"),  // not 01:30:00Z
        ("2026-10-25T02:59:59Z", "2026-10-25T00:59:59Z"),  // not 01:59:59Z
        ("2026-10-25T03:00:00Z", "2026-10-25T02:00:00Z"),
        ("2026-03-29T01:59:59Z", "2026-03-29T00:59:59Z"),
        ("2026-03-29T02:30:00Z", "2026-03-29T01:30:00Z"),  // skipped: 03:30 CEST
        ("2026-03-29T03:00:00Z", "2026-03-29T01:00:00Z"),
    ])
    func berlinWallTimesAroundItsChangesAreTheFirstInstant(wall: String, expected: String) throws {
        let zone = try #require(Zone(identifier: "Europe/Berlin"))
        #expect(zone.instant(ofWallSeconds: instant(wall) / 1_000_000) == instant(expected) / 1_000_000)
    }

    /// A day of a DST change is 23 or 25 hours long, from local midnight to the next.
    @Test(arguments: [
        ("Europe/Berlin", "2026-03-29", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z", 23),
        ("Europe/Berlin", "2026-10-25", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z", 25),
        ("Europe/Berlin", "2026-10-26", "2026-10-25T23:00:00Z", "2026-10-26T23:00:00Z", 24),
        ("America/New_York", "2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z", 23),
        ("America/New_York", "2026-11-01", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z", 25),
    ])
    func aDayOfADSTChangeHasItsLength(zone: String, date: String, start: String, end: String, hours: Int) throws {
        let w = try #require(Zone(identifier: zone)).window(for: try #require(LocalDate(iso: date)))
        #expect(w.start == instant(start))
        #expect(w.end == instant(end))
        #expect(w.length == Micros(hours) * 3_600_000_000)
    }
}

struct SpreadsheetCellTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        // Our own guards are guarded once more, so that reading takes exactly one `'` off.
        ("'=x", "''=x"),
        ("''+x", "'''+x"),
        // Everything else is left alone.
        ("Safari", "Safari"),
        ("'quoted'", "'quoted'"),
        ("'", "'"),
        ("", ""),
        (" =x", " =x"),
        ("a=b", "a=b"),
        ("２=x", "２=x"),
    ])
    func cellsAreGuardedAsOWASPSays(cell: String, written: String) {
        #expect(SpreadsheetCell.guarded(cell) == written)
        #expect(SpreadsheetCell.unguarded(written) == cell)
    }

    /// Reading what was written gives the cell back, for every cell made of the characters that matter.
    @Test func readingUndoesWritingExactly() {
        let alphabet: [Character] = ["'", "=", "+", "-", "@", "\t", "\r", "a", " "]
        var cells = [""]
        for _ in 1...4 { cells = cells + cells.flatMap { c in alphabet.map { c + String($0) } } }
        for cell in Set(cells) {
            #expect(SpreadsheetCell.unguarded(SpreadsheetCell.guarded(cell)) == cell, "\(cell.debugDescription)")
            // A cell that needed no guard reads back as itself.
            if !SpreadsheetCell.needsGuard(cell) { #expect(SpreadsheetCell.unguarded(cell) == cell) }
        }
    }
}
