// TrackedRepository.swift — tracked time as a source (`load tracked`, `:tracked:`): each task's intervals become sessions with the task's name as the app and its category, so every screen-time report shows them; a running one counts up to now.
import Foundation
import UsageCore
import UsageData

/// `load tracked`: the tracker's intervals as sessions.
public struct TrackedRepository: SessionRepository {
    /// Where the store is (nil: there is no place for one, so there is no tracked time).
    public let location: StoreLocation?
    /// The clock a running interval is counted up to (nil: the system's).
    public let now: Micros?
    /// The process's open stores it opens through.
    public let stores: OpenStores
    public var name: String { SourceRef.trackedName }

    public init(location: StoreLocation?, now: Micros?, stores: OpenStores) {
        self.location = location
        self.now = now
        self.stores = stores
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let snapshot: TrackerSnapshot
        do throws(StoreError) {
            // A store that does not exist yet holds no tracked time: an empty source, not an error.
            guard let location, let store = try stores.existing(location) else { return Self.dataset([], tasks: [], now: 0) }
            snapshot = try store.trackerSnapshot()
        } catch {
            throw .unreadable(source: name, reason: "\(location?.description ?? ""): \(error.reason)")
        }
        let clock = now ?? Micros(Date().timeIntervalSince1970 * 1_000_000)
        return Self.dataset(snapshot.intervals, tasks: snapshot.tasks, now: clock)
    }

    /// The sessions of `intervals`: app = the task's name, category = its category (Other
    /// without one); a running interval ends at `now` and is marked running; ids `tracked-N`.
    public static func dataset(_ intervals: [TrackedInterval], tasks: [TrackerTask], now: Micros) -> Dataset {
        var apps: [String] = []
        var appIndex: [String: Int32] = [:]
        var categories: [String] = []
        var categoryIndex: [String: Int32] = [:]
        var sessions: [Session] = []
        let byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for interval in intervals {
            let end = interval.end ?? now
            guard end > interval.start, let task = byID[interval.task] else { continue }
            let app: Int32
            if let known = appIndex[task.name] {
                app = known
            } else {
                app = Int32(apps.count)
                apps.append(task.name)
                appIndex[task.name] = app
            }
            let categoryName = task.categoryName
            let category: Int32
            if let known = categoryIndex[categoryName] {
                category = known
            } else {
                category = Int32(categories.count)
                categories.append(categoryName)
                categoryIndex[categoryName] = category
            }
            sessions.append(
                Session(start: interval.start, end: end, app: app, category: category, id: "tracked-\(interval.id)", running: interval.end == nil))
        }
        return Dataset(source: SourceRef.trackedName, apps: apps, categories: categories, sessions: sessions, skipped: SkipSummary(), repairedStrings: 0)
    }
}
