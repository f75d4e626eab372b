// CellReadingTests.swift — CellDuration and CellTimestamp, table-driven, and CellTimestamp against an independent Foundation reading of random local times in several zones.
import Foundation
import Testing
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData
import TestSupport

struct CellDurationTests {
    static let second: Micros = 1_000_000
    static let minute = 60 * second
    static let hour = 60 * minute

    @Test(arguments: [
        ("3900", 3900 * second),
        ("12.5", 12 * second + 500_000),
        (".25", 250_000),
        ("0", 0),
        ("0.0000019", 1),  // truncated to the microsecond
        ("1:05:00", hour + 5 * minute),
        ("01:05:00", hour + 5 * minute),
        ("26:00:00.5", 26 * hour + 500_000),
        ("100:00:00", 100 * hour),
        ("1h 5m", hour + 5 * minute),
        ("1h5m30s", hour + 5 * minute + 30 * second),
        ("90m", 90 * minute),
        ("2.5h", 2 * hour + 30 * minute),
        ("45 min", 45 * minute),
        ("1 hour 5 minutes", hour + 5 * minute),
        ("2 hours 1 second", 2 * hour + second),
        ("10 secs", 10 * second),
        ("  1H 5M  ", hour + 5 * minute),
    ] as [(String, Micros)])
    func durationsAsToolsWriteThem(text: String, expected: Micros) {
        #expect(CellDuration.micros(text) == expected)
    }

    @Test(arguments: [
        "", " ", "-5", "-1h", "abc", "12:34",  // minutes and seconds, or hours and minutes? refused
        "1:5:00", "1:60:00", "1:00:60", "1:00", "5m 1h",  // largest unit first
        "1h 1h", "1x", "h", "1.2.3", "1e3", "100001:00:00", "999999999999999", "1 h 2",
    ])
    func whatIsNoDuration(text: String) {
        #expect(CellDuration.micros(text) == nil)
    }
}

struct CellTimestampTests {
    static let paris = Zone(identifier: "Europe/Paris")!
    static let newYork = Zone(identifier: "America/New_York")!
    static func at(_ rfc3339: String) -> Micros { RFC3339.parse(rfc3339)! }

    @Test(arguments: [
        // With an offset: the instant, whatever the zone.
        ("2026-02-23T09:35:00Z", CellTimestamp.Reading.instant(at("2026-02-23T09:35:00Z"))),
        ("2026-02-23T09:35:00.250+01:00", .instant(at("2026-02-23T08:35:00.25Z"))),
        ("2026-02-23 09:35:00Z", .instant(at("2026-02-23T09:35:00Z"))),
        ("2026-02-23 09:35:00 +0100", .instant(at("2026-02-23T08:35:00Z"))),
        ("2026-02-23 09:35 -05", .instant(at("2026-02-23T14:35:00Z"))),
        ("2026-02-23 09:35:00 UTC", .instant(at("2026-02-23T09:35:00Z"))),
        // Without: wall-clock time in Paris (UTC+1 in winter, +2 in summer).
        ("2026-02-23 09:35:00", .local(at("2026-02-23T08:35:00Z"))),
        ("2026-02-23T09:35", .local(at("2026-02-23T08:35:00Z"))),
        ("2026-07-01 09:35:00.5", .local(at("2026-07-01T07:35:00.5Z"))),
        // Paris springs forward at 02:00 on 2026-03-29: 02:30 is moved on by the gap, to 03:30 CEST.
        ("2026-03-29 02:30", .local(at("2026-03-29T01:30:00Z"))),
        // ...and falls back at 03:00 on 2026-10-25: 02:30 happens twice, the first is taken (CEST).
        ("2026-10-25 02:30", .local(at("2026-10-25T00:30:00Z"))),
        // Not times.
        ("2026-02-30 09:35:00", .invalid),
        ("2026-02-23", .invalid),
        ("2026-02-23 24:00", .invalid),
        ("2026-02-23 09:35:60", .invalid),
        ("2026-02-23 09:35:00 +2400", .invalid),
        ("2026-02-23 09:35:00 +01:0", .invalid),
        ("2026-02-23 09:35:00 EST", .invalid),
        ("23/02/2026 09:35", .invalid),
        ("2026-02-23 09:35:00.1234567890", .invalid),
    ] as [(String, CellTimestamp.Reading)])
    func timesAsToolsWriteThem(text: String, expected: CellTimestamp.Reading) {
        #expect(CellTimestamp.read(text, zone: Self.paris) == expected)
    }

    @Test func withoutAZoneALocalTimeCannotBePlaced() {
        #expect(CellTimestamp.read("2026-02-23 09:35:00", zone: nil) == .noOffset)
        #expect(CellTimestamp.read("2026-02-23T09:35:00Z", zone: nil) == .instant(Self.at("2026-02-23T09:35:00Z")))
    }

    /// Random wall-clock times (away from the hours clocks skip or repeat) in several zones,
    /// against Foundation's own calendar reading of the same wall time.
    @Test func localTimesAgreeWithFoundationsCalendar() {
        var random = SplitMix64(seed: 20)
        let zones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns"]
        var compared = 0
        for _ in 0..<2000 {
            let name = random.pick(zones)
            let zone = Zone(identifier: name)!
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: name)!
            let parts = DateComponents(
                year: random.int(1971...2037), month: random.int(1...12), day: random.int(1...28), hour: random.int(0...23),
                minute: random.int(0...59), second: random.int(0...59))
            guard let date = calendar.date(from: parts) else { continue }
            // Only wall times with no change of offset within 3 hours: those the clocks skip or
            // show twice are pinned by the table above and by ZoneWallTimeTests.
            let tz = calendar.timeZone
            let offset = tz.secondsFromGMT(for: date)
            guard tz.secondsFromGMT(for: date.addingTimeInterval(-10_800)) == offset,
                tz.secondsFromGMT(for: date.addingTimeInterval(10_800)) == offset
            else { continue }
            func two(_ n: Int?) -> String { n! < 10 ? "0\(n!)" : "\(n!)" }
            let text = "\(parts.year!)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
            let expected = Micros(date.timeIntervalSince1970) * 1_000_000
            #expect(CellTimestamp.read(text, zone: zone) == .local(expected), "\(text) in \(name)")
            compared += 1
        }
        #expect(compared > 1900)  // the few near a change of offset are left to the tables
    }
}

/// The cell readers on random text made of the characters they look at: they never trap, and
/// what they accept is in range (a fuzzing of the readers' pieces, seeded, run with the tests).
struct CellReaderRobustnessTests {
    @Test func randomCellsNeverTrapAndAcceptedValuesAreInRange() {
        var random = SplitMix64(seed: 2020)
        let alphabet = Array("0123456789:-+. TtZzhmsecondiurUTCG'=,\u{1}é")
        let paris = Zone(identifier: "Europe/Paris")!
        var accepted = (durations: 0, times: 0)
        for _ in 0..<50_000 {
            let text = String((0..<random.int(0...28)).map { _ in random.pick(alphabet) })
            if let d = CellDuration.micros(text) {
                #expect(d >= 0 && d <= CellDuration.maxMicros, "\(text.debugDescription)")
                accepted.durations += 1
            }
            switch CellTimestamp.read(text, zone: paris) {
            case .instant(let t), .local(let t):
                // Years 0000–9999 at most: within ±400,000 days of 1970.
                #expect(abs(t / 86_400_000_000) < 4_000_000, "\(text.debugDescription)")
                accepted.times += 1
            case .noOffset, .invalid: break
            }
            _ = CSVHeader.place(text.split(separator: ",").map(String.init))
        }
        #expect(accepted.durations > 100)  // the alphabet makes durations often enough to check them
        // Timestamps are long: a random one rarely parses, so build some that do and vary them.
        for _ in 0..<5_000 {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            var text = "\(random.int(1000...2999))-\(two(random.int(1...12)))-\(two(random.int(1...28)))"
            text += random.pick(["T", " ", "t"]) + "\(two(random.int(0...23))):\(two(random.int(0...59)))"
            text += random.pick(["", ":\(two(random.int(0...59)))", ":07.5", ":07.123456789"])
            text += random.pick(["", "Z", " +01:00", "-0530", "+09", " UTC", " GMT", "+25:00", "x"])
            let reading = CellTimestamp.read(text, zone: paris)
            let bad = text.hasSuffix("+25:00") || text.hasSuffix("x")
            #expect((reading == .invalid) == bad, "\(text)")
        }
    }
}

