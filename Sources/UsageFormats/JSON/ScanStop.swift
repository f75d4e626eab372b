// ScanStop.swift — how a scan stopped short (by byte offset, made into a line and column for the user), and how a segment of a stream begins and ends.
import UsageCore

/// Why a scan stopped short of a result, by byte offset (the caller turns offsets into lines
/// and columns: a segment's offsets are not the file's).
enum ScanStop: Error, Equatable {
    /// The bytes end inside a value, and more may follow (only when the scan is not final).
    case needMore
    /// Not JSON: what was expected at byte `offset`.
    case syntax(offset: Int, message: String)
    /// Not JSON, placed already: line (1-based, of the scanned bytes) and column (NDJSON lines).
    case located(line: Int, column: Int, message: String)
    /// Nothing but white space.
    case empty
    /// Valid JSON whose top level is not an array.
    case notAnArray(found: String)
    /// The load was cancelled.
    case cancelled

    /// The ingest error this stop is, with `b` the bytes scanned from their first line.
    func ingestError(in b: UnsafeBufferPointer<UInt8>) -> IngestError {
        switch self {
        case .needMore: return .syntax(line: 1, column: 1, message: "unexpected end of input")
        case .syntax(let offset, let message):
            let position = TextPosition.of(offset: min(offset, b.count), in: b)
            return .syntax(line: position.line, column: position.column, message: message)
        case .located(let line, let column, let message): return .syntax(line: line, column: column, message: message)
        case .empty: return .empty
        case .notAnArray(let found): return .notAnArray(found: found)
        case .cancelled: return .cancelled
        }
    }
}

/// Where a segment of a sessions array begins.
enum SegmentStart: Sendable {
    /// At the start of the input: a byte order mark, white space, `[`.
    case document
    /// At an element of the array (a guessed row boundary, proved by the segment before).
    case element
}

/// How the scan of one segment ended, when it did not fail.
enum SegmentEnd: Equatable, Sendable {
    /// At the start of an element (after `,` and white space): the next segment goes on from
    /// exactly here.
    case open
    /// A value runs past the segment's end. It begins at `resume`, after `newlines` line
    /// breaks of the segment, and must be scanned again with the bytes that follow.
    case short(resume: Int, newlines: Int)
    /// The array closed and the rest of the segment is white space (a final segment: the input ended).
    case closed
}

/// Line and column of a byte offset: lines split at LF, columns count Unicode scalars from 1.
enum TextPosition {
    static func of(offset: Int, in b: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var j = 0
        while j < offset {
            if b[j] == 0x0A {
                line += 1
                lineStart = j + 1
            }
            j += 1
        }
        var column = 1
        for k in lineStart..<offset where b[k] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }
}
