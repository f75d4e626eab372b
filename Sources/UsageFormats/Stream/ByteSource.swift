// ByteSource.swift — where a stream's bytes come from (a file, a pipe, memory) and the reader that cuts them into segments at probable row boundaries, in buffers that are reused.
import UsageCore
import Foundation

/// Bytes read in order from somewhere: a file or stream (UsageData's descriptor reader, with
/// its timeout and size cap), or memory.
public protocol ByteSource {
    associatedtype Failure: Error
    /// Reads at most `buffer.count` bytes into `buffer`; 0 means the input has ended.
    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Int
    /// The whole input, when it is already in memory (segments are then slices of it, not copies).
    var contiguous: UnsafeBufferPointer<UInt8>? { get }
}

extension ByteSource {
    public var contiguous: UnsafeBufferPointer<UInt8>? { nil }
}

/// Bytes in memory. With `chunk`, they are handed out in reads of at most that many bytes and
/// copied like a stream's (tests cut inputs at every byte this way); without, segments are
/// slices of `bytes`, which must outlive the scan.
public struct MemorySource: ByteSource {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let chunk: Int?
    private var position = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Int? = nil) {
        self.bytes = bytes
        self.chunk = chunk.map { max(1, $0) }
    }

    public mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = min(buffer.count, bytes.count - position, chunk ?? Int.max)
        guard n > 0, let from = bytes.baseAddress, let to = buffer.baseAddress else { return 0 }
        to.update(from: from + position, count: n)
        position += n
        return n
    }

    public var contiguous: UnsafeBufferPointer<UInt8>? { chunk == nil ? bytes : nil }
}

/// How a stream is cut into segments and scanned.
public struct Chunking: Sendable {
    /// The size a segment is filled to before it is cut at the last probable row boundary.
    public var segmentBytes: Int
    /// The most one read asks for.
    public var readBytes: Int
    /// Threads scanning segments at once.
    public var workers: Int

    public init(segmentBytes: Int = Chunking.defaultSegmentBytes, readBytes: Int = 4 << 20, workers: Int = Chunking.cores) {
        self.segmentBytes = max(1, segmentBytes)
        self.readBytes = max(1, readBytes)
        self.workers = max(1, workers)
    }

    /// 4 MiB: large enough that handing a segment to a thread costs nothing, small enough that
    /// a few in flight cost little memory.
    public static let defaultSegmentBytes = 4 << 20
    /// The cores to scan on (at most 4: reading and merging in order would not keep more busy).
    public static let cores = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    public static let standard = Chunking()
}

/// A buffer a segment is read into, reused segment after segment; it grows only for a row
/// larger than itself.
final class SegmentBuffer: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The room after the bytes, at most `limit` of it.
    func room(_ limit: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: base + count, count: min(limit, capacity - count))
    }

    /// Twice the capacity (at least `minimum`), keeping the bytes.
    func grow(minimum: Int = 0) {
        let bigger = max(capacity * 2, minimum)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        new.update(from: base, count: count)
        base.deallocate()
        base = new
        capacity = bigger
    }

    /// Appends bytes, growing when needed.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count { grow(minimum: count + bytes.count) }
        (base + count).update(from: from, count: bytes.count)
        count += bytes.count
    }
}

/// One segment of the input: bytes that end at a probable row boundary (or at the input's
/// end), in a buffer of the reader's or in the caller's memory.
struct Segment: @unchecked Sendable {
    let index: Int
    let bytes: UnsafeBufferPointer<UInt8>
    /// The buffer holding `bytes`, to reuse once the segment is done (nil: the caller's memory).
    let buffer: SegmentBuffer?
    /// Whether the input ends with this segment.
    let final: Bool
}

/// Reads a source and hands it out in segments, each cut at the last probable row boundary a
/// format's `boundary` finds; what follows the cut starts the next segment.
public final class ChunkReader<Source: ByteSource> {
    private var source: Source
    private let memory: UnsafeBufferPointer<UInt8>?
    /// Read but not yet handed out (the start of the next segment).
    private let pending: SegmentBuffer
    /// Where the next segment starts in `memory`.
    private var memoryPosition = 0
    private(set) var ended = false
    private var segments = 0
    let chunking: Chunking

    public init(_ source: Source, chunking: Chunking = .standard) {
        self.source = source
        self.chunking = chunking
        memory = source.contiguous
        pending = SegmentBuffer(capacity: memory == nil ? min(chunking.segmentBytes, 1 << 16) : 16)
    }

    /// Reads until at least `count` bytes wait (or the input ends), for format detection.
    public func prefetch(atLeast count: Int) throws(Source.Failure) {
        if memory != nil { return }
        while pending.count < count, !ended {
            if pending.capacity == pending.count { pending.grow() }
            try fill(pending, limit: count - pending.count)
        }
    }

    /// The bytes read and not yet handed out (the input's start, before the first segment).
    public var lookahead: UnsafeBufferPointer<UInt8> {
        memory.map { UnsafeBufferPointer(rebasing: $0[memoryPosition...]) } ?? pending.bytes
    }

    /// Whether the whole input is in `lookahead`.
    public var isComplete: Bool { memory != nil || ended }

    /// Reads the whole input into `lookahead` (the formats not read in segments).
    public func readAll() throws(Source.Failure) {
        while !isComplete {
            if pending.capacity == pending.count { pending.grow() }
            try fill(pending, limit: chunking.readBytes)
        }
    }

    /// Moves the bytes read and not handed out yet to the end of `buffer` (a sequential reader's
    /// first chunk).
    func takeLookahead(into buffer: SegmentBuffer) {
        buffer.append(lookahead)
        if memory != nil { memoryPosition = memory!.count } else { pending.count = 0 }
    }

    /// Reads more into `buffer` (after its bytes, at most `limit`); false at the input's end.
    func readMore(into buffer: SegmentBuffer, limit: Int) throws(Source.Failure) -> Bool {
        if memory != nil || ended { return false }
        if buffer.count == buffer.capacity { buffer.grow() }
        try fill(buffer, limit: limit)
        return !ended
    }

    private func fill(_ buffer: SegmentBuffer, limit: Int) throws(Source.Failure) {
        let n = try source.read(into: buffer.room(min(limit, chunking.readBytes)))
        if n == 0 { ended = true } else { buffer.count += n }
    }

    /// The next segment, or nil after the last. `buffer` is what it is read into (unless the
    /// input is in memory); `boundary(bytes, from)` gives the last probable boundary at or
    /// after `from` (> 0), or nil.
    func next(
        into buffer: @autoclosure () -> SegmentBuffer,
        boundary: (UnsafeBufferPointer<UInt8>, Int) -> Int?
    ) throws(Source.Failure) -> Segment? {
        defer { segments += 1 }
        if let memory { return nextInMemory(memory, boundary: boundary) }
        if ended, pending.count == 0, segments > 0 { return nil }
        let out = buffer()
        out.count = 0
        out.append(pending.bytes)
        pending.count = 0
        var searched = 1
        while true {
            while out.count < chunking.segmentBytes, !ended {
                if out.capacity == out.count { out.grow() }
                try fill(out, limit: chunking.segmentBytes - out.count)
            }
            if ended {
                return Segment(index: segments, bytes: out.bytes, buffer: out, final: true)
            }
            if let cut = boundary(out.bytes, max(1, searched)), cut > 0, cut < out.count {
                pending.append(UnsafeBufferPointer(rebasing: out.bytes[cut...]))
                out.count = cut
                return Segment(index: segments, bytes: out.bytes, buffer: out, final: false)
            }
            // No boundary yet (a row longer than the segment): read on, into a larger buffer when full.
            searched = max(1, out.count - 16)
            if out.count == out.capacity { out.grow() }
            try fill(out, limit: out.capacity - out.count)
        }
    }

    private func nextInMemory(
        _ memory: UnsafeBufferPointer<UInt8>, boundary: (UnsafeBufferPointer<UInt8>, Int) -> Int?
    ) -> Segment? {
        let from = memoryPosition
        if from >= memory.count, segments > 0 { return nil }
        var end = min(memory.count, from + chunking.segmentBytes)
        var searched = 1
        while end < memory.count {
            let window = UnsafeBufferPointer(rebasing: memory[from..<end])
            if let cut = boundary(window, searched), cut > 0, cut < window.count {
                memoryPosition = from + cut
                return Segment(index: segments, bytes: UnsafeBufferPointer(rebasing: memory[from..<(from + cut)]), buffer: nil, final: false)
            }
            searched = max(1, window.count - 16)
            end = min(memory.count, from + 2 * (end - from))
        }
        memoryPosition = memory.count
        return Segment(index: segments, bytes: UnsafeBufferPointer(rebasing: memory[from...]), buffer: nil, final: true)
    }
}
