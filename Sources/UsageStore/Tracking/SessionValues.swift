// SessionValues.swift — what the session edits, `continue` and `undo` take and give back: the edit of one interval, what an edit left, which task `continue` starts, and a change as the undo journal names it.
import UsageCore

/// One change `session edit` and `session move` make to an interval.
public enum SessionEdit: Sendable, Equatable {
    /// A new start; the end stays.
    case start(Stamp)
    /// A new end (a running interval stops there).
    case end(Stamp)
    /// Another task (a new name makes one, as `start` and `track` do).
    case task(String)
    /// A new start, the same length (a running one keeps running).
    case move(Stamp)
}

/// What a session edit left.
public struct SessionChange: Sendable, Equatable {
    /// The intervals as the edit left them, in start order (two after a split).
    public var sessions: [TaskInterval] = []
    /// The ids of intervals the edit removed (the second of a join).
    public var removed: [Int64] = []
    /// The task was made by this edit (a new name).
    public var createdTask = false
}

/// Which task `continue` starts again.
public enum ContinueTarget: Sendable, Equatable {
    /// The task of the interval that stopped last.
    case last
    /// The task a word names (its number or name).
    case task(String)
    /// The task of interval `@N`.
    case session(Int64)
}

/// A change to tracked time, tasks or categories as the undo journal names it: the command,
/// what it was about, and the interval it touched as the change left it.
public struct ChangeNote: Sendable, Equatable, Codable {
    /// The command's words: `start`, `session move`, `category rename`.
    public var command: String
    /// The task or category it was about (the old name of a renamed category).
    public var name: String?
    /// A renamed category's new name.
    public var newName: String?
    /// The interval it touched (`@N`), and another (the second of a join).
    public var session: Int64?
    public var otherSession: Int64?
    /// The interval's times as the change left them (`at` when one alone).
    public var start: Micros?
    public var end: Micros?

    public init(
        _ command: String, name: String? = nil, newName: String? = nil, session: Int64? = nil, otherSession: Int64? = nil,
        start: Micros? = nil, end: Micros? = nil
    ) {
        self.command = command
        self.name = name
        self.newName = newName
        self.session = session
        self.otherSession = otherSession
        self.start = start
        self.end = end
    }

    /// An interval's change: its id, its task's name and its times.
    init(_ command: String, _ changed: TaskInterval, start: Bool = true, end: Bool = true) {
        self.init(
            command, name: changed.task.name, session: changed.interval.id, start: start ? changed.interval.start : nil,
            end: end ? changed.interval.end : nil)
    }
}

/// What `undo` undid, and how many changes are left to undo.
public struct UndoneChange: Sendable, Equatable {
    public let note: ChangeNote
    public let left: Int

    public init(note: ChangeNote, left: Int) {
        self.note = note
        self.left = left
    }
}
