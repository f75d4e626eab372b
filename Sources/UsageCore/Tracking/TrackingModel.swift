// TrackingModel.swift — what the tracker keeps, as values: a task (name, category, due day, priority, estimate, done), a tracked interval (its id, an instant and its offset at each end; no end while it runs) and with its task, the stopwatch's state.

/// How much a task matters; `tasks` and `today` list high first.
public enum TaskPriority: Int, Sendable, CaseIterable, Comparable {
    case low = 0, medium = 1, high = 2

    public var word: String {
        switch self {
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        }
    }

    public init?(word: String) {
        guard let p = Self.allCases.first(where: { $0.word == word.lowercased() }) else { return nil }
        self = p
    }

    public static func < (a: TaskPriority, b: TaskPriority) -> Bool { a.rawValue < b.rawValue }
}

/// The category of tasks that have none (as the original app treats a missing category).
public let otherTaskCategory = "Other"

/// One task.
public struct TrackerTask: Sendable, Equatable {
    /// Its number: what its tracked time belongs to, kept through renames.
    public let id: Int64
    public var name: String
    /// nil: Other.
    public var category: String?
    public var due: LocalDate?
    public var priority: TaskPriority
    public var estimate: Micros?
    public let created: Micros
    /// When it was marked done.
    public var done: Micros?
    /// When it was deleted with its time kept (its sessions stay under its name).
    public var deleted: Micros?

    public init(
        id: Int64, name: String, category: String?, due: LocalDate?, priority: TaskPriority, estimate: Micros?,
        created: Micros, done: Micros?, deleted: Micros?
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.due = due
        self.priority = priority
        self.estimate = estimate
        self.created = created
        self.done = done
        self.deleted = deleted
    }

    /// The category as shown: Other when it has none.
    public var categoryName: String { category ?? otherTaskCategory }
}

/// One stretch of tracked time.
public struct TrackedInterval: Sendable, Equatable {
    public let id: Int64
    public let task: Int64
    public let start: Micros
    /// nil while the stopwatch runs.
    public let end: Micros?
    /// The UTC offset (minutes) in effect at start and end where it was tracked.
    public let startOffsetMinutes: Int
    public let endOffsetMinutes: Int?

    public init(id: Int64, task: Int64, start: Micros, end: Micros?, startOffsetMinutes: Int, endOffsetMinutes: Int?) {
        self.id = id
        self.task = task
        self.start = start
        self.end = end
        self.startOffsetMinutes = startOffsetMinutes
        self.endOffsetMinutes = endOffsetMinutes
    }

    public var isRunning: Bool { end == nil }

    /// Its length, a running one counted up to `now`.
    public func length(now: Micros) -> Micros { max(0, (end ?? now) - start) }
}

/// A tracked interval with its task, as lists show it and changes give it back.
public struct TaskInterval: Sendable, Equatable {
    public let task: TrackerTask
    public let interval: TrackedInterval

    public init(task: TrackerTask, interval: TrackedInterval) {
        self.task = task
        self.interval = interval
    }
}

/// The stopwatch as the store holds it.
public struct StopwatchState: Sendable, Equatable {
    /// The interval that runs, and its task.
    public let running: TrackedInterval?
    public let runningTask: TrackerTask?
    /// The task paused (its last session written), waiting for `resume`.
    public let pausedTask: TrackerTask?
    /// The last time a command saw the stopwatch running (for the long-gap question).
    public let lastSeen: Micros?

    public init(running: TrackedInterval?, runningTask: TrackerTask?, pausedTask: TrackerTask?, lastSeen: Micros?) {
        self.running = running
        self.runningTask = runningTask
        self.pausedTask = pausedTask
        self.lastSeen = lastSeen
    }

    public static let idle = StopwatchState(running: nil, runningTask: nil, pausedTask: nil, lastSeen: nil)
}

/// Everything the tracker holds, read in one snapshot: the reports are computed from it.
public struct TrackerSnapshot: Sendable {
    /// Every task, deleted ones with time kept included.
    public let tasks: [TrackerTask]
    /// Every tracked interval, in start order.
    public let intervals: [TrackedInterval]
    /// The managed categories, by name.
    public let categories: [String]
    public let stopwatch: StopwatchState

    public init(tasks: [TrackerTask], intervals: [TrackedInterval], categories: [String], stopwatch: StopwatchState) {
        self.tasks = tasks
        self.intervals = intervals
        self.categories = categories
        self.stopwatch = stopwatch
    }

    public func task(_ id: Int64) -> TrackerTask? { tasks.first { $0.id == id } }
}
