// CSVScan.swift — CSV sessions read byte by byte, in segments on every core: RFC 4180 records split as CSV.swift split them (the reader this one replaced), cells read by meaning (times by `CellTimestamp`, durations by `CellDuration`), names interned from their bytes.
import UsageCore

/// Where a CSV's columns are and how its times are read: what the reader needs once the
/// header is placed (`CSVHeader.place` in UsageData, by meaning or the user's mapping).
public struct CSVLayout: Sendable {
    /// The separator: `,`, or the `;` or tab of spreadsheets in many locales.
    public var delimiter: UInt8
    public var id: Int?
    public var app: Int?
    public var category: Int?
    public var start: Int?
    public var end: Int?
    public var duration: Int?
    /// The zone times without an offset are read in (nil: they cannot be placed).
    public var zone: Zone?
    /// Where the first row begins (after a byte order mark, blank lines and the header).
    public var bodyStart: Int
    /// The line the header ends on: the first row is on the next.
    public var headerLine: Int

    public init(
        delimiter: UInt8, id: Int?, app: Int?, category: Int?, start: Int?, end: Int?, duration: Int?, zone: Zone?,
        bodyStart: Int, headerLine: Int
    ) {
        (self.delimiter, self.id, self.app, self.category, self.start, self.end, self.duration) =
            (delimiter, id, app, category, start, end, duration)
        (self.zone, self.bodyStart, self.headerLine) = (zone, bodyStart, headerLine)
    }
}

/// What comes before a CSV's rows.
public struct CSVHead: Sendable, Equatable {
    public var delimiter: UInt8
    /// The header's cells as text, each invalid UTF-8 sequence as `CSVSessions.invalidMarker`
    /// (as the reader this one replaced had them).
    public var header: [String]
    /// Where the first row begins.
    public var bodyStart: Int
    /// The line the header ends on.
    public var headerLine: Int
}

/// CSV sessions: a header row, then one row per session.
///
/// Records are split exactly as CSV.swift split them: fields separated by the delimiter,
/// records ended by LF, CR or CRLF (or the end); a field that begins with `"` is quoted, `""`
/// inside it is a quote, and a quote followed by anything but the delimiter, a line end or
/// another quote stays a quote while that next character is dropped (CSV.swift's way with a
/// stray quote); a quoted field the input ends inside ends there. A row of one blank cell is a
/// blank line and skipped. Cells are read as `CSVFormat` read them (see there): empty is null,
/// the formula guard `'` taken off, invalid UTF-8 repaired (each cell that needed it counted).
public enum CSVSessions {
    /// What invalid UTF-8 decodes to in header cells: a noncharacter no data holds.
    public static let invalidMarker: Unicode.Scalar = "\u{10FFFE}"

    /// The head of a CSV in `b` (the input's first bytes; `final` when they are all of it):
    /// nil when more bytes are needed to know it, `.failure` when there is no header row.
    public static func head(_ b: UnsafeBufferPointer<UInt8>, final: Bool) -> Result<CSVHead, NoHeader>? {
        // Blank lines before the header are skipped (format detection skipped them too).
        var first = b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
        var blankLines = 0
        while true {
            var next = first
            while next < b.count, b[next] == 0x20 || b[next] == 0x0A || b[next] == 0x0D || b[next] == 0x09 { next += 1 }
            if next == b.count, !final { return nil }
            guard let newline = (first..<next).last(where: { b[$0] == 0x0A }) else { break }
            blankLines += (first...newline).filter { b[$0] == 0x0A }.count
            first = newline + 1
        }
        // The delimiter is told from the first line (as characters: a comma with a combining
        // mark on it is no comma).
        var lineEnd = first
        while lineEnd < b.count, b[lineEnd] != 0x0A { lineEnd += 1 }
        if lineEnd == b.count, !final { return nil }
        let delimiter = Self.delimiter(ofLine: String(decoding: UnsafeBufferPointer(rebasing: b[first..<lineEnd]), as: UTF8.self))
        var record = CSVRecord()
        let next: Int?
        do {
            next = try record.parse(b, at: first, final: final, delimiter: delimiter)
        } catch {
            return nil
        }
        guard let next else { return .failure(NoHeader()) }
        let header = record.fields.indices.map { k in record.withField(k, in: b) { markingInvalid($0) } }
        let headerNewlines = record.fields.indices.reduce(0) { n, k in n + record.withField(k, in: b, Self.newlines) }
        return .success(CSVHead(delimiter: delimiter, header: header, bodyStart: next, headerLine: 1 + blankLines + headerNewlines))
    }

    /// There is no header row (nothing but white space).
    public struct NoHeader: Error {}

    /// The separator a first line says: a comma, else a semicolon, else a tab, else a comma.
    public static func delimiter(ofLine line: String) -> UInt8 {
        if line.contains(",") { return UInt8(ascii: ",") }
        if line.contains(";") { return UInt8(ascii: ";") }
        if line.contains("\t") { return 0x09 }
        return UInt8(ascii: ",")
    }

    /// Reads a stream to its end (the head as `layout` says it is) and decodes its rows.
    public static func decode<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, layout: CSVLayout, cancellation: CancellationToken? = nil,
        expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> Dataset {
        let scanned = try SegmentedScan.run(
            reader, format: CSVSegments(layout: layout), cancellation: cancellation, expectedRows: expectedRows)
        let zone = layout.zone?.identifier ?? ""
        return scanned.dataset(source: source)
            .noting(localTimes: scanned.localTimeRows > 0 ? LocalTimes(rows: scanned.localTimeRows, zone: zone) : nil)
    }

    /// Decodes bytes in memory.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, layout: CSVLayout, cancellation: CancellationToken? = nil,
        chunking: Chunking = .standard
    ) throws(IngestError) -> Dataset {
        let chunk = chunking.readBytes < bytes.count ? chunking.readBytes : nil
        do {
            return try decode(
                ChunkReader(MemorySource(bytes, chunk: chunk), chunking: chunking), source: source, layout: layout,
                cancellation: cancellation)
        } catch {
            switch error {
            case .ingest(let e): throw e
            }
        }
    }

    /// The text of a cell with each invalid UTF-8 sequence as `invalidMarker`.
    static func markingInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .error: scalars.append(invalidMarker)
            case .emptyInput: return String(scalars)
            }
        }
    }

    /// Line breaks in a cell's text (CRLF counts once), so rows keep their lines.
    static func newlines(_ field: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        var previousCR = false
        for byte in field {
            if byte == 0x0A {
                if !previousCR { n += 1 }
            } else if byte == 0x0D {
                n += 1
            }
            previousCR = byte == 0x0D
        }
        return n
    }
}

/// One record's fields: ranges of the input, or of the record's scratch bytes when a quoted
/// field had to be rewritten (`""`, a stray quote).
struct CSVRecord {
    struct Field {
        var start: Int
        var count: Int
        var inScratch: Bool
    }

    private(set) var fields: [Field] = []
    private var scratch: [UInt8] = []

    /// Calls `body` with field `k`'s bytes.
    @inline(__always) func withField<R>(_ k: Int, in b: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let f = fields[k]
        if !f.inScratch { return body(UnsafeBufferPointer(rebasing: b[f.start..<(f.start + f.count)])) }
        return scratch.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[f.start..<(f.start + f.count)])) }
    }

    /// Parses the record at `start`: returns where the next one begins, or nil when the input
    /// ends there (no record). Throws `.needMore` when the bytes end inside it and more may follow.
    mutating func parse(_ b: UnsafeBufferPointer<UInt8>, at start: Int, final: Bool, delimiter: UInt8) throws(ScanStop) -> Int? {
        fields.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        var i = start
        if i == b.count {
            if final { return nil }
            throw .needMore
        }
        while true {
            // At the start of a field.
            if i == b.count {
                guard final else { throw .needMore }
                fields.append(Field(start: i, count: 0, inScratch: false))
                return i
            }
            if b[i] == UInt8(ascii: "\"") {
                i += 1
                let contentStart = i
                var rewritten = false
                while true {
                    if i == b.count {
                        guard final else { throw .needMore }
                        closeQuoted(contentStart, i, rewritten: rewritten)
                        return i
                    }
                    let c = b[i]
                    guard c == UInt8(ascii: "\"") else {
                        if rewritten { scratch.append(c) }
                        i += 1
                        continue
                    }
                    if i + 1 == b.count {
                        guard final else { throw .needMore }
                        closeQuoted(contentStart, i, rewritten: rewritten)
                        return i + 1
                    }
                    let next = b[i + 1]
                    if next == 0x0D {
                        if i + 2 == b.count, !final { throw .needMore }
                        closeQuoted(contentStart, i, rewritten: rewritten)
                        return i + 2 < b.count && b[i + 2] == 0x0A ? i + 3 : i + 2
                    }
                    if next == 0x0A {
                        closeQuoted(contentStart, i, rewritten: rewritten)
                        return i + 2
                    }
                    if next == delimiter {
                        closeQuoted(contentStart, i, rewritten: rewritten)
                        i += 2
                        break
                    }
                    if !rewritten {
                        rewritten = true
                        scratchStart = scratch.count
                        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: b[contentStart..<i]))
                    }
                    scratch.append(UInt8(ascii: "\""))
                    if next == UInt8(ascii: "\"") {
                        i += 2
                    } else {
                        // A stray quote: it stays, and the character after it is dropped.
                        guard let unit = Self.unitLength(b, at: i + 1, final: final) else { throw .needMore }
                        i += 1 + unit
                    }
                }
                continue
            }
            // Unquoted: to the delimiter, a line end, or the end.
            let fieldStart = i
            i = Self.nextSpecial(b, from: i, delimiter: delimiter)
            fields.append(Field(start: fieldStart, count: i - fieldStart, inScratch: false))
            if i == b.count {
                guard final else { throw .needMore }
                return i
            }
            let c = b[i]
            if c == delimiter {
                i += 1
                continue
            }
            if c == 0x0A { return i + 1 }
            // CR, and an LF after it.
            if i + 1 == b.count, !final { throw .needMore }
            return i + 1 < b.count && b[i + 1] == 0x0A ? i + 2 : i + 1
        }
    }

    /// Where a rewritten quoted field's bytes begin in `scratch`.
    private var scratchStart = 0

    private mutating func closeQuoted(_ contentStart: Int, _ end: Int, rewritten: Bool) {
        if rewritten {
            fields.append(Field(start: scratchStart, count: scratch.count - scratchStart, inScratch: true))
        } else {
            fields.append(Field(start: contentStart, count: end - contentStart, inScratch: false))
        }
    }

    /// The first delimiter, CR or LF at or after `from` (or the end): 8 bytes a step.
    @inline(__always) static func nextSpecial(_ b: UnsafeBufferPointer<UInt8>, from: Int, delimiter: UInt8) -> Int {
        var i = from
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            let d = UInt64(delimiter) &* 0x0101_0101_0101_0101
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while i + 8 <= b.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let x = w ^ d
                let cr = w ^ 0x0D0D_0D0D_0D0D_0D0D
                let lf = w ^ 0x0A0A_0A0A_0A0A_0A0A
                if ((x &- ones) & ~x | (cr &- ones) & ~cr | (lf &- ones) & ~lf) & highs != 0 { break }
                i += 8
            }
        }
        while i < b.count {
            let c = b[i]
            if c == delimiter || c == 0x0A || c == 0x0D { return i }
            i += 1
        }
        return i
    }

    /// The length of the character (or invalid UTF-8 sequence, as the UTF-8 decoder cuts it)
    /// at `i`; nil when it may go on past the bytes.
    static func unitLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int, final: Bool) -> Int? {
        if b[i] < 0x80 { return 1 }
        if !final, b.count - i < 4 {
            // The sequence may be cut by the end: decide only once it cannot be.
            var k = i + 1
            while k < b.count, b[k] & 0xC0 == 0x80 { k += 1 }
            if k == b.count { return nil }
        }
        var iterator = UnsafeBufferPointer(rebasing: b[i..<min(b.count, i + 4)]).makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        switch parser.parseScalar(from: &iterator) {
        case .valid(let scalar): return scalar.count
        case .error(let length): return length
        case .emptyInput: return 1
        }
    }
}

/// CSV rows as segments: a segment ends after a line break. A break inside a quoted field is
/// a wrong guess, never confirmed: the segment before then ends inside a record, and the two
/// are read as one. Lines are the reader's own: one per record and one per line break inside
/// its cells (so a file of CR line ends counts its rows).
struct CSVSegments: SegmentFormat {
    let layout: CSVLayout

    func boundary(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        LineSegments().boundary(in: b, from: from)
    }

    func scan(
        _ b: UnsafeBufferPointer<UInt8>, from start: SegmentStart, final: Bool, into builder: inout DatasetBuilder,
        cancellation: CancellationToken?
    ) throws(ScanStop) -> (end: SegmentEnd, newlines: Int) {
        var i = 0
        var line = 0
        if start == .document {
            if b.count < layout.bodyStart {
                guard final else { return (.short(resume: 0, newlines: 0), 0) }
                return (.closed, 0)
            }
            i = layout.bodyStart
            line = layout.headerLine
        }
        var record = CSVRecord()
        var rows = CSVRowReader(layout: layout)
        var count = 0
        while true {
            let recordStart = i
            let recordLine = line
            let next: Int?
            do {
                next = try record.parse(b, at: i, final: final, delimiter: layout.delimiter)
            } catch {
                return (.short(resume: recordStart, newlines: recordLine), recordLine)
            }
            guard let next else { return (final ? .closed : .open, line) }
            line += 1
            let rowLine = line
            for k in record.fields.indices { line += record.withField(k, in: b, CSVSessions.newlines) }
            rows.add(record, in: b, line: rowLine, to: &builder)
            i = next
            count += 1
            if count & 0xFFF == 0, cancellation?.isCancelled == true { throw .cancelled }
            if i == b.count, !final { return (.open, line) }
        }
    }
}

/// One record as a session, or a skipped row, by `CSVFormat`'s rules: a missing time, then a
/// bad one, then an end not after the start.
struct CSVRowReader {
    let layout: CSVLayout
    private var dates = RFC3339.DateCache()
    /// An unguarded copy of a cell, when its guard is taken off.
    private var idCopy: [UInt8] = []

    init(layout: CSVLayout) {
        self.layout = layout
    }

    mutating func add(_ record: CSVRecord, in b: UnsafeBufferPointer<UInt8>, line: Int, to builder: inout DatasetBuilder) {
        let fields = record.fields
        if fields.count == 1, record.withField(0, in: b, Self.isBlank) { return }
        for k in fields.indices where record.withField(k, in: b, { !Self.isASCII($0) && !DatasetBuilder.isValidUTF8($0) }) {
            builder.repairedStrings += 1
        }
        func cell<R>(_ k: Int?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
            guard let k, k < fields.count, fields[k].count > 0 else { return body(nil) }
            return record.withField(k, in: b) { body($0) }
        }
        cell(layout.id) { idCell in
            let id = idCell.map(Self.unguarded)
            let hasStart = cell(layout.start) { $0 != nil }
            let hasEnd = cell(layout.end) { $0 != nil }
            let hasDuration = !hasEnd && cell(layout.duration) { $0 != nil }
            guard hasStart, hasEnd || hasDuration else {
                return builder.skip(.missingTimestamp, id: id.map { String(decoding: $0, as: UTF8.self) }, line: line)
            }
            let start = cell(layout.start) { read($0!) }
            let end: CellTimestamp.Reading
            if hasEnd {
                end = cell(layout.end) { read($0!) }
            } else if let s = start.micros, let length = cell(layout.duration, { Self.duration($0!) }) {
                end = .instant(s + length)
            } else {
                end = .invalid
            }
            guard let s = start.micros, let e = end.micros else {
                return builder.skip(.badTimestamp, id: id.map { String(decoding: $0, as: UTF8.self) }, line: line)
            }
            if e > s, layout.zone != nil, start != .instant(s) || end != .instant(e) { builder.localTimeRows += 1 }
            cell(layout.app) { app in
                cell(layout.category) { category in
                    builder.addSession(
                        start: s, end: e, app: app.map { FieldValue(kind: .string, bytes: Self.unguarded($0)) } ?? FieldValue(kind: .null),
                        category: category.map { FieldValue(kind: .string, bytes: Self.unguarded($0)) } ?? FieldValue(kind: .null),
                        idBytes: id, line: line)
                }
            }
        }
    }

    /// A time cell: RFC 3339 from its bytes (the usual case), else `CellTimestamp`'s other forms.
    private mutating func read(_ cell: UnsafeBufferPointer<UInt8>) -> CellTimestamp.Reading {
        if let t = RFC3339.parse(cell, cache: &dates) { return .instant(t) }
        return CellTimestamp.read(String(decoding: cell, as: UTF8.self), zone: layout.zone)
    }

    /// A duration cell: whole seconds from its digits (the usual case), else `CellDuration`'s forms.
    private static func duration(_ cell: UnsafeBufferPointer<UInt8>) -> Micros? {
        if cell.count <= 12, cell.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            var n: Micros = 0
            for c in cell { n = n * 10 + Micros(c - 0x30) }
            let micros = n * 1_000_000
            return micros <= CellDuration.maxMicros ? micros : nil
        }
        return CellDuration.micros(String(decoding: cell, as: UTF8.self))
    }

    /// The cell without the spreadsheet guard (`SpreadsheetCell.unguarded`, on bytes).
    @inline(__always) static func unguarded(_ cell: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard cell.first == UInt8(ascii: "'") else { return cell }
        let rest = UnsafeBufferPointer(rebasing: cell[1...])
        guard let first = rest.first(where: { $0 != UInt8(ascii: "'") }), SpreadsheetCell.isTrigger(first) else { return cell }
        return rest
    }

    /// A cell of white space only (an empty one included): the row is a blank line.
    static func isBlank(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        if cell.allSatisfy({ $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }) { return true }
        if isASCII(cell) { return false }
        return CSVSessions.markingInvalid(cell).allSatisfy(\.isWhitespace)
    }

    @inline(__always) static func isASCII(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in cell where c >= 0x80 { return false }
        return true
    }
}
