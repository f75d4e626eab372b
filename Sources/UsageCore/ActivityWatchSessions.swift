// ActivityWatchSessions.swift — ActivityWatch buckets as sessions (window events kept only inside not-AFK time), and the entry points that read an export stream or the server's documents.
import Dispatch
import Synchronization

/// ActivityWatch data read so far: buckets with their events, and the app names the events
/// use. An export is read in one go; the server's listing and then each bucket's events are
/// read into the same value.
public struct ActivityWatchRead: Sendable {
    public internal(set) var buckets: [ActivityWatchBucket] = []
    var apps = NameTable(normalise: Normalise.appName)
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

    /// Feeds a stream to a reader chunk by chunk: each chunk is the unit cut by the last one's
    /// end and what was read after it, in one buffer that grows only for a unit larger than
    /// itself. Errors are placed in the file by the lines and columns of the chunks before.
    static func scan<Source: ByteSource>(
        _ reader: ChunkReader<Source>, _ aw: ActivityWatchReader, cancellation: CancellationToken?
    ) throws(StreamError<Source.Failure>) -> (reader: ActivityWatchReader, repaired: Int) {
        var aw = aw
        let chunking = reader.chunking
        var base = SegmentedScan.TextBase()
        if reader.isComplete {
            // All in memory already: one final chunk, read in place.
            var s = JSONScanner(reader.lookahead)
            s.countRepairs = true
            do {
                _ = try aw.read(&s, cancellation: cancellation)
            } catch {
                throw .ingest(base.error(error, in: reader.lookahead))
            }
            return (aw, s.repairedStrings)
        }
        // Chunk after chunk, the next one read ahead on another thread while this one is
        // scanned. A chunk is read after `front` bytes of room, where the unit the last chunk's
        // end cut (usually a part of one event) is put back in front of it, so nothing large
        // is ever copied.
        let front = 1 << 16
        var current = SegmentBuffer(capacity: front + chunking.segmentBytes)
        var next = SegmentBuffer(capacity: front + chunking.segmentBytes)
        current.count = front
        reader.takeLookahead(into: current)
        var start = front
        var more = !reader.isComplete
        do {
            while more, current.count - start < chunking.segmentBytes {
                more = try reader.readMore(into: current, limit: start + chunking.segmentBytes - current.count)
            }
        } catch {
            throw .read(error)
        }
        var s = JSONScanner(UnsafeBufferPointer(start: current.base + start, count: current.count - start), final: false)
        s.countRepairs = true
        while true {
            if cancellation?.isCancelled == true { throw .ingest(.cancelled) }
            let ahead = more ? ReadAhead(reader, into: next, after: front, bytes: chunking.segmentBytes) : nil
            let window = UnsafeBufferPointer(start: current.base + start, count: current.count - start)
            s.rebase(window, final: !more)
            let consumed: Int
            do {
                consumed = try aw.read(&s, cancellation: cancellation)
            } catch {
                ahead?.wait()  // its buffer must outlive it
                throw .ingest(base.error(error, in: window))
            }
            if aw.finished {
                ahead?.wait()
                return (aw, s.repairedStrings)
            }
            base.advance(newlines: s.newlines, tailColumns: SegmentedScan.tailColumns(UnsafeBufferPointer(rebasing: window[..<consumed])))
            let rest = window.count - consumed
            // A final window finishes or fails: this is only a safety net.
            guard let ahead else { throw .ingest(base.error(.needMore, in: window)) }
            ahead.wait()
            if let failure = ahead.failure { throw .read(failure) }
            more = ahead.more
            if rest <= front, consumed > 0 {
                // The rest before what was read ahead, and on with that buffer.
                (next.base + front - rest).update(from: window.baseAddress! + consumed, count: rest)
                swap(&current, &next)
                start = front - rest
            } else {
                // One unit longer than the room in front (or the whole window): the rest, then
                // what was read, in one buffer; read as much again before reading it again, so
                // a huge unit is read again only a few times.
                current.base.update(from: current.base + start + consumed, count: rest)
                current.count = rest
                current.append(UnsafeBufferPointer(rebasing: next.bytes[front...]))
                start = 0
                let target = 2 * current.count
                do {
                    while more, current.count < target {
                        more = try reader.readMore(into: current, limit: target - current.count)
                    }
                } catch {
                    throw .read(error)
                }
            }
        }
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

/// A chunk read on another thread into a buffer, after `front` bytes left free.
private final class ReadAhead<Source: ByteSource>: @unchecked Sendable {
    private let done = DispatchGroup()
    private let reader: ChunkReader<Source>
    private let buffer: SegmentBuffer
    private(set) var more = true
    private(set) var failure: Source.Failure?

    init(_ reader: ChunkReader<Source>, into buffer: SegmentBuffer, after front: Int, bytes: Int) {
        self.reader = reader
        self.buffer = buffer
        buffer.count = front
        done.enter()
        // Handed over as a plain closure (the thread only runs it while this object waits).
        let work = UnsafeSendable({ self.read(until: front + bytes) })
        DispatchQueue.global(qos: .userInitiated).async { work.value() }
    }

    private func read(until end: Int) {
        defer { done.leave() }
        do throws(Source.Failure) {
            while more, buffer.count < end {
                more = try reader.readMore(into: buffer, limit: end - buffer.count)
            }
        } catch {
            failure = error
        }
    }

    /// Waits for the read to end.
    func wait() { done.wait() }
}

/// Each half's window sessions and skips, handed back from the threads of `concurrentPerform`.
private final class WindowHalves: Sendable {
    private let slots: Mutex<[(SessionColumns, SkipSummary)]>

    init(count: Int) { slots = Mutex(Array(repeating: (SessionColumns(), SkipSummary()), count: count)) }

    func set(_ h: Int, _ made: (SessionColumns, SkipSummary)) { slots.withLock { $0[h] = made } }

    var results: [(SessionColumns, SkipSummary)] { slots.withLock { $0 } }
}
