// BackendContract.swift — the backend contract's other side: what a backend implements for the rest to be written once over it (SQLStore: a snapshot, a change, a bulk change, its errors; StoreWindows: a history's facts and windows; ImportBackend: an import's bulk reads and writes; BackendStore: what OpenStores keeps of it).
import UsageCore

/// A backend whose store is SQL tables: it runs reads and changes on its connections; the rules
/// above them (the tracker, retention, the facts kept) are written once, in extensions of this
/// protocol, so that no backend can drift from another.
protocol SQLStore: StoreWriter {
    /// Reads in one snapshot; the body's own errors, and the database's, come through as they are.
    func snapshot<T>(_ body: (any SQLTransaction) throws -> T) throws -> T
    /// Changes in one transaction, taken at once (so a read-then-write cannot race another
    /// process); the body's own errors, and the database's, come through as they are.
    func change<T>(_ body: (any SQLTransaction) throws -> T) throws -> T
    /// A database's or driver's error as the store's.
    func mapped(_ error: any Error) -> StoreError

    /// How the backend writes an import's rows in bulk.
    associatedtype Bulk: ImportBackend
    /// An import or a copy: one transaction, taken at once, its bulk work on `Bulk`. Once
    /// `cancellation` is cancelled the running statement stops (SQLite's progress handler; a
    /// PostgreSQL COPY is ended with an error) and the transaction is rolled back.
    func bulkChange<T>(cancellation: CancellationToken?, _ body: (Bulk) throws -> T) throws -> T
    /// What the store does once a bulk change that wrote `rows` rows has committed.
    func afterBulkChange(rows: Int)
}

/// What a backend reads for a `StoreHistory`.
protocol StoreWindows: Sendable {
    /// Where the store is (for messages).
    var location: StoreLocation { get }
    /// The names and facts of one snapshot; with `device`, of that device's sessions.
    func facts(device: String?) throws(StoreError) -> StoreHistory.Facts
    /// The sessions touching `[from, to)` among those of `facts` (rows up to its last, names it
    /// knows, its device's), sorted by start; their ids with `ids`; and the state they were read in.
    func columns(from: Micros, to: Micros, ids: Bool, facts: StoreHistory.Facts) throws(StoreError) -> (SessionColumns, version: Int64)
    /// The state reads see now (inside a screen: the screen's), for the cache.
    func readVersion() throws(StoreError) -> Int64
    /// The category of an app's latest session, by id.
    func latestCategory(ofApp app: Int32) throws(StoreError) -> Int32?
    /// A range's totals from what the store keeps, of `device` (an id; nil: every device's);
    /// nil when it holds sessions past `upToRow` (a later import, which the snapshot's windows
    /// do not show).
    func keptRangeTotals(_ bounds: DayBounds, detail: Bool, device: Int64?, upToRow: Int64?) throws(StoreError) -> RangeTotals?
    /// Runs `body` as one screen: every read inside sees one state of the store.
    func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T
}

/// The bulk parts of an import, as a backend does them inside the import's transaction.
protocol ImportBackend {
    /// The transaction, for what the shared SQL does (the source's row, the facts, retention).
    var tx: any SQLTransaction { get }
    /// Every name of `table` (`app` or `category`) with its id.
    func names(_ table: String) throws -> [(id: Int64, name: String)]
    /// Stores a new name (whole: a name may hold a NUL) and returns its id.
    func insertName(_ name: String, into table: String) throws -> Int64
    /// What the store holds of a device's sessions that start in `starts`, by key (about
    /// `within` of the store's `total` sessions, as the kept totals count them).
    func storedSessions(of device: Int64, starts: ClosedRange<Int64>, within: Int64, total: Int64) throws -> [Int64: StoredSession]
    /// Whether the stored session of `row` has the id `id` (an update, not a collision of keys).
    func storedID(row: Int64, equals id: UnsafeBufferPointer<UInt8>) throws -> Bool
    /// Writes a plan: its new sessions inserted (as `device`'s), its changed ones updated in place.
    func carryOut(_ plan: ImportPlan, _ dataset: Dataset, source: Int64, device: Int64, apps: [Int64], categories: [Int64]) throws
    /// After the last source's rows, before the facts and retention (PostgreSQL makes again the
    /// indexes a large import took out).
    func finish() throws
}

/// What `OpenStores` keeps of a backend's store.
protocol BackendStore: SQLStore {
    /// Whether it may only be read here.
    var isReadOnly: Bool { get }
    /// What a change is refused with when it may only be read.
    var readOnlyError: StoreError { get }
    /// Closes its connections; it is not used again.
    func close()
}
