// ActivityWatchFormat.swift — ActivityWatch buckets (an export file or the server's API) as sessions: window events, kept only inside not-AFK time.
import Foundation
import UsageCore

/// One ActivityWatch event (`{"id","timestamp","duration","data":{"app"|"status",…}}`).
struct ActivityWatchEvent: Decodable, Sendable, Equatable {
    var id: String?
    var timestamp: LenientField<String>
    var duration: LenientField<Double>
    var app: LenientField<String>
    var status: String?

    private enum Keys: String, CodingKey { case id, timestamp, duration, data }
    private enum DataKeys: String, CodingKey { case app, status }

    init(id: String?, timestamp: LenientField<String>, duration: LenientField<Double>, app: LenientField<String>, status: String?) {
        self.id = id
        self.timestamp = timestamp
        self.duration = duration
        self.app = app
        self.status = status
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = c.idText(.id)
        timestamp = c.lenient(String.self, .timestamp)
        // A JSON boolean never decodes as a Double, so `true` is a wrong type, as it should be.
        duration = c.lenient(Double.self, .duration)
        let data = try? c.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
        app = data?.lenient(String.self, .app) ?? .absent
        status = try? data?.decode(String.self, forKey: .status)
    }
}

/// One ActivityWatch bucket: its type (`currentwindow`, `afkstatus`, …), host and events, as
/// both the export and the REST API give them.
struct ActivityWatchBucket: Decodable, Sendable {
    var id: String?
    var type: String?
    var hostname: String?
    /// The events; one that is not an object is skipped as `not_an_object`.
    var events: [LenientElement<ActivityWatchEvent>]?
    /// When the bucket last changed, as the server's bucket list says (`last_updated`; not in
    /// exports): a bucket whose value is the same as at the last read has no new events.
    var lastUpdated: String?

    private enum Keys: String, CodingKey {
        case id, type, hostname, events
        case lastUpdated = "last_updated"
    }

    init(id: String?, type: String?, hostname: String?, events: [LenientElement<ActivityWatchEvent>]?, lastUpdated: String? = nil) {
        self.id = id
        self.type = type
        self.hostname = hostname
        self.events = events
        self.lastUpdated = lastUpdated
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        hostname = try c.decodeIfPresent(String.self, forKey: .hostname)
        events = try c.decodeIfPresent([LenientElement<ActivityWatchEvent>].self, forKey: .events)
        lastUpdated = try? c.decodeIfPresent(String.self, forKey: .lastUpdated)
    }
}

/// An export file: `{"buckets": {ID: {"id","type","hostname",…,"events":[…]}}}`.
struct ActivityWatchExport: Decodable {
    var buckets: [String: ActivityWatchBucket]
}

/// ActivityWatch data as sessions, counted as ActivityWatch's own Activity view counts active
/// time: every `currentwindow` event becomes a session of `data.app` from `timestamp` to
/// `timestamp + duration`; where the same host has an `afkstatus` bucket, only the parts of
/// window events inside its `not-afk` periods are kept. Other buckets (web, editor) are not
/// read. Events of zero length are dropped; categories are null (category rules name them).
enum ActivityWatchFormat {
    static let windowType = "currentwindow"
    static let afkType = "afkstatus"

    static func decodeExport(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        let (export, repaired) = try SourceFormat.decodeJSON(ActivityWatchExport.self, bytes, format: .activityWatch)
        let buckets = export.buckets.sorted { $0.key < $1.key }.map { key, bucket in
            var b = bucket
            b.id = b.id ?? key
            return b
        }
        return try sessions(from: buckets, source: source, cancellation: cancellation, repairedStrings: repaired)
    }

    /// The sessions of window buckets, cut to the not-AFK periods of their host.
    static func sessions(
        from buckets: [ActivityWatchBucket], source: String, cancellation: CancellationToken, repairedStrings: Int = 0
    ) throws(IngestError) -> Dataset {
        var active: [String: [Range<Micros>]] = [:]
        for bucket in buckets where bucket.type == afkType {
            var periods: [Range<Micros>] = []
            for case .object(let event) in bucket.events ?? [] where event.status == "not-afk" {
                if case .success(let span) = span(of: event), !span.isEmpty { periods.append(span) }
            }
            active[bucket.hostname ?? "", default: []] += periods
        }
        let unions = active.mapValues(union)
        var rows = SessionRows()
        rows.countRepaired(repairedStrings)
        for bucket in buckets where bucket.type == windowType {
            let notAFK = unions[bucket.hostname ?? ""]
            for (n, element) in (bucket.events ?? []).enumerated() {
                if n & 0xFFF == 0xFFF, cancellation.isCancelled { throw .cancelled }
                guard case .object(let event) = element else {
                    rows.skip(.notAnObject, id: nil, line: nil)
                    continue
                }
                let span: Range<Micros>
                switch self.span(of: event) {
                case .success(let s): span = s
                case .failure(let reason):
                    rows.skip(reason, id: event.id, line: nil)
                    continue
                }
                if case .wrongType = event.app {
                    rows.skip(.badFieldType, id: event.id, line: nil)
                    continue
                }
                if span.isEmpty { continue }  // heartbeats of zero length carry no time
                let app = event.app.value
                guard let notAFK else {
                    rows.add(start: span.lowerBound, end: span.upperBound, app: app, category: nil, id: event.id)
                    continue
                }
                for piece in intersections(of: span, with: notAFK) {
                    rows.add(start: piece.lowerBound, end: piece.upperBound, app: app, category: nil, id: event.id)
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
    static func span(of event: ActivityWatchEvent) -> EventSpan {
        guard !event.timestamp.isMissing, !event.duration.isMissing else { return .failure(.missingTimestamp) }
        guard let text = event.timestamp.value, let start = RFC3339.parse(text) else { return .failure(.badTimestamp) }
        guard let seconds = event.duration.value, seconds.isFinite else { return .failure(.badFieldType) }
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
