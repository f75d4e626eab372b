// SessionRowsTests.swift — the session table's statements rendered from its one description (SessionRows, RowLayout): each statement the store runs word for word, the written row the live table's columns in order on each backend, each field encoded as its column's type and read back from binary COPY, and a column added in a scratch copy of the description (with its migration) followed by every statement.
import Testing
import TestSupport
@testable import UsageStore

/// A row's fields as they are written: each its type's word and its value.
private struct Recorded: SessionRowSink {
    var fields: [String] = []
    mutating func bigint(_ value: Int64) { fields.append("bigint \(value)") }
    mutating func integer(_ value: Int32?) { fields.append("integer \(value.map(String.init) ?? "NULL")") }
    mutating func text(_ value: UnsafeBufferPointer<UInt8>?) { fields.append("text \(value.map { String(decoding: $0, as: UTF8.self) } ?? "NULL")") }
}

/// A session row with every value set, its id `abc`, for `body`.
private func sample<R>(_ body: (NewSessionRow) throws -> R) rethrows -> R {
    try Array("abc".utf8).withUnsafeBufferPointer { id in
        try body(
            NewSessionRow(
                id: 7, source: 2, key: -3, app: 4, category: 5, start: 1_000, length: 60, startOffset: 120, endOffset: nil, extID: id, device: 1))
    }
}

/// A column the scratch copies add: a session's source id, as a later change may.
private let origin = ColumnSpec("origin", .text, note: "the session's identity in its source, as the source said it")

struct SessionRowsTests {
    static let all = "id, source, key, app, category, start, length, start_offset, end_offset, ext_id, device"

    @Test func eachStatementTheStoreRunsIsRenderedFromTheDescription() {
        let rows = SessionRows.store
        let eleven = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        #expect(rows.written.insert() == "INSERT INTO session (\(Self.all)) VALUES \(eleven)")
        #expect(rows.written.insert(rows: 2) == "INSERT INTO session (\(Self.all)) VALUES \(eleven), \(eleven)")
        #expect(rows.written.copyIn == "COPY session (\(Self.all)) FROM STDIN (FORMAT binary)")
        #expect(rows.updated.update(key: "id") == "UPDATE session SET app = ?, category = ?, start = ?, length = ?, ext_id = ? WHERE id = ?")
        #expect(
            rows.stored.select("WHERE source = ?", from: "session NOT INDEXED")
                == "SELECT key, id, app, category, start, length FROM session NOT INDEXED WHERE source = ?")
        #expect(rows.window.select("WHERE id <= ?") == "SELECT start, length, app, category, ext_id FROM session WHERE id <= ?")
        #expect(rows.window.select("WHERE id <= ?", nulling: SessionRows.windowID) == "SELECT start, length, app, category, NULL FROM session WHERE id <= ?")
        #expect(
            PostgresWindowRows(apps: 1, categories: 1, ids: false).copy("WHERE start >= 0")
                == "COPY (SELECT start, length, app, category, NULL::text FROM session WHERE start >= 0) TO STDOUT (FORMAT binary)")
        #expect(
            rows.copied.select("WHERE source = ? ORDER BY start, length, id")
                == "SELECT key, app, category, start, length, ext_id, start_offset, end_offset FROM session WHERE source = ? ORDER BY start, length, id")
    }

    /// A column described and given no value of a new row would be written by no statement:
    /// every column the store writes has one.
    @Test func everyColumnTheStoreWritesCarriesAValueOfANewRow() {
        #expect(NewSessionRow.uncarried(SessionRows.store.written) == [])
        #expect(SessionRows.store.written.count == 11)
    }

    @Test func eachFieldIsWrittenAsItsColumnsTypeInTheLayoutsOrder() {
        let layout = SessionRows.store.written
        var sink = Recorded()
        sample { $0.write(NewSessionRow.fields(layout), to: &sink) }
        #expect(
            sink.fields == [
                "bigint 7", "bigint 2", "bigint -3", "bigint 4", "bigint 5", "bigint 1000", "bigint 60", "integer 120", "integer NULL", "text abc",
                "bigint 1",
            ])
        let word: (ColumnType) -> String = { type in
            switch type {
            case .identity, .int64: return "bigint"
            case .int32: return "integer"
            case .text: return "text"
            }
        }
        #expect(sink.fields.map { String($0.prefix { $0 != " " }) } == layout.types.map(word))
    }

    /// The binary COPY an import sends, read back by the reader of binary COPY: as many fields
    /// as the layout has columns, each where the COPY's column list names it.
    @Test func theBinaryRowHasTheLayoutsFieldsInItsOrder() throws {
        let layout = SessionRows.store.written
        let fields = NewSessionRow.fields(layout)
        var copy = PostgresBinaryCopy(capacity: 64)
        copy.header()
        sample { row in
            copy.row(fields: Int16(fields.count))
            row.write(fields, to: &copy)
        }
        copy.finish()
        var reader = PostgresBinaryRows(columns: layout.count)
        var read: [String] = []
        try copy.withBytes { bytes in
            try reader.read(bytes) { tuple in
                read = layout.columns.enumerated().map { k, column in
                    guard !tuple.isNull(k) else { return "\(column.name) NULL" }
                    switch column.type {
                    case .identity, .int64: return "\(column.name) \(tuple.int64(k))"
                    case .int32: return "\(column.name) \(Int32(bitPattern: tuple.bytes(k).reduce(0) { $0 << 8 | UInt32($1) }))"
                    case .text: return "\(column.name) \(String(decoding: tuple.bytes(k), as: UTF8.self))"
                    }
                }
            }
        }
        #expect(reader.finished)
        #expect(
            read == [
                "id 7", "source 2", "key -3", "app 4", "category 5", "start 1000", "length 60", "start_offset 120", "end_offset NULL", "ext_id abc",
                "device 1",
            ])
    }

    /// What the store writes is the live table's columns, in the table's order, on each backend.
    @Test(arguments: Backend.allCases) func theWrittenRowIsTheLiveTablesColumnsInOrder(_ backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let live =
            backend == .sqlite
            ? try s.rows("SELECT name FROM pragma_table_info('session') ORDER BY cid").map { $0.trimmingCharacters(in: ["\""]) }
            : try s.rows(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = 'usage_shell' AND table_name = 'session' ORDER BY ordinal_position")
        #expect(live.joined(separator: ", ") == Self.all)
        #expect(SessionRows.store.written.names() == Self.all)
    }

    /// Adding a column: its description and its migration, and every statement follows (the
    /// INSERT, the COPY's column list, the binary row's fields, a window's read of it), the
    /// test above naming the value a new row must carry for it.
    @Test func aColumnAddedInAScratchCopyOfTheDescriptionIsInEveryStatement() {
        let added = StoreMigration(name: "v10: scratch", steps: [.addColumn(table: "session", origin)])
        #expect(added.steps[0].statements(.postgres).map(\.sql) == ["ALTER TABLE session ADD COLUMN origin TEXT"])
        let table = StoreMigrations.tables(StoreMigrations.ledger(.postgres) + [added])["session"]!
        let scratch = SessionRows(table: table, window: SessionRows.windowColumns + ["origin"])
        let twelve = "(" + Array(repeating: "?", count: 12).joined(separator: ", ") + ")"
        #expect(scratch.written.insert() == "INSERT INTO session (\(Self.all), origin) VALUES \(twelve)")
        #expect(scratch.written.copyIn == "COPY session (\(Self.all), origin) FROM STDIN (FORMAT binary)")
        #expect(scratch.written.count == 12)
        #expect(scratch.written.types.last == .text)
        #expect(scratch.window.select("WHERE id <= ?") == "SELECT start, length, app, category, ext_id, origin FROM session WHERE id <= ?")
        #expect(
            PostgresWindowRows(apps: 1, categories: 1, ids: false, layout: scratch.window).copy("WHERE true")
                == "COPY (SELECT start, length, app, category, NULL::text, origin FROM session WHERE true) TO STDOUT (FORMAT binary)")
        #expect(scratch.window.count == 6)
        #expect(NewSessionRow.uncarried(scratch.written) == ["origin"])
        // The store's own description is untouched by the scratch copy.
        #expect(SessionRows.store.written.count == 11)
    }
}
