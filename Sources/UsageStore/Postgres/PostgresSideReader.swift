// PostgresSideReader.swift — a PostgreSQL store's second reading connection (its third): opened when a long window is first read, it reads the window's later half in the snapshot the reader's transaction exports, on another thread, so the server scans both halves at once; not used on a standby or once refused, and whatever fails there is left to the reader.
import Synchronization
import UsageCore

/// The side connection of one store (closed with it).
final class PostgresSideReader: Sendable {
    private let conninfo: String
    private let shown: String
    /// The connection once made; `closed` once the store closed or a long window cannot be
    /// shared here (a standby, a connection refused): then every window is read by the reader.
    private let state = Mutex<(connection: PostgresConnection?, closed: Bool)>((nil, false))
    /// Whether the server may export snapshots (not a standby in recovery), asked once.
    private let exports = Mutex<Bool?>(nil)
    /// How many halves it has read (the tests check that a long window used it).
    let reads = Atomic<Int>(0)

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
                // A server or pooler that refuses a third connection refuses it every time.
                guard let made = try? PostgresConnection.connect(conninfo, shown: shown),
                    (try? made.execute("SET search_path TO \(PostgresSchema.namespace)")) != nil
                else {
                    state.closed = true
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
                        reads.add(1, ordering: .relaxed)
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

    /// Whether windows may be split: the server is not a standby in recovery, where
    /// `pg_export_snapshot` fails (and a failed statement aborts the reader's transaction).
    /// Asked on the reader once, by a query that cannot fail that way.
    func mayExport(_ held: PostgresConnection.Held) -> Bool {
        if state.withLock({ $0.closed }) { return false }
        return exports.withLock { known in
            if let known { return known }
            let answer = (try? held.execute("SELECT pg_is_in_recovery()"))?.text(0, 0) == "f"
            known = answer
            return answer
        }
    }

    /// No more halves: the store closed, or an export failed.
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

    /// The id of the reader's transaction's snapshot, for the side reader to read in; nil when
    /// the server cannot export one. A failed export aborts the reader's transaction, so it is
    /// said (the read fails in one line) and the side reader is not used again.
    func exportSnapshot(_ held: PostgresConnection.Held) throws -> String? {
        guard side.mayExport(held) else { return nil }
        do {
            return try held.execute("SELECT pg_export_snapshot()").text(0, 0)
        } catch {
            side.close()
            throw error
        }
    }

    /// Starts reading `sql` on the side connection, on another thread.
    func sideRead(_ sql: String, rows: PostgresWindowRows, snapshot: String, expected: Int) -> Background<SessionColumns?> {
        let side = self.side
        return Background { side.read(sql, rows: rows, snapshot: snapshot, expected: expected) }
    }
}
