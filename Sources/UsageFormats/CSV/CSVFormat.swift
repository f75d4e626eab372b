// CSVFormat.swift — sessions read from CSV: the header's columns placed by meaning or by the user's mapping (CSVHeader), then the rows read byte by byte in segments (UsageCore's CSVSessions).
import UsageCore

/// CSV sessions (comma-separated; semicolons or tabs when the header has no comma): a header
/// row, then one row per session. The header's columns are placed by `CSVHeader` (the names
/// other tools write, or the user's `--columns`); a session is a start and an end, or a start
/// and a duration (`CellDuration`); times are read by `CellTimestamp`, those without an
/// offset in `options.localZone` (noted once for the load message). An empty cell is a null
/// field; blank lines are ignored; a text cell we guarded against spreadsheet formulas
/// (`'=…`) is read back without its guard (`SpreadsheetCell.unguarded`). Records are split as
/// RFC 4180 has them (quotes, `""`, line breaks inside quotes; LF, CR or CRLF line ends).
enum CSVFormat {
    static let formatName = "CSV"

    /// The separator of a text's first line: a comma, or the semicolon or tab that spreadsheets
    /// in many locales write, when that line has one of those and no comma.
    static func delimiter(of text: String) -> Unicode.Scalar {
        let header = text.prefix { $0 != "\n" && $0 != "\r\n" }
        return Unicode.Scalar(CSVSessions.delimiter(ofLine: String(header)))
    }

    /// Reads a CSV stream: its head from the first bytes (read further when the header is
    /// long), then its rows, chunk by chunk.
    static func decode<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, options: ReadOptions, cancellation: CancellationToken?,
        expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> Dataset {
        var want = max(reader.lookahead.count, 1 << 16)
        var found = CSVSessions.head(reader.lookahead, final: reader.isComplete)
        while found == nil {
            want *= 2
            do {
                try reader.prefetch(atLeast: want)
            } catch {
                throw .read(error)
            }
            found = CSVSessions.head(reader.lookahead, final: reader.isComplete)
        }
        let layout: CSVLayout
        do throws(IngestError) {
            layout = try Self.layout(found!, options: options)
        } catch {
            throw .ingest(error)
        }
        return try CSVSessions.decode(reader, source: source, layout: layout, cancellation: cancellation, expectedRows: expectedRows)
    }

    /// Decodes a CSV in memory.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, options: ReadOptions = ReadOptions(),
        cancellation: CancellationToken?, chunking: Chunking = .standard
    ) throws(IngestError) -> Dataset {
        let chunk = chunking.readBytes < bytes.count ? chunking.readBytes : nil
        do {
            return try decode(
                ChunkReader(MemorySource(bytes, chunk: chunk), chunking: chunking), source: source, options: options,
                cancellation: cancellation)
        } catch {
            switch error {
            case .ingest(let e): throw e
            }
        }
    }

    /// Where the columns are, from the head.
    static func layout(_ head: Result<CSVHead, CSVSessions.NoHeader>, options: ReadOptions) throws(IngestError) -> CSVLayout {
        guard case .success(let head) = head else {
            throw .malformed(format: formatName, problem: "a header row was expected")
        }
        switch CSVHeader.place(head.header, mapping: options.columns) {
        case .success(let c):
            return CSVLayout(
                delimiter: head.delimiter, id: c.id, app: c.app, category: c.category, start: c.start, end: c.end,
                duration: c.duration, zone: options.localZone, bodyStart: head.bodyStart, headerLine: head.headerLine)
        case .failure(let problem):
            throw .malformed(format: formatName, problem: problem.description)
        }
    }
}
