// ImportChunkTests.swift — an import too big for one COPY chunk (PostgreSQL encodes the next chunk on another thread while it sends one): every row stored once, with its id, key, times and offsets, as the SQLite store stores the same file; the kept totals as its rows make them; and COPY's binary rows byte for byte against hand-written bytes, chunk by chunk.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
@testable import UsageStore

struct ImportChunkTests {
    /// Two chunks and three rows: ids with and without non-ASCII letters, none, a NUL escaped
    /// (`\u0000`), offsets east, west, `Z`.
    static func sessions(count: Int) -> Dataset {
        var random = SplitMix64(29)
        let offsets = ["Z", "+05:30", "-08:00", "+01:00"]
        var list: [String] = []
        for k in 0..<count {
            let day = 1 + random.below(27)
            let hour = random.below(23)
            let zone = offsets[random.below(offsets.count)]
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let start = "2026-02-\(two(day))T\(two(hour)):\(two(random.below(60))):\(two(random.below(60)))\(zone)"
            let end = "2026-02-\(two(day))T\(two(hour + 1)):\(two(random.below(60))):\(two(random.below(60)))\(zone)"
            let id: String? = k % 97 == 0 ? nil : k % 89 == 0 ? "café-\(k)" : k % 83 == 0 ? "nul\\u0000-\(k)" : "s\(k)"
            list.append(row(id, "App\(random.below(7))", random.below(5) == 0 ? nil : "Cat\(random.below(3))", start, end))
        }
        return dataset(rows(list))
    }

    /// Every session row, in id order, read by plain queries (not the COPY the import wrote by).
    static func stored(_ store: any StoreWriter) throws -> [String] {
        try (store as! any SQLStore).read { tx in
            try tx.rows(
                "SELECT s.id, s.key, s.start, s.length, s.ext_id, s.start_offset, s.end_offset, a.name AS app, c.name AS category "
                    + "FROM session s JOIN app a ON a.id = s.app JOIN category c ON c.id = s.category ORDER BY s.id", []
            ).map { r in
                ["id", "key", "start", "length", "ext_id", "start_offset", "end_offset", "app", "category"].map { column in
                    r.int(column).map(String.init) ?? r.text(column) ?? "NULL"
                }.joined(separator: "|")
            }
        }
    }

    @Test func anImportOfSeveralCopyChunksStoresWhatTheSQLiteStoreStores() throws {
        guard available(.postgres) else { return }
        let d = Self.sessions(count: 2 * PostgresNewRows.chunk + 3)
        var summaries: [[Int]] = []
        var tables: [[String]] = []
        for backend in Backend.allCases {
            let s = try BackendStore(backend)
            let summary = try s.store.importSessions(
                [ImportSource(identity: "/big.json", shown: d.source, dataset: d, device: "laptop")], now: importNow, zone: .utc)
            summaries.append(summary.sources.map(\.added))
            let rows = try Self.stored(s.store)
            tables.append(rows)
            let kept = try StoreBackendTests.keptTables(s.store)
            #expect(kept.kept == kept.fresh, "\(backend)'s kept totals are its rows'")
            #expect(rows.map { Int($0.prefix { $0 != "|" })! } == Array(1...rows.count), "\(backend): ids 1… without a gap")
        }
        #expect(summaries == [[d.sessionCount], [d.sessionCount]])
        #expect(tables[0].count == d.sessionCount)
        let differ = zip(tables[0], tables[1]).filter { $0 != $1 }
        #expect(tables[0].count == tables[1].count && differ.isEmpty, "PostgreSQL's rows equal SQLite's; first differences: \(differ.prefix(3))")
        #expect(tables[1].contains { $0.contains("|nul\u{0}-83|") }, "the id with a NUL comes back as it went in")
        #expect(tables[1].contains { $0.contains("|-480|") } && tables[1].contains { $0.contains("|330|") }, "offsets west and east")
    }

    /// The chunks of one COPY: the signature only before the first, the trailer only after
    /// the last, ids from `firstID` one a row across chunks (the server takes a trailer-less end
    /// as an end too, so the import test alone would not see a trailer lost).
    @Test func chunksCarryTheHeaderFirstTheTrailerLastAndIDsInTurn() {
        let d = Self.sessions(count: 5)
        let rows = PostgresNewRows(
            dataset: d, keys: [10, 11, 12, 13, 14], inserts: [0, 2, 4], source: 7, device: 3, apps: Array(1...7).map(Int64.init),
            categories: Array(1...4).map(Int64.init), firstID: 100)
        let parts = [0..<1, 1..<2, 2..<3].map { part in rows.encode(part).withBytes { Array($0) } }
        let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]
        #expect(parts.map { Array($0.prefix(11)) == signature } == [true, false, false])
        #expect(parts.map { $0.suffix(2) == [0xFF, 0xFF] } == [false, false, true])
        // A row: its field count (11), then the id as an 8-byte field; after the header in the first.
        let ids = parts.enumerated().map { n, bytes -> Int64 in
            let row = bytes.dropFirst(n == 0 ? 19 : 0)
            #expect(Array(row.prefix(6)) == [0, 11, 0, 0, 0, 8])
            return row.dropFirst(6).prefix(8).reduce(0) { $0 << 8 | Int64($1) }
        }
        #expect(ids == [100, 101, 102])
    }

    /// A field longer than the room made grows the buffer, keeping what was written.
    @Test func aTextLongerThanTheRoomGrowsTheBuffer() {
        let copy = PostgresBinaryCopy(capacity: 1)
        copy.bigint(1)
        let long = Array(repeating: UInt8(ascii: "a"), count: 300)
        long.withUnsafeBufferPointer { copy.text($0) }
        copy.bigint(2)
        #expect(copy.withBytes { Array($0) }
            == [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 1, 44] + long + [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 2])
    }

    /// One row of each kind of field, with the format's header and trailer, as PostgreSQL's
    /// documentation lays them out (network byte order; a length before each field; -1 for NULL).
    @Test func copyRowsAreTheBytesTheBinaryFormatSays() {
        let copy = PostgresBinaryCopy(capacity: 1)
        copy.header()
        copy.row(fields: 4)
        copy.bigint(-2)
        copy.integer(330)
        copy.integer(nil)
        "é\u{0}x".utf8CString.dropLast().map { UInt8(bitPattern: $0) }.withUnsafeBufferPointer { copy.text($0) }
        copy.finish()
        let expected: [UInt8] =
            [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]  // PGCOPY\n\377\r\n\0, flags, extension
            + [0x00, 0x04]  // four fields
            + [0, 0, 0, 8] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]  // bigint -2
            + [0, 0, 0, 4] + [0x00, 0x00, 0x01, 0x4A]  // integer 330
            + [0xFF, 0xFF, 0xFF, 0xFF]  // NULL
            + [0, 0, 0, 7] + [0xC3, 0xA9, 0xEF, 0xBF, 0xBE, 0x30, 0x78]  // text: é, the NUL as the store keeps it (U+FFFE 0), x
            + [0xFF, 0xFF]  // trailer
        #expect(copy.withBytes { Array($0) } == expected)
    }
}
