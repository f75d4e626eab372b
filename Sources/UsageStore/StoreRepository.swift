// StoreRepository.swift — the store as a source (`load store`, `:store:`, the default when it holds sessions): opens it and hands over its history, or says in one line why it cannot.
import UsageCore
import UsageData

/// `load store`: the sessions `import` kept, read by window.
public struct StoreRepository: HistoryRepository {
    /// Where the store is (nil: there is no place for one).
    public let location: StoreLocation?
    /// The device whose sessions are read (nil: every device's).
    public let device: String?
    /// The process's open stores it opens through.
    public let stores: OpenStores
    public var name: String { SourceRef.storeName }

    public init(location: StoreLocation?, device: String? = nil, stores: OpenStores) {
        self.location = location
        self.device = device
        self.stores = stores
    }

    public func openHistory(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError)
        -> any SessionHistory
    {
        guard let location else { throw .unreadable(source: name, reason: StoreError.nowhere) }
        do {
            return try stores.reader(location).history(source: name, device: device)
        } catch {
            throw .unreadable(source: name, reason: "\(location): \(error.reason)")
        }
    }
}
