// ImportSource.swift — one source to import: its sessions, its site visits, and what makes it the same source at its next import.
import UsageCore

/// One source to import: its sessions and what makes it the same source next time.
public struct ImportSource: Sendable {
    /// What makes it the same source: an absolute path, a URL, `aw://HOST:PORT`.
    public let identity: String
    /// As the user named it (for messages).
    public let shown: String
    /// Its sessions, category rules applied.
    public let dataset: Dataset
    /// The device they came from (the importing machine's, unless the source names one).
    public let device: String
    /// The device's site visits the source holds (an ActivityWatch export's web buckets).
    public let visits: [BrowserVisit]

    public init(identity: String, shown: String, dataset: Dataset, device: String = Devices.local, visits: [BrowserVisit] = []) {
        self.identity = identity
        self.shown = shown
        self.dataset = dataset
        self.device = device
        self.visits = visits
    }
}
