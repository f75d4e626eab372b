// OpenStores.swift — every store is opened here, once per location and process, and shared while anyone holds it: the backend chosen from the location, reading or changing asked for by type (a reader that has no write method, or a writer that refuses a store that may only be read).
import Synchronization

/// The stores this process has open. Asking again for a store still held elsewhere gives the
/// same one (its connections, its screen), so a run opens each store once; one nobody holds
/// any longer is closed.
public final class OpenStores: Sendable {
    /// The process's stores.
    public static let shared = OpenStores()

    private struct Entry {
        weak var store: (any BackendStore)?
    }

    private let open = Mutex<[String: Entry]>([:])

    /// A server that could not be reached, or a database that holds no store yet, by location,
    /// and the attempt that found it so.
    private let unreachable = Mutex<(attempt: Int, failed: [String: (attempt: Int, error: StoreError)])>((0, [:]))

    /// The PostgreSQL stores opened during this attempt, held to its end: a command (or the
    /// start of a run) that asks several times for a store nobody keeps meanwhile then opens
    /// it once, not once each time (every opening is two connections to the server and a look
    /// at its schema).
    private let heldThisAttempt = Mutex<[String: any BackendStore]>([:])

    /// How many times a store's place was looked at (`probe`), for the tests that count a
    /// command's looks.
    private let lookCount = Atomic<Int>(0)

    /// The places (by identity) whose folder opening may make: the default store's alone, as
    /// `location(named:environment:)` found it. Any other store's folder must be there already,
    /// as for sqlite3: a mistyped `--db` folder is refused, not made.
    private let folderMade = Mutex<Set<String>>([])

    public init() {}

    /// The store `--db NAME` names (nil: none given), else `StoreLocation.standard`. When that
    /// is the default under XDG_DATA_HOME (neither `--db` nor `USAGE_SHELL_DB`), its folder is
    /// made (mode 700) the first time the store is; nil without a home.
    public func location(named db: String?, environment: [String: String]) -> StoreLocation? {
        if let db { return StoreLocation(db) }
        guard let location = StoreLocation.standard(environment: environment) else { return nil }
        if (environment["USAGE_SHELL_DB"] ?? "").isEmpty { makesFolder(of: location) }
        return location
    }

    /// Lets opening make `location`'s folder when it makes the store (the default store's).
    public func makesFolder(of location: StoreLocation) {
        _ = folderMade.withLock { $0.insert(location.identity) }
    }

    /// Whether opening may make `location`'s folder.
    func mayMakeFolder(of location: StoreLocation) -> Bool {
        folderMade.withLock { $0.contains(location.identity) }
    }

    /// How many looks at a store's place (`probe`) this process's stores have taken so far.
    public var looks: Int { lookCount.load(ordering: .relaxed) }

    /// Counts one look (`probe`).
    func counted() { lookCount.add(1, ordering: .relaxed) }

    /// Begins a new attempt (the shell calls it before each command): a server that could not
    /// be reached, or a database without the store, is asked again once per attempt, not at
    /// every turn of the same command (each try is a connection, and may wait its whole connect
    /// timeout).
    public func newAttempt() {
        unreachable.withLock { $0.attempt += 1 }
        // Released outside the lock: a store nobody else holds closes its connections here.
        let released = heldThisAttempt.withLock { held in
            defer { held = [:] }
            return held
        }
        _ = released
    }

    /// The store at `location`, to read: its reads alone, whether or not it may be written.
    ///
    /// - Throws: `.missing` when there is none yet; any other way it cannot be opened.
    public func reader(_ location: StoreLocation) throws(StoreError) -> ReadOnlyStore {
        ReadOnlyStore(try store(location, create: false))
    }

    /// The store at `location`, to change; made (its folder too) when `create` and missing.
    ///
    /// - Throws: `.readOnly` when it may only be read; `.missing` without `create`; any other
    ///   way it cannot be opened.
    public func writer(_ location: StoreLocation, create: Bool = true) throws(StoreError) -> any StoreWriter {
        let store = try store(location, create: create)
        guard !store.isReadOnly else { throw store.readOnlyError }
        return store
    }

    /// Closes every store still open (at the end of a run): each then writes its log into its
    /// file, so that the file alone holds everything.
    public func closeAll() {
        let stores = open.withLock { open in
            defer { open = [:] }
            return open.values.compactMap(\.store)
        }
        heldThisAttempt.withLock { $0 = [:] }
        for store in stores { store.close() }
    }

    /// After a cancelled import: the store at `location` closed, and its file taken away when
    /// this process made it and nobody else has used it (SQLiteDiscard.swift), so that nothing
    /// is left where there was nothing. Any other store stays open as it is (a PostgreSQL
    /// store's schema too, empty). Whoever holds a store made here must not use it again: it
    /// is opened anew when asked for.
    public func discardIfMade(_ location: StoreLocation) {
        let key = location.identity
        let made = open.withLock { open -> SQLiteStore? in
            guard let store = open[key]?.store as? SQLiteStore, store.made else { return nil }
            open[key] = nil
            return store
        }
        made?.discardIfUnused()
    }

    private func store(_ location: StoreLocation, create: Bool) throws(StoreError) -> any BackendStore {
        let key = location.identity
        if let held = open.withLock({ $0[key]?.store }) { return held }
        // Opened outside the lock (it may wait for another process's migration, or a server); a
        // store opened meanwhile by another thread of this process wins.
        let opened: any BackendStore
        switch location {
        case .sqlite(let path): opened = try SQLiteStore.open(path: path, create: create, makingFolder: mayMakeFolder(of: location))
        case .postgres(let conninfo):
            // A store found missing is made all the same when asked to (`create`).
            if let failed = unreachable.withLock({ u in u.failed[key].flatMap { $0.attempt == u.attempt ? $0.error : nil } }) {
                if case .missing = failed, create {} else { throw failed }
            }
            do {
                opened = try PostgresStore.open(location, conninfo: conninfo, create: create)
            } catch {
                switch error {
                case .connection, .missing: unreachable.withLock { $0.failed[key] = ($0.attempt, error) }
                default: break
                }
                throw error
            }
        }
        let store = open.withLock { open in
            if let held = open[key]?.store { return held }
            open = open.filter { $0.value.store != nil }
            open[key] = Entry(store: opened)
            return opened
        }
        if case .postgres = location { heldThisAttempt.withLock { $0[key] = store } }
        return store
    }
}

extension SQLiteStore: BackendStore {
    var readOnlyError: StoreError { .readOnly(path: path) }
}

extension PostgresStore: BackendStore {
    var readOnlyError: StoreError { .readOnlyRole(path: shown) }
}
