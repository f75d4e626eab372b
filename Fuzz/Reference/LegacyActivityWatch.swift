// Fuzz/Reference/LegacyActivityWatch.swift — the Foundation-based ActivityWatch reader the byte-level one replaced (JSONDecoder, lenient fields, JSONRepair), kept verbatim but for names, and only for the tests of where they differ on purpose (no longer a reference: it calls RFC3339); never part of the program.
import Foundation

#if canImport(UsageCore)
    import UsageCore
#endif
#if canImport(UsageFormats)
    import UsageFormats
#endif

/// One ActivityWatch event (`{"id","timestamp","duration","data":{"app"|"status",…}}`).
public struct LegacyActivityWatchEvent: Decodable {
    var id: String?
    var timestamp: LegacyLenientField<String>
    var duration: LegacyLenientField<Double>
    var app: LegacyLenientField<String>
    var status: String?

    private enum Keys: String, CodingKey { case id, timestamp, duration, data }
    private enum DataKeys: String, CodingKey { case app, status }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = c.legacyIdText(.id)
        timestamp = c.legacyLenient(String.self, .timestamp)
        // A JSON boolean never decodes as a Double, so `true` is a wrong type, as it should be.
        duration = c.legacyLenient(Double.self, .duration)
        let data = try? c.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
        app = data?.legacyLenient(String.self, .app) ?? .absent
        status = try? data?.decode(String.self, forKey: .status)
    }
}

/// One ActivityWatch bucket: its type (`currentwindow`, `afkstatus`, …), host and events, as
/// both the export and the REST API give them.
public struct LegacyActivityWatchBucket: Decodable {
    public var id: String?
    public var type: String?
    public var hostname: String?
    /// The events; one that is not an object is skipped as `not_an_object`.
    var events: [LegacyLenientElement<LegacyActivityWatchEvent>]?
}

/// An export file: `{"buckets": {ID: {"id","type","hostname",…,"events":[…]}}}`.
struct LegacyActivityWatchExport: Decodable {
    var buckets: [String: LegacyActivityWatchBucket]
}

/// ActivityWatch data as sessions, counted as ActivityWatch's own Activity view counts active
/// time: every `currentwindow` event becomes a session of `data.app` from `timestamp` to
/// `timestamp + duration`; where the same host has an `afkstatus` bucket, only the parts of
/// window events inside its `not-afk` periods are kept. Other buckets (web, editor) are not
/// read. Events of zero length are dropped; categories are null (category rules name them).
public enum LegacyActivityWatch {
    static let windowType = "currentwindow"
    static let afkType = "afkstatus"

    public static func decodeExport(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken
    ) throws(IngestError) -> Dataset {
        let (export, repaired) = try LegacyJSON.decodeJSON(LegacyActivityWatchExport.self, bytes, format: "ActivityWatch export")
        let buckets = export.buckets.sorted { $0.key < $1.key }.map { key, bucket in
            var b = bucket
            b.id = b.id ?? key
            return b
        }
        return try sessions(from: buckets, source: source, cancellation: cancellation, repairedStrings: repaired)
    }

    /// The sessions of window buckets, cut to the not-AFK periods of their host.
    public static func sessions(
        from buckets: [LegacyActivityWatchBucket], source: String, cancellation: CancellationToken, repairedStrings: Int = 0
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
    static func span(of event: LegacyActivityWatchEvent) -> EventSpan {
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

extension LegacyActivityWatch {
    /// The old live-server path: the listing decoded, then each window and AFK bucket's events
    /// (`events(id)` gives a bucket's `GET …/events` body), then the same sessions.
    public static func decodeAPI(
        listing: UnsafeBufferPointer<UInt8>, events: (String) -> [UInt8], source: String
    ) throws(IngestError) -> Dataset {
        let buckets = try LegacyJSON.decodeJSON([String: LegacyActivityWatchBucket].self, listing, format: "ActivityWatch export").value
        var read: [LegacyActivityWatchBucket] = []
        for (key, meta) in buckets.sorted(by: { $0.key < $1.key }) {
            guard let type = meta.type, type == windowType || type == afkType else { continue }
            var bucket = meta
            bucket.id = meta.id ?? key
            let body = events(bucket.id!)
            bucket.events = try body.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyJSON.decodeJSON([LegacyLenientElement<LegacyActivityWatchEvent>].self, b, format: "ActivityWatch export").value
            }
            read.append(bucket)
        }
        return try sessions(from: read, source: source, cancellation: CancellationToken())
    }
}
