// SegmentedScan.swift — scans a stream segment by segment on every core: each segment starts at a guessed row boundary, the segment before proves the guess, and the result is exactly one scan's.
import UsageCore
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

    /// One run's state: the segments in flight (`SegmentPipeline`), and what was taken of them.
    final class Run<Source: ByteSource, Format: SegmentFormat> {
        let format: Format
        let cancellation: CancellationToken?
        let builders = BuilderPool()
        let pipeline: SegmentPipeline<Source, WorkerResult>
        var scanned: ScannedSessions
        var base = TextBase()
        /// The start of a value the last segment ended inside, and how its scan began.
        var carry: (bytes: [UInt8], start: SegmentStart)?
        /// The array closed: what follows must be white space.
        var closed = false

        init(reader: ChunkReader<Source>, format: Format, cancellation: CancellationToken?, expectedRows: Int) {
            self.format = format
            self.cancellation = cancellation
            pipeline = SegmentPipeline(reader) { b, from in format.boundary(in: b, from: from) }
            scanned = ScannedSessions(expectedRows: expectedRows)
        }

        /// Stops the workers and waits for them: their buffers must outlive them.
        func finish() {
            pipeline.finish()
        }

        func scan() throws(StreamError<Source.Failure>) -> ScannedSessions {
            let (format, builders) = (format, builders)
            while let next = try pipeline.next(
                cancellation: cancellation,
                // A lone final segment (a small input) is scanned here; others go to a worker.
                dispatch: { segment, alone in !closed && !(segment.final && alone) },
                work: { segment, stop in
                    SegmentedScan.scan(
                        segment.bytes, from: segment.index == 0 ? .document : .element, final: segment.final, format: format,
                        builders: builders, cancellation: stop)
                })
            {
                defer { pipeline.recycle(next.segment) }
                try take(next.segment, made: next.made)
            }
            return scanned
        }

        /// Takes the next segment in file order, with its worker's result when it had one.
        private func take(_ segment: Segment, made: WorkerResult?) throws(StreamError<Source.Failure>) {
            if closed { return try checkWhiteSpace(segment.bytes) }
            let own = segment.index == 0 ? SegmentStart.document : .element
            guard let carry else {
                let result = made ?? SegmentedScan.scan(
                    segment.bytes, from: own, final: segment.final, format: format, builders: builders, cancellation: pipeline.stop)
                return try accept(result, bytes: segment.bytes, start: own)
            }
            // The segment before ended inside a value, so this segment's own scan began in the
            // wrong place: its result is void. That value's start and this segment are scanned as one.
            self.carry = nil
            let joined = carry.bytes + Array(segment.bytes)
            let result = joined.withUnsafeBufferPointer { b in
                SegmentedScan.scan(b, from: carry.start, final: segment.final, format: format, builders: builders, cancellation: pipeline.stop)
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
            try pipeline.checkCancelled(cancellation)
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

