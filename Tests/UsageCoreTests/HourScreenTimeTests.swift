// HourScreenTimeTests.swift — issue 44, item 7: an hour's screen time (overlaps once, never over the hour) beside its app time (overlaps twice), and the busiest hour, the hourly chart's tallest bar, judged by app time.
import Testing
import TestSupport
@testable import UsageCore

struct HourScreenTimeTests {
    /// `busiest 18:00 (1h 18m)` was more than an hour in an hour: two apps at once both count in
    /// app time. Each hour now also knows its screen time, the union of its sessions, which
    /// never passes the hour.
    @Test func item7AnHoursScreenTimeCountsOverlapsOnce() throws {
        let data = try dataset([
            ("Maps", "Navigation", "2026-02-23T10:00:00Z", "2026-02-23T10:40:00Z"),
            ("Spotify", "Entertainment", "2026-02-23T10:20:00Z", "2026-02-23T11:10:00Z"),
            ("Mail", "Productivity", "2026-02-23T10:50:00Z", "2026-02-23T10:55:00Z"),
            ("Notes", "Productivity", "2026-02-23T12:00:00Z", "2026-02-23T12:30:00Z"),
        ])
        let r = DayReport(history: data, date: day("2026-02-23"), zone: .utc)
        let ten = try #require(r.hours.first { $0.slot.hour == 10 })
        #expect(ten.micros == 85 * minute)  // 40 + 40 + 5
        #expect(ten.screenMicros == 60 * minute)
        let eleven = try #require(r.hours.first { $0.slot.hour == 11 })
        #expect(eleven.micros == 10 * minute && eleven.screenMicros == 10 * minute)
        let noon = try #require(r.hours.first { $0.slot.hour == 12 })
        #expect(noon.screenMicros == 30 * minute)
        #expect(r.hours.allSatisfy { $0.screenMicros <= $0.micros && $0.screenMicros <= $0.slot.end - $0.slot.start })
        // The hours' screen time adds up to the day's.
        #expect(r.hours.reduce(0) { $0 + $1.screenMicros } == r.screenTimeMicros)
        // The busiest hour is the tallest bar: app time, the first of equals.
        #expect(r.busiestHour?.slot.hour == 10)
        #expect(DayReport(history: data, date: day("2026-02-24"), zone: .utc).busiestHour == nil)
    }
}
