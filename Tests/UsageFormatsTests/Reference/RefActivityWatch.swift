// RefActivityWatch.swift — the tests' own ActivityWatch export reader (docs/DATA.md §9.3 with §1's rules), built on RefJSON and RefRFC3339: window events as sessions cut to their host's not-AFK time, a document of the wrong shape refused.
import UsageCore

enum RefActivityWatch {
    static let format = "malformed ActivityWatch export"

    struct Bucket {
        var key: String
        var type: String?
        var hostname: String?
        var events: [RefJSON] = []
    }

    static func read(_ b: [UInt8]) -> RefFacts {
        var p = RefJSONParser(b, range: (b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0)..<b.count)
        p.skipSpace()
        if p.atEnd { return RefRows.failure("empty") }
        let document: RefJSON
        do throws(RefJSONError) {
            document = try p.value(keepDepth: 6)
            p.skipSpace()
            guard p.atEnd else { throw p.fail("more after the JSON value") }
        } catch {
            return RefRows.syntax(error, in: b)
        }
        // The shape: {"buckets": {KEY: {"id"?, "type"?, "hostname"?: string or null, "events"?: array or null}}}.
        guard case .object(let top) = document, case .object(let listed)? = top.first(where: { $0.key == "buckets" })?.value else {
            return RefRows.failure(format)
        }
        var buckets: [Bucket] = []
        for (key, value) in listed {
            guard case .object(let fields) = value else { return RefRows.failure(format) }
            // A repeated key: the first bucket counts.
            if buckets.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) { continue }
            var bucket = Bucket(key: key)
            var seen: Set<String> = []
            for (name, field) in fields where seen.insert(name).inserted {
                switch name {
                case "id", "type", "hostname":
                    let text: String?
                    switch field {
                    case .string(let s, _): text = s
                    case .null: text = nil
                    default: return RefRows.failure(format)
                    }
                    if name == "type" { bucket.type = text } else if name == "hostname" { bucket.hostname = text }
                case "events":
                    switch field {
                    case .array(let list): bucket.events = list
                    case .null: break
                    default: return RefRows.failure(format)
                    }
                default: break
                }
            }
            buckets.append(bucket)
        }
        buckets = buckets.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
        var rows = RefRows()
        rows.repaired = p.repairedStrings
        // Each host's not-AFK time.
        var active: [String: [Range<Int64>]] = [:]
        for bucket in buckets where bucket.type == "afkstatus" {
            var periods: [Range<Int64>] = []
            for event in bucket.events {
                guard case .success(let span) = span(of: event) else { continue }
                if case .string(let status, _)? = event.member("data").flatMap({ $0.member("status") }),
                    status.utf8.elementsEqual("not-afk".utf8), !span.isEmpty
                {
                    periods.append(span)
                }
            }
            active[bucket.hostname ?? "", default: []] += periods
        }
        for bucket in buckets where bucket.type == "currentwindow" {
            let notAFK = active[bucket.hostname ?? ""]
            for event in bucket.events {
                guard case .object = event else {
                    rows.skip(.notAnObject, id: nil, line: nil)
                    continue
                }
                let id = RefNumbers.idText(event.member("id"))
                let s: Range<Int64>
                switch span(of: event) {
                case .success(let range): s = range
                case .failure(let reason):
                    rows.skip(reason, id: id, line: nil)
                    continue
                }
                let app: String?
                switch event.member("data").flatMap({ $0.isObject ? $0.member("app") : nil }) {
                case nil, .null?: app = nil
                case .string(let name, _)?: app = name
                default:
                    rows.skip(.badFieldType, id: id, line: nil)
                    continue
                }
                if s.isEmpty { continue }  // zero-length events are dropped, not skipped
                guard let notAFK else {
                    rows.add(start: s.lowerBound, end: s.upperBound, app: app, category: nil, id: id, line: nil)
                    continue
                }
                // The parts inside the host's not-AFK time, in order, overlapping periods merged.
                var covered: [Range<Int64>] = []
                for period in notAFK.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                    if let last = covered.last, period.lowerBound <= last.upperBound {
                        covered[covered.count - 1] = last.lowerBound..<max(last.upperBound, period.upperBound)
                    } else {
                        covered.append(period)
                    }
                }
                for period in covered {
                    let lo = max(s.lowerBound, period.lowerBound)
                    let hi = min(s.upperBound, period.upperBound)
                    if lo < hi { rows.add(start: lo, end: hi, app: app, category: nil, id: id, line: nil) }
                }
            }
        }
        return rows.facts
    }

    enum Span {
        case success(Range<Int64>)
        case failure(SkipReason)
    }


    /// An event's `[timestamp, timestamp + duration)`, or the first reason it is no session:
    /// a missing or null timestamp or duration, a timestamp that is not RFC 3339, a duration
    /// that is not a number below 1e9 seconds (a field of the wrong type), a negative one.
    static func span(of event: RefJSON) -> Span {
        guard case .object = event else { return .failure(.notAnObject) }
        let timestamp = event.member("timestamp")
        let duration = event.member("duration")
        for v in [timestamp, duration] {
            switch v {
            case nil, .null?: return .failure(.missingTimestamp)
            default: break
            }
        }
        guard case .string(let text, _)? = timestamp, let start = RefRFC3339.parse(text) else { return .failure(.badTimestamp) }
        guard case .number(let literal)? = duration, let seconds = Double(literal), seconds.isFinite else { return .failure(.badFieldType) }
        if seconds < 0 { return .failure(.endNotAfterStart) }
        if seconds >= 1e9 { return .failure(.badFieldType) }
        return .success(start..<(start + Int64((seconds * 1e6).rounded())))
    }
}
