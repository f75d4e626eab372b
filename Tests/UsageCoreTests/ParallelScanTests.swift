// ParallelScanTests.swift — the two-core scan gives exactly the one-core result, wherever its guessed split falls.
import Testing
@testable import UsageCore

/// Everything a dataset says, in comparable form.
struct DatasetFacts: Equatable {
    let sessions: [String]
    let apps: [String]
    let categories: [String]
    let skipped: [String]
    let repaired: Int

    init(_ d: Dataset) {
        sessions = d.sessions.map { "\($0.start) \($0.end) \(d.apps[Int($0.app)]) \(d.categories[Int($0.category)]) \($0.id ?? "nil")" }
        apps = d.apps
        categories = d.categories
        skipped = SkipReason.allCases.map { reason in
            "\(reason.rawValue) \(d.skipped.count(reason)) "
                + (d.skipped.examples[reason] ?? []).map { "\($0.sessionID ?? "nil")@\($0.line.map(String.init) ?? "nil")" }.joined(separator: ",")
        }
        repaired = d.repairedStrings
    }
}

/// Decodes both ways; both must give the same dataset or the same error.
func bothWays(_ text: String) -> (Result<DatasetFacts, IngestError>, Result<DatasetFacts, IngestError>) {
    let bytes = Array(text.utf8)
    let one = Result { () throws(IngestError) in DatasetFacts(try SessionsJSON.decode(bytes, source: "t", parallel: false)) }
    let two = Result { () throws(IngestError) in DatasetFacts(try SessionsJSON.decode(bytes, source: "t", parallel: true)) }
    return (one, two)
}

struct ParallelScanTests {
    /// Rows of every kind: valid, each skip reason, escapes, names that repeat, unordered times.
    static func rows(count: Int, seed: UInt64) -> [String] {
        var g = SplitMix64(seed: seed)
        let apps = ["\"Safari\"", "\"Mail\"", "\"微信\"", "\"Caf\\u00e9\"", "null", "\" Slack \"", "\"Say \\\"hi\\\"\"", "\"bad\\ud800\""]
        let categories = ["\"Productivity\"", "\"Social\"", "null", "\"others\"", "\"\""]
        return (0..<count).map { k in
            let day = 10 + g.below(10)
            let hour = g.below(24)
            let minutes = g.below(50)
            let start = "\"2026-02-\(day)T\(hour < 10 ? "0" : "")\(hour):0\(minutes % 10):00Z\""
            let end = "\"2026-02-\(day)T\(hour < 10 ? "0" : "")\(hour):\(minutes + 10):00Z\""
            switch g.below(20) {
            case 0: return row(id: "\"k\(k)\"", start: "null")
            case 1: return row(id: "\(k)", end: "\"2026-02-30T00:00:00Z\"")
            case 2: return row(id: "\"k\(k)\"", app: "42")
            case 3: return row(id: "\"k\(k)\"", start: end, end: start)
            case 4: return "[\(k)]"
            case 5: return "{\"extra\": [{\"a\": 1}, {\"b\": [2, {\"c\": \"}, {\"}]}], " + String(row(id: "\"n\(k)\"", start: start, end: end).dropFirst())
            default:
                return row(id: g.below(5) == 0 ? "null" : "\"k\(k)\"", app: apps[g.below(apps.count)], category: categories[g.below(categories.count)], start: start, end: end)
            }
        }
    }

    @Test(arguments: [1, 2, 3, 50, 400], [UInt64(1), 2, 3])
    func theSplitScanEqualsTheSingleScan(count: Int, seed: UInt64) {
        let rows = Self.rows(count: count, seed: seed)
        for text in ["[\n" + rows.joined(separator: ",\n") + "\n]", "[" + rows.joined(separator: ",") + "]", "[\r\n  " + rows.joined(separator: " ,\r\n  ") + "\r\n]"] {
            let (one, two) = bothWays(text)
            #expect(one == two)
            #expect((try? one.get()) != nil)
        }
    }

    @Test func aGuessInsideAStringIsNeverTakenForARow() {
        // The middle of the input is a long string full of `}, {`: every guess falls inside it.
        let trap = String(repeating: "}, {\\\"app_name\\\": \\\"X\\\", ", count: 400)
        let text = "[" + row(id: "\"a\"") + ", {\"note\": \"\(trap)\", " + String(row(id: "\"b\"").dropFirst()) + ", " + row(id: "\"c\"") + "]"
        let (one, two) = bothWays(text)
        #expect(one == two)
        #expect((try? two.get())?.sessions.count == 3)
    }

    @Test func aGuessInsideANestedArrayIsNeverTakenForARow() {
        let nested = (0..<300).map { "{\"x\": \($0)}" }.joined(separator: ", ")
        let text = "[" + row(id: "\"a\"") + ", {\"nested\": [\(nested)], " + String(row(id: "\"b\"").dropFirst()) + "]"
        let (one, two) = bothWays(text)
        #expect(one == two)
        #expect((try? two.get())?.sessions.count == 2)
    }

    @Test(arguments: [0.25, 0.75, 0.999])
    func aSyntaxErrorIsReportedAsOneScanWould(at fraction: Double) {
        var rows = Self.rows(count: 300, seed: 9)
        rows[Int(Double(rows.count) * fraction)] = "{\"app_name\": \"Safari\" \"category\": 1}"
        let (one, two) = bothWays("[\n" + rows.joined(separator: ",\n") + "\n]")
        #expect(one == two)
        guard case .failure(.syntax) = two else {
            Issue.record("expected a syntax error, got \(two)")
            return
        }
    }

    @Test func theFirstErrorInFileOrderWins() {
        var rows = Self.rows(count: 300, seed: 4)
        rows[20] = "{\"a\": tru}"
        rows[280] = "{\"b\": nul}"
        let (one, two) = bothWays("[\n" + rows.joined(separator: ",\n") + "\n]")
        #expect(one == two)
        if case .failure(.syntax(let line, _, _)) = two { #expect(line == 22) }
    }

    @Test(arguments: ["[]", "[\(row())]", "[\(row()), \(row())]", "  [ ]  ", "[\(row())] x", "[\(row()), \(row())"])
    func tinyInputsAgree(text: String) {
        let (one, two) = bothWays(text)
        #expect(one == two)
    }

    @Test func skippedRowLineNumbersAreTheFilesOnBothHalves() throws {
        let rows = (0..<200).map { k in k % 40 == 39 ? row(id: "\"skip\(k)\"", start: "null") : row(id: "\"k\(k)\"") }
        let d = try SessionsJSON.decode(Array(("[\n" + rows.joined(separator: ",\n") + "\n]").utf8), source: "t", parallel: true)
        #expect(d.skipped.count(.missingTimestamp) == 5)
        #expect(d.skipped.examples[.missingTimestamp]?.map(\.line) == [41, 81, 121])
    }

    @Test func newlinesAreCountedExactly() {
        let text = Array(("a\nbc\n\n" + String(repeating: "x\ny", count: 37) + "\n\u{FFFD}\n").utf8)
        text.withUnsafeBufferPointer { b in
            for from in [0, 1, 5, 9] {
                for to in [from, from + 7, b.count] {
                    #expect(Newlines.count(in: b, from: from, to: to) == b[from..<to].filter { $0 == 0x0A }.count)
                }
            }
            #expect(Newlines.lines(at: [5, 0, 2, 6], in: b) == [3, 1, 2, 4])
        }
    }
}
