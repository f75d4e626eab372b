// PostgresTransaction.swift — the shared store code's transaction on a PostgreSQL connection: `?` placeholders numbered as `$1…`, values sent as text and read back by their column's type, and text that PostgreSQL cannot hold (a NUL) carried by an escape both ways.
import Foundation
import Synchronization

/// A transaction (or a read) on a held connection, as `SQLTransaction`.
struct PostgresTransaction: SQLTransaction {
    let held: PostgresConnection.Held

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let result = try held.execute(PostgresSQL.numbered(sql), arguments.map(PostgresSQL.parameter))
        let names = (0..<result.columns).map(result.name)
        let types = (0..<result.columns).map(result.type)
        return (0..<result.rows).map { row in
            SQLRow(columns: names, values: (0..<result.columns).map { column in
                result.isNull(row, column) ? .null : result.withBytes(row, column) { PostgresSQL.value($0, type: types[column]) }
            })
        }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        let result = try held.execute(PostgresSQL.numbered(sql), arguments.map(PostgresSQL.parameter))
        return result.changed
    }

    /// All rows in one statement: each column an array parameter, `unnest` making the rows (a
    /// hundred-row `VALUES` a statement cost an import a quarter of a second in parsing alone).
    func addRows(_ table: String, columns: [String], key: [String], rows: [[Int64]]) throws {
        guard !rows.isEmpty else { return }
        let arrays = columns.indices.map { c in "{" + rows.map { String($0[c]) }.joined(separator: ",") + "}" }
        _ = try held.execute(
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT * FROM unnest("
                + (1...columns.count).map { "$\($0)::bigint[]" }.joined(separator: ", ") + ")"
                + Self.onConflict(table, columns: columns, key: key),
            arrays)
    }
}

/// How the shared SQL and its values meet PostgreSQL.
enum PostgresSQL {
    private static let cache = Mutex<[String: String]>([:])

    /// `sql` with each `?` (outside quotes) as `$1`, `$2`… in order.
    static func numbered(_ sql: String) -> String {
        if let known = cache.withLock({ $0[sql] }) { return known }
        var out = ""
        var n = 0
        var quote: Character?
        for c in sql {
            if let q = quote {
                if c == q { quote = nil }
                out.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                out.append(c)
            } else if c == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(c)
            }
        }
        cache.withLock { $0[sql] = out }
        return out
    }

    /// A value as a text parameter (nil: NULL).
    static func parameter(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return escaped(v)
        }
    }

    /// A text result as a value of its column's type.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, type: UInt32) -> SQLValue {
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case 20, 21, 23, 26: return Int64(text).map(SQLValue.integer) ?? .text(text)  // int8, int2, int4, oid
        case 16: return .integer(text == "t" ? 1 : 0)  // bool
        case 700, 701: return Double(text).map(SQLValue.real) ?? .text(text)  // float4, float8
        case 1700: return Int64(text).map(SQLValue.integer) ?? Double(text).map(SQLValue.real) ?? .text(text)  // numeric (sum of int8)
        default: return .text(unescaped(text))
        }
    }

    /// The escape of text PostgreSQL cannot store: U+0000 as U+FFFE `0`, and U+FFFE itself
    /// doubled, so that every name comes back exactly as it went in (SQLite keeps NULs).
    static let escape: Unicode.Scalar = "\u{FFFE}"

    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\0" || $0 == escape }) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s == "\0" {
                out.append(escape)
                out.append("0")
            } else if s == escape {
                out.append(escape)
                out.append(escape)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    static func unescaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(escape) else { return text }
        var out = String.UnicodeScalarView()
        var pending = false
        for s in text.unicodeScalars {
            if pending {
                out.append(s == "0" ? "\0" : s)
                pending = false
            } else if s == escape {
                pending = true
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    /// A value for COPY's text format: `\N` for NULL; backslash, tab, line breaks escaped.
    static func copyField(_ value: SQLValue, into out: inout [UInt8]) {
        switch value {
        case .null: out += [0x5C, 0x4E]
        case .integer(let v): out += Array(String(v).utf8)
        case .real(let v): out += Array(String(v).utf8)
        case .text(let v): copyText(escaped(v), into: &out)
        }
    }

    /// Text for COPY's text format.
    static func copyText(_ text: String, into out: inout [UInt8]) {
        for b in text.utf8 {
            switch b {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x09: out += [0x5C, 0x74]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            default: out.append(b)
            }
        }
    }
}
