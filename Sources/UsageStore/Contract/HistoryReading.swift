// HistoryReading.swift — the backend contract's first role: what `show` and every report need of a store (where it is, its history by window, its devices, the facts `store` shows, a range's kept totals, the change token `watch` polls).
import UsageCore

/// What reports read. Every read is one snapshot.
public protocol HistoryReading: AnyObject, Sendable {
    /// Where it is.
    var location: StoreLocation { get }

    /// A token that moves whenever a change to the store is committed, by this process or
    /// another, and only then: a history read with one token needs reading again only when
    /// it moved (`watch`).
    func changeToken() throws(StoreError) -> Int64

    /// The imported sessions as reports read them, by window; named `source` in messages; with
    /// `device`, that device's alone.
    ///
    /// - Throws: `.unknownDevice` for a device the store does not know.
    func history(source: String, device: String?) throws(StoreError) -> StoreHistory

    /// The devices the store's sessions came from, most recently imported first.
    func devices() throws(StoreError) -> [DeviceSummary]

    /// What `store` shows, with days taken in `zone`.
    func summary(zone: Zone) throws(StoreError) -> StoreSummary

    /// What the imported sessions add up to over the days of `bounds` (`summary`), from the
    /// totals the store keeps beside them: exact for any zone, without reading the sessions of
    /// the days in between. With `detail`, also per app and category; with `device`, of that
    /// device's sessions alone (nil: every device's, added up).
    func rangeTotals(_ bounds: DayBounds, detail: Bool, device: String?) throws(StoreError) -> RangeTotals
}

extension HistoryReading {
    /// Every device's sessions as reports read them.
    public func history(source: String) throws(StoreError) -> StoreHistory {
        try history(source: source, device: nil)
    }

    /// Every device's totals of the days of `bounds`.
    public func rangeTotals(_ bounds: DayBounds, detail: Bool) throws(StoreError) -> RangeTotals {
        try rangeTotals(bounds, detail: detail, device: nil)
    }
}
