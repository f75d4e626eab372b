// NewSessionRow.swift — a new session row's values (an import's, a copy's, the recorder's) and the one place that says which value each column of the session table carries, an import's row made from its sessions once for both backends, written a field at a time in a layout's order to a sink: SQLite's parameters, PostgreSQL's binary COPY, SQL values.
import UsageCore

/// Where a row's fields go, in the layout's order, each as its column's type is: the identity and
/// `int64` as `bigint`, `int32` as `integer`, `text` as text.
protocol SessionRowSink {
    mutating func bigint(_ value: Int64)
    mutating func integer(_ value: Int32?)
    mutating func text(_ value: UnsafeBufferPointer<UInt8>?)
}

/// The values of a session row, as a statement writes them. Built on the stack for each row,
/// written by a `switch` over the layout's fields (no allocation, no call through a protocol's
/// table: the sink's type is known where it is written).
struct NewSessionRow {
    var id: Int64 = 0
    var source: Int64 = 0
    var key: Int64 = 0
    var app: Int64 = 0
    var category: Int64 = 0
    var start: Int64 = 0
    var length: Int64 = 0
    var startOffset: Int32? = nil
    var endOffset: Int32? = nil
    /// The session's own id, its UTF-8 bytes, valid while the row is written.
    var extID: UnsafeBufferPointer<UInt8>? = nil
    var device: Int64 = 0

    /// Session `k` of an import's (or a copy's) `sessions`, their ids and offsets `ids`, as a
    /// new row: its id `id`, its identity `key`, its names' ids looked up in `apps` and
    /// `categories`. The id's bytes are valid while `ids` is.
    @inline(__always)
    static func imported(
        _ sessions: SessionColumns, _ ids: UsageCore.SessionIDs, _ k: Int, id: Int64, key: Int64, source: Int64, device: Int64, apps: [Int64],
        categories: [Int64]
    ) -> NewSessionRow {
        let (start, end, app, category) = sessions.core(k)
        let offsets = ids.offsets(at: k)
        return NewSessionRow(
            id: id, source: source, key: key, app: apps[Int(app)], category: categories[Int(category)], start: start, length: end - start,
            startOffset: offsets.start.map(Int32.init), endOffset: offsets.end.map(Int32.init), extID: ids.id(at: k), device: device)
    }

    /// A column of the session table, by its name, and which of the values it carries.
    enum Field: String, Sendable {
        case id, source, key, app, category, start, length
        case startOffset = "start_offset"
        case endOffset = "end_offset"
        case extID = "ext_id"
        case device
    }

    /// The columns of `layout` that no value here carries (none, for every layout the store writes).
    static func uncarried(_ layout: RowLayout) -> [String] {
        layout.columns.map(\.name).filter { Field(rawValue: $0) == nil }
    }

    /// The fields of `layout`, in its order. A column no value carries is this program's mistake
    /// (a column described and not given its value): it stops, naming the column.
    static func fields(_ layout: RowLayout) -> [Field] {
        layout.columns.map { column in
            guard let field = Field(rawValue: column.name) else {
                preconditionFailure("no value of a new session row is written to the \(layout.table) column \(column.name)")
            }
            return field
        }
    }

    /// Writes the values of `fields`, in their order, to `sink`.
    @inline(__always)
    func write<Fields: Collection<Field>, Sink: SessionRowSink>(_ fields: Fields, to sink: inout Sink) {
        for field in fields {
            switch field {
            case .id: sink.bigint(id)
            case .source: sink.bigint(source)
            case .key: sink.bigint(key)
            case .app: sink.bigint(app)
            case .category: sink.bigint(category)
            case .start: sink.bigint(start)
            case .length: sink.bigint(length)
            case .startOffset: sink.integer(startOffset)
            case .endOffset: sink.integer(endOffset)
            case .extID: sink.text(extID)
            case .device: sink.bigint(device)
            }
        }
    }

    /// `fields`' values as SQL values (a statement of one row at a time: the recorder's insert,
    /// an update in place).
    func values(_ fields: [Field]) -> [SQLValue] {
        var sink = SQLValues()
        write(fields, to: &sink)
        return sink.values
    }
}

/// A row's fields as SQL values, in order.
struct SQLValues: SessionRowSink {
    var values: [SQLValue] = []

    mutating func bigint(_ value: Int64) { values.append(.integer(value)) }
    mutating func integer(_ value: Int32?) { values.append(value.map { .integer(Int64($0)) } ?? .null) }
    mutating func text(_ value: UnsafeBufferPointer<UInt8>?) { values.append(value.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null) }
}
