// ActivityWatchSegments.swift — an ActivityWatch document read from a stream in segments on every core: the document's reader reads them in order here, and takes whole each segment's run of events that another core read from a guessed event start, when it arrives there between two events.
import UsageCore

/// A segment's events as another thread read them, from the segment's start as if an event
/// began there (`ActivityWatchReader.eventRun`).
struct EventRun: Sendable {
    var reader: ActivityWatchReader
    /// Where the run stopped: at the events array's `]`, or at the unit the segment's end cut.
    var stop: Int
    /// Line breaks before `stop`, and scalars after the last of them.
    var newlines: Int
    var tailColumns: Int
    var repaired: Int

    /// Reads a segment's run (nil: it does not begin like an event, or its bytes are not a
    /// run of events: then the document's reader reads them itself, and finds why).
    static func read(
        _ b: UnsafeBufferPointer<UInt8>, final: Bool, normalise: @escaping @Sendable (String?) -> String, cancellation: CancellationToken
    ) -> EventRun? {
        guard b.first == UInt8(ascii: "{") else { return nil }
        var run = ActivityWatchReader.eventRun(normalise: normalise)
        var s = JSONScanner(b, final: final)
        s.countRepairs = true
        guard let stop = try? run.read(&s, cancellation: cancellation) else { return nil }
        return EventRun(
            reader: run, stop: stop, newlines: s.newlines,
            tailColumns: SegmentedScan.tailColumns(UnsafeBufferPointer(rebasing: b[..<stop])), repaired: s.repairedStrings)
    }
}

extension ActivityWatchRead {
    /// Feeds a stream to a reader segment by segment (cut where an event probably begins, as
    /// the sessions JSON is). In an export or an events document (not a bucket listing), every
    /// segment but the first is also read on another thread as a run of events; when the reader, having read all before it, stands between two events
    /// right there, it takes that run as its own and reads on from where the run stopped (the
    /// events array's end, or the segment's). Otherwise — a wrong guess, a segment outside
    /// the events, a syntax error — it reads the segment itself. Either way it reads exactly
    /// what one reader reading the whole stream reads, and errors are placed in the file by
    /// the lines and columns of the bytes before.
    static func scanSegments<Source: ByteSource>(
        _ reader: ChunkReader<Source>, _ aw: ActivityWatchReader, cancellation: CancellationToken?
    ) throws(StreamError<Source.Failure>) -> (reader: ActivityWatchReader, repaired: Int) {
        var aw = aw
        var base = SegmentedScan.TextBase()
        var repaired = 0
        // The unit the last segment's end cut, read again before the next segment.
        var carry: [UInt8] = []
        // A unit longer than what was read with it: segments are gathered to this size before
        // it is read again, so a huge unit is read again only a few times.
        var gatherTo = 0
        let runs = aw.document != .listing
        let normalise = aw.apps.normalise
        let pipeline = SegmentPipeline<Source, EventRun?>(reader) { b, from in ArraySegments().boundary(in: b, from: from) }
        defer { pipeline.finish() }

        /// Reads a window; true when the document ended in it. Else what its end cut is carried.
        func readWindow(_ window: UnsafeBufferPointer<UInt8>, final: Bool) throws(StreamError<Source.Failure>) -> Bool {
            var s = JSONScanner(window, final: final)
            s.countRepairs = true
            let consumed: Int
            do {
                consumed = try aw.read(&s, cancellation: cancellation)
            } catch {
                throw .ingest(base.error(error, in: window))
            }
            repaired += s.repairedStrings
            if aw.finished { return true }
            // A final window finishes or fails: this is only a safety net.
            if final { throw .ingest(base.error(.needMore, in: window)) }
            base.advance(newlines: s.newlines, tailColumns: SegmentedScan.tailColumns(UnsafeBufferPointer(rebasing: window[..<consumed])))
            carry = Array(window[consumed...])
            if carry.count > window.count / 2, carry.count > 1 << 16 { gatherTo = 2 * window.count }
            return false
        }

        while let next = try pipeline.next(
            cancellation: cancellation, dispatch: { segment, _ in runs && segment.index > 0 },
            work: { segment, stop in EventRun.read(segment.bytes, final: segment.final, normalise: normalise, cancellation: stop) })
        {
            let segment = next.segment
            defer { pipeline.recycle(segment) }
            var from = 0
            if let run = next.made ?? nil, run.stop > 0, gatherTo == 0, carry.withUnsafeBufferPointer({ aw.awaitsEvent(after: $0) }),
                aw.absorb(run.reader)
            {
                // The run is the reader's own next events (one at least, so it stopped where the
                // reader would stand between two): the `,` before them is read too.
                carry.withUnsafeBufferPointer { rest in
                    base.advance(newlines: Newlines.count(in: rest, from: 0, to: rest.count), tailColumns: SegmentedScan.tailColumns(rest))
                }
                carry = []
                repaired += run.repaired
                base.advance(newlines: run.newlines, tailColumns: run.tailColumns)
                from = run.stop
            }
            let rest = UnsafeBufferPointer(rebasing: segment.bytes[from...])
            if gatherTo > 0, !segment.final, carry.count + rest.count < gatherTo {
                carry += rest
                continue
            }
            gatherTo = 0
            // What is left of the segment, after what was carried, read here.
            let finished: Bool
            if carry.isEmpty {
                finished = try readWindow(rest, final: segment.final)
            } else {
                let joined = carry + rest
                finished = try joined.withUnsafeBufferPointer { (window) throws(StreamError<Source.Failure>) in
                    try readWindow(window, final: segment.final)
                }
            }
            if finished { return (aw, repaired) }
        }
        throw .ingest(base.error(.needMore, in: UnsafeBufferPointer(start: nil, count: 0)))
    }
}
