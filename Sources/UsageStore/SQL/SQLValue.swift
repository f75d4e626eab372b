// SQLValue.swift — the values the store's shared SQL binds and reads (null, integer, real, text), and a row of them read by column name: what every backend's driver is reduced to.

/// A value bound to a statement or read from a row.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// An optional integer: null when absent.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    /// An optional count or id: null when absent.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// An optional text: null when absent.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }

    /// The integer, or nil (a real is not rounded: the store keeps integers as integers).
    public var integer: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    /// The text, or nil.
    public var text: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}

/// One row of a result, its values by column name (as the statement named them).
public struct SQLRow: Sendable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the column `name` (null when the statement has no such column).
    public subscript(_ name: String) -> SQLValue {
        guard let k = columns.firstIndex(of: name) else { return .null }
        return values[k]
    }

    /// The value at position `k`.
    public subscript(_ k: Int) -> SQLValue { values[k] }

    /// The integer of column `name`, or nil when it is null.
    public func int(_ name: String) -> Int64? { self[name].integer }

    /// The text of column `name`, or nil when it is null.
    public func text(_ name: String) -> String? { self[name].text }
}
