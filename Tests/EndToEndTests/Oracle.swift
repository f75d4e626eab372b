// Oracle.swift — an independent oracle of `show`'s and `week`'s day report, built on Foundation (Date, Calendar, Double seconds), for OracleTests.
import Foundation
import Testing

// The oracle is deliberately written differently from the production code: it decodes the
// fixture with JSONSerialization, parses RFC 3339 with a regular expression plus a UTC
// Calendar, finds day and hour boundaries with a zoned Calendar, clips with Double seconds,
// and computes screen time by sorting and merging intervals. Fixtures come from
// scripts/gen-fixtures.

// MARK: - Oracle

/// An independent model of docs/DATA.md §1–4 and §8 (`show`).
enum Oracle {
    /// One valid, normalised session: seconds since 1970 as Doubles.
    struct Session {
        let app: String
        let category: String
        let start: Double
        let end: Double
    }

    /// The loaded file: valid sessions and skip counts by reason.
    struct Loaded {
        var sessions: [Session] = []
        var skipped: [String: Int] = [:]
        var skippedTotal: Int { skipped.values.reduce(0, +) }
    }

    struct AppLine {
        let name: String
        let category: String
        let seconds: Double
        let sessions: Int
        let share: Double
    }

    struct CategoryLine {
        let name: String
        let seconds: Double
        let share: Double
    }

    struct HourSlot {
        let start: String
        let hour: Int
        let seconds: Double
        let apps: [String: Double]
    }

    struct Report {
        let day: String
        let timeZone: String
        let total: Double
        let screen: Double
        let apps: [AppLine]
        let categories: [CategoryLine]
        let hours: [HourSlot]
        let skipped: [String: Int]
        let skippedTotal: Int
    }

    enum Stamp {
        case missing
        case bad
        case instant(Double)
    }

    // MARK: Loading

    static func load(_ path: String) throws -> Loaded {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let array = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [Any] else {
            throw HarnessError.failed("fixture is not a JSON array: \(path)")
        }
        let regex = try NSRegularExpression(pattern:
            "^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.([0-9]{1,9}))?(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))\\z")
        var loaded = Loaded()
        func skip(_ reason: String) { loaded.skipped[reason, default: 0] += 1 }

        for element in array {
            guard let object = element as? [String: Any] else {
                skip("not_an_object")
                continue
            }
            let start = stamp(object["start_timestamp"], regex)
            let end = stamp(object["end_timestamp"], regex)
            if case .missing = start { skip("missing_timestamp"); continue }
            if case .missing = end { skip("missing_timestamp"); continue }
            guard case .instant(let s) = start, case .instant(let e) = end else {
                skip("bad_timestamp")
                continue
            }
            guard let app = optionalString(object["app_name"]), let category = optionalString(object["category"]) else {
                skip("bad_field_type")
                continue
            }
            guard e > s else {
                skip("end_not_after_start")
                continue
            }
            loaded.sessions.append(Session(app: appName(app.value), category: categoryName(category.value), start: s, end: e))
        }
        return loaded
    }

    /// `.some(.some(text))` for a string, `.some(nil)` for null or absent, nil for another type.
    private struct MaybeText { let value: String? }

    private static func optionalString(_ any: Any?) -> MaybeText? {
        guard let any else { return MaybeText(value: nil) }
        if any is NSNull { return MaybeText(value: nil) }
        if let text = any as? String { return MaybeText(value: text) }
        return nil
    }

    static func appName(_ raw: String?) -> String {
        let trimmed = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "(unknown)" : trimmed
    }

    static func categoryName(_ raw: String?) -> String {
        let trimmed = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let folded = trimmed.lowercased()
        if trimmed.isEmpty || folded == "other" || folded == "others" { return "Other" }
        return trimmed
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func stamp(_ any: Any?, _ regex: NSRegularExpression) -> Stamp {
        guard let any, !(any is NSNull) else { return .missing }
        guard let text = any as? String else { return .bad }
        let ns = text as NSString
        guard let match = regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return .bad }
        func group(_ i: Int) -> String? {
            let r = match.range(at: i)
            return r.location == NSNotFound ? nil : ns.substring(with: r)
        }
        func int(_ i: Int) -> Int { Int(group(i)!)! }
        let (year, month, day) = (int(1), int(2), int(3))
        let (hour, minute, second) = (int(4), int(5), int(6))
        guard (1...12).contains(month), (1...daysIn(year, month)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return .bad }
        var offset = 0
        if group(8) == nil {
            let (oh, om) = (int(10), int(11))
            guard (0...23).contains(oh), (0...59).contains(om) else { return .bad }
            offset = (oh * 3600 + om * 60) * (group(9) == "-" ? -1 : 1)
        }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let wall = utc.date(from: components) else { return .bad }
        // Round trip: an impossible date would have been rolled over.
        let back = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: wall)
        guard back.year == year, back.month == month, back.day == day, back.hour == hour else { return .bad }
        let fraction = group(7).map { Double("0." + $0)! } ?? 0
        return .instant(wall.timeIntervalSince1970 - Double(offset) + fraction)
    }

    // MARK: Day report

    /// `a` sorts before `b` by Unicode scalar values.
    static func scalarLess(_ a: String, _ b: String) -> Bool {
        Array(a.unicodeScalars).lexicographicallyPrecedes(Array(b.unicodeScalars)) { $0.value < $1.value }
    }

    static func zonedCalendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    /// `[local midnight of day, local midnight of the next day)`.
    static func window(day: String, zone: String) -> (start: Date, end: Date) {
        let parts = day.split(separator: "-").map { Int($0)! }
        let calendar = zonedCalendar(zone)
        let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        let start = calendar.startOfDay(for: noon)
        let end = calendar.startOfDay(for: calendar.date(byAdding: .day, value: 1, to: noon)!)
        return (start, end)
    }

    /// The slot starts: one every elapsed hour from local midnight while before the day's end.
    static func slotStarts(day: String, zone: String) -> [Date] {
        let (start, end) = window(day: day, zone: zone)
        let calendar = zonedCalendar(zone)
        var slots: [Date] = []
        var k = 0
        while let next = calendar.date(byAdding: .hour, value: k, to: start), next < end {
            slots.append(next)
            k += 1
        }
        return slots
    }

    /// Local wall time of `date` in `zone`, seconds precision, `Z` or `±HH:MM`.
    static func localString(_ date: Date, zone: String) -> String {
        let calendar = zonedCalendar(zone)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = calendar.timeZone.secondsFromGMT(for: date)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        if offset == 0 {
            text += "Z"
        } else {
            let magnitude = abs(offset)
            text += (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", magnitude / 3600, magnitude % 3600 / 60)
        }
        return text
    }

    static func overlap(_ s: Session, _ from: Double, _ to: Double) -> Double {
        max(0, min(s.end, to) - max(s.start, from))
    }

    static func report(_ loaded: Loaded, day: String, zone: String) -> Report {
        let (startDate, endDate) = window(day: day, zone: zone)
        let (lo, hi) = (startDate.timeIntervalSince1970, endDate.timeIntervalSince1970)

        // Clip every session; keep those with time inside the day.
        let inside = loaded.sessions.compactMap { s -> (Session, Double)? in
            let c = overlap(s, lo, hi)
            return c > 0 ? (s, c) : nil
        }
        let total = inside.reduce(0) { $0 + $1.1 }

        // Screen time: merge the sorted clipped intervals.
        let intervals = inside.map { (max($0.0.start, lo), min($0.0.end, hi)) }.sorted { $0.0 < $1.0 }
        var screen = 0.0
        var current: (Double, Double)?
        for interval in intervals {
            if let open = current, interval.0 <= open.1 {
                current = (open.0, max(open.1, interval.1))
            } else {
                if let open = current { screen += open.1 - open.0 }
                current = interval
            }
        }
        if let open = current { screen += open.1 - open.0 }

        let byDesc: (String, Double, String, Double) -> Bool = { an, a, bn, b in
            a != b ? a > b : scalarLess(an, bn)
        }

        // Apps.
        let appGroups = Dictionary(grouping: inside, by: { $0.0.app })
        let apps = appGroups.map { name, group -> AppLine in
            let seconds = group.reduce(0) { $0 + $1.1 }
            var perCategory: [String: Double] = [:]
            for (s, c) in group { perCategory[s.category, default: 0] += c }
            let category = perCategory.sorted { byDesc($0.key, $0.value, $1.key, $1.value) }.first!.key
            return AppLine(name: name, category: category, seconds: seconds, sessions: group.count, share: seconds / total)
        }.sorted { byDesc($0.name, $0.seconds, $1.name, $1.seconds) }

        // Categories (by each session's own category).
        let categories = Dictionary(grouping: inside, by: { $0.0.category }).map { name, group -> CategoryLine in
            let seconds = group.reduce(0) { $0 + $1.1 }
            return CategoryLine(name: name, seconds: seconds, share: seconds / total)
        }.sorted { byDesc($0.name, $0.seconds, $1.name, $1.seconds) }

        // Hour slots.
        let starts = slotStarts(day: day, zone: zone)
        let calendar = zonedCalendar(zone)
        let hours = starts.enumerated().map { index, slotStart -> HourSlot in
            let from = slotStart.timeIntervalSince1970
            let to = index + 1 < starts.count ? starts[index + 1].timeIntervalSince1970 : hi
            var perApp: [String: Double] = [:]
            for (s, _) in inside {
                let c = overlap(s, from, to)
                if c > 0 { perApp[s.app, default: 0] += c }
            }
            return HourSlot(
                start: localString(slotStart, zone: zone),
                hour: calendar.component(.hour, from: slotStart),
                seconds: perApp.values.reduce(0, +),
                apps: perApp)
        }

        return Report(
            day: day, timeZone: zone, total: total, screen: screen, apps: apps, categories: categories,
            hours: hours, skipped: loaded.skipped, skippedTotal: loaded.skippedTotal)
    }
}
