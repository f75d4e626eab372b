// Cancellation.swift — a thread-safe flag that lets a user (Ctrl-C) or a newer load stop a running load.
import Synchronization

/// A one-way cancellation flag shared between a load and whoever may cancel it.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks the work to stop at its next check.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
