// JSONScanner+Arrays.swift — a top-level array scanned element by element (the sessions JSON, Timewarrior): a whole input, or one segment of a stream that ends open, short or closed.
import UsageCore

extension JSONScanner {

    /// Scans a whole input: `[`, the rows, `]`, the end.
    mutating func scanSessions<Sink: RowSink>(
        into builder: inout Sink, cancellation: CancellationToken?
    ) throws(IngestError) {
        do throws(ScanStop) {
            _ = try scanSegment(into: &builder, from: .document, cancellation: cancellation)
        } catch {
            throw error.ingestError(in: bytes)
        }
    }

    /// Scans the bytes as a segment of a sessions array beginning at `start`: the rows it holds
    /// whole go to `builder`. Throws the first error in the segment; when the scan is not final,
    /// a value cut by the end is `.short`, not an error.
    mutating func scanSegment<Sink: RowSink>(
        into builder: inout Sink, from start: SegmentStart, cancellation: CancellationToken?
    ) throws(ScanStop) -> SegmentEnd {
        var rows = SessionRowReader<Sink>()
        return try scanElements(into: &builder, reader: &rows, from: start, cancellation: cancellation)
    }

    /// Scans the bytes as a segment of a top-level array beginning at `start`, each element
    /// read by `reader` and handed to `sink` once its separator is seen. With `countRepairs`,
    /// the strings counted are those of the elements handed over (a `.short` end takes back
    /// the cut element's).
    mutating func scanElements<Reader: ArrayElementReader>(
        into sink: inout Reader.Sink, reader: inout Reader, from start: SegmentStart, cancellation: CancellationToken?
    ) throws(ScanStop) -> SegmentEnd {
        offset = 0
        newlines = 0
        repairedStrings = 0
        if start == .document {
            do throws(ScanStop) {
                guard try scanArrayStart() else { return .closed }
            } catch .needMore {
                return .short(resume: 0, newlines: 0)
            }
        }
        var rows = 0
        while true {
            let rowStart = offset
            let rowNewlines = newlines
            let rowRepaired = repairedStrings
            if rowStart == bytes.count, !isFinal { return .open }
            let separator: UInt8
            do throws(ScanStop) {
                try reader.read(&self)
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input: expected ',' or ']'") }
                separator = bytes[offset]
                guard separator == UInt8(ascii: ",") || separator == UInt8(ascii: "]") else {
                    throw error("expected ',' or ']' after an array element")
                }
            } catch .needMore {
                repairedStrings = rowRepaired
                return .short(resume: rowStart, newlines: rowNewlines)
            }
            reader.commit(into: &sink, offset: rowStart, line: rowNewlines + 1)
            offset += 1
            if separator == UInt8(ascii: "]") {
                try expectEnd()
                return .closed
            }
            skipWhitespace()
            rows += 1
            if rows & 0xFFF == 0, cancellation?.isCancelled == true { throw .cancelled }
        }
    }

    /// Scans up to the first element (or the end of an empty array, which also checks the end of
    /// input). Returns whether there are elements to scan.
    mutating func scanArrayStart() throws(ScanStop) -> Bool {
        if bytes.count < 3, !isFinal { throw .needMore }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
        skipWhitespace()
        guard offset < bytes.count else { throw isFinal ? .empty : .needMore }
        if bytes[offset] != UInt8(ascii: "[") {
            // A value that is not an array is an error whatever follows: read it all first, so
            // that a syntax error inside it is the one reported, as one scan would.
            guard isFinal else { throw .needMore }
            let found = describeValueStart(bytes[offset])
            try skipValue()
            try expectEnd()
            throw .notAnArray(found: found)
        }
        offset += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            try expectEnd()
            return false
        }
        return true
    }
}
