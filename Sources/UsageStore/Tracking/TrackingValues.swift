// TrackingValues.swift — what the tracker's changes take and give back: an instant with its offset and zone, a task as `task add` gives it, the field `task edit` changes, what a stopwatch command did.
import UsageCore

/// An instant and the UTC offset (minutes) in effect there, in the zone it was given in.
public struct Stamp: Sendable, Equatable {
    public let instant: Micros
    public let offsetMinutes: Int
    public let zone: String

    public init(instant: Micros, offsetMinutes: Int, zone: String) {
        self.instant = instant
        self.offsetMinutes = offsetMinutes
        self.zone = zone
    }
}

/// What a stopwatch command did.
public struct StopwatchChange: Sendable, Equatable {
    /// The interval ended (by `stop`, `pause`, or a `start` of another task).
    public var stopped: TaskInterval?
    /// The interval begun (`start`, `resume`) or added (`track`).
    public var started: TaskInterval?
    /// The task was made by this command (a new name).
    public var createdTask = false
    /// `start` of the task already running: nothing changed.
    public var alreadyRunning = false
    /// `stop` of a paused task: its time was written at `pause`.
    public var endedPause: TrackerTask?
}

/// A task as `task add` gives it.
public struct TaskDraft: Sendable {
    public var name: String
    public var category: String?
    public var due: LocalDate?
    public var priority: TaskPriority
    public var estimate: Micros?

    public init(name: String, category: String? = nil, due: LocalDate? = nil, priority: TaskPriority = .medium, estimate: Micros? = nil) {
        self.name = name
        self.category = category
        self.due = due
        self.priority = priority
        self.estimate = estimate
    }
}

/// One field `task edit` changes.
public enum TaskEdit: Sendable {
    case name(String)
    case category(String?)
    case due(LocalDate?)
    case priority(TaskPriority)
    case estimate(Micros?)
}

/// How a word names a task: its number (`3`, `#3`), its name in any case, else the one task
/// whose name begins with it. Deleted tasks are not named.
public enum TaskNaming {
    /// The task `word` names among `tasks`.
    ///
    /// - Throws: `.ambiguousTask` when several names begin with it, `.unknownTask` when none does.
    public static func pick(_ word: String, among tasks: [TrackerTask]) throws(TrackingError) -> TrackerTask {
        let digits = word.hasPrefix("#") ? String(word.dropFirst()) : word
        if !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int64(digits), let task = tasks.first(where: { $0.id == n }) {
            return task
        }
        let lower = word.lowercased()
        if let exact = tasks.first(where: { $0.name == word }) ?? tasks.first(where: { $0.name.lowercased() == lower }) { return exact }
        let starting = tasks.filter { $0.name.lowercased().hasPrefix(lower) }
        if starting.count == 1 { return starting[0] }
        if starting.count > 1 { throw .ambiguousTask(word, candidates: starting.map(\.name)) }
        throw .unknownTask(word)
    }
}
