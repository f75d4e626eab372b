// JSONText.swift — a minimal ordered JSON value and its one-line serialisation, for docs/DATA.md §8's shapes.
import UsageCore

/// A JSON value whose objects keep their key order, so output matches docs/DATA.md §8 key for key.
public indirect enum JSONText: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// Seconds held as exact microseconds, printed as a decimal with no trailing zeros (`12.5`).
    case seconds(Micros)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText)])
    /// A list of records (objects), written as an array, with the fields its records have:
    /// the CSV made of the document has them as its first columns, with rows or without, so a
    /// view's CSV header does not change on a day with none (or with rows that leave a field
    /// out: a limit names an app or a category).
    case records([JSONText], fields: [String])

    public static func == (a: JSONText, b: JSONText) -> Bool { a.serialized == b.serialized }

    /// An object with one more member first (anything else as it is).
    public func leading(_ key: String, _ value: JSONText) -> JSONText {
        guard case .object(let members) = self else { return self }
        return .object([(key, value)] + members)
    }

    /// The value on one line, no spaces.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .double(let d): out += d.isFinite ? JSONText.number(d) : "null"
        case .seconds(let m): out += JSONText.seconds(m)
        case .string(let s): JSONText.writeString(s, to: &out)
        case .array(let items), .records(let items, _):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { out += "," }
                JSONText.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Shortest round-trip decimal of a double, integral values without `.0`.
    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Exact seconds of a microsecond count: `25200`, `12.5`, `0.000001`.
    static func seconds(_ micros: Micros) -> String {
        let negative = micros < 0
        let m = negative ? -micros : micros
        var text = String(m / 1_000_000)
        let fraction = m % 1_000_000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return negative ? "-" + text : text
    }

    /// Writes a JSON string. Beyond what JSON requires, DEL, C1 and bidi controls are written as
    /// `\u` escapes too: the decoded string is the same, and the raw text is safe on a terminal.
    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            default:
                if TerminalText.needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
