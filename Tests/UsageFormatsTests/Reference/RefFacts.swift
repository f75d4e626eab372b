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
