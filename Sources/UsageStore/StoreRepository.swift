// StoreRepository.swift — the store as a source (`load store`, `:store:`, the default when it holds sessions): opens it and hands over a StoreHistory, or says in one line why it cannot.
import UsageCore
import UsageData

/// `load store`: the sessions `import` kept, read by window.
public struct StoreRepository: HistoryRepository {
    /// The store's database file.
    public let path: String
    public var name: String { SourceRef.storeName }

    public init(path: String) {
        self.path = path
    }

    public func openHistory(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError)
        -> any SessionHistory
    {
        do {
            return try StoreHistory(store: Store.open(path: path, create: false), source: name)
        } catch {
            throw .unreadable(source: name, reason: "\(path): \(error.reason)")
        }
    }
}
