// SourceRepositories.swift — the composition of sources: a SourceRef becomes the repository that reads it. It lives above the data module, so that other source modules (a store) can sit beside it without a cycle.
import UsageCore
import UsageFormats
import UsageData
import UsageStore

extension SourceRef {
    /// What a run with no SOURCE opens on: a store `named` explicitly (`--db`,
    /// `USAGE_SHELL_DB`) always, there or not, empty or not (`Shell.awaitsNamedStore`); the
    /// default store when it holds sessions (or cannot be read: that is said, not hidden behind
    /// the sample); its tracked time when it holds only that (`load tracked`); else the bundled
    /// sample. The store is looked at through `stores`, the
    /// process's open stores.
    public static func startingSource(store location: StoreLocation?, named: Bool = false, stores: OpenStores) -> SourceRef {
        guard let location else { return .sample }
        if named { return .store }
        switch stores.probe(location) {
        case .absent: return .sample
        case .unopenable: return .store
        case .present: break
        }
        guard let reader = try? stores.reader(location), let history = try? reader.history(source: storeName) else { return .store }
        if history.sessionCount > 0 { return .store }
        // A store of tracked time alone opens on it, not on the sample.
        let tracked = (try? reader.trackerSnapshot())?.intervals.isEmpty == false
        return tracked ? .tracked : .sample
    }

    /// The repository that reads this source; the zone places the bundled sample; `timeout` is
    /// how long a stream (pipe, FIFO, HTTP body) may stay silent, in seconds; `options` are
    /// what the readers are given (the clock, the zone of local times, CSV column names);
    /// `store` is where the store is (nil: there is no home to keep one in), opened through
    /// `stores`, `device` the device whose sessions it gives (nil: every device's).
    func repository(
        zone: Zone, timeout: Double = StreamLimits.defaultTimeout, options: ReadOptions = ReadOptions(), store: StoreLocation?,
        stores: OpenStores, device: String? = nil
    ) -> any HistoryRepository {
        switch self {
        case .store:
            return StoreRepository(location: store, device: device, stores: stores)
        case .storeAt(let name):
            return StoreRepository(location: StoreLocation(name), stores: stores)
        case .tracked:
            return TrackedRepository(location: store, now: options.now, stores: stores)
        case .merged(let refs):
            return MergedRepository(
                name: description, parts: refs.map { $0.repository(zone: zone, timeout: timeout, options: options, store: store, stores: stores, device: device) })
        default:
            return sessionRepository(zone: zone, timeout: timeout, options: options)
        }
    }

    /// The repository of a source read whole into memory.
    private func sessionRepository(zone: Zone, timeout: Double, options: ReadOptions) -> any SessionRepository {
        switch self {
        case .sample: return BundledSampleRepository(zone: zone)
        case .file(let path): return FileRepository(path: path, timeout: timeout, options: options)
        case .stdin: return StdinRepository(timeout: timeout, options: options)
        case .refused(let argument, let problem): return RefusedRepository(name: argument, problem: problem)
        case .url(let url):
            var repository = URLRepository(url: url, options: options)
            repository.client.readTimeout = timeout
            return repository
        case .activityWatch(let host, let port):
            var repository = ActivityWatchRepository(host: host, port: port)
            repository.client.readTimeout = timeout
            return repository
        case .merged, .store, .storeAt, .tracked:
            preconditionFailure("\(self) is not read whole")
        }
    }
}
