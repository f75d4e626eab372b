// PostgresConnection.swift — one libpq connection to a PostgreSQL server, used by one caller at a time: connecting with PostgreSQL's own conventions (URIs, key=value strings, PG* variables, ~/.pgpass, service files, sslmode) and a deadline, statements with parameters, COPY, and the server's errors as values.
import CPostgres
import Foundation
import Synchronization
import UsageCore

/// What the server or libpq said when a statement or the connection failed.
struct PostgresFailure: Error, CustomStringConvertible {
    /// The SQLSTATE (`42501`…); nil when the connection itself was lost or never made.
    let state: String?
    /// The message's first line, as the server or libpq gave it.
    let message: String
    /// The role a denied statement ran as (42501), named in what its owner can grant.
    var role: String? = nil
    /// Whether the statement was part of a change (a denial is then of a write).
    var writing = false

    var description: String { state.map { "\(message) (SQLSTATE \($0))" } ?? message }

    /// The connection is gone (the server stopped, the network broke): no SQLSTATE came.
    var connectionLost: Bool { state == nil || state!.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" }
    /// The role may not write: a read-only transaction (25006).
    var readOnly: Bool { state == "25006" }
    /// The role lacks a privilege (42501): reading, or writing where it may read.
    var denied: Bool { state == "42501" }
}

/// One result of a statement, freed with it.
final class PostgresResult {
    let handle: OpaquePointer
    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { cpq_clear(handle) }

    /// libpq's status of the result (`CPQ_PGRES_…`).
    var status: Int32 { cpq_result_status(handle) }
    var rows: Int { Int(cpq_ntuples(handle)) }
    var columns: Int { Int(cpq_nfields(handle)) }
    func name(_ column: Int) -> String { String(cString: cpq_fname(handle, Int32(column))) }
    func type(_ column: Int) -> UInt32 { cpq_ftype(handle, Int32(column)) }
    /// How many rows the statement changed (0 for a query).
    var changed: Int { Int(String(cString: cpq_cmd_tuples(handle))) ?? 0 }
    func isNull(_ row: Int, _ column: Int) -> Bool { cpq_get_is_null(handle, Int32(row), Int32(column)) != 0 }

    /// The value's bytes (text, or binary with a binary result), lent to `body` while the result
    /// is kept alive: a pointer into the result must never outlive it (a caller's last use of a
    /// temporary result is where Swift may free it).
    func withBytes<R, E: Error>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(bytes(row, column))  // `self` lives through its own method's call
    }

    /// The value as text (UTF-8, repaired), copied out of the result.
    func text(_ row: Int, _ column: Int) -> String {
        withBytes(row, column) { String(decoding: $0, as: UTF8.self) }
    }

    /// Valid only while `self` lives: callers outside hold it by `withBytes`.
    private func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8> {
        let count = Int(cpq_get_length(handle, Int32(row), Int32(column)))
        return cpq_get_value(handle, Int32(row), Int32(column)).withMemoryRebound(to: UInt8.self, capacity: max(count, 1)) {
            UnsafeBufferPointer(start: $0, count: count)
        }
    }

    /// A binary `int8` (big-endian) at (row, column).
    func int64(_ row: Int, _ column: Int) -> Int64 {
        withBytes(row, column) { b in
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(b[k]) }
            return Int64(bitPattern: v)
        }
    }
}

/// A connection to the server; each call holds it alone (libpq connections are one caller's at
/// a time), so threads may share it.
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Held by each call; true once closed.
    private let lock = Mutex(false)
    /// Where it goes, as messages name it (no password).
    let shown: String

    private init(handle: OpaquePointer, shown: String) {
        self.handle = handle
        self.shown = shown
    }

    deinit {
        if !lock.withLock({ $0 }) { cpq_finish(handle) }
    }

    /// Closes the connection (a transaction left open is rolled back by the server).
    func close() {
        lock.withLock { closed in
            guard !closed else { return }
            closed = true
            cpq_finish(handle)
        }
    }

    /// How long a connection may take to be made, unless the user's string or `PGCONNECT_TIMEOUT`
    /// says otherwise (libpq waits forever for a server that accepts and never answers).
    static let connectTimeout = "10"

    /// Connects to what `conninfo` names (a `postgresql://` URI or a key=value string; the PG*
    /// variables, `~/.pgpass` and a service file fill in what it leaves out, as for psql).
    ///
    /// - Throws: `.noClient` without a usable libpq; `.connection` when it cannot connect.
    static func connect(_ conninfo: String, shown: String) throws(StoreError) -> PostgresConnection {
        guard cpq_load() != 0 else {
            throw .noClient(path: shown, reason: String(cString: cpq_load_error()))
        }
        // Earlier entries are defaults that the user's string (expanded from `dbname`) overrides.
        var keys: [String] = []
        var values: [String] = []
        if ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil {
            keys.append("connect_timeout")
            values.append(connectTimeout)
        }
        keys += ["fallback_application_name", "dbname"]
        values += ["usage-shell", conninfo]
        let connection: OpaquePointer? = withCStrings(keys) { k in withCStrings(values) { v in cpq_connect(k, v, 1) } }
        guard let connection else { throw .connection(path: shown, reason: "out of memory") }
        guard cpq_status(connection) == CPQ_CONNECTION_OK else {
            let reason = firstLine(String(cString: cpq_error_message(connection)))
            cpq_finish(connection)
            throw .connection(path: shown, reason: reason)
        }
        cpq_silence_notices(connection)
        return PostgresConnection(handle: connection, shown: shown)
    }

    /// Runs one statement (`$1`… placeholders, text parameters, nil for NULL); results in text,
    /// or binary with `binary`.
    func execute(_ sql: String, _ parameters: [String?] = [], binary: Bool = false) throws(PostgresFailure) -> PostgresResult {
        try lock.withLock { closed throws(PostgresFailure) in
            guard !closed else { throw PostgresFailure(state: nil, message: "the connection is closed") }
            return try run(sql, parameters, binary: binary)
        }
    }

    /// Runs several statements separated by `;` in one round trip, without parameters; the
    /// last one's result (together they are one implicit transaction: a failure takes back the
    /// statements before it).
    func script(_ sql: String) throws(PostgresFailure) -> PostgresResult {
        try lock.withLock { closed throws(PostgresFailure) in
            guard !closed else { throw PostgresFailure(state: nil, message: "the connection is closed") }
            return try runScript(sql)
        }
    }

    /// Runs `body` holding the connection alone (a transaction of several statements).
    func exclusive<T>(_ body: (PostgresConnection.Held) throws -> T) throws -> T {
        try lock.withLock { closed in
            guard !closed else { throw PostgresFailure(state: nil, message: "the connection is closed") }
            return try body(Held(connection: self))
        }
    }

    /// The connection held by one caller: statements and COPY without taking the lock again.
    struct Held {
        let connection: PostgresConnection
        func execute(_ sql: String, _ parameters: [String?] = [], binary: Bool = false) throws(PostgresFailure) -> PostgresResult {
            try connection.run(sql, parameters, binary: binary)
        }
        /// Several statements separated by `;`, without parameters (a migration's DDL).
        func script(_ sql: String) throws(PostgresFailure) {
            try connection.runScript(sql)
        }
        /// `COPY … FROM STDIN` of the text `rows` gives, chunk by chunk.
        func copy(_ sql: String, _ chunks: (_ send: (UnsafeBufferPointer<UInt8>) throws(PostgresFailure) -> Void) throws -> Void) throws {
            try connection.copy(sql, chunks)
        }
        /// `COPY … TO STDOUT`: each message the server sends (one row, the first with the
        /// header), valid during the call. A failure of `message` drains the rest, then is thrown.
        func copyOut(_ sql: String, _ message: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
            try connection.copyOut(sql, message)
        }
        /// Runs `body` while another thread watches `cancellation`: once it is cancelled, the
        /// statement under way on this connection is cancelled by the server (PQcancel; the
        /// statement fails with 57014). The watcher has stopped when this returns.
        func cancellable<T>(_ cancellation: CancellationToken, _ body: () throws -> T) throws -> T {
            guard let cancel = cpq_get_cancel(connection.handle) else { return try body() }
            let watch = PostgresCancelWatch(cancel, cancellation)
            defer { watch.stop() }
            return try body()
        }
        /// Whether a transaction is open (or failed) on the connection.
        var inTransaction: Bool {
            let status = cpq_transaction_status(connection.handle)
            return status == CPQ_TRANS_INTRANS || status == CPQ_TRANS_INERROR
        }
    }

    private func run(_ sql: String, _ parameters: [String?], binary: Bool) throws(PostgresFailure) -> PostgresResult {
        let result: OpaquePointer? = withOptionalCStrings(parameters) { values in
            cpq_exec(handle, sql, Int32(parameters.count), values, binary ? 1 : 0)
        }
        guard let result else { throw PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle)))) }
        let wrapped = PostgresResult(result)
        let status = wrapped.status
        guard status == CPQ_PGRES_COMMAND_OK || status == CPQ_PGRES_TUPLES_OK else { throw failure(of: wrapped) }
        return wrapped
    }

    @discardableResult
    fileprivate func runScript(_ sql: String) throws(PostgresFailure) -> PostgresResult {
        guard let result = cpq_exec_script(handle, sql) else {
            throw PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle))))
        }
        let wrapped = PostgresResult(result)
        let status = wrapped.status
        guard status == CPQ_PGRES_COMMAND_OK || status == CPQ_PGRES_TUPLES_OK else { throw failure(of: wrapped) }
        return wrapped
    }

    private func copy(_ sql: String, _ chunks: ((UnsafeBufferPointer<UInt8>) throws(PostgresFailure) -> Void) throws -> Void) throws {
        guard let start = cpq_exec(handle, sql, 0, nil, 0) else {
            throw PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle))))
        }
        let begun = PostgresResult(start)
        guard begun.status == CPQ_PGRES_COPY_IN else { throw failure(of: begun) }
        do {
            try chunks { (bytes) throws(PostgresFailure) in
                let sent = bytes.withMemoryRebound(to: CChar.self) { cpq_put_copy_data(handle, $0.baseAddress, Int32($0.count)) }
                guard sent == 1 else { throw PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle)))) }
            }
        } catch {
            _ = cpq_put_copy_end(handle, "cancelled")
            while let r = cpq_get_result(handle) { cpq_clear(r) }
            throw error
        }
        guard cpq_put_copy_end(handle, nil) == 1 else {
            throw PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle))))
        }
        var failed: PostgresFailure?
        while let r = cpq_get_result(handle) {
            if cpq_result_status(r) != CPQ_PGRES_COMMAND_OK, failed == nil { failed = failure(of: r) }
            cpq_clear(r)
        }
        if let failed { throw failed }
    }

    fileprivate func copyOut(_ sql: String, _ message: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let start = cpq_exec(handle, sql, 0, nil, 0) else {
            throw PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle))))
        }
        let begun = PostgresResult(start)
        guard begun.status == CPQ_PGRES_COPY_OUT else { throw failure(of: begun) }
        var failed: (any Error)?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let count = cpq_get_copy_data(handle, &buffer)
            guard count >= 0, let buffer else {
                if count == -2, failed == nil {
                    failed = PostgresFailure(state: nil, message: Self.firstLine(String(cString: cpq_error_message(handle))))
                }
                break
            }
            defer { cpq_freemem(buffer) }
            guard failed == nil else { continue }
            do {
                try buffer.withMemoryRebound(to: UInt8.self, capacity: Int(count)) { try message(UnsafeBufferPointer(start: $0, count: Int(count))) }
            } catch {
                failed = error
            }
        }
        while let r = cpq_get_result(handle) {
            if cpq_result_status(r) != CPQ_PGRES_COMMAND_OK, failed == nil { failed = failure(of: r) }
            cpq_clear(r)
        }
        if let failed { throw failed }
    }

    /// The failure `result` reports, read while it lives.
    private func failure(of result: PostgresResult) -> PostgresFailure {
        withExtendedLifetime(result) { failure(of: result.handle) }
    }

    private func failure(of result: OpaquePointer) -> PostgresFailure {
        let state = cpq_result_error_field(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = cpq_result_error_field(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let message = primary ?? Self.firstLine(String(cString: cpq_result_error_message(result)))
        return PostgresFailure(
            state: state, message: message.isEmpty ? Self.firstLine(String(cString: cpq_error_message(handle))) : message,
            role: state == "42501" ? currentRole() : nil)
    }

    /// The role privileges are checked against: `current_user`, which `SET ROLE` (or a `role`
    /// in the connection's options) makes another than the one logged in as, asked when the
    /// connection is idle and can answer; else the one it logged in as.
    private func currentRole() -> String? {
        if cpq_transaction_status(handle) == CPQ_TRANS_IDLE, let result = cpq_exec(handle, "SELECT current_user", 0, nil, 0) {
            defer { cpq_clear(result) }
            if cpq_result_status(result) == CPQ_PGRES_TUPLES_OK, cpq_ntuples(result) == 1, let value = cpq_get_value(result, 0, 0) {
                return String(cString: value)
            }
        }
        return cpq_user(handle).map { String(cString: $0) }
    }

    /// libpq's messages end with a line break and may run on ("server closed the connection
    /// unexpectedly\n\tThis probably means…"): the first line, without `FATAL:  `.
    static func firstLine(_ text: String) -> String {
        var line = String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
        for prefix in ["FATAL:  ", "ERROR:  "] where line.hasPrefix(prefix) { line.removeFirst(prefix.count) }
        return line.trimmingCharacters(in: .whitespaces)
    }
}

/// C strings of `strings`, NULL-terminated, for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    withOptionalCStrings(strings.map { Optional($0) }) { pointers in
        var terminated = Array(UnsafeBufferPointer(start: pointers, count: strings.count))
        terminated.append(nil)
        return terminated.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// C strings (NULL for nil) of `strings`, for the duration of `body`.
private func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// A thread that looks at a cancellation every 20 ms and, once it is cancelled, asks the server
/// to cancel the connection's statement under way (once); `stop` waits for it to end, then
/// frees libpq's cancel object.
private final class PostgresCancelWatch: @unchecked Sendable {
    private let cancel: OpaquePointer
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    init(_ cancel: OpaquePointer, _ cancellation: CancellationToken) {
        self.cancel = cancel
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                if cancellation.isCancelled {
                    _ = cpq_cancel_now(self.cancel)
                    break
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            ended.signal()
        }
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        ended.wait()
        cpq_free_cancel(cancel)
    }
}
