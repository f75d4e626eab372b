// ImportContract.swift — the backend contract's imports-and-copies role: the imports kept, a store's contents for a copy, retention read and set, and the changes that bring sessions in or take them out (import, copy, forget).
import UsageCore

/// What imports, copies and retention read.
public protocol ImportReading: AnyObject, Sendable {
    /// Every import into the store (and copy of another store into it), newest first.
    func imports() throws(StoreError) -> [ImportEntry]

    /// Everything the store holds (its sources' sessions with their keys, the tracker), for a
    /// copy into another store.
    func contents() throws(StoreError) -> StoreContents

    /// The retention setting: keep imported sessions of the last N days; nil keeps everything.
    func retentionDays() throws(StoreError) -> Int?

    /// How many imported sessions end at or before `cut`, and how many there are in all.
    func countEnding(before cut: Micros) throws(StoreError) -> (matching: Int, total: Int)

    /// How many sessions the store holds twice: a device's under one key (the same id, or the
    /// same app and start), as two files brought them before a session was its device's.
    func storedTwice() throws(StoreError) -> StoredTwice
}

/// Sessions brought in and taken out, each change one transaction.
public protocol ImportWriting: AnyObject, Sendable {
    /// Imports every source in one transaction, each session once (keyed by its device and
    /// its own identity, whatever file brought it); then applies the retention, when one is
    /// set. Cancelled (Ctrl-C, SIGTERM) before it commits, it writes nothing.
    ///
    /// - Throws: `.cancelled` when `cancellation` stopped it (the transaction rolled back).
    func importSessions(_ sources: [ImportSource], now: Micros, zone: Zone, cancellation: CancellationToken) throws(StoreError) -> ImportSummary

    /// Copies another store's contents in, in one transaction: sessions under the keys they were
    /// stored with (none twice), the tracker's tasks and time. `from` names the other store.
    ///
    /// - Throws: `.failed` when a tracked interval overlaps time tracked here (nothing copied).
    func copyIn(_ contents: StoreContents, from: String, now: Micros) throws(StoreError) -> CopySummary

    /// Deletes every session the store holds twice but the first of each (`storedTwice`), the
    /// kept totals and counts moved with them. Returns how many went.
    @discardableResult func removeStoredTwice() throws(StoreError) -> Int

    /// Sets the retention (nil: keep everything). It applies after each import, not now.
    func setRetention(days: Int?) throws(StoreError)

    /// Deletes the imported sessions that end at or before `cut` (one crossing it stays
    /// whole) and gives the space back. Returns how many went.
    @discardableResult func forget(endingBefore cut: Micros) throws(StoreError) -> Int

    /// Deletes exactly the sessions import `id` added (and the kept totals with them) and the
    /// site visits it first brought in, and marks it forgotten at `now`. Returns how many went.
    ///
    /// - Throws: `.unknownImport`, `.importForgotten`, or `.store`.
    @discardableResult func forget(import id: Int64, now: Micros) throws(ForgetRefusal) -> ForgottenImport

    /// Deletes every session of the device `name` (as stored), its sources, its row and its
    /// kept totals. Returns how many sessions went.
    ///
    /// - Throws: `.unknownDevice`, or `.store`.
    @discardableResult func forget(device name: String, now: Micros) throws(ForgetRefusal) -> Int
}

extension ImportWriting {
    /// An import nothing can cancel.
    public func importSessions(_ sources: [ImportSource], now: Micros, zone: Zone) throws(StoreError) -> ImportSummary {
        try importSessions(sources, now: now, zone: zone, cancellation: CancellationToken())
    }
}
