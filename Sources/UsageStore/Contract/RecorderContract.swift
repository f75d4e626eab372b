// RecorderContract.swift — the backend contract's recorder role: the desktop recorders a store knows of, and the recorder's write.
import UsageCore

/// The recorders' marks.
public protocol RecorderReading: AnyObject, Sendable {
    /// The desktop recorders the store knows of (`usage-shell record`), with their last writes.
    func recorders() throws(StoreError) -> [RecorderMark]
}

/// The desktop recorder's writes.
public protocol RecorderWriting: AnyObject, Sendable {
    /// The desktop recorder's write (every few seconds): its sessions as they stand, each kept
    /// by its start under `device`'s recorder source (an open one grows in place), and its mark
    /// (PID, last write; nil: it stopped). One transaction.
    func record(_ sessions: [RecordedSession], device: String, now: Micros, mark: RecorderMark?) throws(StoreError)
}
