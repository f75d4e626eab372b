// PostgresSideReader.swift — a PostgreSQL store's second reading connection: opened when a long window is first read, it reads the window's later half in the snapshot the reader's transaction exports, on another thread, so the server scans both halves at once; whatever fails there is left to the reader.
import Synchronization
import UsageCore

/// The side connection of one store (closed with it).
final class PostgresSideReader: Sendable {
    private let conninfo: String
    private let shown: String
    /// The connection once made; `closed` once the store closed.
    private let state = Mutex<(connection: PostgresConnection?, closed: Bool)>((nil, false))

    init(conninfo: String, shown: String) {
        self.conninfo = conninfo
        self.shown = shown
    }

    /// Reads `sql` (a window's COPY) in `snapshot`, or nil when it cannot: no connection to be
    /// had, a snapshot the server will not share (a connection pooler between), any failure.
    /// The connection is dropped after a failure and made again next time.
    func read(_ sql: String, rows: PostgresWindowRows, snapshot: String, expected: Int) -> SessionColumns? {
        guard snapshot.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        return state.withLock { state -> SessionColumns? in
            guard !state.closed else { return nil }
            if state.connection == nil {
                guard let made = try? PostgresConnection.connect(conninfo, shown: shown) else { return nil }
                guard (try? made.execute("SET search_path TO \(PostgresSchema.namespace)")) != nil else {
                    made.close()
                    return nil
                }
                state.connection = made
            }
            let connection = state.connection!
            do {
                return try connection.exclusive { held in
                    _ = try held.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    do {
                        _ = try held.execute("SET TRANSACTION SNAPSHOT '\(snapshot)'")
                        let columns = try rows.read(sql, on: held, expected: expected)
                        _ = try held.execute("COMMIT")
                        return columns
                    } catch {
                        _ = try? held.execute("ROLLBACK")
                        throw error
                    }
                }
            } catch {
                connection.close()
                state.connection = nil
                return nil
            }
        }
    }

    func close() {
        state.withLock { state in
            state.connection?.close()
            state = (nil, true)
        }
    }
}

extension PostgresStore {
    /// Windows longer than this (from their earliest start read) are read in two halves at once.
    static let splitSpan: Micros = 36 * 3_600_000_000

    /// The id of the reader's transaction's snapshot, for the side reader to read in.
    func exportSnapshot(_ held: PostgresConnection.Held) throws -> String {
        String(decoding: try held.execute("SELECT pg_export_snapshot()").bytes(0, 0), as: UTF8.self)
    }

    /// Starts reading `sql` on the side connection, on another thread.
    func sideRead(_ sql: String, rows: PostgresWindowRows, snapshot: String, expected: Int) -> Background<SessionColumns?> {
        let side = self.side
        return Background { side.read(sql, rows: rows, snapshot: snapshot, expected: expected) }
    }
}
