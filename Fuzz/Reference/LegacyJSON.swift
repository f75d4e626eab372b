// Fuzz/Reference/LegacyJSON.swift — the Foundation-based JSON pieces the old ActivityWatch reader used (lenient fields, JSONRepair, decodeJSON), kept for LegacyActivityWatch; never part of the program.
import Foundation

#if canImport(UsageCore)
    import UsageCore
#endif
#if canImport(UsageFormats)
    import UsageFormats
#endif

/// One field as a row had it.
enum LegacyLenientField<Value: Decodable>: Decodable {
    case absent
    case null
    case value(Value)
    /// Present, but not a `Value`.
    case wrongType

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Value.self) {
            self = .value(value)
        } else {
            self = .wrongType
        }
    }

    var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }

    /// Absent or null.
    var isMissing: Bool {
        switch self {
        case .absent, .null: return true
        case .value, .wrongType: return false
        }
    }
}

extension KeyedDecodingContainer {
    /// A field that is `.absent` when the key is not there, and never throws. The usual case (a
    /// value of the right type) costs one decode; the others are told apart only when it fails.
    func legacyLenient<V: Decodable>(_ type: V.Type, _ key: Key) -> LegacyLenientField<V> {
        if let value = try? decode(V.self, forKey: key) { return .value(value) }
        guard contains(key) else { return .absent }
        return (try? decodeNil(forKey: key)) == true ? .null : .wrongType
    }

    /// An id as text: a string, or a number's literal value; nil otherwise.
    func legacyIdText(_ key: Key) -> String? {
        if let n = try? decode(Int64.self, forKey: key) { return String(n) }
        if let s = try? decode(String.self, forKey: key) { return s }
        if let d = try? decode(Double.self, forKey: key) { return String(d) }
        return nil
    }
}

/// An array element that is an object of `T`, or a note that it was not one.
public enum LegacyLenientElement<T: Decodable>: Decodable {
    case object(T)
    case notAnObject

    /// `T`'s initialiser must throw only when the value is not an object (its fields are lenient).
    public init(from decoder: any Decoder) throws {
        do {
            self = .object(try T(from: decoder))
        } catch {
            self = .notAnObject
        }
    }
}

/// The old readers' JSON decoding.
public enum LegacyJSON {
    /// Decodes a whole JSON document with Foundation's `JSONDecoder` (fast, and compact in
    /// memory, unlike `JSONSerialization`'s objects). Invalid UTF-8 and lone surrogate escapes in
    /// strings become U+FFFD first (counted); a syntax error is located by the sessions scanner,
    /// which reports line and column; a document of the wrong shape is `malformed`.
    public static func decodeJSON<T: Decodable>(
        _ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>, format: String
    ) throws(IngestError) -> (value: T, repairedStrings: Int) {
        let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        let body = UnsafeBufferPointer(rebasing: bytes[start...])
        let decoder = JSONDecoder()
        var shapeProblem: String?
        // Foundation reads a string with invalid UTF-8 or a lone surrogate as no string at all.
        if LegacyJSONRepair.mayNeedRepair(body) {
            let (repaired, count) = LegacyJSONRepair.repair(body)
            if count > 0 {
                if let value = try? decoder.decode(T.self, from: Data(repaired)) { return (value, count) }
            }
        }
        do {
            return (try decoder.decode(T.self, from: Data(body)), 0)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.keyNotFound(_, context),
            let DecodingError.valueNotFound(_, context)
        {
            shapeProblem = Self.describe(context)
        } catch {}
        if shapeProblem == nil {
            // Not JSON to Foundation: let the scanner say where (it validates any JSON).
            do {
                _ = try SessionsJSON.scan(bytes)
            } catch .notAnArray {
                // Valid JSON that is not an array: the shape is what is wrong.
            } catch {
                throw error
            }
        }
        throw .malformed(format: format, problem: shapeProblem ?? "its JSON could not be read (nesting too deep?)")
    }

    /// `"buckets" is not an object`-style words for a decoding error's place.
    private static func describe(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "\"\($0.stringValue)\"" }.joined(separator: " ")
        return path.isEmpty ? "the top level is not what it should be" : "\(path) is missing or of the wrong type"
    }
}

/// Replaces, inside JSON strings only, every invalid UTF-8 sequence with U+FFFD's bytes and
/// every lone surrogate escape (`\ud800` not followed by a low one, or a low one alone) with
/// `\ufffd`; the sessions scanner does the same while scanning. Everything else is copied.
public enum LegacyJSONRepair {
    /// Whether the bytes may need repair: they are not valid UTF-8, or hold a surrogate escape
    /// (`\\uD8..`–`\\uDF..`; a well-formed pair needs none, which `repair` finds out).
    public static func mayNeedRepair(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if String(validating: b, as: UTF8.self) == nil { return true }
        var i = 0
        while i + 2 < b.count {
            if b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u"), b[i + 2] == UInt8(ascii: "d") || b[i + 2] == UInt8(ascii: "D") {
                return true
            }
            i += 1
        }
        return false
    }

    /// The repaired bytes and how many strings needed repair (0: the bytes are unchanged).
    public static func repair(_ b: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], repairedStrings: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        var inString = false
        var repairedHere = false
        var repaired = 0
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        while i < b.count {
            let c = b[i]
            if !inString {
                if c == UInt8(ascii: "\"") {
                    inString = true
                    repairedHere = false
                }
                out.append(c)
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                inString = false
                if repairedHere { repaired += 1 }
                out.append(c)
                i += 1
            case UInt8(ascii: "\\"):
                if let high = hex4(b, i + 2), i + 1 < b.count, b[i + 1] == UInt8(ascii: "u"), (0xD800...0xDFFF).contains(high) {
                    let pairedLow = high <= 0xDBFF && i + 7 < b.count && b[i + 6] == UInt8(ascii: "\\")
                        && b[i + 7] == UInt8(ascii: "u") && hex4(b, i + 8).map { (0xDC00...0xDFFF).contains($0) } == true
                    if pairedLow {
                        out.append(contentsOf: b[i..<(i + 12)])
                        i += 12
                    } else {
                        out.append(contentsOf: Array("\\ufffd".utf8))
                        repairedHere = true
                        i += 6
                    }
                } else {
                    out.append(contentsOf: b[i..<min(b.count, i + 2)])
                    i += 2
                }
            case 0..<0x80:
                out.append(c)
                i += 1
            default:
                let n = validSequenceLength(b, at: i)
                if n > 0 {
                    out.append(contentsOf: b[i..<(i + n)])
                    i += n
                } else {
                    out.append(contentsOf: replacement)
                    repairedHere = true
                    i += 1
                }
            }
        }
        return repaired == 0 ? (Array(b), 0) : (out, repaired)
    }

    /// The value of 4 hex digits at `i`, or nil.
    private static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        guard i + 4 <= b.count else { return nil }
        var value = 0
        for k in i..<(i + 4) {
            guard let digit = Int(String(UnicodeScalar(b[k])), radix: 16) else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    /// The length of the valid UTF-8 sequence starting at `i` (a byte ≥ 0x80), or 0.
    private static func validSequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = b[i]
        let (n, second): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (n, second) = (2, 0x80...0xBF)
        case 0xE0: (n, second) = (3, 0xA0...0xBF)
        case 0xED: (n, second) = (3, 0x80...0x9F)
        case 0xE1...0xEF: (n, second) = (3, 0x80...0xBF)
        case 0xF0: (n, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (n, second) = (4, 0x80...0xBF)
        case 0xF4: (n, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard i + n <= b.count, second.contains(b[i + 1]) else { return 0 }
        for k in (i + 2)..<(i + n) where !(0x80...0xBF).contains(b[k]) { return 0 }
        return n
    }
}
