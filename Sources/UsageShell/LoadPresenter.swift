// LoadPresenter.swift — how a load's work is run: at once (batch, tests) or, at a terminal, beside a spinner that Ctrl-C can stop; and an import's write, which Ctrl-C cancels at a terminal.
import UsageCore
import UsageData

/// A load's work: reads and decodes the source (a history, or what `import` reads), reporting
/// bytes read to the progress callback.
public typealias LoadWork<Loaded> = @Sendable (_ progress: @escaping @Sendable (Int) -> Void) -> Result<Loaded, LoadError>

/// Runs a load's work and returns its result. A presenter may return `.cancelled` before the
/// work ends (Ctrl-C): it must then cancel `cancellation`, and the late result is dropped.
public protocol LoadPresenter: AnyObject {
    func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError>

    /// Runs `body` (an import's write) on the calling thread to its end, while Ctrl-C cancels
    /// `cancellation`: unlike a load, a write is never left behind running, so that what is
    /// said after it is what it did.
    func whileCancellable<T>(_ cancellation: CancellationToken, _ body: () throws(ShellError) -> T) throws(ShellError) -> T
}

extension LoadPresenter {
    /// Nothing to watch (batch runs and tests): whoever holds `cancellation` may cancel it.
    public func whileCancellable<T>(_ cancellation: CancellationToken, _ body: () throws(ShellError) -> T) throws(ShellError) -> T {
        try body()
    }
}

/// Runs the work on the calling thread with no display (batch runs and tests).
public final class DirectLoadPresenter: LoadPresenter {
    public init() {}

    public func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError> {
        work { _ in }
    }
}
