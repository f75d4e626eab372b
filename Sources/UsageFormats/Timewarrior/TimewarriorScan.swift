// TimewarriorScan.swift — a `timew export` read byte by byte, in segments on every core as the sessions JSON is: intervals with compact UTC times and tags, counted as Timewarrior counts them (the tag set is the activity, an open interval runs up to the load's clock).
import UsageCore

/// A Timewarrior export: `[{"id":1,"start":"20260223T093500Z","end":"20260223T101000Z","tags":["fun","gaming"]}]`.
///
/// The activity (app) is the interval's whole tag set as Timewarrior shows it (`fun, gaming`,
/// see `TagSet`); the interval has no category (the category rules, which may match any one
/// tag, give it one); an interval without tags is `(unknown)`; tags that are not all strings are
/// `bad_field_type`. An interval still running has no `end`: as `timew summary` does, it counts
/// up to now, the load's clock, and is marked running; without a clock it is skipped as
/// `missing_timestamp`. RFC 3339 times are accepted too. Interval ids are positions counted
/// from the latest (`@1`), renumbered by every new interval: sessions are known by their start.
///
/// These are the rules of the Foundation-based reader this one replaced (and of the tests'
/// own reference, RefTimewarrior, it is fuzzed against): an id is an integer's or a number's
/// text or a string; of repeated keys the first counts; strings anywhere that needed repair
/// (invalid UTF-8, a lone surrogate) are counted; lines are where each element begins.
public enum TimewarriorJSON {
    static let formatName = "Timewarrior export"

    /// Reads a stream to its end and decodes it; `now` is the load's clock.
    public static func decode<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, now: Micros?, cancellation: CancellationToken? = nil,
        expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> Dataset {
        let scanned: ScannedSessions
        do {
            scanned = try SegmentedScan.run(
                reader, format: TimewarriorSegments(now: now), cancellation: cancellation, expectedRows: expectedRows)
        } catch .ingest(.notAnArray) {
            // Valid JSON of another shape: what the export's shape is not.
            throw .ingest(.malformed(format: formatName, problem: "the top level is not what it should be"))
        }
        var dataset = scanned.dataset(source: source)
        dataset.identity = .byStart
        return dataset
    }

    /// Decodes bytes in memory.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, now: Micros?, cancellation: CancellationToken? = nil,
        chunking: Chunking = .standard
    ) throws(IngestError) -> Dataset {
        let chunk = chunking.readBytes < bytes.count ? chunking.readBytes : nil
        do {
            return try decode(
                ChunkReader(MemorySource(bytes, chunk: chunk), chunking: chunking), source: source, now: now,
                cancellation: cancellation)
        } catch {
            switch error {
            case .ingest(let e): throw e
            }
        }
    }

    /// `20260223T093500Z` as `2026-02-23T09:35:00Z` into `out` (20 bytes); false for anything
    /// else, which RFC 3339 then judges as it is.
    @inline(__always) static func expandCompact(_ c: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        guard c.count == 16, c[8] == UInt8(ascii: "T"), c[15] == UInt8(ascii: "Z") else { return false }
        for k in [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14] where c[k] < 0x30 || c[k] > 0x39 { return false }
        let dash = UInt8(ascii: "-")
        let colon = UInt8(ascii: ":")
        let layout: [UInt8?] = [
            c[0], c[1], c[2], c[3], dash, c[4], c[5], dash, c[6], c[7], UInt8(ascii: "T"), c[9], c[10], colon, c[11], c[12],
            colon, c[13], c[14], UInt8(ascii: "Z"),
        ]
        for (k, byte) in layout.enumerated() { out[k] = byte! }
        return true
    }
}

/// The export as segments of a JSON array (boundaries guessed and proved as for the sessions
/// JSON); each segment's intervals read by an `IntervalReader`.
struct TimewarriorSegments: SegmentFormat {
    let now: Micros?

    func boundary(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        ArraySegments().boundary(in: b, from: from)
    }

    func scan(
        _ b: UnsafeBufferPointer<UInt8>, from start: SegmentStart, final: Bool, into builder: inout DatasetBuilder,
        cancellation: CancellationToken?
    ) throws(ScanStop) -> (end: SegmentEnd, newlines: Int) {
        var scanner = JSONScanner(b, final: final)
        scanner.countRepairs = true
        var reader = IntervalReader(now: now)
        let end = try scanner.scanElements(into: &builder, reader: &reader, from: start, cancellation: cancellation)
        builder.repairedStrings += scanner.repairedStrings
        return (end, scanner.newlines)
    }
}

/// What an interval's `tags` were.
enum IntervalTags {
    case absent
    case null
    /// An array of strings (their bytes in the reader's tag key).
    case list
    /// Anything else: not an array, or an array holding something that is not a string.
    case wrongType
}

/// Reads the elements of a Timewarrior export: an object's `id`, `start`, `end` and `tags` (the
/// first of repeated keys), every string counted for repair; anything else is not an object.
struct IntervalReader: ArrayElementReader {
    let now: Micros?
    private var isObject = false
    private var id = FieldValue()
    private var start = FieldValue()
    private var end = FieldValue()
    private var tags = IntervalTags.absent
    /// The tags' bytes, each after its length (4 bytes): the key of the tag set's name.
    private var tagKey: [UInt8] = []
    /// The start and end expanded from the compact form (20 bytes each).
    private var expanded = [UInt8](repeating: 0, count: 40)

    init(now: Micros?) {
        self.now = now
    }

    mutating func read(_ s: inout JSONScanner) throws(ScanStop) {
        isObject = s.peek() == UInt8(ascii: "{")
        guard isObject else { return try s.skipValue() }
        (id, start, end, tags) = (FieldValue(), FieldValue(), FieldValue(), .absent)
        var seen: UInt8 = 0
        try JSONScanner.scanObject(&s) { (s, key) throws(ScanStop) in
            let bit = Self.bit(of: key)
            s.skipWhitespace()
            if bit == 0 || seen & bit != 0 { return try s.skipValue() }
            seen |= bit
            switch bit {
            case 1: id = try Self.field(&s, slot: 0)
            case 2: start = try Self.field(&s, slot: 1)
            case 4: end = try Self.field(&s, slot: 2)
            default: try readTags(&s)
            }
        }
    }

    /// 1 `id`, 2 `start`, 4 `end`, 8 `tags`, 0 any other key.
    @inline(__always) private static func bit(of k: UnsafeBufferPointer<UInt8>) -> UInt8 {
        switch k.count {
        case 2 where k[0] == UInt8(ascii: "i") && k[1] == UInt8(ascii: "d"): return 1
        case 5 where k.elementsEqual("start".utf8): return 2
        case 3 where k.elementsEqual("end".utf8): return 4
        case 4 where k.elementsEqual("tags".utf8): return 8
        default: return 0
        }
    }

    /// A field's value (its strings counted for repair).
    @inline(__always) private static func field(_ s: inout JSONScanner, slot: Int) throws(ScanStop) -> FieldValue {
        let value = try s.scanField(slot: slot)
        if value.kind == .string { s.countRepair(value) }
        return value
    }

    /// `tags`: an array of strings (validated as `skipValue` validates any array, with the same
    /// errors), `null`, or anything else.
    private mutating func readTags(_ s: inout JSONScanner) throws(ScanStop) {
        guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected a value") }
        switch s.bytes[s.offset] {
        case UInt8(ascii: "["):
            tags = .list
            tagKey.removeAll(keepingCapacity: true)
            s.offset += 1
            s.skipWhitespace()
            if s.peek() == UInt8(ascii: "]") {
                s.offset += 1
                return
            }
            while true {
                s.skipWhitespace()
                guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected a value") }
                if s.bytes[s.offset] == UInt8(ascii: "\"") {
                    let tag = try s.scanString(slot: 3)
                    s.countRepair(tag)
                    let n = tag.bytes.count
                    tagKey.append(contentsOf: [UInt8(truncatingIfNeeded: n), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 24)])
                    tagKey.append(contentsOf: tag.bytes)
                } else {
                    tags = .wrongType
                    try s.skipValue()
                }
                s.skipWhitespace()
                guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected ',' or ']'") }
                if s.bytes[s.offset] == UInt8(ascii: ",") {
                    s.offset += 1
                    continue
                }
                if s.bytes[s.offset] == UInt8(ascii: "]") {
                    s.offset += 1
                    return
                }
                throw s.error("expected ',' or ']' after an array element")
            }
        case UInt8(ascii: "n"):
            try s.scanLiteral("null")
            tags = .null
        default:
            _ = try Self.field(&s, slot: 4)
            tags = .wrongType
        }
    }

    mutating func commit(into builder: inout DatasetBuilder, offset: Int, line: Int) {
        guard isObject else { return builder.addNonObject(line: line) }
        // Tags that are not all strings are a field of the wrong type, the third reason in
        // docs/DATA.md §1's order: a missing or bad time comes first.
        var wrongTags = false
        if case .wrongType = tags { wrongTags = true }
        let name = wrongTags ? nil : builder.tagSetName(tags, key: tagKey)
        let now = self.now
        let (start, end) = (self.start, self.end)
        expanded.withUnsafeMutableBufferPointer { out in
            do {
                let startTime = Self.time(start, expandingInto: out.baseAddress!)
                let endTime = Self.time(end, expandingInto: out.baseAddress! + 20)
                if end.kind == .absent || end.kind == .null, let now, startTime.kind == .string,
                    let s = RFC3339.parse(startTime.bytes)
                {
                    // Still running: counted up to the clock, as Timewarrior counts it (an
                    // interval that starts after the clock has no time yet: end_not_after_start).
                    if wrongTags { return builder.skip(.badFieldType, id: ActivityWatchReader.idText(id), line: line) }
                    builder.addSession(
                        start: s, end: now, app: name.map { String(decoding: $0, as: UTF8.self) }, category: nil,
                        id: ActivityWatchReader.idText(id), line: line, running: true)
                    return
                }
                Self.withID(id) { id in
                    if wrongTags {
                        builder.addRow(
                            id: id, app: FieldValue(kind: .other), category: FieldValue(kind: .null), start: startTime,
                            end: endTime, line: line)
                    } else if let name {
                        name.withUnsafeBufferPointer { app in
                            builder.addRow(
                                id: id, app: FieldValue(kind: .string, bytes: app), category: FieldValue(kind: .null),
                                start: startTime, end: endTime, line: line)
                        }
                    } else {
                        builder.addRow(
                            id: id, app: FieldValue(kind: .null), category: FieldValue(kind: .null), start: startTime,
                            end: endTime, line: line)
                    }
                }
            }
        }
    }

    /// A time field as the rules read it: absent or null as it is; a string expanded from the
    /// compact form (else as it is); anything else a value no parser accepts. Valid UTF-8 as far
    /// as the rules go (its repair was counted when it was read).
    private static func time(_ f: FieldValue, expandingInto out: UnsafeMutablePointer<UInt8>) -> FieldValue {
        switch f.kind {
        case .absent, .null: return FieldValue(kind: f.kind)
        case .number, .other: return FieldValue(kind: .other)
        case .string:
            if TimewarriorJSON.expandCompact(f.bytes, into: out) {
                return FieldValue(kind: .string, bytes: UnsafeBufferPointer(start: out, count: 20))
            }
            return FieldValue(kind: .string, bytes: f.bytes)
        }
    }

    /// The id as the rules take it (a string's text, repaired; an integer's or a number's text
    /// as Foundation gave it; else none), as a field valid during `body`.
    private static func withID(_ f: FieldValue, _ body: (FieldValue) -> Void) {
        switch f.kind {
        case .string where !f.nonASCII && !f.repaired:
            body(FieldValue(kind: .string, bytes: f.bytes))
        case .number where ActivityWatchReader.isPlainInteger(f):
            body(FieldValue(kind: .string, bytes: f.bytes))
        default:
            guard var text = ActivityWatchReader.idText(f) else { return body(FieldValue()) }
            text.withUTF8 { body(FieldValue(kind: .string, bytes: $0)) }
        }
    }
}

extension DatasetBuilder {
    /// The activity name of a tag set (nil: no tags), made once per distinct set of tag bytes.
    mutating func tagSetName(_ tags: IntervalTags, key: [UInt8]) -> [UInt8]? {
        guard case .list = tags, !key.isEmpty else { return nil }
        if let known = tagSetNames[key] { return known }
        var list: [String] = []
        key.withUnsafeBufferPointer { k in
            var at = 0
            while at < k.count {
                let n = Int(k[at]) | Int(k[at + 1]) << 8 | Int(k[at + 2]) << 16 | Int(k[at + 3]) << 24
                list.append(String(decoding: UnsafeBufferPointer(rebasing: k[(at + 4)..<(at + 4 + n)]), as: UTF8.self))
                at += 4 + n
            }
        }
        let name = TagSet.name(list).map { Array($0.utf8) }
        tagSetNames[key] = .some(name)
        return name
    }
}
