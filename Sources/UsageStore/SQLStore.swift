// SQLStore.swift — what is written once over a backend speaking SQL (SQLStore, in Contract/BackendContract.swift): its reads and changes with their errors said as the store's, the reads every backend answers alike (the change token, the history, the devices), and the meta table every change keeps up to date.
import UsageCore

extension SQLStore {
    /// `snapshot`, its errors as the store's.
    func read<T>(_ body: (any SQLTransaction) throws -> T) throws(StoreError) -> T {
        do {
            return try snapshot(body)
        } catch {
            throw mapped(error)
        }
    }

    /// `change`, its errors as the store's.
    func write<T>(_ body: (any SQLTransaction) throws -> T) throws(StoreError) -> T {
        do {
            return try change(body)
        } catch {
            throw mapped(error)
        }
    }

    /// A tracking change in one transaction: its own refusals come through as they are,
    /// anything else as the store's.
    func trackingChange<T>(_ body: (any SQLTransaction) throws -> T) throws(TrackingError) -> T {
        try trackingErrors { try change(body) }
    }

    /// A tracking read in one snapshot: its own refusals come through as they are.
    func trackingRead<T>(_ body: (any SQLTransaction) throws -> T) throws(TrackingError) -> T {
        try trackingErrors { try snapshot(body) }
    }

    /// Runs a read or a write: a tracking refusal comes through as it is, any other error as the store's.
    func trackingErrors<T>(_ body: () throws -> T) throws(TrackingError) -> T {
        do {
            return try body()
        } catch let box as TrackingErrorBox {
            throw box.error
        } catch let error as TrackingError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(mapped(error))
        }
    }
}

extension SQLStore where Self: StoreWindows {
    /// The state reads see (`readVersion`): SQLite's `PRAGMA data_version` on the reader, which
    /// moves when any other connection commits; PostgreSQL's `changes` counter every change steps.
    func changeToken() throws(StoreError) -> Int64 {
        try readVersion()
    }

    func history(source: String, device: String?) throws(StoreError) -> StoreHistory {
        try StoreHistory(windows: self, source: source, device: device)
    }

    func devices() throws(StoreError) -> [DeviceSummary] {
        try read { tx in try Devices.all(tx) }
    }
}

/// The meta table: small facts kept up to date by every change, so that opening reads no session.
enum Meta {
    static let sessions = "sessions"
    static let latestEnd = "latest_end"
    static let longest = "longest"
    static let retentionDays = "retention_days"
    /// The task paused, waiting for `resume`.
    static let pausedTask = "paused_task"
    /// When a command last saw the stopwatch running.
    static let lastSeen = "last_seen"
    /// The running interval already named as left running across a night.
    static let namedRunning = "named_running"
    /// How many changes were committed (PostgreSQL's change token; SQLite has its own).
    static let changes = "changes"
    /// How many sessions the store held twice when v11 re-keyed it (set only then: an import
    /// since stores none twice), until `check fix` removes them: `check` counts them only then.
    static let storedTwice = "stored_twice"

    /// A value (nil when unset).
    static func get(_ tx: any SQLTransaction, _ key: String) throws -> Int64? {
        try tx.int("SELECT value FROM meta WHERE key = ?", [.text(key)])
    }

    /// Sets a value, or removes it (nil).
    static func set(_ tx: any SQLTransaction, _ key: String, _ value: Int64?) throws {
        if let value {
            try tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(key), .integer(value)])
        } else {
            try tx.execute("DELETE FROM meta WHERE key = ?", [.text(key)])
        }
    }
}
