// RefFacts.swift — what a load gave, as the reference readers and the readers under test are compared: sessions with their names normalised by docs/DATA.md §2, skipped rows, repaired strings, local times, identity, or the error; the references build it row by row (`RefRows`) without the program's dataset builder.
import UsageCore
@testable import UsageFormats

/// One load, comparable: equal exactly when two readers agree.
struct RefFacts: Equatable, CustomStringConvertible {
    var sessions: [String] = []
    var skipped: [String] = []
    var repaired = 0
    var localTimes: String = "nil"
    var identity = "byID"
    /// The error, reduced to what both sides must agree on: its kind, and for a syntax error its line and column.
    var error: String?

    init() {}

    /// The facts of a reader under test's result.
    init(_ result: Result<Dataset, IngestError>) {
        switch result {
        case .failure(let e): error = Self.kind(e)
        case .success(let d):
            sessions = d.sessions.indices.map { k in
                let s = d.sessions[k]
                let o = d.sessions.offsets(at: k)
                return Self.line(
                    start: s.start, end: s.end, app: d.apps[Int(s.app)], category: d.categories[Int(s.category)], id: s.id,
                    offsets: (o.start, o.end), running: s.running)
            }
            skipped = SkipReason.allCases.map { reason in
                Self.skipLine(reason, count: d.skipped.count(reason), examples: (d.skipped.examples[reason] ?? []).map { ($0.sessionID, $0.line) })
            }
            repaired = d.repairedStrings
            localTimes = d.parts.first?.localTimes.map { "\($0.rows) rows in \($0.zone)" } ?? "nil"
            identity = "\(d.identity)"
        }
    }

    static func kind(_ e: IngestError) -> String {
        switch e {
        case .syntax(let line, let column, _): return "syntax at \(line):\(column)"
        case .malformed(let format, _): return "malformed \(format)"
        case .empty: return "empty"
        case .notAnArray: return "not an array"
        case .cancelled: return "cancelled"
        }
    }

    static func scalars(_ s: String) -> String { s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }

    static func line(
        start: Micros, end: Micros, app: String, category: String, id: String?, offsets: (Int?, Int?), running: Bool
    ) -> String {
        "\(start) \(end) [\(scalars(app))] [\(scalars(category))] \(id.map { "[\(scalars($0))]" } ?? "nil") \(offsets.0 as Any)/\(offsets.1 as Any)\(running ? " running" : "")"
    }

    static func skipLine(_ reason: SkipReason, count: Int, examples: [(String?, Int?)]) -> String {
        "\(reason.rawValue) \(count) " + examples.map { "\($0.0.map { "[\(scalars($0))]" } ?? "nil")@\($0.1.map(String.init) ?? "-")" }.joined(separator: ",")
    }

    var description: String {
        if let error { return "error: \(error)" }
        return "\(sessions.count) sessions \(sessions.prefix(4)) skipped \(skipped.filter { !$0.contains(" 0 ") }) repaired \(repaired) local \(localTimes) \(identity)"
    }
}

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
