// StoreAccess.swift — one command line's way to the store: one look at its place, taken when first needed and then known (what the line itself makes counts as seen), the reader and writer opened lazily from it through the process's open stores.
import UsageStore

/// The store as one command line reaches it. The runner makes one per line
/// (`Shell.beginLine`): the stopwatch's notice before the command, the command, the awaited
/// store's load after it and the prompt drawn next all use it, so a line looks at the store's
/// place (`OpenStores.probe`) once, however many of them ask. The last store it opened is handed
/// on to the next line's access (`next()`), so the process keeps it open between lines.
final class StoreAccess {
    /// Where the store is; nil: there is no place for one.
    let location: StoreLocation?
    /// The process's open stores: the shell's store and any other a command names are opened
    /// through them.
    let stores: OpenStores
    /// The line's look, taken when first asked (nil: there is no place to look at).
    private lazy var look: StoreProbe? = location.map { stores.probe($0) }
    /// The store opened last (held, so the process keeps it open).
    private var held: (any StoreReader)?

    init(location: StoreLocation?, stores: OpenStores, holding held: (any StoreReader)? = nil) {
        self.location = location
        self.stores = stores
        self.held = held
    }

    /// The access of the next line: a look of its own, the store still held.
    func next() -> StoreAccess {
        StoreAccess(location: location, stores: stores, holding: held)
    }

    /// What is at the store's place (nil: there is no place for one): looked at once, when
    /// first asked; a store this line opened or made is there.
    var probe: StoreProbe? { look }

    /// The store, to read.
    ///
    /// - Throws: `.noStore` without a place for one; `.store` when there is none yet or it cannot be opened.
    func reader() throws(ShellError) -> any StoreReader {
        guard let location else { throw .noStore }
        do {
            let store = try stores.reader(location)
            held = store
            return store
        } catch {
            throw .store(error)
        }
    }

    /// The store, to change: made (its folder too) on the first change, unless not `create`.
    ///
    /// - Throws: `.noStore` without a place for one; `.store` when it may only be read, is
    ///   missing (not `create`) or cannot be opened.
    func writer(create: Bool = true) throws(ShellError) -> any StoreWriter {
        guard let location else { throw .noStore }
        do {
            let store = try stores.writer(location, create: create)
            held = store
            look = .present
            return store
        } catch {
            throw .store(error)
        }
    }

    /// After a cancelled import: the store the line made for it taken away again when nobody
    /// else has used it (`OpenStores.discardIfMade`); the line then looks at its place anew.
    func discardIfMade() {
        guard let location else { return }
        held = nil
        stores.discardIfMade(location)
        look = stores.probe(location)
    }

    /// The store when there is one already, after the line's look (nil: none yet, no place for
    /// one, or it cannot be opened).
    var existing: (any StoreReader)? {
        guard probe == .present else { return nil }
        return try? reader()
    }
}
