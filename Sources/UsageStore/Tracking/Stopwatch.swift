// Stopwatch.swift — the stopwatch in the store: start (stopping another at the same instant, in the same transaction), pause, resume, stop, track past time, the last time it was seen running; no change ever makes two intervals overlap (checked here to name the interval hit, and by the database's trigger).
import GRDB
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

/// A task's interval, as a change touched it.
public struct TaskInterval: Sendable, Equatable {
    public let task: TrackerTask
    public let interval: TrackedInterval
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

/// Every change takes `describeRange`, which names an interval as the user reads times
/// (`09:10–10:30`; nil end: still running; the same instant twice: that instant) for its refusals.
extension Store {
    /// Starts the stopwatch on the task `word` names (a new name makes a task) at `at`; a
    /// running one is stopped at that same instant, in the same transaction.
    public func start(_ word: String, at: Stamp, describeRange: @escaping (Micros, Micros?) -> String) throws(TrackingError) -> StopwatchChange {
        try change { db in
            var result = StopwatchChange()
            let task: TrackerTask
            (task, result.createdTask) = try Self.taskNamed(word, creatingAt: at.instant, db)
            if let running = try Self.running(db) {
                if running.task == task.id {
                    result.alreadyRunning = true
                    result.started = TaskInterval(task: task, interval: running)
                    return result
                }
                result.stopped = try Self.end(running, at: at, db, describeRange: describeRange)
            }
            result.started = try Self.begin(task, at: at, db, describeRange: describeRange)
            try Self.setMeta(db, MetaKey.pausedTask, nil)
            try Self.setMeta(db, MetaKey.lastSeen, at.instant)
            return result
        }
    }

    /// Stops the running interval at `at`; a paused task is just no longer paused.
    public func stop(at: Stamp, describeRange: @escaping (Micros, Micros?) -> String) throws(TrackingError) -> StopwatchChange {
        try change { db in
            var result = StopwatchChange()
            if let running = try Self.running(db) {
                result.stopped = try Self.end(running, at: at, db, describeRange: describeRange)
            } else if let paused = try Self.meta(db, MetaKey.pausedTask) {
                result.endedPause = try Self.taskByID(paused, db)
            } else {
                throw TrackingErrorBox(.nothingRunning)
            }
            try Self.setMeta(db, MetaKey.pausedTask, nil)
            return result
        }
    }

    /// Ends the running interval at `at` and keeps its task for `resume`.
    public func pause(at: Stamp, describeRange: @escaping (Micros, Micros?) -> String) throws(TrackingError) -> StopwatchChange {
        try change { db in
            guard let running = try Self.running(db) else { throw TrackingErrorBox(.nothingRunning) }
            var result = StopwatchChange()
            result.stopped = try Self.end(running, at: at, db, describeRange: describeRange)
            try Self.setMeta(db, MetaKey.pausedTask, running.task)
            return result
        }
    }

    /// Starts the paused task again at `at`.
    public func resume(at: Stamp, describeRange: @escaping (Micros, Micros?) -> String) throws(TrackingError) -> StopwatchChange {
        try change { db in
            guard let paused = try Self.meta(db, MetaKey.pausedTask) else {
                if let running = try Self.running(db) {
                    return StopwatchChange(started: TaskInterval(task: try Self.taskByID(running.task, db), interval: running), alreadyRunning: true)
                }
                throw TrackingErrorBox(.notPaused)
            }
            var result = StopwatchChange()
            result.started = try Self.begin(try Self.taskByID(paused, db), at: at, db, describeRange: describeRange)
            try Self.setMeta(db, MetaKey.pausedTask, nil)
            try Self.setMeta(db, MetaKey.lastSeen, at.instant)
            return result
        }
    }

    /// Adds past time to the task `word` names (a new name makes a task).
    public func track(_ word: String, from: Stamp, to: Stamp, describeRange: @escaping (Micros, Micros?) -> String) throws(TrackingError) -> StopwatchChange {
        try change { db in
            guard to.instant > from.instant else {
                throw TrackingErrorBox(.endNotAfterStart(from: describeRange(from.instant, from.instant), to: describeRange(to.instant, to.instant)))
            }
            var result = StopwatchChange()
            let task: TrackerTask
            (task, result.createdTask) = try Self.taskNamed(word, creatingAt: from.instant, db)
            try Self.refuseOverlap(from: from.instant, to: to.instant, excluding: nil, db, describeRange: describeRange)
            try db.execute(
                sql: "INSERT INTO tracked (task, start, end, start_offset, end_offset, zone) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [task.id, from.instant, to.instant, from.offsetMinutes, to.offsetMinutes, from.zone])
            result.started = TaskInterval(task: task, interval: try Self.intervalByID(db.lastInsertedRowID, db))
            return result
        }
    }

    /// The running interval's gap, mended: stopped where it was last seen, and with `again`
    /// started anew at `again` (the split); one transaction.
    public func mendGap(stopAt: Stamp, again: Stamp?, describeRange: @escaping (Micros, Micros?) -> String) throws(TrackingError) -> StopwatchChange {
        try change { db in
            guard let running = try Self.running(db) else { throw TrackingErrorBox(.nothingRunning) }
            var result = StopwatchChange()
            result.stopped = try Self.end(running, at: stopAt, db, describeRange: describeRange)
            if let again {
                result.started = try Self.begin(try Self.taskByID(running.task, db), at: again, db, describeRange: describeRange)
                try Self.setMeta(db, MetaKey.lastSeen, again.instant)
            }
            return result
        }
    }

    /// Notes that the stopwatch was seen running at `now` (a command ran): a later command
    /// after a long gap asks about it. Nothing is written while nothing runs.
    public func sawRunning(now: Micros) throws(StoreError) {
        try write { db in
            guard try Self.running(db) != nil else { return }
            try Self.setMeta(db, MetaKey.lastSeen, now)
        }
    }

    /// Notes that the running interval `id` was named (across a night), so it is named once.
    public func noteNamed(interval id: Int64) throws(StoreError) {
        try write { db in try Self.setMeta(db, MetaKey.namedRunning, id) }
    }

    /// The running interval that was last named, if any.
    public func namedRunning() throws(StoreError) -> Int64? {
        try read { db in try Self.meta(db, MetaKey.namedRunning) }
    }

    // MARK: Parts

    /// The task `word` names, or a new task of that name (made at `t`) when none does.
    static func taskNamed(_ word: String, creatingAt t: Micros, _ db: Database) throws -> (TrackerTask, created: Bool) {
        do {
            return (try resolveTask(word, db), false)
        } catch TrackingError.unknownTask {
            return (try insertTask(TaskDraft(name: word), now: t, db).task, true)
        }
    }

    static func running(_ db: Database) throws -> TrackedInterval? {
        try Row.fetchOne(db, sql: "SELECT id, task, start, end, start_offset, end_offset FROM tracked WHERE end IS NULL").map(interval(of:))
    }

    static func intervalByID(_ id: Int64, _ db: Database) throws -> TrackedInterval {
        interval(of: try Row.fetchOne(db, sql: "SELECT id, task, start, end, start_offset, end_offset FROM tracked WHERE id = ?", arguments: [id])!)
    }

    private static func end(_ running: TrackedInterval, at: Stamp, _ db: Database, describeRange: (Micros, Micros?) -> String) throws -> TaskInterval {
        guard at.instant > running.start else {
            throw TrackingErrorBox(.endNotAfterStart(from: describeRange(running.start, running.start), to: describeRange(at.instant, at.instant)))
        }
        try db.execute(
            sql: "UPDATE tracked SET end = ?, end_offset = ? WHERE id = ?", arguments: [at.instant, at.offsetMinutes, running.id])
        return TaskInterval(task: try taskByID(running.task, db), interval: try intervalByID(running.id, db))
    }

    private static func begin(_ task: TrackerTask, at: Stamp, _ db: Database, describeRange: (Micros, Micros?) -> String) throws -> TaskInterval {
        try refuseOverlap(from: at.instant, to: nil, excluding: nil, db, describeRange: describeRange)
        try db.execute(
            sql: "INSERT INTO tracked (task, start, start_offset, zone) VALUES (?, ?, ?, ?)",
            arguments: [task.id, at.instant, at.offsetMinutes, at.zone])
        return TaskInterval(task: task, interval: try intervalByID(db.lastInsertedRowID, db))
    }

    /// Refuses `[from, to)` (to the end of time when `to` is nil) where it meets tracked time,
    /// naming the first interval it hits.
    private static func refuseOverlap(from: Micros, to: Micros?, excluding: Int64?, _ db: Database, describeRange: (Micros, Micros?) -> String) throws {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT t.name, r.start, r.end FROM tracked r JOIN task t ON t.id = r.task
                WHERE r.start < ? AND coalesce(r.end, 9223372036854775807) > ? AND r.id != ?
                ORDER BY r.start LIMIT 1
                """,
            arguments: [to ?? Int64.max, from, excluding ?? -1])
        guard let row else { return }
        let end: Int64? = row["end"]
        throw TrackingErrorBox(.overlap(task: row["name"], interval: describeRange(row["start"], end)))
    }
}

extension Store.MetaKey {
    /// The task paused, waiting for `resume`.
    static let pausedTask = "paused_task"
    /// When a command last saw the stopwatch running.
    static let lastSeen = "last_seen"
    /// The running interval already named as left running across a night.
    static let namedRunning = "named_running"
}

extension Store {
    /// The stopwatch alone (what runs, what is paused, when it was last seen): read before and
    /// after every command, so it reads three rows, not the whole tracker.
    public func stopwatchState() throws(StoreError) -> StopwatchState {
        try read { db in
            let running = try Self.running(db)
            let paused = try Self.meta(db, MetaKey.pausedTask)
            return StopwatchState(
                running: running, runningTask: try running.map { try Self.taskByID($0.task, db) },
                pausedTask: try paused.map { try Self.taskByID($0, db) }, lastSeen: try Self.meta(db, MetaKey.lastSeen))
        }
    }
}
