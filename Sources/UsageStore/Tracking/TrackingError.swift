// TrackingError.swift — every way a tracking command is refused, each one line; a refused command changes nothing. Times are kept as instants: the shell names them in the zone it shows.
import UsageCore

/// Why a task, category or stopwatch change was refused.
public enum TrackingError: Error, Equatable, Sendable {
    case unknownTask(String)
    case ambiguousTask(String, candidates: [String])
    case taskExists(String)
    case unknownCategory(String)
    case categoryExists(String)
    /// `Other` is where tasks without a category are: it cannot be added, renamed or deleted.
    case otherIsImplicit
    case nothingRunning
    case notPaused
    /// The change would overlap tracked time: the interval it hits (`@N`), its task and times (no end: running).
    case overlap(session: Int64, task: String, start: Micros, end: Micros?)
    /// An end at or before its start.
    case endNotAfterStart(start: Micros, end: Micros)
    /// A start (`start`, `continue`) not after the running interval's own start, which it would
    /// stop there: the running one's task, id and start, and the start asked for. Two machines
    /// starting at one moment meet it: the database takes one, the other is refused.
    case startNotAfterRunning(task: String, session: Int64, since: Micros, at: Micros)
    /// `--at` later than now.
    case inFuture(Micros)
    /// `session move @N TIME` whose end, the same length later, would be later than now: the
    /// session, the start asked for and that end (a time never typed, so the move is named).
    case movedPastNow(session: Int64, start: Micros, end: Micros)
    /// No interval `@N`.
    case unknownSession(Int64)
    /// `session join @N @N`.
    case joinItself(Int64)
    /// A split outside the interval: the instant, and the interval (no end: running).
    case notInside(Micros, session: Int64, start: Micros, end: Micros?)
    /// `continue` with no stopped interval yet.
    case nothingToContinue
    /// `continue @N` of a task deleted with its time kept.
    case deletedTask(String)
    /// `undo` with an empty journal.
    case nothingToUndo
    /// Anything the store said.
    case store(StoreError)

    /// The line the user reads, its times named by `when` (an instant) and `range` (an
    /// interval: `09:10–10:30`; nil end: still running), as the shell shows them.
    public func description(when: (Micros) -> String, range: (Micros, Micros?) -> String) -> String {
        switch self {
        case .unknownTask(let name): return "no task '\(name)' (tasks lists them; 'start NAME' or 'task add NAME' makes one)"
        case .ambiguousTask(let name, let candidates):
            return "'\(name)' could be \(candidates.prefix(5).map { "'\($0)'" }.joined(separator: ", "))\(candidates.count > 5 ? ", …" : ""): type more of the name, or its number"
        case .taskExists(let name): return "a task '\(name)' already exists"
        case .unknownCategory(let name): return "no category '\(name)' (categories lists them)"
        case .categoryExists(let name): return "a category '\(name)' already exists"
        case .otherIsImplicit: return "Other holds the tasks without a category; it cannot be added, renamed or deleted"
        case .nothingRunning: return "nothing is running (start TASK starts the stopwatch)"
        case .notPaused: return "nothing is paused (pause stops the running task until resume)"
        case .overlap(let session, let task, let start, let end):
            return "that overlaps @\(session) '\(task)' tracked \(range(start, end)); nothing was changed"
        case .endNotAfterStart(let start, let end): return "the end \(when(end)) is not after the start \(when(start))"
        case .startNotAfterRunning(let task, let session, let since, let at):
            return "'\(task)' (@\(session)) has run only since \(when(since)), not before \(when(at)), so it cannot stop then; nothing was changed (another shell or machine may have started it at that moment)"
        case .inFuture(let t): return "\(when(t)) is later than now"
        case .movedPastNow(let session, let start, let end):
            return "@\(session) moved to \(when(start)) would end at \(when(end)), later than now"
        case .unknownSession(let id): return "no session @\(id) (sessions lists them with their ids)"
        case .joinItself(let id): return "@\(id) cannot be joined with itself: name two sessions"
        case .notInside(let t, let session, let start, let end):
            return "\(when(t)) is not inside @\(session) (\(range(start, end))): a split is between its start and its end"
        case .nothingToContinue: return "nothing to continue: no tracked time has stopped yet (start TASK starts the stopwatch)"
        case .deletedTask(let name): return "'\(name)' was deleted (its time kept); it cannot be started again"
        case .nothingToUndo: return "nothing to undo"
        case .store(let error): return error.description
        }
    }
}

/// Carries a TrackingError out of a transaction's body (whose closures throw untyped errors).
struct TrackingErrorBox: Error {
    let error: TrackingError
    init(_ error: TrackingError) { self.error = error }
}
