// ScreenNesting.swift — how many screens (`readingAsOne`) a store is inside, shared by both backends: a screen's reads share one read transaction, which the outermost screen's end closes.
import Synchronization

/// The count of screens open on a store's reader.
final class ScreenNesting: Sendable {
    private let open = Mutex(0)

    /// Whether a screen is open now (a read then joins the screen's transaction).
    var inScreen: Bool { open.withLock { $0 > 0 } }

    /// Runs `body` as a screen; when it was the outermost one, `end` closes its transaction.
    func run<T, E: Error>(_ body: () throws(E) -> T, end: () -> Void) throws(E) -> T {
        open.withLock { $0 += 1 }
        defer {
            let outermost = open.withLock { count in
                count -= 1
                return count == 0
            }
            if outermost { end() }
        }
        return try body()
    }
}
