// ActivityWatchSessions.swift — ActivityWatch buckets as sessions (window events kept only inside not-AFK time), and the entry points that read an export stream or the server's documents.
import UsageCore
import Dispatch
import Synchronization

/// ActivityWatch data read so far: buckets with their events, and the app names the events
/// use. An export is read in one go; the server's listing and then each bucket's events are
/// read into the same value.
public struct ActivityWatchRead: Sendable {
    public internal(set) var buckets: [ActivityWatchBucket] = []
    var apps = NameTable(normalise: Normalise.appName)
    /// The host names of aw-watcher-web events' URLs (`ActivityWatchWeb`).
    var sites = ActivityWatchWeb.siteTable()
    /// Strings in which invalid UTF-8 or a lone surrogate became U+FFFD.
    public internal(set) var repairedStrings = 0

    public init() {}

    /// Reads an export (`{"buckets": …}`) or the server's bucket listing from a stream.
    public static func read<Source: ByteSource>(
        _ reader: ChunkReader<Source>, document: ActivityWatchDocument, cancellation: CancellationToken?
    ) throws(StreamError<Source.Failure>) -> ActivityWatchRead {
        var read = ActivityWatchRead()
        let scanned = try scan(reader, ActivityWatchReader(document: document), cancellation: cancellation)
        if let problem = scanned.reader.shapeProblem { throw .ingest(.malformed(format: formatName, problem: problem)) }
        read.buckets = scanned.reader.result
        read.apps = scanned.reader.apps
        read.sites = scanned.reader.sites
        read.repairedStrings = scanned.repaired
        return read
    }

    /// Reads a document in memory.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, document: ActivityWatchDocument, cancellation: CancellationToken? = nil,
        chunking: Chunking = .standard
    ) throws(IngestError) -> ActivityWatchRead {
        try inMemory(bytes, chunking: chunking) { reader throws(StreamError<Never>) in
            try read(reader, document: document, cancellation: cancellation)
        }
    }

    /// The sessions, as ActivityWatch's own Activity view counts active time: every
    /// `currentwindow` event becomes a session of `data.app` from `timestamp` to `timestamp +
    /// duration`; where the same host has an `afkstatus` bucket, only the parts of window
    /// events inside its `not-afk` periods are kept. Buckets in key order; zero-length events
    /// dropped; categories null (category rules name them).
    public func dataset(source: String, cancellation: CancellationToken? = nil) throws(IngestError) -> Dataset {
        try sessions(cancellation: cancellation).dataset(source: source)
    }

    /// How errors name the format (valid JSON of the wrong shape).
    static let formatName = "ActivityWatch export"

    public static let windowType = "currentwindow"
    public static let afkType = "afkstatus"

    /// `halvesAt`: from this many window events on, they are cut in two halves (tests set 1).
    func sessions(cancellation: CancellationToken?, halvesAt: Int = 1 << 16) throws(IngestError) -> ScannedSessions {
        let ordered = buckets.sorted { $0.key < $1.key }
        var active: [String: [Range<Micros>]] = [:]
        for bucket in ordered where bucket.type == Self.afkType {
            let e = bucket.events
            var periods: [Range<Micros>] = []
            for k in 0..<e.count where e.outcomes[k] & ActivityWatchEvents.Outcome.reasonMask == 0
                && e.outcomes[k] & ActivityWatchEvents.Outcome.notAFK != 0 && e.ends[k] > e.starts[k]
            {
                periods.append(e.starts[k]..<e.ends[k])
            }
            active[bucket.hostname ?? "", default: []] += periods
        }
        let unions = active.mapValues(Self.union)
        var categories = NameTable(normalise: Normalise.category)
        let other = categories.id(for: nil as String?)
        // The window events, in bucket order, cut in two halves made on two threads (each
        // half's sessions and skips in order; the first half's before the second's).
        let windows = ordered.filter { $0.type == Self.windowType }
        let total = windows.reduce(0) { $0 + $1.events.count }
        let halves = total >= max(halvesAt, 2) ? 2 : 1
        let made = WindowHalves(count: halves)
        let stop = CancellationToken()
        DispatchQueue.concurrentPerform(iterations: halves) { h in
            let (from, to) = (total * h / halves, total * (h + 1) / halves)
            var columns = SessionColumns()
            var skipped = SkipSummary()
            var position = 0  // of the bucket's first event among all window events
            var seen = 0
            for bucket in windows {
                let e = bucket.events
                defer { position += e.count }
                let lower = max(from, position) - position
                let upper = min(to, position + e.count) - position
                guard lower < upper else { continue }
                let notAFK = unions[bucket.hostname ?? ""]
                for k in lower..<upper {
                    seen += 1
                    if seen & 0xFFF == 0, cancellation?.isCancelled == true || stop.isCancelled {
                        stop.cancel()
                        return
                    }
                    let outcome = e.outcomes[k]
                    if let reason = ActivityWatchEvents.reason(outcome) {
                        skipped.record(SkippedRow(reason: reason, sessionID: reason == .notAnObject ? nil : e.ids.text(at: k), line: nil))
                        continue
                    }
                    if outcome & ActivityWatchEvents.Outcome.appWrongType != 0 {
                        skipped.record(SkippedRow(reason: .badFieldType, sessionID: e.ids.text(at: k), line: nil))
                        continue
                    }
                    let (start, end) = (e.starts[k], e.ends[k])
                    guard end > start else { continue }  // heartbeats of zero length carry no time
                    guard let notAFK else {
                        columns.append(start: start, end: end, app: e.apps[k], category: other, from: e.ids, at: k)
                        continue
                    }
                    Self.forEachIntersection(of: start..<end, with: notAFK) { piece in
                        columns.append(start: piece.lowerBound, end: piece.upperBound, app: e.apps[k], category: other, from: e.ids, at: k)
                    }
                }
            }
            made.set(h, (columns, skipped))
        }
        if stop.isCancelled { throw .cancelled }
        var scanned = ScannedSessions(expectedRows: 0)
        for (h, (columns, skipped)) in made.results.enumerated() {
            scanned.append(
                ScannedPart(
                    table: 0, appNames: apps.names, categoryNames: categories.names, columns: columns, skipped: skipped,
                    repairedStrings: h == 0 ? repairedStrings + buckets.reduce(0) { $0 + $1.repaired } : 0))
        }
        return scanned
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
        var pieces: [Range<Micros>] = []
        forEachIntersection(of: span, with: periods) { pieces.append($0) }
        return pieces
    }

    /// Calls `body` with each part of `span` inside the sorted, disjoint `periods`, in order.
    @inline(__always) static func forEachIntersection(
        of span: Range<Micros>, with periods: [Range<Micros>], _ body: (Range<Micros>) -> Void
    ) {
        periods.withUnsafeBufferPointer { periods in
            // The first period that ends after the span starts.
            var lo = 0
            var hi = periods.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if periods[mid].upperBound <= span.lowerBound { lo = mid + 1 } else { hi = mid }
            }
            var k = lo
            while k < periods.count, periods[k].lowerBound < span.upperBound {
                let piece = max(span.lowerBound, periods[k].lowerBound)..<min(span.upperBound, periods[k].upperBound)
                if !piece.isEmpty { body(piece) }
                k += 1
            }
        }
    }

    // MARK: Reading

    /// Feeds a stream to a reader: an input already whole in memory (small ones are handed
    /// over so) is read in place, in one go; anything else in segments on every core
    /// (`scanSegments`).
    static func scan<Source: ByteSource>(
        _ reader: ChunkReader<Source>, _ aw: ActivityWatchReader, cancellation: CancellationToken?
    ) throws(StreamError<Source.Failure>) -> (reader: ActivityWatchReader, repaired: Int) {
        guard reader.isComplete else { return try scanSegments(reader, aw, cancellation: cancellation) }
        var aw = aw
        var s = JSONScanner(reader.lookahead)
        s.countRepairs = true
        do {
            _ = try aw.read(&s, cancellation: cancellation)
        } catch {
            throw .ingest(SegmentedScan.TextBase().error(error, in: reader.lookahead))
        }
        return (aw, s.repairedStrings)
    }

    static func inMemory<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, chunking: Chunking, _ body: (ChunkReader<MemorySource>) throws(StreamError<Never>) -> T
    ) throws(IngestError) -> T {
        let chunk = chunking.readBytes < bytes.count ? chunking.readBytes : nil
        do {
            return try body(ChunkReader(MemorySource(bytes, chunk: chunk), chunking: chunking))
        } catch {
            switch error {
            case .ingest(let e): throw e
            }
        }
    }
}

/// Each half's window sessions and skips, handed back from the threads of `concurrentPerform`.
private final class WindowHalves: Sendable {
    private let slots: Mutex<[(SessionColumns, SkipSummary)]>

    init(count: Int) { slots = Mutex(Array(repeating: (SessionColumns(), SkipSummary()), count: count)) }

    func set(_ h: Int, _ made: (SessionColumns, SkipSummary)) { slots.withLock { $0[h] = made } }

    var results: [(SessionColumns, SkipSummary)] { slots.withLock { $0 } }
}
