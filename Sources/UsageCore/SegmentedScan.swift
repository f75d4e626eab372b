// SegmentedScan.swift — scans a stream segment by segment on every core: each segment starts at a guessed row boundary, the segment before proves the guess, and the result is exactly one scan's.
import Dispatch
import Synchronization

/// A format read in segments: where a segment may end, and how one is scanned.
protocol SegmentFormat: Sendable {
    /// The last probable row boundary at or after `from` in `b` (the next segment would start
    /// there), or nil.
    func boundary(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int?
    /// Scans one segment into `builder`: how it ended, and the line breaks before that end.
    func scan(
        _ b: UnsafeBufferPointer<UInt8>, from start: SegmentStart, final: Bool, into builder: inout DatasetBuilder,
        cancellation: CancellationToken?
    ) throws(ScanStop) -> (end: SegmentEnd, newlines: Int)
}

/// Why a stream could not be read into sessions: its source failed, or its bytes are not the format.
public enum StreamError<Failure: Error>: Error {
    case read(Failure)
    case ingest(IngestError)
}

/// The sessions JSON array: a segment ends before a `{` that follows `}` and `,` (white space
/// allowed between), the likely start of a row. A guess inside a string or a nested value is
/// never confirmed: the segment before then ends inside a value, and the two are scanned as one.
struct ArraySegments: SegmentFormat {
    func boundary(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var j = b.count - 1
        while j >= from {
            if b[j] == UInt8(ascii: "{") {
                var k = j - 1
                while k > 0, Self.isSpace(b[k]) { k -= 1 }
                if k > 0, b[k] == UInt8(ascii: ",") {
                    k -= 1
                    while k > 0, Self.isSpace(b[k]) { k -= 1 }
                    if k > 0, b[k] == UInt8(ascii: "}") { return j }
                }
            }
            j -= 1
        }
        return nil
    }

    func scan(
        _ b: UnsafeBufferPointer<UInt8>, from start: SegmentStart, final: Bool, into builder: inout DatasetBuilder,
        cancellation: CancellationToken?
    ) throws(ScanStop) -> (end: SegmentEnd, newlines: Int) {
        var scanner = JSONScanner(b, final: final)
        let end = try scanner.scanSegment(into: &builder, from: start, cancellation: cancellation)
        return (end, scanner.newlines)
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
}

/// NDJSON: a segment ends after a line break, always a true boundary (a JSON value cannot hold
/// a raw line break), so no guess is ever wrong.
struct LineSegments: SegmentFormat {
    func boundary(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var j = b.count - 1
        while j >= max(from - 1, 0) {
            if b[j] == 0x0A { return j + 1 }
            j -= 1
        }
        return nil
    }

    func scan(
        _ b: UnsafeBufferPointer<UInt8>, from start: SegmentStart, final: Bool, into builder: inout DatasetBuilder,
        cancellation: CancellationToken?
    ) throws(ScanStop) -> (end: SegmentEnd, newlines: Int) {
        var scanner = JSONScanner(b, final: true)
        try scanner.scanNDJSON(into: &builder, skippingBOM: start == .document, cancellation: cancellation)
        return (final ? .closed : .open, scanner.newlines)
    }
}

/// Runs a segmented scan: reads segments, hands them to worker threads, and takes their
/// results in file order, proving each segment's start by the end of the one before.
enum SegmentedScan {
    static func run<Source: ByteSource, Format: SegmentFormat>(
        _ reader: ChunkReader<Source>, format: Format, cancellation: CancellationToken?, expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> ScannedSessions {
        let run = Run(reader: reader, format: format, cancellation: cancellation, expectedRows: expectedRows)
        defer { run.finish() }
        return try run.scan()
    }

    /// What a worker made of a segment.
    typealias WorkerResult = Result<Scanned, ScanStop>

    struct Scanned: Sendable {
        var part: ScannedPart
        var end: SegmentEnd
        /// Line breaks before the end (`.short`: before `resume`).
        var newlines: Int
        /// Scalars after the last line break before the end (all of them when there is none).
        var tailColumns: Int
    }

    /// Lines and columns before the bytes being looked at: their line 1 is the file's line
    /// `newlines + 1`, and starts at column `columns + 1`.
    struct TextBase {
        var newlines = 0
        var columns = 0

        mutating func advance(newlines n: Int, tailColumns: Int) {
            columns = n > 0 ? tailColumns : columns + tailColumns
            newlines += n
        }

        /// Where byte `offset` of `b` (which begins here) is in the file.
        func locate(_ offset: Int, in b: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
            let offset = min(offset, b.count)
            var lineStart = offset
            while lineStart > 0, b[lineStart - 1] != 0x0A { lineStart -= 1 }
            let lines = Newlines.count(in: b, from: 0, to: lineStart)
            let column = JSONScanner.scalars(in: UnsafeBufferPointer(rebasing: b[lineStart..<offset])) + 1
            return (newlines + 1 + lines, lines == 0 ? columns + column : column)
        }

        func error(_ stop: ScanStop, in b: UnsafeBufferPointer<UInt8>) -> IngestError {
            switch stop {
            case .syntax(let offset, let message):
                let (line, column) = locate(offset, in: b)
                return .syntax(line: line, column: column, message: message)
            case .located(let line, let column, let message):
                return .syntax(line: newlines + line, column: column, message: message)
            default:
                return stop.ingestError(in: b)
            }
        }
    }

    /// Scans one segment (on any thread).
    static func scan<Format: SegmentFormat>(
        _ b: UnsafeBufferPointer<UInt8>, from start: SegmentStart, final: Bool, format: Format, builders: BuilderPool,
        cancellation: CancellationToken?
    ) -> WorkerResult {
        var (table, builder) = builders.take()
        defer { builders.put(table, builder) }
        do {
            let (end, newlines) = try format.scan(b, from: start, final: final, into: &builder, cancellation: cancellation)
            let stop: Int
            switch end {
            case .open, .closed: stop = b.count
            case .short(let resume, _): stop = resume
            }
            let lines: Int
            if case .short(_, let n) = end { lines = n } else { lines = newlines }
            return .success(
                Scanned(
                    part: builder.takePart(table: table), end: end, newlines: lines,
                    tailColumns: tailColumns(UnsafeBufferPointer(rebasing: b[..<stop]))))
        } catch {
            _ = builder.takePart(table: table)
            return .failure(error)
        }
    }

    /// Scalars after the last line break of `b` (all of them when it has none).
    static func tailColumns(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        var start = b.count
        while start > 0, b[start - 1] != 0x0A { start -= 1 }
        return JSONScanner.scalars(in: UnsafeBufferPointer(rebasing: b[start...]))
    }

    /// Builders for the workers, each with its own name tables (told apart by a table number).
    final class BuilderPool: Sendable {
        private let state = Mutex<(free: [(Int, DatasetBuilder)], made: Int)>(([], 0))

        func take() -> (Int, DatasetBuilder) {
            state.withLock { state in
                if let builder = state.free.popLast() { return builder }
                state.made += 1
                return (state.made, DatasetBuilder())
            }
        }

        func put(_ table: Int, _ builder: DatasetBuilder) {
            state.withLock { $0.free.append((table, builder)) }
        }
    }

    /// One run's state: the segments in flight, in file order.
    final class Run<Source: ByteSource, Format: SegmentFormat> {
        let reader: ChunkReader<Source>
        let format: Format
        let cancellation: CancellationToken?
        /// What the workers poll: set when the user cancels or the run stops early.
        let stop = CancellationToken()
        let builders = BuilderPool()
        let results = SegmentResults<WorkerResult>()
        let group = DispatchGroup()
        var freeBuffers: [SegmentBuffer] = []
        /// Segments read and not yet taken, in file order; whether a worker scans each.
        var inFlight: [(segment: Segment, dispatched: Bool)] = []
        var readAll = false
        var scanned: ScannedSessions
        var base = TextBase()
        /// The start of a value the last segment ended inside, and how its scan began.
        var carry: (bytes: [UInt8], start: SegmentStart)?
        /// The array closed: what follows must be white space.
        var closed = false

        init(reader: ChunkReader<Source>, format: Format, cancellation: CancellationToken?, expectedRows: Int) {
            self.reader = reader
            self.format = format
            self.cancellation = cancellation
            scanned = ScannedSessions(expectedRows: expectedRows)
        }

        /// Stops the workers and waits for them: their buffers must outlive them.
        func finish() {
            stop.cancel()
            group.wait()
        }

        func checkCancelled() throws(StreamError<Source.Failure>) {
            if cancellation?.isCancelled == true {
                stop.cancel()
                throw .ingest(.cancelled)
            }
        }

        func scan() throws(StreamError<Source.Failure>) -> ScannedSessions {
            let workers = reader.chunking.workers
            while true {
                // Keep the workers busy: one segment each and one more read ahead.
                while !readAll, inFlight.count < workers + 1 {
                    try checkCancelled()
                    let segment: Segment?
                    do {
                        segment = try reader.next(into: freeBuffers.popLast() ?? SegmentBuffer(capacity: reader.chunking.segmentBytes)) { b, from in
                            format.boundary(in: b, from: from)
                        }
                    } catch {
                        throw .read(error)
                    }
                    guard let segment else {
                        readAll = true
                        break
                    }
                    if segment.final { readAll = true }
                    // A lone final segment (a small input) is scanned here; others go to a worker.
                    let dispatched = !closed && !(segment.final && inFlight.isEmpty)
                    if dispatched { dispatch(segment) }
                    inFlight.append((segment, dispatched))
                }
                guard !inFlight.isEmpty else { break }
                let (segment, dispatched) = inFlight.removeFirst()
                try take(segment, dispatched: dispatched)
                if let buffer = segment.buffer { freeBuffers.append(buffer) }
            }
            return scanned
        }

        private func dispatch(_ segment: Segment) {
            let (format, builders, results, stop) = (format, builders, results, stop)
            let start: SegmentStart = segment.index == 0 ? .document : .element
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                let result = SegmentedScan.scan(
                    segment.bytes, from: start, final: segment.final, format: format, builders: builders, cancellation: stop)
                results.put(segment.index, result)
            }
        }

        /// Takes the next segment in file order.
        private func take(_ segment: Segment, dispatched: Bool) throws(StreamError<Source.Failure>) {
            if closed {
                if dispatched { _ = results.take(segment.index, cancellation: nil) }
                return try checkWhiteSpace(segment.bytes)
            }
            let own = segment.index == 0 ? SegmentStart.document : .element
            guard let carry else {
                let result: WorkerResult
                if dispatched {
                    guard let r = results.take(segment.index, cancellation: cancellation) else { throw .ingest(.cancelled) }
                    result = r
                } else {
                    result = SegmentedScan.scan(
                        segment.bytes, from: own, final: segment.final, format: format, builders: builders, cancellation: stop)
                }
                return try accept(result, bytes: segment.bytes, start: own)
            }
            // The segment before ended inside a value, so this segment's own scan began in the
            // wrong place: its result is void. That value's start and this segment are scanned as one.
            if dispatched, results.take(segment.index, cancellation: cancellation) == nil { throw .ingest(.cancelled) }
            self.carry = nil
            let joined = carry.bytes + Array(segment.bytes)
            let result = joined.withUnsafeBufferPointer { b in
                SegmentedScan.scan(b, from: carry.start, final: segment.final, format: format, builders: builders, cancellation: stop)
            }
            // `accept` keeps only copies of the bytes it is given.
            let bytes = UnsafeSendable(joined)
            try bytes.value.withUnsafeBufferPointer { (b) throws(StreamError<Source.Failure>) in
                try accept(result, bytes: b, start: carry.start)
            }
        }

        private func accept(
            _ result: WorkerResult, bytes: UnsafeBufferPointer<UInt8>, start: SegmentStart
        ) throws(StreamError<Source.Failure>) {
            try checkCancelled()
            switch result {
            case .failure(.cancelled):
                throw .ingest(.cancelled)
            case .failure(let stop):
                throw .ingest(base.error(stop, in: bytes))
            case .success(let s):
                scanned.append(s.part.shiftingLines(by: base.newlines))
                base.advance(newlines: s.newlines, tailColumns: s.tailColumns)
                switch s.end {
                case .open: break
                case .closed: closed = true
                case .short(let resume, _):
                    carry = (Array(bytes[resume...]), resume == 0 && start == .document ? .document : .element)
                }
            }
        }

        /// After the array closed: the bytes must be white space.
        private func checkWhiteSpace(_ b: UnsafeBufferPointer<UInt8>) throws(StreamError<Source.Failure>) {
            for k in 0..<b.count where !ArraySegments.isSpace(b[k]) {
                let (line, column) = base.locate(k, in: b)
                throw .ingest(.syntax(line: line, column: column, message: "unexpected data after the end of the JSON value"))
            }
            base.advance(newlines: Newlines.count(in: b, from: 0, to: b.count), tailColumns: SegmentedScan.tailColumns(b))
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

/// A value handed to other threads, which only read it while the call that made it runs (an
/// input buffer, a segment).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
