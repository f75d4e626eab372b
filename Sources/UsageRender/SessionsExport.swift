// SessionsExport.swift — what `export` writes, as bytes: the loaded sessions in the canonical sessions JSON, NDJSON or CSV (byte by byte, on two threads, in pieces), and the day's app list as CSV or JSON.
import Dispatch
import UsageCore

/// The formats `export` writes, chosen by the file's extension.
public enum ExportFormat: String, CaseIterable, Sendable {
    case json
    case ndjson
    case csv

    /// The format a path's extension names (`.json`; `.ndjson` or `.jsonl`; `.csv`), case aside.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        default: return nil
        }
    }
}

/// Encodes datasets and reports for `export`. Pure: the caller writes the bytes.
public enum SessionsExport {
    /// The five session fields, in the order written.
    static let fields = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    /// Every session in (start, end) order, so that loading the file gives the same dataset:
    /// a JSON array with one session per line, NDJSON, or CSV with a header. Times are UTC
    /// (`2026-02-23T09:00:00Z`, with microseconds when they are not zero); names are the loaded
    /// ones (normalised, category rules applied). In CSV, text cells a spreadsheet would run
    /// as formulas are guarded with `'` unless `cells` says otherwise (`--raw-csv`); our reader
    /// takes the guard off again.
    public static func sessions(_ d: some SessionHistory, format: ExportFormat, cells: CSVCellPolicy = CSVCellPolicy()) -> [UInt8] {
        var out: [UInt8] = []
        write(d, format: format, cells: cells) { out.append(contentsOf: $0) }
        return out
    }

    /// What `sessions` returns, handed to `sink` in pieces of about `chunk` bytes as it is made,
    /// so that a file is written without the whole text in memory. Written byte by byte,
    /// without a `String` per row: each name is encoded once, ids are copied as they are unless
    /// they need escaping, quoting or a formula guard, and a timestamp's date part is made once
    /// a day. The rows are made on two threads, a piece each, and handed over in order while
    /// the next pieces are made.
    public static func write(
        _ d: some SessionHistory, format: ExportFormat, cells: CSVCellPolicy = CSVCellPolicy(), chunk: Int = 1 << 20,
        to sink: (UnsafeRawBufferPointer) -> Void
    ) {
        let all = d.all
        let rows = RowText(format: format, cells: cells, apps: d.apps, categories: d.categories)
        var edge = ByteWriter(capacity: 256)
        switch format {
        case .json: edge.append("[\n")
        case .ndjson: break
        case .csv: edge.append(text: fields.joined(separator: ",") + "\r\n")
        }
        edge.drain(into: sink)
        // Every row begins with its separator; the first row's is dropped.
        let separator = format == .json ? 2 : format == .ndjson ? 1 : 0
        var wroteRow = false
        let pieces = all.pieces(of: Swift.max(1, chunk / 160))
        // Two sets of two buffers: while two threads make a batch of pieces into one set, this
        // thread hands the batch before, in the other set, to `sink` (the file's writes overlap
        // the making).
        let sets = (0..<2).map { _ in [PieceBuffer(capacity: chunk + 4096), PieceBuffer(capacity: chunk + 4096)] }
        let workers = sets[0].count
        var handOver: (set: Int, count: Int)?
        func drain(_ set: Int, _ count: Int) {
            for k in 0..<count where sets[set][k].out.count > 0 {
                sets[set][k].out.drain(into: sink, skipping: wroteRow ? 0 : separator)
                wroteRow = true
            }
        }
        all.withIDs { ids in
            var next = 0
            var batch = 0
            while next < pieces.count {
                let count = Swift.min(workers, pieces.count - next)
                let (first, set) = (next, batch % 2)
                if count == 1, handOver == nil {
                    sets[set][0].write(pieces[first], rows: rows, ids: ids)
                } else {
                    let made = DispatchGroup()
                    for k in 0..<count {
                        let (buffer, piece) = (sets[set][k], pieces[first + k])
                        DispatchQueue.global(qos: .userInitiated).async(group: made) {
                            buffer.write(piece, rows: rows, ids: ids)
                        }
                    }
                    if let (previous, n) = handOver { drain(previous, n) }
                    handOver = nil
                    made.wait()
                }
                if let (previous, n) = handOver { drain(previous, n) }
                handOver = (set, count)
                next += count
                batch += 1
            }
            if let (previous, n) = handOver { drain(previous, n) }
        }
        switch format {
        case .json: edge.append(wroteRow ? "\n]\n" : "]\n")
        case .ndjson: if wroteRow { edge.append("\n") }
        case .csv: break
        }
        edge.drain(into: sink)
    }

    /// How each row is written, shared by the threads: each name encoded once, with the
    /// fixed text around it (`,"app_name":"Safari","category":`), so a row is a few copies.
    struct RowText: Sendable {
        let format: ExportFormat
        let cells: CSVCellPolicy
        /// Per app: what follows the id up to the category.
        let apps: ByteArena
        /// Per category: what follows the app up to the start's digits.
        let categories: ByteArena

        init(format: ExportFormat, cells: CSVCellPolicy, apps: [String], categories: [String]) {
            self.format = format
            self.cells = cells
            if format == .csv {
                self.apps = ByteArena(apps.map { [UInt8(ascii: ",")] + SessionsExport.csvBytes(cells.text($0)) + [UInt8(ascii: ",")] })
                self.categories = ByteArena(categories.map { SessionsExport.csvBytes(cells.text($0)) + [UInt8(ascii: ",")] })
            } else {
                self.apps = ByteArena(apps.map { Array(",\"app_name\":".utf8) + SessionsExport.jsonBytes($0) + Array(",\"category\":".utf8) })
                self.categories = ByteArena(categories.map { SessionsExport.jsonBytes($0) + Array(",\"start_timestamp\":\"".utf8) })
            }
        }

        /// The window's sessions as rows, each after its separator (`,\n` in JSON, `\n` in NDJSON),
        /// in groups of `group`. Each group's ids are looked up first, in a loop of their own:
        /// they are scattered in memory (stored in load order, read in time order), and a
        /// tight loop has many lookups in flight at once where the row writing would wait for
        /// each; the group is small enough for what it brings in to stay in the cache.
        func write(_ window: SessionWindow, ids: SessionIDs, into buffer: PieceBuffer) {
            let group = PieceBuffer.group
            let found = buffer.ids
            let firstBytes = buffer.firstBytes
            for part in window.pieces(of: group) {
                // Where each id is (its place in the id columns, read at random), then its first
                // byte (its bytes, read at random): two loops of independent reads, so that many
                // are in flight at once, and the ids are in the cache when the rows are written.
                var n = 0
                for s in part {
                    found[n] = ids[s]
                    n += 1
                }
                for j in 0..<n {
                    if let id = found[j], let base = id.baseAddress, id.count > 0 { firstBytes[j] = base[0] }
                }
                apps.withPieces { apps in
                    categories.withPieces { categories in
                        write(
                            part, ids: UnsafeBufferPointer(start: found, count: n), apps: apps, categories: categories,
                            into: &buffer.out, dates: &buffer.dates)
                    }
                }
            }
        }

        private func write(
            _ window: SessionWindow, ids: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>?>, apps: ByteArena.Pieces,
            categories: ByteArena.Pieces, into out: inout ByteWriter, dates: inout DateText
        ) {
            // After the id (written with checks), a row is at most its two names, two dates
            // (40 bytes each) and 40 bytes of fixed text: room for that is made once.
            var j = 0
            if format == .csv {
                for s in window {
                    if let id = ids[j] { SessionsExport.appendCSV(id: id, cells: cells, to: &out) }
                    j += 1
                    let (app, category) = (apps[s.app], categories[s.category])
                    out.ensure(app.count + category.count + 120)
                    out.appendWords(app.baseAddress!, app.count)
                    out.appendWords(category.baseAddress!, category.count)
                    dates.append(s.start, to: &out)
                    out.appendWord(UInt64(UInt8(ascii: ",")), 1)
                    dates.append(s.end, to: &out)
                    out.appendWord(0x0A0D, 2)
                }
                return
            }
            let separator: StaticString = format == .json ? ",\n{\"session_id\":" : "\n{\"session_id\":"
            for s in window {
                out.append(separator)
                if let id = ids[j] { SessionsExport.appendJSON(id: id, to: &out) } else { out.append("null") }
                j += 1
                let (app, category) = (apps[s.app], categories[s.category])
                out.ensure(app.count + category.count + 120)
                out.appendWords(app.baseAddress!, app.count)
                out.appendWords(category.baseAddress!, category.count)
                dates.append(s.start, to: &out)
                out.appendUnchecked("\",\"end_timestamp\":\"")
                dates.append(s.end, to: &out)
                out.appendWord(0x7D22, 2)  // "}
            }
        }
    }

    /// One thread's buffer and date cache, kept from piece to piece.
    final class PieceBuffer: @unchecked Sendable {
        var out: ByteWriter
        var dates = DateText()
        /// Sessions whose ids are looked up together.
        static let group = 512
        /// A group's ids, and their first bytes (read only to bring the ids into the cache).
        let ids = UnsafeMutablePointer<UnsafeBufferPointer<UInt8>?>.allocate(capacity: group)
        let firstBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: group)

        init(capacity: Int) { out = ByteWriter(capacity: capacity) }

        deinit {
            ids.deallocate()
            firstBytes.deallocate()
        }

        func write(_ piece: SessionWindow, rows: RowText, ids: SessionIDs) {
            rows.write(piece, ids: ids, into: self)
        }
    }

    /// A JSON string's bytes (`JSONText`'s escaping).
    static func jsonBytes(_ s: String) -> [UInt8] {
        var text = ""
        JSONText.writeString(s, to: &text)
        return Array(text.utf8)
    }

    /// A CSV field's bytes (`CSVText`'s quoting).
    static func csvBytes(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        CSVText.append(s, to: &out)
        return out
    }

    /// Printable ASCII: what both writers copy as it is (with the exceptions each checks).
    @inline(__always) private static func isPlain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F }

    /// An id as a JSON string: printable ASCII without `"` or `\\` as it is, else `JSONText`'s way.
    @inline(__always) static func appendJSON(id: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
        for b in id where !isPlain(b) || b == 0x22 || b == 0x5C {
            return out.append(jsonBytes(String(decoding: id, as: UTF8.self)))
        }
        out.append(byte: UInt8(ascii: "\""))
        out.append(id)
        out.append(byte: UInt8(ascii: "\""))
    }

    /// An id as a CSV cell: printable ASCII without a comma or a quote, and not one a
    /// spreadsheet would take for a formula, as it is; else through `cells` and `CSVText`.
    @inline(__always) static func appendCSV(id: UnsafeBufferPointer<UInt8>, cells: CSVCellPolicy, to out: inout ByteWriter) {
        let guardable = cells.guardFormulas && id.first.map { $0 == UInt8(ascii: "'") || SpreadsheetCell.isTrigger($0) } == true
        guard guardable || id.contains(where: { !isPlain($0) || $0 == 0x2C || $0 == 0x22 }) else { return out.append(id) }
        out.append(csvBytes(cells.text(String(decoding: id, as: UTF8.self))))
    }

    /// The day's app list: CSV `rank,app,category,sessions,seconds,share` (as `apps` shows it;
    /// share of the day's total, 0–1 with 4 decimals), or the `apps` JSON document. Names are
    /// guarded against spreadsheet formulas as in `sessions`.
    public static func report(_ r: DayReport, format: ExportFormat, cells: CSVCellPolicy = CSVCellPolicy()) -> [UInt8] {
        switch format {
        case .csv:
            let rows = r.apps.enumerated().map { n, app in
                [
                    String(n + 1), cells.text(app.name), cells.text(app.category), String(app.sessions),
                    JSONText.seconds(app.micros), fixed(app.share),
                ]
            }
            return CSVText.bytes(header: ["rank", "app", "category", "sessions", "seconds", "share"], rows: rows)
        case .json, .ndjson:
            return Array((ReportJSON.apps(r, apps: r.apps).serialized + "\n").utf8)
        }
    }

    /// A share (0–1) with at most 4 decimals and never an exponent: `0.1838`, `0.0001`, `1`, `0`.
    static func fixed(_ share: Double) -> String {
        let tenThousandths = Int((share * 10_000).rounded())
        let whole = tenThousandths / 10_000
        var fraction = String(tenThousandths % 10_000).leftPad(4)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    /// `2026-02-23T09:00:00Z`, or `2026-02-23T09:00:00.250000Z` when the instant has microseconds.
    static func timestamp(_ t: Micros) -> String {
        let whole = TextFormat.localTimestamp(t, offsetSeconds: 0)
        let micros = t - t.floorDivided(by: 1_000_000) * 1_000_000
        guard micros != 0 else { return whole }
        return String(whole.dropLast()) + "." + String(micros).leftPad(6) + "Z"
    }
}

/// Byte strings back to back in one array (no array per string: reading one retains nothing).
struct ByteArena: Sendable {
    private let bytes: [UInt8]
    private let spans: [(start: Int, count: Int)]

    init(_ strings: [[UInt8]]) {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for s in strings {
            spans.append((bytes.count, s.count))
            bytes += s
        }
        // Room to read whole words past the last string (`ByteWriter.appendWords`).
        bytes += [UInt8](repeating: 0, count: 16)
        self.bytes = bytes
        self.spans = spans
    }

    /// The strings as pointers, valid during `body`; each may be read 8 bytes a step (past its
    /// end, within the arena).
    struct Pieces {
        let base: UnsafePointer<UInt8>?
        let spans: UnsafeBufferPointer<(start: Int, count: Int)>

        @inline(__always) subscript(k: Int32) -> UnsafeBufferPointer<UInt8> {
            let span = spans[Int(k)]
            return UnsafeBufferPointer(start: base.map { $0 + span.start }, count: span.count)
        }
    }

    func withPieces<R>(_ body: (Pieces) -> R) -> R {
        bytes.withUnsafeBufferPointer { b in spans.withUnsafeBufferPointer { body(Pieces(base: b.baseAddress, spans: $0)) } }
    }
}

/// A byte buffer written without bounds checks per byte, drained into a sink in pieces: it
/// is reserved once for a piece and grows only for a row longer than that. Not copyable: it
/// owns its memory, freed when it ends.
struct ByteWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(bytes.count) }
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always) mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text made at run time (a literal is a `StaticString`, appended without a `String`).
    mutating func append(text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always) mutating func append(byte: UInt8) {
        if count == capacity { grow(1) }
        storage[count] = byte
        count += 1
    }

    /// Makes room for `n` more bytes (and the slack word writes need): the unchecked appends
    /// below may then write that much.
    @inline(__always) mutating func ensure(_ n: Int) {
        if capacity - count < n + 8 { grow(n + 8) }
    }

    /// `n` bytes copied a word at a time: `source` must be readable for `n` rounded up to 8.
    @inline(__always) mutating func appendWords(_ source: UnsafeRawPointer, _ n: Int) {
        let target = UnsafeMutableRawPointer(storage + count)
        var k = 0
        while k < n {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
            k += 8
        }
        count += n
    }

    /// The first `n` bytes of a word (little-endian: its low bytes first).
    @inline(__always) mutating func appendWord(_ word: UInt64, _ n: Int) {
        UnsafeMutableRawPointer(storage + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count += n
    }

    @inline(__always) mutating func appendUnchecked(_ text: StaticString) {
        (storage + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// Hands what was written, less its first `skipping` bytes, to `sink` and starts again
    /// (the memory is kept).
    mutating func drain(into sink: (UnsafeRawBufferPointer) -> Void, skipping: Int = 0) {
        if count > skipping { sink(UnsafeRawBufferPointer(start: storage + skipping, count: count - skipping)) }
        count = 0
    }

    private mutating func grow(_ needed: Int) {
        let bigger = max(capacity * 2, count + needed)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        new.update(from: storage, count: count)
        storage.deallocate()
        storage = new
        capacity = bigger
    }
}

/// UTC timestamps as bytes, `2026-02-23T09:00:00Z` (`.250000` before the `Z` when there are
/// microseconds), as `SessionsExport.timestamp` writes them: the date part made once per day,
/// the clock time as one word. Writes unchecked: the caller made room (`ByteWriter.ensure`,
/// 40 bytes a timestamp).
struct DateText {
    /// The day cached: its first instant and the next day's (empty before the first).
    private var dayStart: Micros = 1
    private var dayEnd: Micros = 0
    /// `YYYY-MM-DDT` (longer for years past 9999), in place: no array to retain.
    private var date: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var dateCount = 0

    @inline(__always) mutating func append(_ t: Micros, to out: inout ByteWriter) {
        if t < dayStart || t >= dayEnd { setDay(of: t) }
        let inDay = t - dayStart
        let seconds = Int(inDay / 1_000_000)
        let micros = Int(inDay - Int64(seconds) * 1_000_000)
        let count = dateCount
        withUnsafeBytes(of: &date) { out.appendWords($0.baseAddress!, count) }
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        var clock = UInt64(0x30 + h / 10) | UInt64(0x30 + h % 10) << 8 | 0x3A << 16
        clock |= UInt64(0x30 + m / 10) << 24 | UInt64(0x30 + m % 10) << 32 | 0x3A << 40
        clock |= UInt64(0x30 + s / 10) << 48 | UInt64(0x30 + s % 10) << 56
        out.appendWord(clock, 8)
        if micros != 0 {
            var fraction: UInt64 = 0x2E  // "."
            var rest = micros
            var shift: UInt64 = 48
            while shift >= 8 {
                fraction |= UInt64(0x30 + rest % 10) << shift
                rest /= 10
                shift -= 8
            }
            out.appendWord(fraction, 7)
        }
        out.appendWord(UInt64(UInt8(ascii: "Z")), 1)
    }

    private mutating func setDay(of t: Micros) {
        let days = t.floorDivided(by: 1_000_000).floorDivided(by: 86_400)
        dayStart = days * 86_400_000_000
        dayEnd = dayStart + 86_400_000_000
        let text = Array("\(LocalDate(daysSinceEpoch: Int(days)))T".utf8.prefix(24))
        dateCount = text.count
        date = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &date) { $0.copyBytes(from: text) }
    }
}

/// RFC 4180 CSV text: a field is quoted when it holds a comma, a quote, CR or LF — decided by
/// Unicode scalar, since a comma followed by a combining mark is one `Character` that `contains(",")`
/// misses (CSV.swift's writer does, and split such rows); quotes inside are doubled; CRLF ends
/// every line.
enum CSVText {
    static func bytes(header: [String], rows: [[String]]) -> [UInt8] {
        var out: [UInt8] = []
        for row in [header] + rows {
            for (k, field) in row.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                append(field, to: &out)
            }
            out += [0x0D, 0x0A]
        }
        return out
    }

    static func append(_ field: String, to out: inout [UInt8]) {
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0D, 0x0A]
        // Those four are ASCII, so looking at UTF-8 bytes is looking at scalars.
        guard field.utf8.contains(where: special.contains) else { return out += field.utf8 }
        out.append(UInt8(ascii: "\""))
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}
