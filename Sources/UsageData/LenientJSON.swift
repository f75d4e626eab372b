// LenientJSON.swift — Decodable pieces that never fail on a bad value (ActivityWatch and Timewarrior files): a field says whether it was absent, null, of the right type or not; an element says whether it was an object.
import Foundation
import UsageCore

/// One field as a row had it.
enum LenientField<Value: Decodable>: Decodable {
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

extension LenientField: Sendable where Value: Sendable {}
extension LenientField: Equatable where Value: Equatable {}

extension KeyedDecodingContainer {
    /// A field that is `.absent` when the key is not there, and never throws. The usual case (a
    /// value of the right type) costs one decode; the others are told apart only when it fails.
    func lenient<V: Decodable>(_ type: V.Type, _ key: Key) -> LenientField<V> {
        if let value = try? decode(V.self, forKey: key) { return .value(value) }
        guard contains(key) else { return .absent }
        return (try? decodeNil(forKey: key)) == true ? .null : .wrongType
    }

    /// An id as text: a string, or a number's literal value; nil otherwise.
    func idText(_ key: Key) -> String? {
        if let n = try? decode(Int64.self, forKey: key) { return String(n) }
        if let s = try? decode(String.self, forKey: key) { return s }
        if let d = try? decode(Double.self, forKey: key) { return String(d) }
        return nil
    }
}

/// An array element that is an object of `T`, or a note that it was not one.
enum LenientElement<T: Decodable>: Decodable {
    case object(T)
    case notAnObject

    /// `T`'s initialiser must throw only when the value is not an object (its fields are lenient).
    init(from decoder: any Decoder) throws {
        do {
            self = .object(try T(from: decoder))
        } catch {
            self = .notAnObject
        }
    }
}

extension LenientElement: Sendable where T: Sendable {}

extension SourceFormat {
    /// Decodes a whole JSON document with Foundation's `JSONDecoder` (fast, and compact in
    /// memory, unlike `JSONSerialization`'s objects). Invalid UTF-8 and lone surrogate escapes in
    /// strings become U+FFFD first (counted); a syntax error is located by the sessions scanner,
    /// which reports line and column; a document of the wrong shape is `malformed`.
    static func decodeJSON<T: Decodable>(
        _ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>, format: SourceFormat
    ) throws(IngestError) -> (value: T, repairedStrings: Int) {
        let start = ByteText.skipBOM(bytes)
        let body = UnsafeBufferPointer(rebasing: bytes[start...])
        let decoder = JSONDecoder()
        var shapeProblem: String?
        // Foundation reads a string with invalid UTF-8 or a lone surrogate as no string at all.
        if JSONRepair.mayNeedRepair(body) {
            let (repaired, count) = JSONRepair.repair(body)
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
        throw .malformed(format: format.rawValue, problem: shapeProblem ?? "its JSON could not be read (nesting too deep?)")
    }

    /// `"buckets" is not an object`-style words for a decoding error's place.
    private static func describe(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "\"\($0.stringValue)\"" }.joined(separator: " ")
        return path.isEmpty ? "the top level is not what it should be" : "\(path) is missing or of the wrong type"
    }
}
