// ReadOnlyStore.swift — a store as `OpenStores.reader` gives it: every role's reads and nothing else, so that code holding one cannot write to it (it has no write method, and no cast finds one on it), whatever its backend could do.
import UsageCore

/// A store that may only be read through this value. `OpenStores.reader` gives one for every
/// store; `OpenStores.writer` is the only way to a store's changes.
public final class ReadOnlyStore: StoreReader {
    private let base: any StoreReader

    init(_ base: any StoreReader) {
        self.base = base
    }

    /// The backend's store it reads (one per location and process, however many readers).
    var opened: AnyObject { base }

    public var location: StoreLocation { base.location }
    public func changeToken() throws(StoreError) -> Int64 { try base.changeToken() }
    public func history(source: String, device: String?) throws(StoreError) -> StoreHistory { try base.history(source: source, device: device) }
    public func devices() throws(StoreError) -> [DeviceSummary] { try base.devices() }
    public func summary(zone: Zone) throws(StoreError) -> StoreSummary { try base.summary(zone: zone) }
    public func rangeTotals(_ bounds: DayBounds, detail: Bool, device: String?) throws(StoreError) -> RangeTotals { try base.rangeTotals(bounds, detail: detail, device: device) }
    public func trackerSnapshot() throws(StoreError) -> TrackerSnapshot { try base.trackerSnapshot() }
    public func stopwatchState() throws(StoreError) -> StopwatchState { try base.stopwatchState() }
    public func task(named word: String) throws(TrackingError) -> (task: TrackerTask, intervals: [TrackedInterval]) { try base.task(named: word) }
    public func categoryRenames() throws(StoreError) -> [String: String] { try base.categoryRenames() }
    public func intervalNamedOvernight() throws(StoreError) -> Int64? { try base.intervalNamedOvernight() }
    public func sessions(from: Micros, to: Micros) throws(StoreError) -> [TaskInterval] { try base.sessions(from: from, to: to) }
    public func session(_ id: Int64) throws(TrackingError) -> TaskInterval { try base.session(id) }
    public func sessionIDs() throws(StoreError) -> [Int64] { try base.sessionIDs() }
    public func imports() throws(StoreError) -> [ImportEntry] { try base.imports() }
    public func contents() throws(StoreError) -> StoreContents { try base.contents() }
    public func retentionDays() throws(StoreError) -> Int? { try base.retentionDays() }
    public func countEnding(before cut: Micros) throws(StoreError) -> (matching: Int, total: Int) { try base.countEnding(before: cut) }
    public func storedTwice() throws(StoreError) -> StoredTwice { try base.storedTwice() }
    public func recorders() throws(StoreError) -> [RecorderMark] { try base.recorders() }
    public func webRecording() throws(StoreError) -> Bool { try base.webRecording() }
    public func ignoredSites() throws(StoreError) -> [SitePattern] { try base.ignoredSites() }
    public func siteCategories() throws(StoreError) -> SiteCategories { try base.siteCategories() }
    public func siteTimes(from: Micros, to: Micros, device: String?) throws(StoreError) -> [SiteTime] { try base.siteTimes(from: from, to: to, device: device) }
    public func siteSpans(from: Micros, to: Micros, device: String?) throws(StoreError) -> [SiteSpan] { try base.siteSpans(from: from, to: to, device: device) }
}
