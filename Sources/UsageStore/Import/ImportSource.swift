// ImportSource.swift — one source to import: its sessions and what makes it the same source at its next import.
import UsageCore

/// One source to import: its sessions and what makes it the same source next time.
public struct ImportSource: Sendable {
    /// What makes it the same source: an absolute path, a URL, `aw://HOST:PORT`.
    public let identity: String
    /// As the user named it (for messages).
    public let shown: String
    /// Its sessions, category rules applied.
    public let dataset: Dataset

    public init(identity: String, shown: String, dataset: Dataset) {
        self.identity = identity
        self.shown = shown
        self.dataset = dataset
    }
}
