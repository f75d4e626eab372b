// ActivityWatchFormat.swift — ActivityWatch buckets (an export file or the server's API) as sessions: window events, kept only inside not-AFK time.
import Foundation
import UsageCore

/// One ActivityWatch bucket: its type (`currentwindow`, `afkstatus`, …), host and events
/// (`{"id","timestamp","duration","data"}`), as both the export and the REST API give them.
struct ActivityWatchBucket {
    var id: String
    var type: String
    var hostname: String
    /// The events; one that is not an object is skipped as `not_an_object`.
    var events: [Any]
}

/// ActivityWatch data as sessions, counted as ActivityWatch's own Activity view counts active
/// time: every `currentwindow` event becomes a session of `data.app` from `timestamp` to
/// `timestamp + duration`; where the same host has an `afkstatus` bucket, only the parts of
/// window events inside its `not-afk` periods are kept. Other buckets (web, editor) are not
/// read. Events of zero length are dropped; categories are null (category rules name them).
enum ActivityWatchFormat {
    static let windowType = "currentwindow"
    static let afkType = "afkstatus"

    /// An export file: `{"buckets": {ID: {"id","type","hostname",…,"events":[…]}}}`.
    static func decodeExport(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        let format = SourceFormat.activityWatch.rawValue
        let (object, repaired) = try SourceFormat.jsonObject(bytes)
        guard let top = object as? [String: Any], let buckets = top["buckets"] as? [String: Any] else {
            throw .malformed(format: format, problem: "\"buckets\" is not an object")
        }
        var parsed: [ActivityWatchBucket] = []
        for (key, value) in buckets.sorted(by: { $0.key < $1.key }) {
            guard let bucket = value as? [String: Any] else {
                throw .malformed(format: format, problem: "bucket \"\(key)\" is not an object")
            }
            parsed.append(
                ActivityWatchBucket(
                    id: bucket["id"] as? String ?? key, type: bucket["type"] as? String ?? "",
                    hostname: bucket["hostname"] as? String ?? "", events: bucket["events"] as? [Any] ?? []))
        }
        return try sessions(from: parsed, source: source, cancellation: cancellation, repairedStrings: repaired)
    }

    /// The sessions of window buckets, cut to the not-AFK periods of their host.
    static func sessions(
        from buckets: [ActivityWatchBucket], source: String, cancellation: CancellationToken, repairedStrings: Int = 0
    ) throws(IngestError) -> Dataset {
        var active: [String: [Range<Micros>]] = [:]
        for bucket in buckets where bucket.type == afkType {
            let periods = bucket.events.compactMap { element -> Range<Micros>? in
                guard let event = element as? [String: Any],
                    (event["data"] as? [String: Any])?["status"] as? String == "not-afk",
                    case .success(let span) = span(of: event), !span.isEmpty
                else { return nil }
                return span
            }
            active[bucket.hostname, default: []] += periods
        }
        let unions = active.mapValues(union)
        var rows = SessionRows()
        rows.countRepaired(repairedStrings)
        for bucket in buckets where bucket.type == windowType {
            let notAFK = unions[bucket.hostname]
            for (n, element) in bucket.events.enumerated() {
                if n & 0xFFF == 0xFFF, cancellation.isCancelled { throw .cancelled }
                guard let event = element as? [String: Any] else {
                    rows.skip(.notAnObject, id: nil, line: nil)
                    continue
                }
                let id = (event["id"] as? NSNumber)?.stringValue ?? event["id"] as? String
                let span: Range<Micros>
                switch self.span(of: event) {
                case .success(let s): span = s
                case .failure(let reason):
                    rows.skip(reason, id: id, line: nil)
                    continue
                }
                if span.isEmpty { continue }  // heartbeats of zero length carry no time
                let app = (event["data"] as? [String: Any])?["app"] as? String
                guard let notAFK else {
                    rows.add(start: span.lowerBound, end: span.upperBound, app: app, category: nil, id: id)
                    continue
                }
                for piece in intersections(of: span, with: notAFK) {
                    rows.add(start: piece.lowerBound, end: piece.upperBound, app: app, category: nil, id: id)
                }
            }
        }
        return rows.dataset(source: source)
    }

    /// An event's time, or why it cannot be a session.
    enum EventSpan {
        case success(Range<Micros>)
        case failure(SkipReason)
    }

    /// An event's `[timestamp, timestamp + duration)`, or why it cannot be a session.
    static func span(of event: [String: Any]) -> EventSpan {
        guard let stamp = event["timestamp"], !(stamp is NSNull), let duration = event["duration"], !(duration is NSNull)
        else { return .failure(.missingTimestamp) }
        guard let text = stamp as? String, let start = RFC3339.parse(text) else { return .failure(.badTimestamp) }
        // A JSON boolean is an NSNumber too (and on Linux `0` and `1` pass `is Bool`): tell
        // them apart by the number's own type, `c` for a boolean.
        guard let number = duration as? NSNumber, String(cString: number.objCType) != "c" else {
            return .failure(.badFieldType)
        }
        let seconds = number.doubleValue
        guard seconds.isFinite else { return .failure(.badFieldType) }
        guard seconds >= 0 else { return .failure(.endNotAfterStart) }
        guard seconds < 1e9 else { return .failure(.badFieldType) }
        return .success(start..<(start + Micros((seconds * 1e6).rounded())))
    }

    /// Sorted, disjoint ranges covering the same time as `ranges`.
    static func union(_ ranges: [Range<Micros>]) -> [Range<Micros>] {
        var out: [Range<Micros>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    /// The parts of `span` inside the sorted, disjoint `periods`.
    static func intersections(of span: Range<Micros>, with periods: [Range<Micros>]) -> [Range<Micros>] {
        // The first period that ends after the span starts.
        var lo = 0
        var hi = periods.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if periods[mid].upperBound <= span.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var pieces: [Range<Micros>] = []
        var k = lo
        while k < periods.count, periods[k].lowerBound < span.upperBound {
            let piece = max(span.lowerBound, periods[k].lowerBound)..<min(span.upperBound, periods[k].upperBound)
            if !piece.isEmpty { pieces.append(piece) }
            k += 1
        }
        return pieces
    }
}
