// SegmentPipeline.swift — segments read ahead of the one being taken, in buffers that are reused, each handed to another core when asked: what the segmented readers (SegmentedScan, ActivityWatchSegments) share.
import UsageCore
import Dispatch
import Synchronization

/// Reads a stream in segments (cut where `boundary` says) and keeps `workers` of them on other
/// cores while the caller takes them one by one, in file order, with what their worker made.
/// A segment's buffer is reused once the caller is done with it (`recycle`); `finish` stops
/// the workers and waits for them (their buffers must outlive them).
final class SegmentPipeline<Source: ByteSource, Value: Sendable> {
    private let reader: ChunkReader<Source>
    private let boundary: (UnsafeBufferPointer<UInt8>, Int) -> Int?
    /// What the workers poll: set when the user cancels or the reading stops early.
    let stop = CancellationToken()
    private let group = DispatchGroup()
    private let results = SegmentResults<Value>()
    private var freeBuffers: [SegmentBuffer] = []
    /// Segments read and not yet taken, in file order; whether a worker has each.
    private var inFlight: [(segment: Segment, dispatched: Bool)] = []
    private var readAll = false

    init(_ reader: ChunkReader<Source>, boundary: @escaping (UnsafeBufferPointer<UInt8>, Int) -> Int?) {
        self.reader = reader
        self.boundary = boundary
    }

    /// Stops the workers and waits for them.
    func finish() {
        stop.cancel()
        group.wait()
    }

    /// The next segment in file order and what its worker made (nil: it had none), or nil after
    /// the last. Segments are read ahead so that a segment for each worker and one more wait;
    /// `dispatch(segment, alone)` says whether one goes to a worker (`alone`: none waits before
    /// it), where `work` is run on it with `stop`.
    func next(
        cancellation: CancellationToken?, dispatch: (Segment, _ alone: Bool) -> Bool,
        work: @escaping @Sendable (Segment, CancellationToken) -> Value
    ) throws(StreamError<Source.Failure>) -> (segment: Segment, made: Value?)? {
        while !readAll, inFlight.count < reader.chunking.workers + 1 {
            try checkCancelled(cancellation)
            let segment: Segment?
            do {
                segment = try reader.next(into: freeBuffers.popLast() ?? SegmentBuffer(capacity: reader.chunking.segmentBytes), boundary: boundary)
            } catch {
                throw .read(error)
            }
            guard let segment else {
                readAll = true
                break
            }
            if segment.final { readAll = true }
            let dispatched = dispatch(segment, inFlight.isEmpty)
            if dispatched {
                let (results, stop) = (results, stop)
                DispatchQueue.global(qos: .userInitiated).async(group: group) {
                    results.put(segment.index, work(segment, stop))
                }
            }
            inFlight.append((segment, dispatched))
        }
        guard !inFlight.isEmpty else { return nil }
        let (segment, dispatched) = inFlight.removeFirst()
        guard dispatched else { return (segment, nil) }
        guard let made = results.take(segment.index, cancellation: cancellation) else {
            stop.cancel()
            throw .ingest(.cancelled)
        }
        return (segment, made)
    }

    /// A segment taken is done with: its buffer is read into again.
    func recycle(_ segment: Segment) {
        if let buffer = segment.buffer { freeBuffers.append(buffer) }
    }

    func checkCancelled(_ cancellation: CancellationToken?) throws(StreamError<Source.Failure>) {
        if cancellation?.isCancelled == true {
            stop.cancel()
            throw .ingest(.cancelled)
        }
    }
}

/// Worker results by segment index, and a signal for each one that arrives.
final class SegmentResults<Value: Sendable>: Sendable {
    private let results = Mutex<[Int: Value]>([:])
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ index: Int, _ result: Value) {
        results.withLock { $0[index] = result }
        arrived.signal()
    }

    /// The result of segment `index`, waiting for it; nil when `cancellation` is set meanwhile.
    func take(_ index: Int, cancellation: CancellationToken?) -> Value? {
        while true {
            if let result = results.withLock({ $0.removeValue(forKey: index) }) { return result }
            if cancellation?.isCancelled == true { return nil }
            _ = arrived.wait(timeout: .now() + .milliseconds(50))
        }
    }
}
