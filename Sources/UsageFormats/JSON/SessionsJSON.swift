// SessionsJSON.swift — the entry points of the sessions JSON and NDJSON ingest: a stream or bytes in, a Dataset out (segments scanned on every core).
import UsageCore

/// Decodes the sessions JSON format (docs/DATA.md §1), and NDJSON (one session object a line),
/// into a `Dataset`.
///
/// The scanner never recurses (deep nesting cannot overflow the stack), validates the whole
/// input as JSON (RFC 8259), accepts a leading UTF-8 BOM, and replaces invalid UTF-8 and lone
/// surrogate escapes inside strings with U+FFFD. Names are interned from their bytes and
/// sessions stored by column, so a row costs no `String`. A stream is read in segments of a few
/// MiB into buffers that are reused, scanned on every core (see `SegmentedScan`) and never held
/// whole: memory holds the columns.
public enum SessionsJSON {
    /// Reads a stream to its end and decodes it; `expectedRows` (a guess from the size, when
    /// known) lets the columns be reserved once.
    public static func decode<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, cancellation: CancellationToken? = nil, expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> Dataset {
        try SegmentedScan.run(reader, format: ArraySegments(), cancellation: cancellation, expectedRows: expectedRows)
            .dataset(source: source)
    }

    /// Decodes bytes in memory.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken? = nil,
        chunking: Chunking = .standard
    ) throws(IngestError) -> Dataset {
        try scan(bytes, cancellation: cancellation, chunking: chunking).dataset(source: source)
    }

    /// Scans bytes in memory into rows not yet sorted (or only validates them).
    public static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, cancellation: CancellationToken? = nil, chunking: Chunking = .standard
    ) throws(IngestError) -> ScannedSessions {
        try inMemory(bytes, chunking: chunking) { reader throws(StreamError<Never>) in
            try SegmentedScan.run(reader, format: ArraySegments(), cancellation: cancellation)
        }
    }

    /// Scans bytes whole, in one scan on one core: the reference every segmented scan must
    /// equal (tests and the fuzz target compare them).
    static func scanOnce(_ bytes: UnsafeBufferPointer<UInt8>) throws(IngestError) -> ScannedSessions {
        var scanner = JSONScanner(bytes)
        var builder = DatasetBuilder()
        try scanner.scanSessions(into: &builder, cancellation: nil)
        return ScannedSessions(builder.takePart(table: 0))
    }

    /// Decodes a byte array (convenience for tests and small inputs).
    public static func decode(_ bytes: [UInt8], source: String, chunking: Chunking = .standard) throws(IngestError) -> Dataset {
        try bytes.withUnsafeBufferPointer { buffer throws(IngestError) in
            try decode(buffer, source: source, chunking: chunking)
        }
    }

    /// Decodes a string (convenience for tests).
    public static func decode(_ text: String, source: String = "test") throws(IngestError) -> Dataset {
        try decode(Array(text.utf8), source: source)
    }

    /// Reads an NDJSON stream to its end and decodes it: one session object a line (blank lines
    /// ignored), each line read as the array `[LINE]` would be, so the rules are the sessions
    /// JSON's; lines and columns in errors and `check` are the file's own.
    public static func decodeNDJSON<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, cancellation: CancellationToken? = nil, expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> Dataset {
        try SegmentedScan.run(reader, format: LineSegments(), cancellation: cancellation, expectedRows: expectedRows)
            .dataset(source: source)
    }

    /// Decodes NDJSON bytes in memory.
    public static func decodeNDJSON(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, cancellation: CancellationToken? = nil,
        chunking: Chunking = .standard
    ) throws(IngestError) -> Dataset {
        try inMemory(bytes, chunking: chunking) { reader throws(StreamError<Never>) in
            try SegmentedScan.run(reader, format: LineSegments(), cancellation: cancellation)
        }.dataset(source: source)
    }

    /// Runs a segmented scan over bytes in memory (copied in chunks when `chunking` asks for
    /// reads smaller than the input, as tests do).
    private static func inMemory(
        _ bytes: UnsafeBufferPointer<UInt8>, chunking: Chunking,
        _ body: (ChunkReader<MemorySource>) throws(StreamError<Never>) -> ScannedSessions
    ) throws(IngestError) -> ScannedSessions {
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
