// Fuzz/JSONScannerFuzz.swift — libFuzzer target: the sessions JSON scanner against Foundation's JSONSerialization, the dataset against docs/DATA.md §1's rules, the segmented scan of a stream against one scan; built with the UsageCore sources by scripts/fuzz.
import Foundation

// What one input is checked for (any failure traps, and libFuzzer keeps the input):
//
// 1. The scanner (`JSONScanner` into a recording `RowSink`) against JSONSerialization: both
//    accept or both reject; when both accept, the same top-level kind, the same number of array
//    elements, objects in the same places, and for each object the five known fields the same:
//    absent, null, the same string (compared by Unicode scalars), a number of the same value, or
//    another type. The ingest's error, when it rejects, names a line and column inside the input.
// 2. The dataset (`SessionsJSON.scan`) against docs/DATA.md §1 applied to the recorded fields with the
//    unit tests' own reference timestamp parser and name rules (RefRFC3339, RefRows in
//    Tests/UsageFormatsTests/Reference, sharing no code with the program): the same sessions in the
//    same order, the same skip counts and examples with their lines; names interned once.
// 3. The segmented scan of a stream (`SessionsJSON.decode` with segments and reads of 1 to 64
//    bytes, one to three workers, drawn from the input's own bytes, so that boundaries fall
//    everywhere: inside strings, escapes, multi-byte characters, CRLF) against one scan: the
//    same dataset or the same error.
//
// The differences from JSONSerialization that are deliberate (docs/DATA.md §1) or Foundation's own,
// and how each is taken into account rather than reported:
//
// - Invalid UTF-8 inside strings: ours keeps the row with U+FFFD; Foundation rejects the
//   input. Foundation reads a copy in which each such sequence is already U+FFFD (decoded as
//   `String(decoding:as:)` does), and must then give what we give.
// - Lone surrogate escapes (`\ud800`, `\udc00`, a high one not followed by a low one): ours
//   gives U+FFFD; Foundation rejects. Foundation's copy has `\ufffd` in their place.
// - Nesting deeper than 512 arrays and objects: ours has no limit (the scanner does not
//   recurse); Foundation rejects ("Too many nested arrays or dictionaries").
// - Numbers beyond Double's range (`1e400`): valid RFC 8259 and ours accepts them (a number
//   where a name is expected is a bad_field_type, in a session_id its literal is kept);
//   Foundation rejects ("Number … is not representable in Swift").
// - Trailing commas (`[1,]`, `{"a":1,}`): Foundation accepts them, RFC 8259 and ours do not.
//   Foundation's copy has the comma doubled, which it rejects as well.
// - A raw U+FEFF at the start of a string or right after an escape: Foundation drops it (it
//   decodes each run of a string with `String(bytes:encoding:)`, which eats a leading byte
//   order mark); ours keeps it, as it is a character of the name. Foundation's copy has
//   `\ufeff` instead of the raw bytes.
// - Input Foundation reads as UTF-16 or UTF-32 (a UTF-16/32 byte order mark, or NUL bytes
//   among the first four): ours reads UTF-8 only (the program tells the user what to do with
//   such files before the scanner), so ours must reject it, and nothing more is compared.
//
// Not differences, checked as any input: a UTF-8 byte order mark at the start (both skip it),
// NUL (`\u0000`) and DEL in strings, duplicate keys (the last one wins in both), escaped keys
// (`"app\u005fname"`), top-level values that are not arrays (ours names what it found).

public func fuzzJSONScanner(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // libFuzzer's copy of the input is exactly `size` bytes: AddressSanitizer sees any read past it.
    JSONScannerFuzz.check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

enum JSONScannerFuzz {
    /// A known field as the scanner saw it.
    enum Field: Equatable, CustomStringConvertible {
        case absent, null, other
        case string([UInt32])
        case number(String)

        var description: String {
            switch self {
            case .absent: "absent"
            case .null: "null"
            case .other: "another type"
            case .number(let literal): "number \(literal)"
            case .string(let s): "string \(text(s).debugDescription)"
            }
        }
    }

    /// An array element: an object's five known fields (session_id, app_name, category,
    /// start_timestamp, end_timestamp), or nil for an element that is not an object.
    typealias Element = [Field]?

    static let fieldNames = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    /// Records what the scanner hands over, copying the bytes (they live until the next row).
    struct Recorder: RowSink {
        var elements: [Element] = []
        var offsets: [Int] = []

        mutating func addRow(
            id: FieldValue, app: FieldValue, category: FieldValue, start: FieldValue, end: FieldValue, offset: Int, line: Int
        ) {
            elements.append([id, app, category, start, end].map(Self.field))
            offsets.append(offset)
        }

        mutating func addNonObject(offset: Int, line: Int) {
            elements.append(nil)
            offsets.append(offset)
        }

        static func field(_ f: FieldValue) -> Field {
            switch f.kind {
            case .absent: .absent
            case .null: .null
            case .other: .other
            case .number: .number(String(decoding: f.bytes, as: UTF8.self))
            case .string: .string(scalars(String(decoding: f.bytes, as: UTF8.self)))
            }
        }
    }

    static func check(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)

        // 1. The scanner against Foundation.
        var scanner = JSONScanner(input)
        var recorder = Recorder()
        var ours: Result<Void, IngestError>
        do throws(IngestError) {
            try scanner.scanSessions(into: &recorder, cancellation: nil)
            ours = .success(())
        } catch {
            ours = .failure(error)
        }
        if case .failure(let error) = ours { checkError(error, bytes) }
        compareWithFoundation(ours, recorder.elements, bytes)

        // 2 and 3. The dataset, in one scan and in segments.
        let serial = Result { () throws(IngestError) in try SessionsJSON.scanOnce(input).dataset(source: "fuzz") }
        let chunking = fuzzChunking(for: bytes)
        let segmented = Result { () throws(IngestError) in try SessionsJSON.decode(input, source: "fuzz", chunking: chunking) }
        switch (serial, segmented) {
        case (.success(let one), .success(let two)):
            let a = Summary(one)
            let b = Summary(two)
            if a != b { fuzzFailure("the segmented scan (\(chunking)) differs from one scan:\n  one: \(a)\n  segmented: \(b)", input: bytes) }
            a.checkNamesUnique(bytes)
            if case .success = ours {
                let expected = Summary.expected(recorder, bytes)
                if a.sessions != expected.sessions || a.skippedText != expected.skippedText {
                    fuzzFailure("the dataset differs from docs/DATA.md §1 applied to the scanned fields:\n  got:      \(a)\n  expected: \(expected)", input: bytes)
                }
            } else {
                fuzzFailure("the scanner failed (\(ours)) but SessionsJSON.scan succeeded", input: bytes)
            }
        case (.failure(let one), .failure(let two)):
            if one != two { fuzzFailure("the segmented scan's (\(chunking)) error differs: one \(one), segmented \(two)", input: bytes) }
            guard case .failure(let direct) = ours, direct == one else {
                fuzzFailure("SessionsJSON.scan failed with \(one), the scanner gave \(ours)", input: bytes)
            }
        default:
            fuzzFailure("one scan gave \(serial), the segmented scan (\(chunking)) gave \(segmented)", input: bytes)
        }
    }

    // MARK: - Errors

    /// An error's line and column lie inside the input (the column may be one past a line's end).
    static func checkError(_ error: IngestError, _ bytes: [UInt8]) {
        switch error {
        case .syntax(let line, let column, let message):
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard line >= 1, line <= lines.count else {
                fuzzFailure("error line \(line) outside 1...\(lines.count): \(message)", input: bytes)
            }
            let scalarsInLine = lines[line - 1].filter { $0 & 0xC0 != 0x80 }.count
            guard column >= 1, column <= scalarsInLine + 1 else {
                fuzzFailure("error column \(column) outside 1...\(scalarsInLine + 1) on line \(line): \(message)", input: bytes)
            }
            if message.isEmpty { fuzzFailure("an error without a message", input: bytes) }
        case .empty:
            var rest = bytes[...]
            if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
            if !rest.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
                fuzzFailure("'empty' for an input that is not white space", input: bytes)
            }
        case .notAnArray: break
        case .malformed, .cancelled: fuzzFailure("unexpected error \(error)", input: bytes)
        }
    }

    // MARK: - Foundation

    /// Whether JSONSerialization reads `bytes` as UTF-16 or UTF-32 (its encoding detection).
    static func foundationReadsUTF16or32(_ b: [UInt8]) -> Bool {
        if b.count >= 4 {
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { return false }
            if b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0, 0, 0xFE, 0xFF]) { return true }
            return (b[0] == 0 && b[1] == 0 && b[2] == 0) || (b[1] == 0 && b[2] == 0 && b[3] == 0)
                || (b[0] == 0 && b[2] == 0) || (b[1] == 0 && b[3] == 0)
        }
        if b.count >= 2 { return b[0] == 0 || b[1] == 0 }
        return false
    }

    /// The input as JSONSerialization should read it to give what docs/DATA.md §1 asks of ours: inside
    /// strings, invalid UTF-8 and lone surrogate escapes become U+FFFD and a raw U+FEFF becomes
    /// `\ufeff`; outside them, a comma before `]` or `}` is doubled (see the list above).
    static func foundationCopy(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 16)
        var i = 0
        func isHex(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) }
        func hex4(at j: Int) -> UInt32? {
            guard j + 6 <= b.count, b[j] == 0x5C, b[j + 1] == 0x75, b[(j + 2)..<(j + 6)].allSatisfy(isHex) else { return nil }
            return UInt32(String(decoding: b[(j + 2)..<(j + 6)], as: UTF8.self), radix: 16)
        }
        let ws: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        while i < b.count {
            let c = b[i]
            if c == 0x2C {  // ","
                var k = i + 1
                while k < b.count, ws.contains(b[k]) { k += 1 }
                out.append(c)
                if k < b.count, b[k] == 0x5D || b[k] == 0x7D { out.append(c) }
                i += 1
                continue
            }
            out.append(c)
            i += 1
            guard c == 0x22 else { continue }
            // Inside a string, to its closing quote.
            while i < b.count {
                let d = b[i]
                if d == 0x22 {
                    out.append(d)
                    i += 1
                    break
                }
                if d == 0x5C {
                    if let v = hex4(at: i) {
                        if (0xD800...0xDBFF).contains(v), let low = hex4(at: i + 6), (0xDC00...0xDFFF).contains(low) {
                            out += b[i..<(i + 12)]
                            i += 12
                        } else if (0xD800...0xDFFF).contains(v) {
                            out += Array(#"\ufffd"#.utf8)
                            i += 6
                        } else {
                            out += b[i..<(i + 6)]
                            i += 6
                        }
                    } else {
                        // Another escape, valid or not, copied as it is with the byte it escapes
                        // (whatever that byte is: `\` before a non-ASCII byte must stay invalid).
                        out.append(d)
                        i += 1
                        if i < b.count {
                            out.append(b[i])
                            i += 1
                        }
                    }
                    continue
                }
                if d < 0x80 {
                    out.append(d)
                    i += 1
                    continue
                }
                // A run of non-ASCII bytes: ASCII ends every UTF-8 sequence, so decoding the run
                // alone replaces exactly what decoding the whole string would.
                var k = i
                while k < b.count, b[k] >= 0x80 { k += 1 }
                for u in String(decoding: b[i..<k], as: UTF8.self).unicodeScalars {
                    if u == "\u{FEFF}" { out += Array(#"\ufeff"#.utf8) } else { out += Array(String(u).utf8) }
                }
                i = k
            }
        }
        return out
    }

    static func compareWithFoundation(_ ours: Result<Void, IngestError>, _ elements: [Element], _ bytes: [UInt8]) {
        if foundationReadsUTF16or32(bytes) {
            guard case .failure(.syntax) = ours else {
                fuzzFailure("ours accepted input that Foundation reads as UTF-16 or UTF-32: \(ours)", input: bytes)
            }
            return
        }
        let copy = foundationCopy(bytes)
        let theirs: Any
        do {
            theirs = try JSONSerialization.jsonObject(with: Data(copy), options: [.fragmentsAllowed])
        } catch {
            let message = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            switch ours {
            case .failure(.syntax), .failure(.empty): return  // both reject
            default:
                if message.contains("Too many nested arrays or dictionaries") || message.contains("is not representable in Swift") {
                    return  // deliberate leniencies of ours
                }
                fuzzFailure("ours accepted (\(ours)), Foundation rejected: \(message)\nFoundation read: \(swiftLiteral(copy))", input: bytes)
            }
        }
        switch ours {
        case .failure(.notAnArray(let found)):
            let kind = describe(theirs)
            if kind == "an array" || kind != found {
                fuzzFailure("ours: not an array but \(found); Foundation: \(kind)", input: bytes)
            }
        case .failure(let error):
            fuzzFailure("ours rejected (\(error)), Foundation accepted \(String(describing: theirs).prefix(200))\nFoundation read: \(swiftLiteral(copy))", input: bytes)
        case .success:
            guard let array = theirs as? [Any] else {
                fuzzFailure("ours: an array; Foundation: \(describe(theirs))", input: bytes)
            }
            guard array.count == elements.count else {
                fuzzFailure("ours: \(elements.count) elements; Foundation: \(array.count)", input: bytes)
            }
            for (k, (element, value)) in zip(elements, array).enumerated() {
                guard let dict = value as? [String: Any] else {
                    if element != nil { fuzzFailure("element \(k): ours an object; Foundation: \(describe(value))", input: bytes) }
                    continue
                }
                guard let fields = element else { fuzzFailure("element \(k): ours not an object; Foundation: an object", input: bytes) }
                for (name, field) in zip(fieldNames, fields) where !same(field, dict[name]) {
                    fuzzFailure("element \(k), \(name): ours \(field); Foundation: \(String(describing: dict[name]))", input: bytes)
                }
            }
        }
    }

    /// What `IngestError.notAnArray` would call a value.
    static func describe(_ v: Any) -> String {
        switch v {
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case is String: "a string"
        case is NSNull: "null"
        case let n as NSNumber: isBoolean(n) ? "a boolean" : "a number"
        default: "something else (\(type(of: v)))"
        }
    }

    static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    static func same(_ ours: Field, _ theirs: Any?) -> Bool {
        guard let theirs else { return ours == .absent }
        switch ours {
        case .absent: return false
        case .null: return theirs is NSNull
        case .string(let s): return (theirs as? String).map(scalars) == s
        case .number(let literal):
            guard let n = theirs as? NSNumber, !isBoolean(n), let mine = Double(literal) else { return false }
            let other = n.doubleValue
            return mine == other || abs(mine - other) <= 1e-12 * max(abs(mine), abs(other))
        case .other:
            if let n = theirs as? NSNumber { return isBoolean(n) }
            return theirs is [Any] || theirs is [String: Any]
        }
    }

    // MARK: - The dataset

    /// What a dataset shows, by Unicode scalars.
    struct Summary: Equatable, CustomStringConvertible {
        struct Row: Equatable, CustomStringConvertible {
            var start: Int64
            var end: Int64
            var app: [UInt32]
            var category: [UInt32]
            var id: [UInt32]?
            var description: String {
                "(\(start)…\(end) \(text(app).debugDescription) \(text(category).debugDescription) id \(id.map { text($0).debugDescription } ?? "nil"))"
            }
        }

        struct Example: Equatable, CustomStringConvertible {
            var id: [UInt32]?
            var line: Int?
            var description: String { "(id \(id.map { text($0).debugDescription } ?? "nil"), line \(line.map(String.init) ?? "nil"))" }
        }

        var sessions: [Row] = []
        /// Count and first examples of each reason, in `SkipReason.allCases` order.
        var skipped: [String: (count: Int, examples: [Example])] = [:]
        var repaired = 0
        var apps: [[UInt32]] = []
        var categories: [[UInt32]] = []

        static func == (a: Summary, b: Summary) -> Bool {
            a.sessions == b.sessions && a.skippedText == b.skippedText && a.repaired == b.repaired && a.apps == b.apps
                && a.categories == b.categories
        }

        var skippedText: String {
            SkipReason.allCases.compactMap { r in skipped[r.rawValue].map { "\(r.rawValue)=\($0.count) \($0.examples)" } }
                .joined(separator: ", ")
        }

        var description: String {
            "\(sessions.count) sessions \(sessions.prefix(6)); skipped: \(skippedText); repaired \(repaired)"
        }

        init() {}

        init(_ d: Dataset) {
            sessions = d.sessions.map {
                Row(start: $0.start, end: $0.end, app: scalars(d.apps[Int($0.app)]), category: scalars(d.categories[Int($0.category)]),
                    id: $0.id.map(scalars))
            }
            for reason in SkipReason.allCases where d.skipped.count(reason) > 0 {
                let examples = d.skipped.examples[reason, default: []].map { Example(id: $0.sessionID.map(scalars), line: $0.line) }
                skipped[reason.rawValue] = (d.skipped.count(reason), examples)
            }
            repaired = d.repairedStrings
            apps = d.apps.map(scalars)
            categories = d.categories.map(scalars)
        }

        /// Each name once in the dataset's tables (canonically equivalent spellings stay apart).
        func checkNamesUnique(_ bytes: [UInt8]) {
            if Set(apps).count != apps.count { fuzzFailure("an app name is interned twice: \(apps.map(text))", input: bytes) }
            if Set(categories).count != categories.count {
                fuzzFailure("a category is interned twice: \(categories.map(text))", input: bytes)
            }
        }

        /// docs/DATA.md §1 applied to the recorded fields, in the builder's order of checks.
        static func expected(_ recorder: Recorder, _ bytes: [UInt8]) -> Summary {
            var result = Summary()
            var rows: [Row] = []
            func skip(_ reason: SkipReason, _ id: [UInt32]?, _ offset: Int) {
                var entry = result.skipped[reason.rawValue] ?? (0, [])
                entry.count += 1
                if entry.examples.count < SkipSummary.examplesPerReason {
                    let line = bytes[..<offset].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
                    entry.examples.append(Example(id: id, line: line))
                }
                result.skipped[reason.rawValue] = entry
            }
            func text(_ f: Field) -> String? {
                if case .string(let s) = f { return JSONScannerFuzz.text(s) }
                return nil
            }
            for (element, offset) in zip(recorder.elements, recorder.offsets) {
                guard let f = element else {
                    skip(.notAnObject, nil, offset)
                    continue
                }
                let id: [UInt32]? =
                    switch f[0] {
                    case .string(let s): s
                    case .number(let literal): scalars(literal)
                    default: nil
                    }
                let (app, category, start, end) = (f[1], f[2], f[3], f[4])
                if [start, end].contains(where: { $0 == .absent || $0 == .null }) {
                    skip(.missingTimestamp, id, offset)
                    continue
                }
                guard let startText = text(start), let endText = text(end),
                    let s = RefRFC3339.read(Array(startText.utf8))?.micros, let e = RefRFC3339.read(Array(endText.utf8))?.micros
                else {
                    skip(.badTimestamp, id, offset)
                    continue
                }
                let nameKinds: [Field] = [app, category]
                if nameKinds.contains(where: { if case .string = $0 { false } else { $0 != .absent && $0 != .null } }) {
                    skip(.badFieldType, id, offset)
                    continue
                }
                guard e > s else {
                    skip(.endNotAfterStart, id, offset)
                    continue
                }
                rows.append(
                    Row(start: s, end: e, app: scalars(RefRows.app(text(app))), category: scalars(RefRows.category(text(category))),
                        id: id))
            }
            // Sorted by start, then end; ties keep the file's order (a stable sort).
            result.sessions = rows.enumerated().sorted { a, b in
                (a.element.start, a.element.end, a.offset) < (b.element.start, b.element.end, b.offset)
            }.map(\.element)
            return result
        }
    }

    static func text(_ s: [UInt32]) -> String {
        var out = ""
        out.unicodeScalars.append(contentsOf: s.compactMap(Unicode.Scalar.init))
        return out
    }
}
