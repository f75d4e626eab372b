// SourceFormat.swift — which format a source's bytes are in, told by their content, and the one decode that dispatches on it.
import Foundation
import UsageCore

/// The formats a source may be in, told apart by content (never by name: a URL or stdin has none).
public enum SourceFormat: String, Sendable, CaseIterable {
    /// A JSON array of session objects (docs/DATA.md §1), the canonical format.
    case sessionsJSON = "sessions JSON"
    /// One session object per line.
    case ndjson = "NDJSON"
    /// CSV with a header naming the session fields.
    case csv = "CSV"
    /// An ActivityWatch export (`{"buckets": {…}}`).
    case activityWatch = "ActivityWatch export"
    /// A Timewarrior export (`timew export`): `[{"start","end","tags"}]`.
    case timewarrior = "Timewarrior export"

    /// The session fields, as JSON keys and CSV column names.
    public static let sessionFields = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    /// Tells the format from the first bytes (after a UTF-8 BOM and white space):
    /// - `[`: a Timewarrior export when the first element has a `"start"` key and no
    ///   `"start_timestamp"`, else sessions JSON;
    /// - `{`: an ActivityWatch export when its first key is `"buckets"`, NDJSON when the first
    ///   line is a whole object with a session field, else sessions JSON (whose error then says
    ///   an array was expected);
    /// - anything else: CSV when the first line is a header (`CSVHeader.looksLikeHeader`: it
    ///   names a session field, a column of `columns`, or is a row of short names), else
    ///   sessions JSON (whose error points at the first byte).
    public static func detect(_ bytes: UnsafeBufferPointer<UInt8>, columns: ColumnMapping = ColumnMapping()) -> SourceFormat {
        var i = ByteText.skipBOM(bytes)
        i = ByteText.skipWhitespace(bytes, from: i)
        guard i < bytes.count else { return .sessionsJSON }
        let window = ByteText.slice(bytes, from: i, count: 64 << 10)
        switch bytes[i] {
        case UInt8(ascii: "["):
            let hasStart = ByteText.findKey("start", in: window) != nil
            return hasStart && ByteText.find("\"start_timestamp\"", in: window) == nil ? .timewarrior : .sessionsJSON
        case UInt8(ascii: "{"):
            let afterBrace = ByteText.skipWhitespace(bytes, from: i + 1)
            if ByteText.hasPrefix("\"buckets\"", bytes, at: afterBrace) { return .activityWatch }
            let line = ByteText.slice(bytes, from: i, upTo: UInt8(ascii: "\n"))
            // A session's line is short: a longer first line is not NDJSON (and is not parsed twice).
            guard line.count <= 1 << 20,
                let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            else {
                return .sessionsJSON
            }
            return sessionFields.contains(where: { object[$0] != nil }) ? .ndjson : .sessionsJSON
        default:
            // A header is short: look at no more than the window (a 200 MB line is not one).
            let header = ByteText.slice(window, from: 0, upTo: UInt8(ascii: "\n"))
            return CSVHeader.looksLikeHeader(header, mapping: columns) ? .csv : .sessionsJSON
        }
    }

    /// Decodes bytes in memory, in whatever format they are, into a dataset named `source`.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, options: ReadOptions = ReadOptions(),
        cancellation: CancellationToken? = nil
    ) throws(IngestError) -> Dataset {
        do {
            return try decode(ChunkReader(MemorySource(bytes)), source: source, options: options, cancellation: cancellation)
        } catch {
            switch error {
            case .ingest(let e): throw e
            }
        }
    }

    /// Reads a stream to its end in whatever format its first bytes say (`read`, the one
    /// dispatch over formats); `expectedRows` (a guess from the size, when known) lets the
    /// columns be reserved once.
    public static func decode<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, options: ReadOptions = ReadOptions(),
        cancellation: CancellationToken? = nil, expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> Dataset {
        try read(reader, source: source, options: options, cancellation: cancellation, expectedRows: expectedRows, byDevice: false)[0].dataset
    }

    /// Reads a stream to its end in whatever format its first bytes say: the one place where
    /// a format is registered (told apart in `detect`, read here), for `decode` and
    /// `decodeByDevice` alike. The sessions JSON, NDJSON, ActivityWatch and Timewarrior exports
    /// and CSV are scanned chunk by chunk as they are read (memory holds what they hold, never
    /// the input). One part (device nil) unless `byDevice` and the format names each session's
    /// device (an ActivityWatch export's hosts: `ActivityWatchRead.datasetsByHost`).
    static func read<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, options: ReadOptions, cancellation: CancellationToken?,
        expectedRows: Int, byDevice: Bool
    ) throws(StreamError<Source.Failure>) -> [DevicePart] {
        do {
            try prefetchForDetection(reader)
        } catch {
            throw .read(error)
        }
        let lookahead = reader.lookahead
        let format = detect(lookahead, columns: options.columns)
        if format == .sessionsJSON, let problem = unreadableEncoding(lookahead) {
            throw .ingest(.malformed(format: "text file", problem: problem))
        }
        let rows = expectedRows
        let whole: Dataset
        switch format {
        case .sessionsJSON:
            whole = try SessionsJSON.decode(reader, source: source, cancellation: cancellation, expectedRows: rows)
        case .ndjson:
            whole = try SessionsJSON.decodeNDJSON(reader, source: source, cancellation: cancellation, expectedRows: rows)
        case .activityWatch:
            let read = try ActivityWatchRead.read(reader, document: .export, cancellation: cancellation)
            do {
                if byDevice { return try read.datasetsByHost(source: source, cancellation: cancellation) }
                var dataset = try read.dataset(source: source, cancellation: cancellation)
                dataset.visits = read.visits
                whole = dataset
            } catch {
                throw .ingest(error)
            }
        case .timewarrior:
            whole = try TimewarriorJSON.decode(reader, source: source, now: options.now, cancellation: cancellation, expectedRows: rows)
        case .csv:
            whole = try CSVFormat.decode(reader, source: source, options: options, cancellation: cancellation, expectedRows: rows)
        }
        return [DevicePart(device: nil, dataset: whole)]
    }
}

extension SourceFormat {
    /// The most `detect` looks at past the leading white space: an NDJSON first line of up to
    /// 1 MiB (and its line break).
    static let detectionWindow = (1 << 20) + 1

    /// Reads enough of a stream for `detect`: past the byte order mark and white space, then
    /// `detectionWindow` bytes (or to the end).
    public static func prefetchForDetection<Source: ByteSource>(_ reader: ChunkReader<Source>) throws(Source.Failure) {
        var want = 1 << 16
        while true {
            try reader.prefetch(atLeast: want)
            let b = reader.lookahead
            let first = ByteText.skipWhitespace(b, from: ByteText.skipBOM(b))
            if reader.isComplete || (first < b.count && b.count >= first + detectionWindow) { return }
            want = first < b.count ? first + detectionWindow : b.count * 2
        }
    }

    /// What to do with bytes no format can be: compressed, or text in UTF-16 (saying so beats
    /// "not valid JSON at line 1, column 1").
    public static func unreadableEncoding(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.count >= 2 else { return nil }
        switch (b[0], b[1]) {
        case (0x1F, 0x8B): return "it is compressed with gzip: decompress it first (zcat FILE | usage-shell - -c show)"
        case (0x28, 0xB5) where b.count >= 4 && b[2] == 0x2F && b[3] == 0xFD:
            return "it is compressed with zstd: decompress it first (zstdcat FILE | usage-shell - -c show)"
        case (0xFF, 0xFE), (0xFE, 0xFF):
            return "it is UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8 FILE)"
        case (0x50, 0x4B): return "it is a zip archive: unpack it first"
        default: return nil
        }
    }
}

/// Small searches over bytes for format detection.
enum ByteText {
    /// 3 when the bytes begin with a UTF-8 byte order mark, else 0.
    static func skipBOM(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
    }

    static func skipWhitespace(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        return i
    }

    /// Up to `count` bytes from `start`.
    static func slice(_ b: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: b[start..<min(b.count, start + count)])
    }

    /// The bytes from `start` up to (not including) the first `byte`, or to the end.
    static func slice(_ b: UnsafeBufferPointer<UInt8>, from start: Int, upTo byte: UInt8) -> UnsafeBufferPointer<UInt8> {
        var end = start
        while end < b.count, b[end] != byte { end += 1 }
        return UnsafeBufferPointer(rebasing: b[start..<end])
    }

    static func hasPrefix(_ text: String, _ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let t = Array(text.utf8)
        return i + t.count <= b.count && t.indices.allSatisfy { b[i + $0] == t[$0] }
    }

    /// The offset of the first occurrence of `text`, or nil.
    static func find(_ text: String, in b: UnsafeBufferPointer<UInt8>) -> Int? {
        let t = Array(text.utf8)
        guard let first = t.first, b.count >= t.count else { return nil }
        var i = 0
        while i + t.count <= b.count {
            if b[i] == first, hasPrefix(text, b, at: i) { return i }
            i += 1
        }
        return nil
    }

    /// The offset of `"key"` followed (after white space) by `:`, or nil.
    static func findKey(_ key: String, in b: UnsafeBufferPointer<UInt8>) -> Int? {
        let quoted = "\"\(key)\""
        var from = 0
        while from < b.count, let hit = find(quoted, in: UnsafeBufferPointer(rebasing: b[from...])) {
            let at = from + hit
            let next = skipWhitespace(b, from: at + quoted.utf8.count)
            if next < b.count, b[next] == UInt8(ascii: ":") { return at }
            from = at + 1
        }
        return nil
    }
}
