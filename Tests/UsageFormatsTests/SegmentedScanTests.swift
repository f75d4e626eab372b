// SegmentedScanTests.swift — the segmented scan of a stream gives exactly the one-scan result, wherever its guessed boundaries and its reads fall (down to one byte).
import Testing
@testable import UsageFormats
@testable import UsageCore
import TestSupport

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

/// The chunkings every input is read with: segments and reads from one byte (every boundary
/// falls inside strings, escapes, multi-byte characters, CRLF) to the default, on one and two workers.
let chunkings: [Chunking] = [
    Chunking(segmentBytes: 1, readBytes: 1, workers: 1), Chunking(segmentBytes: 1, readBytes: 3, workers: 2),
    Chunking(segmentBytes: 7, readBytes: 2, workers: 2), Chunking(segmentBytes: 64, readBytes: 5, workers: 2),
    Chunking(segmentBytes: 200, readBytes: 64, workers: 3), Chunking(segmentBytes: 4096, readBytes: 1000, workers: 2),
    Chunking(segmentBytes: 4096, readBytes: 1 << 20, workers: 2), .standard,
]

/// The one scan of the whole input (the reference) and the segmented scans at every chunking.
func bothWays(_ text: String) -> (Result<DatasetFacts, IngestError>, Result<DatasetFacts, IngestError>) {
    let bytes = Array(text.utf8)
    let one = Result { () throws(IngestError) in
        DatasetFacts(try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.scanOnce(b) }.dataset(source: "t"))
    }
    for chunking in chunkings {
        let segmented = Result { () throws(IngestError) in DatasetFacts(try SessionsJSON.decode(bytes, source: "t", chunking: chunking)) }
        if segmented != one { return (one, segmented) }
    }
    return (one, one)
}

struct SegmentedScanTests {
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
    func theSegmentedScanEqualsTheSingleScan(count: Int, seed: UInt64) {
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

    @Test func skippedRowLineNumbersAreTheFilesInEverySegment() throws {
        let rows = (0..<200).map { k in k % 40 == 39 ? row(id: "\"skip\(k)\"", start: "null") : row(id: "\"k\(k)\"") }
        for chunking in chunkings {
            let d = try SessionsJSON.decode(Array(("[\n" + rows.joined(separator: ",\n") + "\n]").utf8), source: "t", chunking: chunking)
            #expect(d.skipped.count(.missingTimestamp) == 5)
            #expect(d.skipped.examples[.missingTimestamp]?.map(\.line) == [41, 81, 121])
        }
    }

    /// Errors far along one long line (minified JSON) name the column counted across segments.
    @Test func anErrorOnALongLineCountsColumnsAcrossSegments() {
        let rows = (0..<300).map { k in row(id: "\"é\(k)\"") }
        let text = "[" + rows.joined(separator: ",") + ",{\"app_name\": x}]"
        let (one, two) = bothWays(text)
        #expect(one == two)
        guard case .failure(.syntax(1, let column, _)) = one else {
            Issue.record("\(one)")
            return
        }
        #expect(column > 10_000)
    }

    /// What follows the closing `]` is read to the end: white space loads, anything else is an
    /// error where it stands, however many segments later.
    @Test(arguments: ["\n\n   \r\n", "\n\n  x", "\n" + String(repeating: " ", count: 5000) + "{}", "}, {"])
    func afterTheArrayOnlyWhiteSpace(tail: String) {
        let rows = (0..<100).map { k in row(id: "\"k\(k)\"") }
        let (one, two) = bothWays("[\n" + rows.joined(separator: ",\n") + "\n]" + tail)
        #expect(one == two)
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

    /// The bug: the first segment's rows were taken as the columns themselves, dropping the
    /// room made for the whole input from its size, so every later segment grew the columns
    /// again (5M sessions: 60 MB more at the peak, and copies).
    @Test func theRoomMadeForTheRowsOutlivesTheFirstSegment() throws {
        let row = #"{"app_name": "Mail", "category": "Work", "start_timestamp": "2026-02-23T10:00:00Z", "end_timestamp": "2026-02-23T10:05:00Z"}"#
        let bytes = Array(("[" + Array(repeating: row, count: 2_000).joined(separator: ",\n") + "]").utf8)
        let scanned = try bytes.withUnsafeBufferPointer { b throws(StreamError<Never>) in
            let reader = ChunkReader(MemorySource(b, chunk: 4096), chunking: Chunking(segmentBytes: 4096, readBytes: 4096, workers: 2))
            return try SegmentedScan.run(reader, format: ArraySegments(), cancellation: nil, expectedRows: 10_000)
        }
        #expect(scanned.count == 2_000)
        #expect(scanned.capacity >= 10_000)
    }
}
