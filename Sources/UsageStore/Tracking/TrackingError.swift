// TrackingError.swift — every way a tracking command is refused, each one line; a refused command changes nothing.

/// Why a task, category or stopwatch change was refused (times already written as the user
/// reads them: local, in the selected zone).
public enum TrackingError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownTask(String)
    case ambiguousTask(String, candidates: [String])
    case taskExists(String)
    case unknownCategory(String)
    case categoryExists(String)
    /// `Other` is where tasks without a category are: it cannot be added, renamed or deleted.
    case otherIsImplicit
    case nothingRunning
    case notPaused
    /// The change would overlap tracked time: the interval it hits (as `09:10–10:30`).
    case overlap(task: String, interval: String)
    /// An end at or before its start.
    case endNotAfterStart(from: String, to: String)
    /// `--at` later than now.
    case inFuture(String)
    /// Anything the store said.
    case store(StoreError)

    public var description: String {
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
        case .overlap(let task, let interval): return "that overlaps '\(task)' tracked \(interval); nothing was changed"
        case .endNotAfterStart(let from, let to): return "the end \(to) is not after the start \(from)"
        case .inFuture(let when): return "\(when) is later than now"
        case .store(let error): return error.description
        }
    }
}
