// LiveSources.swift — the loaded sources kept part by part, so that they can be read again cheaply: each part's history with what was seen at its read (a file's stat, ActivityWatch's events, the store's data version), and a refresh that reads only what changed (RefreshPolicy) and merges the parts again.
import Foundation
import Synchronization
import UsageCore
import UsageFormats
import UsageData
import UsageStore

/// The sources of a load as a repository that remembers each part. The view model loads
/// through it; `watch` then calls `refresh`, which reads again only the parts that changed and
/// hands back the new merged history (nil when nothing changed, so an unchanged source costs a
/// `stat` or a pragma and no parse). A refresh that fails changes nothing: every part keeps
/// what it had, and the next refresh tries again.
public final class LiveSources: HistoryRepository {
    public let source: SourceRef
    public var name: String { source.description }
    private let zone: Zone
    private let timeout: Double
    private let store: StoreLocation?
    /// The process's open stores, which the store is opened through.
    private let stores: OpenStores
    /// The device whose sessions the store gives (nil: every device's).
    private let device: String?
    private let options: ReadOptions
    private let parts = Mutex<[Part]>([])

    /// One source as last read.
    struct Part: Sendable {
        let ref: SourceRef
        var state: PartState
        var history: any SessionHistory
    }

    /// What was seen of a source at its last read.
    enum PartState: Sendable {
        /// A file, as `stat` saw it just before the read.
        case file(FileFingerprint.Probe)
        /// An ActivityWatch server's events.
        case activityWatch(ActivityWatchFollow)
        /// The store, and its change token just before the read.
        case store(StoreHistory, any StoreReader, version: Int64)
        /// Tracked time: the store (nil while there is none), its change token and what was read.
        case tracked((any StoreReader)?, version: Int64?, TrackerSnapshot)
        /// Read anew at every refresh (a URL), or once (the sample, standard input).
        case plain
    }

    /// What the command already saw of the store when it looked before the load (nil: it did
    /// not look): the first read then opens it without looking again.
    private let seen: StoreProbe?

    public init(
        _ source: SourceRef, zone: Zone, timeout: Double, options: ReadOptions, store: StoreLocation?, stores: OpenStores, device: String? = nil,
        seen: StoreProbe? = nil
    ) {
        self.seen = seen
        self.stores = stores
        self.source = source
        self.zone = zone
        self.timeout = timeout
        self.options = options
        self.store = store
        self.device = device
    }

    /// The first read: every part read whole and kept.
    public func openHistory(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError)
        -> any SessionHistory
    {
        var read: [Part] = []
        for ref in source.parts {
            read.append(
                try Self.first(
                    ref, options: options, zone: zone, timeout: timeout, store: store, stores: stores, device: device, seen: seen,
                    cancellation: cancellation,
                    progress: progress))
            if cancellation.isCancelled { throw .cancelled(source: name) }
        }
        parts.withLock { $0 = read }
        return combined(read)
    }

    /// Reads again what changed since the last read, with `options` (the clock now); returns
    /// the new history, or nil when nothing changed. Touches no shell state, so it may run on
    /// another thread; a cancelled or failed refresh changes nothing.
    public func refresh(options: ReadOptions, cancellation: CancellationToken) throws(LoadError) -> (any SessionHistory)? {
        let known = parts.withLock { $0 }
        var next: [Part] = []
        var changed = false
        for part in known {
            let (updated, moved) = try refreshed(part, options: options, cancellation: cancellation)
            if cancellation.isCancelled { throw .cancelled(source: name) }
            next.append(updated)
            changed = changed || moved
        }
        guard changed else { return nil }
        parts.withLock { $0 = next }
        return combined(next)
    }

    /// The actions the next refresh would take, part by part (for tests and the benchmark's
    /// report; probes the files and the store, reads nothing).
    public func plannedActions() -> [RefreshAction] {
        parts.withLock { $0 }.map { action(for: $0) }
    }

    // MARK: The parts

    private func combined(_ parts: [Part]) -> any SessionHistory {
        if case .merged = source { return MergedRepository.combine(parts.map(\.history), source: name) }
        return parts[0].history
    }

    /// What the policy says of one part now.
    private func action(for part: Part) -> RefreshAction {
        switch part.state {
        case .file(let known):
            let running = part.history.all.mayHoldRunning
            guard case .file(let path) = part.ref else { return .keep }
            return RefreshPolicy.file(known: known, now: FileFingerprint.probe(path), holdsRunning: running)
        case .activityWatch:
            return .readNew
        case .store(_, let reader, let version):
            do {
                return RefreshPolicy.store(known: version, now: try reader.changeToken())
            } catch {
                return .fail(Self.storeError(error, location: reader.location))
            }
        case .tracked(let store, let version, let snapshot):
            let running = snapshot.intervals.contains { $0.end == nil }
            guard let reader = store else {
                return self.store.map { stores.probe($0).isThere } == true ? .read : .keep
            }
            do {
                return RefreshPolicy.tracked(known: version, now: try reader.changeToken(), running: running)
            } catch {
                return .fail(Self.storeError(error, location: reader.location))
            }
        case .plain:
            return RefreshPolicy.unprobed(RefreshPolicy.kind(of: part.ref))
        }
    }

    /// One part refreshed as the policy says; whether its history changed.
    private func refreshed(_ part: Part, options: ReadOptions, cancellation: CancellationToken) throws(LoadError) -> (Part, Bool) {
        var part = part
        switch action(for: part) {
        case .keep:
            return (part, false)
        case .fail(let error):
            throw error
        case .readNew:
            guard case .activityWatch(var events) = part.state, case .activityWatch(let host, let port) = part.ref else { return (part, false) }
            var server = ActivityWatchRepository(host: host, port: port)
            server.client.readTimeout = timeout
            guard try events.update(from: server, cancellation: cancellation, progress: { _ in }) else { return (part, false) }
            part.history = try events.dataset(source: server.name, cancellation: cancellation)
            part.state = .activityWatch(events)
            return (part, true)
        case .recount:
            guard case .tracked(_, _, let snapshot) = part.state else { return (part, false) }
            part.history = TrackedRepository.dataset(snapshot.intervals, tasks: snapshot.tasks, now: Self.clock(options))
            return (part, true)
        case .read:
            if case .store(let history, let reader, _) = part.state {
                // The same store read again: its change token keeps telling what changes.
                do {
                    let version = try reader.changeToken()
                    let again = try reader.history(source: history.source, device: history.device)
                    return (Part(ref: part.ref, state: .store(again, reader, version: version), history: again), true)
                } catch {
                    throw Self.storeError(error, location: reader.location)
                }
            }
            let again = try Self.first(
                part.ref, options: options, zone: zone, timeout: timeout, store: store, stores: stores, device: device, cancellation: cancellation,
                progress: { _ in })
            return (again, true)
        }
    }

    /// A part's first read (or a whole read again), with what is seen of it just before.
    private static func first(
        _ ref: SourceRef, options: ReadOptions, zone: Zone, timeout: Double, store: StoreLocation?, stores: OpenStores, device: String?,
        seen: StoreProbe? = nil, cancellation: CancellationToken,
        progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> Part {
        switch ref {
        case .file(let path):
            // Seen before the read: a change during the read shows at the next refresh.
            let seen = FileFingerprint.probe(path)
            let history = try FileRepository(path: path, timeout: timeout, options: options).load(cancellation: cancellation, progress: progress)
            return Part(ref: ref, state: .file(seen), history: history)
        case .activityWatch(let host, let port):
            var server = ActivityWatchRepository(host: host, port: port)
            server.client.readTimeout = timeout
            var events = ActivityWatchFollow()
            _ = try events.update(from: server, cancellation: cancellation, progress: progress)
            return Part(ref: ref, state: .activityWatch(events), history: try events.dataset(source: server.name, cancellation: cancellation))
        case .store, .storeAt:
            // The shell's store (its device chosen), or another one named.
            var location = store
            var (name, only) = (SourceRef.storeName, device)
            if case .storeAt(let other) = ref { (location, name, only) = (StoreLocation(other), ref.description, nil) }
            guard let location else { throw .unreadable(source: SourceRef.storeName, reason: StoreError.nowhere) }
            do {
                let opened = try stores.reader(location)
                let version = try opened.changeToken()
                let history = try opened.history(source: name, device: only)
                return Part(ref: ref, state: .store(history, opened, version: version), history: history)
            } catch {
                throw storeError(error, location: location)
            }
        case .tracked:
            // A store that does not exist yet holds no tracked time: an empty source, not an error.
            let empty = Part(
                ref: ref, state: .tracked(nil, version: nil, TrackerSnapshot(tasks: [], intervals: [], categories: [], stopwatch: .idle)),
                history: TrackedRepository.dataset([], tasks: [], now: 0))
            guard let location = store else { return empty }
            do throws(StoreError) {
                // One look at the store: the command's, when it looked before the load.
                guard let opened = try stores.existing(location, seen: seen) else { return empty }
                let version = try opened.changeToken()
                let snapshot = try opened.trackerSnapshot()
                let history = TrackedRepository.dataset(snapshot.intervals, tasks: snapshot.tasks, now: clock(options))
                return Part(ref: ref, state: .tracked(opened, version: version, snapshot), history: history)
            } catch {
                throw .unreadable(source: SourceRef.trackedName, reason: "\(location): \(error.reason)")
            }
        case .merged, .sample, .stdin, .refused, .url:
            let repository = ref.repository(zone: zone, timeout: timeout, options: options, store: store, stores: stores, device: device)
            return Part(ref: ref, state: .plain, history: try repository.openHistory(cancellation: cancellation, progress: progress))
        }
    }

    /// The clock a running tracked interval counts up to: the load's, else the system's (as `TrackedRepository`).
    private static func clock(_ options: ReadOptions) -> Micros {
        options.now ?? Micros(Date().timeIntervalSince1970 * 1_000_000)
    }

    /// The store's error as a load's, as `StoreRepository` says it.
    private static func storeError(_ error: StoreError, location: StoreLocation) -> LoadError {
        .unreadable(source: SourceRef.storeName, reason: "\(location): \(error.reason)")
    }
}
