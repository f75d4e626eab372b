// LoadPresenter.swift — how a load's work is run: at once (batch, tests) or, at a terminal, beside a spinner that Ctrl-C can stop.
import UsageCore
import UsageData

/// A load's work: reads and decodes the source (a history, or what `import` reads), reporting
/// bytes read to the progress callback.
public typealias LoadWork<Loaded> = @Sendable (_ progress: @escaping @Sendable (Int) -> Void) -> Result<Loaded, LoadError>

/// Runs a load's work and returns its result. A presenter may return `.cancelled` before the
/// work ends (Ctrl-C): it must then cancel `cancellation`, and the late result is dropped.
public protocol LoadPresenter: AnyObject {
    func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError>
}

/// Runs the work on the calling thread with no display (batch runs and tests).
public final class DirectLoadPresenter: LoadPresenter {
    public init() {}

    public func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError> {
        work { _ in }
    }
}
