// NamedStore.swift — a store named explicitly (`--db`, `USAGE_SHELL_DB`) that is not there yet: nothing else is shown in its place, every command that reads it says so in one line, and the first command that makes it (import, start, track, task add…) loads it.
import UsageData
import UsageStore

extension Shell {
    /// Whether the run's starting `source` is a store named explicitly that does not exist
    /// yet. Then nothing is loaded (a mistyped `--db` must not show the sample: a cron job
    /// would report it), the run goes on — a command that writes makes the store — and the
    /// shell waits for it (`awaitedStore`).
    func awaitsNamedStore(_ source: SourceRef) -> Bool {
        guard source == .store, environment.storeNamed, let location = environment.store, store.probe == .absent else {
            return false
        }
        awaitedStore = location
        return true
    }

    /// Throws the store's one line (`no store at 'PATH' yet …`) when it was named explicitly
    /// and is not there: for the commands that read it or change what it holds (those that
    /// add to it make it instead). `probe` is the command line's look at the store (`store.probe`).
    func requireNamedStore(_ probe: StoreProbe?) throws(ShellError) {
        guard environment.storeNamed, let location = environment.store, probe == .absent else { return }
        throw .store(.missing(path: location.description))
    }

    /// After each command: the store waited for is loaded once a command made it, the day as
    /// it was chosen; no longer waited for once other data was loaded.
    func loadAwaitedStoreIfMade() {
        guard awaitedStore != nil else { return }
        if model.hasData {
            awaitedStore = nil
            return
        }
        guard store.probe?.isThere == true else { return }
        awaitedStore = nil
        _ = loadSource(.store)
    }
}
