// SessionsJSON.swift — the entry point of the sessions JSON ingest: bytes in, a Dataset out (one or two cores).

/// Decodes the sessions JSON format (docs/DATA.md §1) into a `Dataset`.
///
/// This is the one narrow entry point of ingest. The scanner never recurses (deep nesting cannot
/// overflow the stack), validates the whole input as JSON (RFC 8259), accepts a leading UTF-8
/// BOM, and replaces invalid UTF-8 and lone surrogate escapes inside strings with U+FFFD.
/// Names are interned from their bytes and sessions stored by column, so a row costs no
/// `String`; a large input is scanned in two halves on two cores (see `ParallelScan`).
public enum SessionsJSON {
    /// Inputs below this size are scanned on one core: a second thread does not pay for itself.
    static let parallelThreshold = 4 << 20

    /// Decodes `bytes`; `progress` receives the number of bytes consumed from time to time and
    /// `cancellation` is polled, throwing `.cancelled` when set.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String,
        cancellation: CancellationToken? = nil, progress: ((Int) -> Void)? = nil
    ) throws(IngestError) -> Dataset {
        try scan(bytes, cancellation: cancellation, progress: progress).dataset(source: source)
    }

    /// Scans `bytes` into rows not yet sorted: the caller may free the input before `dataset`.
    public static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, cancellation: CancellationToken? = nil, progress: ((Int) -> Void)? = nil,
        parallel: Bool? = nil
    ) throws(IngestError) -> ScannedSessions {
        if parallel ?? (bytes.count >= parallelThreshold) {
            return try ParallelScan.run(bytes, cancellation: cancellation, progress: progress)
        }
        var scanner = JSONScanner(bytes)
        var builder = DatasetBuilder(expectedRows: bytes.count / 160)
        try scanner.scanSessions(into: &builder, cancellation: cancellation, progress: progress)
        builder.resolveLines(in: bytes)
        return ScannedSessions(parts: [builder])
    }

    /// Decodes a byte array (convenience for tests and small inputs).
    public static func decode(_ bytes: [UInt8], source: String, parallel: Bool? = nil) throws(IngestError) -> Dataset {
        try bytes.withUnsafeBufferPointer { buffer throws(IngestError) in
            try scan(buffer, parallel: parallel).dataset(source: source)
        }
    }

    /// Decodes a string (convenience for tests).
    public static func decode(_ text: String, source: String = "test") throws(IngestError) -> Dataset {
        try decode(Array(text.utf8), source: source)
    }
}
