// DifferentialReference.swift — the ingest differential's reference decoder (docs/DATA.md §1–2 written plainly on Foundation), what is compared, and one document decoded both ways.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport

// The reference decoder is deliberately plain: JSONSerialization parses, a regular expression
// checks the RFC 3339 shape, a table of year starts does the calendar. It needs two facts that
// JSONSerialization cannot give and that the generator records while writing the text: the
// 1-based line where each array element begins, and the literal text of a numeric `session_id`.

extension Differential {
    // MARK: - What is compared

    static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// A session by value: instants, names and id compared by exact Unicode scalars.
    struct SessionKey: Hashable, Comparable, CustomStringConvertible {
        var start: Int64
        var end: Int64
        var app: [UInt32]
        var category: [UInt32]
        var id: [UInt32]?

        static func < (a: Self, b: Self) -> Bool {
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            if a.app != b.app { return a.app.lexicographicallyPrecedes(b.app) }
            if a.category != b.category { return a.category.lexicographicallyPrecedes(b.category) }
            switch (a.id, b.id) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x.lexicographicallyPrecedes(y)
            }
        }

        static func text(_ s: [UInt32]) -> String {
            var out = ""
            out.unicodeScalars.append(contentsOf: s.compactMap { Unicode.Scalar($0) })
            return out.debugDescription
        }

        var description: String {
            "start=\(start) end=\(end) app=\(Self.text(app)) category=\(Self.text(category)) id=\(id.map(Self.text) ?? "nil")"
        }
    }

    struct Example: Hashable, CustomStringConvertible {
        var id: [UInt32]?
        var line: Int
        var description: String { "(id=\(id.map(SessionKey.text) ?? "nil"), line=\(line))" }
    }

    /// The observable result of a decode, in a form both sides can produce.
    struct Outcome: Equatable {
        /// Sorted by `SessionKey`: compared as a multiset.
        var sessions: [SessionKey] = []
        var counts: [SkipReason: Int] = [:]
        var examples: [SkipReason: [Example]] = [:]

        mutating func skip(_ reason: SkipReason, id: String?, line: Int) {
            counts[reason, default: 0] += 1
            if examples[reason, default: []].count < 3 {
                examples[reason, default: []].append(Example(id: id.map(scalars), line: line))
            }
        }
    }

    /// The project's result, as an outcome, plus what only it can get wrong.
    static func outcome(of d: Dataset) -> (outcome: Outcome, sortedByTime: Bool) {
        var o = Outcome()
        let sessions = Array(d.sessions)
        o.sessions = sessions.map {
            SessionKey(
                start: $0.start, end: $0.end, app: scalars(d.apps[Int($0.app)]),
                category: scalars(d.categories[Int($0.category)]), id: $0.id.map(scalars))
        }
        let sorted = zip(sessions, sessions.dropFirst()).allSatisfy { ($0.start, $0.end) <= ($1.start, $1.end) }
        o.sessions.sort()
        for reason in SkipReason.allCases where d.skipped.count(reason) > 0 {
            o.counts[reason] = d.skipped.count(reason)
            o.examples[reason] = d.skipped.examples[reason, default: []].map {
                Example(id: $0.sessionID.map(scalars), line: $0.line ?? -1)
            }
        }
        return (o, sorted)
    }

    /// Differences between an expected and an actual outcome, one line each ("" when equal).
    static func diff(expected e: Outcome, actual a: Outcome, limit: Int = 6) -> String {
        var lines: [String] = []
        if e.sessions != a.sessions {
            var remaining: [SessionKey: Int] = [:]
            for s in a.sessions { remaining[s, default: 0] += 1 }
            var missing: [SessionKey] = []
            for s in e.sessions {
                if let n = remaining[s], n > 0 { remaining[s] = n - 1 } else { missing.append(s) }
            }
            var extra: [SessionKey] = []
            for s in a.sessions where remaining[s, default: 0] > 0 {
                remaining[s]! -= 1
                extra.append(s)
            }
            lines.append("sessions: expected \(e.sessions.count), got \(a.sessions.count)")
            lines += missing.prefix(limit).map { "  - expected, missing: \($0)" }
            lines += extra.prefix(limit).map { "  + got, unexpected:   \($0)" }
        }
        for reason in SkipReason.allCases {
            let ec = e.counts[reason, default: 0]
            let ac = a.counts[reason, default: 0]
            if ec != ac { lines.append("skipped \(reason.rawValue): expected \(ec), got \(ac)") }
            let ee = e.examples[reason, default: []]
            let ae = a.examples[reason, default: []]
            if ee != ae { lines.append("examples \(reason.rawValue): expected \(ee), got \(ae)") }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - The reference decoder

    struct ReferenceError: Error { var message: String }

    /// docs/DATA.md §1–2 written plainly on top of Foundation, independent of the project's code.
    final class Reference {
        /// RFC 3339 as docs/DATA.md §1 restricts it; `\A…\z` so that no trailing line break slips through.
        let pattern = try! NSRegularExpression(
            pattern: #"\A([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?([Zz]|([+-])([0-9]{2}):([0-9]{2}))\z"#)
        /// Days from 1970-01-01 to January 1st of each year 0...9999, counted a year at a time.
        let yearStart: [Int64]

        init() {
            var table = [Int64](repeating: 0, count: 10_000)
            for y in 1971..<10_000 { table[y] = table[y - 1] + Reference.yearLength(y - 1) }
            for y in stride(from: 1969, through: 0, by: -1) { table[y] = table[y + 1] - Reference.yearLength(y) }
            yearStart = table
        }

        static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
        static func yearLength(_ y: Int) -> Int64 { isLeap(y) ? 366 : 365 }
        static func monthLengths(_ y: Int) -> [Int] { [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] }

        /// Microseconds since the epoch, or nil when `text` is not a valid timestamp.
        func parse(_ text: String) -> Int64? {
            let ns = text as NSString
            guard let m = pattern.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
            func group(_ i: Int) -> String? {
                let r = m.range(at: i)
                return r.location == NSNotFound ? nil : ns.substring(with: r)
            }
            func number(_ i: Int) -> Int { Int(group(i)!)! }
            let (year, month, day) = (number(1), number(2), number(3))
            let (hour, minute, second) = (number(4), number(5), number(6))
            guard (1...12).contains(month), (1...Reference.monthLengths(year)[month - 1]).contains(day),
                hour <= 23, minute <= 59, second <= 59
            else { return nil }
            var offsetSeconds = 0
            if let sign = group(9) {
                let (oh, om) = (number(10), number(11))
                guard oh <= 23, om <= 59 else { return nil }
                offsetSeconds = (sign == "-" ? -1 : 1) * (oh * 3600 + om * 60)
            }
            var micros: Int64 = 0
            if let fraction = group(7) {
                let digits = String(fraction.dropFirst())
                micros = Int64(String((digits + "00000").prefix(6)))!
            }
            let days = yearStart[year] + Int64(Reference.monthLengths(year).prefix(month - 1).reduce(0, +)) + Int64(day - 1)
            let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
            return seconds * 1_000_000 + micros
        }

        /// Unicode White_Space (PropList.txt), written out.
        static func isWhiteSpace(_ v: UInt32) -> Bool {
            switch v {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
            default: false
            }
        }

        static func trim(_ s: String) -> [UInt32] {
            var v = scalars(s)
            while let first = v.first, isWhiteSpace(first) { v.removeFirst() }
            while let last = v.last, isWhiteSpace(last) { v.removeLast() }
            return v
        }

        static func appName(_ raw: String?) -> [UInt32] {
            let t = trim(raw ?? "")
            return t.isEmpty ? scalars("(unknown)") : t
        }

        static func category(_ raw: String?) -> [UInt32] {
            let t = trim(raw ?? "")
            let folded = t.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            return t.isEmpty || folded == scalars("other") || folded == scalars("others") ? scalars("Other") : t
        }

        enum Field { case absent, null, string(String), other }

        static func field(_ value: Any?) -> Field {
            guard let v = value else { return .absent }
            return switch v {
            case is NSNull: .null
            case let s as String: .string(s)
            default: .other
            }
        }

        /// Decodes `bytes`; `lines[k]` is the line where element k begins and `idLiterals[k]` the
        /// literal of its numeric `session_id`, both recorded by the generator.
        func decode(_ bytes: [UInt8], lines: [Int], idLiterals: [String?]) throws -> Outcome {
            let top = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
            guard let elements = top as? [Any] else { throw ReferenceError(message: "the top level is not an array") }
            guard elements.count == lines.count else {
                throw ReferenceError(message: "JSONSerialization sees \(elements.count) rows, the generator wrote \(lines.count)")
            }
            var o = Outcome()
            for (k, element) in elements.enumerated() {
                guard let row = element as? [String: Any] else {
                    o.skip(.notAnObject, id: nil, line: lines[k])
                    continue
                }
                let id: String?
                switch row["session_id"] {
                case let s as String: id = s
                case let n as NSNumber:
                    id = idLiterals[k]
                    if let literal = id, Double(literal) != n.doubleValue, !(n is NSDecimalNumber) {
                        throw ReferenceError(message: "the generator wrote \(literal), JSONSerialization read \(n)")
                    }
                default: id = nil
                }
                func skip(_ reason: SkipReason) { o.skip(reason, id: id, line: lines[k]) }

                let start = Reference.field(row["start_timestamp"])
                let end = Reference.field(row["end_timestamp"])
                switch (start, end) {
                case (.absent, _), (.null, _), (_, .absent), (_, .null):
                    skip(.missingTimestamp)
                    continue
                default: break
                }
                guard case .string(let st) = start, case .string(let et) = end, let s = parse(st), let e = parse(et) else {
                    skip(.badTimestamp)
                    continue
                }
                var names: [String?] = []
                for key in ["app_name", "category"] {
                    switch Reference.field(row[key]) {
                    case .absent, .null: names.append(nil)
                    case .string(let text): names.append(text)
                    case .other: break
                    }
                }
                guard names.count == 2 else {
                    skip(.badFieldType)
                    continue
                }
                guard e > s else {
                    skip(.endNotAfterStart)
                    continue
                }
                o.sessions.append(
                    SessionKey(
                        start: s, end: e, app: Reference.appName(names[0]), category: Reference.category(names[1]),
                        id: id.map(scalars)))
            }
            o.sessions.sort()
            return o
        }
    }

    // MARK: - Running one document

    struct Report {
        var documents = 0
        var rows = 0
        var failures: [String] = []
        var totals = Outcome()
        var sessions = 0
    }

    /// Decodes one document both ways and describes any disagreement ("" when none).
    static func check(
        _ elements: [Element], layout: Layout, bom: Bool, reference: Reference, label: String
    ) throws -> (problem: String, expected: Outcome) {
        let rendered = render(elements.map(\.value), layout: layout, bom: bom)
        let literals = elements.map(\.idLiteral)
        let expected = try reference.decode(rendered.bytes, lines: rendered.lines, idLiterals: literals)
        let dataset = try SessionsJSON.decode(rendered.bytes, source: label)
        let (actual, sorted) = outcome(of: dataset)
        var problems: [String] = []
        let d = diff(expected: expected, actual: actual)
        if !d.isEmpty { problems.append(d) }
        if !sorted { problems.append("sessions are not in (start, end) order") }
        if dataset.repairedStrings != 0 { problems.append("repairedStrings: expected 0, got \(dataset.repairedStrings)") }
        if dataset.skipped.total != expected.counts.values.reduce(0, +) {
            problems.append("skipped.total: expected \(expected.counts.values.reduce(0, +)), got \(dataset.skipped.total)")
        }
        guard !problems.isEmpty else { return ("", expected) }

        // Minimise: the first element that disagrees on its own.
        var isolated = "no single element disagrees on its own"
        for (k, range) in rendered.ranges.enumerated() {
            let one = [UInt8]("[".utf8) + rendered.bytes[range] + [UInt8]("]".utf8)
            let e = try reference.decode(one, lines: [1], idLiterals: [literals[k]])
            let a = outcome(of: try SessionsJSON.decode(one, source: label)).outcome
            let d1 = diff(expected: e, actual: a)
            if !d1.isEmpty {
                var text = String(decoding: rendered.bytes[range], as: UTF8.self)
                if text.count > 800 { text = String(text.prefix(800)) + "…" }
                isolated = "element \(k) (line \(rendered.lines[k])) disagrees on its own:\n\(text)\n\(d1)"
                break
            }
        }
        return ("\(label): \(elements.count) rows\n\(problems.joined(separator: "\n"))\n\(isolated)", expected)
    }

    static func run(baseSeed: UInt64, documents: Range<Int>, rows: ClosedRange<Int>) throws -> Report {
        let reference = Reference()
        var report = Report()
        for index in documents {
            let docSeed = seed(baseSeed, index)
            let elements = document(seed: docSeed, rows: rows)
            var layoutRng = Rng(seed: docSeed ^ 0xA5A5)
            let layout: Layout =
                switch layoutRng.weighted([70, 10, 10, 10]) {
                case 0: .random(seed: layoutRng.next())
                case 1: .minified
                case 2: .pretty(newline: "\n")
                default: .pretty(newline: "\r\n")
                }
            let label = "seed 0x\(String(baseSeed, radix: 16)) document \(index) (document seed 0x\(String(docSeed, radix: 16)))"
            let (problem, expected) = try check(
                elements, layout: layout, bom: layoutRng.chance(0.05), reference: reference, label: label)
            report.documents += 1
            report.rows += elements.count
            report.sessions += expected.sessions.count
            for (reason, n) in expected.counts { report.totals.counts[reason, default: 0] += n }
            if !problem.isEmpty { report.failures.append(problem) }
        }
        return report
    }
}
