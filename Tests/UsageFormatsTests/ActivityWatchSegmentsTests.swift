// ActivityWatchSegmentsTests.swift — an ActivityWatch export read in segments on several cores (runs of events read ahead, taken or not) gives what one reader reading it whole gives: sessions, names, skips, repairs and errors.
import Foundation
import Testing
@testable import UsageFormats
@testable import UsageCore

@Suite struct ActivityWatchSegmentsTests {
    /// An export of one window bucket and one AFK bucket, `events` window events with titles of
    /// `titleBytes` bytes each (`title` repeated), some of whose text looks like an event's start.
    static func export(events: Int, title: String = "t", titleBytes: Int = 8, nested: Bool = false) -> [UInt8] {
        var text = #"{"buckets": {"w": {"id": "w", "type": "currentwindow", "hostname": "h", "events": ["# + "\n"
        let padded = String(repeating: title, count: max(1, titleBytes / max(1, title.utf8.count)))
        for k in 0..<events {
            if k > 0 { text += ",\n" }
            let extra = nested ? #", "list": [{"a": 1}, {"b": 2}]"# : ""
            let app = ["Safari", "Xcode", "Mail", "Café"][k % 4]
            text += #"{"id": \#(k), "timestamp": "2026-02-23T10:\#(String(format2: k % 60)):00.000000+00:00", "duration": \#(k % 7 == 3 ? "-1" : "\(k % 90)").5, "data": {"app": "\#(app)", "title": "\#(padded)"\#(extra)}}"#
        }
        text += "\n]},\n" + #""a": {"id": "a", "type": "afkstatus", "hostname": "h", "events": [{"timestamp": "2026-02-23T10:00:00Z", "duration": 3000, "data": {"status": "not-afk"}}]}}}"#
        return Array(text.utf8)
    }

    /// Read with `chunking`; without, read whole (a small input in memory is read in place, in one go).
    static func read(_ bytes: [UInt8], _ chunking: Chunking?) -> Result<Dataset, IngestError> {
        Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: chunking ?? .standard).dataset(source: "t")
            }
        }
    }

    static func facts(_ r: Result<Dataset, IngestError>) -> String {
        switch r {
        case .failure(let e): return "error \(e)"
        case .success(let d):
            let rows = d.sessions.map { "\($0.start) \($0.end) \(d.apps[Int($0.app)]) \($0.id ?? "-")" }
            return "\(rows) apps \(d.apps) skipped \(d.skipped.counts) repaired \(d.repairedStrings)"
        }
    }

    /// The export with the part that follows `marker` (its first bucket, or its first events
    /// array, up to the AFK bucket) written twice: the copy comes first in the file.
    static func repeated(_ marker: String, _ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let start = text.range(of: marker)!.upperBound
        let end = text.range(of: #""a": {"#)!.lowerBound
        var part = String(text[start..<end])
        if marker.hasSuffix("{") {
            // A whole bucket: `"w": {…},` again.
            return Array((String(text[..<start]) + part.replacingOccurrences(of: #""Mail""#, with: #""Other""#) + String(text[start...])).utf8)
        }
        // An events array's contents and its `]`, then `, "events": [` for the first to be repeated.
        part = String(part[..<part.range(of: "]},", options: .backwards)!.lowerBound])
        return Array((String(text[..<start]) + part.replacingOccurrences(of: #""Mail""#, with: #""Other""#) + #"], "events": ["# + String(text[start...])).utf8)
    }

    static let chunkings = [
        Chunking(segmentBytes: 1, readBytes: 1, workers: 2), Chunking(segmentBytes: 64, readBytes: 16, workers: 2),
        Chunking(segmentBytes: 300, readBytes: 7, workers: 3), Chunking(segmentBytes: 4096, readBytes: 4096, workers: 1),
    ]

    @Test(arguments: [
        ("short events", export(events: 200)),
        ("events longer than a segment", export(events: 40, titleBytes: 700)),
        ("titles that look like an event's start", export(events: 120, title: #"}, {"#, titleBytes: 40)),
        ("nested objects in the data", export(events: 120, nested: true)),
        ("invalid UTF-8 in a title", export(events: 60, title: "\u{FFFD}", titleBytes: 30).map { $0 == 0xEF ? 0xFF : $0 }),
        ("CRLF line breaks", Array(String(decoding: export(events: 80), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)),
        ("a bucket repeated (read and dropped)", repeated(#"{"buckets": {"#, export(events: 60))),
        ("an events key repeated (the first wins)", repeated(#""events": ["#, export(events: 60))),
    ])
    func readInSegmentsAsReadWhole(label: String, bytes: [UInt8]) {
        let whole = Self.facts(Self.read(bytes, nil))
        #expect(!whole.hasPrefix("error"), "\(label): \(whole)")
        for chunking in Self.chunkings {
            #expect(Self.facts(Self.read(bytes, chunking)) == whole, "\(label) \(chunking)")
        }
    }

    /// The bug: a run whose first event was cut by its segment's end (the segment was cut at a
    /// title that looks like an event's start) read no event, stopped at 0, and was taken: the
    /// `,` before it counted as read, and the reader then met the event where it expected a
    /// `,` ("expected ',' or ']' after an array element").
    @Test func aRunThatReadNoEventIsNotTaken() {
        let bytes = Self.export(events: 30, title: #"}, {"#, titleBytes: 200)
        let whole = Self.facts(Self.read(bytes, nil))
        for size in [1, 2, 50, 150, 250] {
            #expect(Self.facts(Self.read(bytes, Chunking(segmentBytes: size, readBytes: size, workers: 2))) == whole, "segments of \(size)")
        }
    }

    @Test func anErrorInsideARunIsPlacedAsWhenReadWhole() {
        var bytes = Self.export(events: 200)
        // A broken event in the middle: its duration is not a value.
        let target = Array(#""duration": 50.5"#.utf8)
        let at = (0...(bytes.count - target.count)).first { bytes[$0..<($0 + target.count)].elementsEqual(target) }!
        bytes.replaceSubrange((at + 12)..<(at + 16), with: Array("5x.5".utf8))
        let whole = Self.facts(Self.read(bytes, nil))
        #expect(whole.hasPrefix("error syntax"), "\(whole)")
        for chunking in Self.chunkings {
            #expect(Self.facts(Self.read(bytes, chunking)) == whole, "\(chunking)")
        }
    }

    @Test func everyCutOfTheDocumentFailsAsWhenReadWhole() {
        let bytes = Self.export(events: 12)
        for cut in stride(from: 1, to: bytes.count, by: 37) {
            let part = Array(bytes[..<cut])
            let whole = Self.facts(Self.read(part, nil))
            #expect(Self.facts(Self.read(part, Chunking(segmentBytes: 40, readBytes: 9, workers: 2))) == whole, "cut at \(cut)")
        }
    }
}

extension String {
    fileprivate init(format2 n: Int) {
        self = n < 10 ? "0\(n)" : "\(n)"
    }
}
