// RefRows.swift — rows in, facts out, by docs/DATA.md §1–2: names trimmed, `(unknown)` and `Other`; the reason a row is skipped and up to three examples; sessions in order of start, then end.
import UsageCore

/// Rows in, facts out, by docs/DATA.md §1–2 (names trimmed, `(unknown)` and `Other`; the first
/// reason a row fails; up to three examples a reason; sessions sorted by start, then end, ties
/// in the order given).
struct RefRows {
    private struct Row {
        var start: Int64
        var end: Int64
        var app: String
        var category: String
        var id: String?
        var offsets: (Int?, Int?)
        var running: Bool
    }

    private var rows: [Row] = []
    private var counts: [SkipReason: Int] = [:]
    private var examples: [SkipReason: [(String?, Int?)]] = [:]
    var repaired = 0
    var localRows = 0
    var zone = ""
    var identity = "byID"

    static func isWhite(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace }

    static func trimmed(_ s: String) -> String {
        var scalars = Array(s.unicodeScalars)
        while let f = scalars.first, isWhite(f) { scalars.removeFirst() }
        while let l = scalars.last, isWhite(l) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    static func app(_ name: String?) -> String {
        let t = trimmed(name ?? "")
        return t.isEmpty ? "(unknown)" : t
    }

    static func category(_ name: String?) -> String {
        let t = trimmed(name ?? "")
        return t.isEmpty || ["other", "others"].contains(t.lowercased()) ? "Other" : t
    }

    mutating func skip(_ reason: SkipReason, id: String?, line: Int?) {
        counts[reason, default: 0] += 1
        if examples[reason, default: []].count < 3 { examples[reason, default: []].append((id, line)) }
    }

    /// A session whose instants are known: kept when it ends after it starts.
    mutating func add(
        start: Int64, end: Int64, app: String?, category: String?, id: String?, line: Int?, offsets: (Int?, Int?) = (nil, nil),
        running: Bool = false
    ) {
        guard end > start else { return skip(.endNotAfterStart, id: id, line: line) }
        rows.append(Row(start: start, end: end, app: Self.app(app), category: Self.category(category), id: id, offsets: offsets, running: running))
    }

    var facts: RefFacts {
        var f = RefFacts()
        let order = rows.indices.sorted { a, b in
            (rows[a].start, rows[a].end, a) < (rows[b].start, rows[b].end, b)
        }
        f.sessions = order.map { k in
            let r = rows[k]
            return RefFacts.line(start: r.start, end: r.end, app: r.app, category: r.category, id: r.id, offsets: r.offsets, running: r.running)
        }
        f.skipped = SkipReason.allCases.map { RefFacts.skipLine($0, count: counts[$0] ?? 0, examples: examples[$0] ?? []) }
        f.repaired = repaired
        f.localTimes = localRows > 0 ? "\(localRows) rows in \(zone)" : "nil"
        f.identity = identity
        return f
    }

    /// The facts of an error the reference found.
    static func failure(_ kind: String) -> RefFacts {
        var f = RefFacts()
        f.error = kind
        return f
    }

    static func syntax(_ e: RefJSONError, in b: [UInt8]) -> RefFacts {
        let (line, column) = RefPosition.of(e.offset, in: b)
        return failure("syntax at \(line):\(column)")
    }
}
