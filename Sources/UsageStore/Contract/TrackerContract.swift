// TrackerContract.swift — the backend contract's tracker role: what the tracker reads (its tasks, the stopwatch, intervals by id) and changes (the stopwatch, tasks, categories, intervals edited, undo), each change one transaction.
import UsageCore

/// The tracker's state, each read one snapshot.
public protocol TrackerReading: AnyObject, Sendable {
    /// Everything the tracker holds, in one snapshot.
    func trackerSnapshot() throws(StoreError) -> TrackerSnapshot

    /// The stopwatch alone (what runs, what is paused, when it was last seen): read before and
    /// after every command, so it reads three rows, not the whole tracker.
    func stopwatchState() throws(StoreError) -> StopwatchState

    /// The task `word` names and its tracked intervals, in start order.
    ///
    /// - Throws: `.unknownTask`, `.ambiguousTask`, or `.store` when the store cannot be read.
    func task(named word: String) throws(TrackingError) -> (task: TrackerTask, intervals: [TrackedInterval])

    /// Old task-category names and the names they became (rules and limits naming the old follow).
    func categoryRenames() throws(StoreError) -> [String: String]

    /// The running interval already named as left running across a night, if any.
    func intervalNamedOvernight() throws(StoreError) -> Int64?

    /// The tracked intervals touching `[from, to)`, with their tasks, the latest start first.
    func sessions(from: Micros, to: Micros) throws(StoreError) -> [TaskInterval]

    /// Interval `@id` with its task.
    ///
    /// - Throws: `.unknownSession`, or `.store` when the store cannot be read.
    func session(_ id: Int64) throws(TrackingError) -> TaskInterval

    /// Every interval's id, the latest start first (completion of `@N`).
    func sessionIDs() throws(StoreError) -> [Int64]
}

/// The tracker's changes. Each is one transaction: it happens whole or not at all, and no other
/// process's change comes between its reads and its writes.
public protocol TrackerWriting: AnyObject, Sendable {
    /// Starts the stopwatch on the task `word` names (a new name makes a task) at `at`; a
    /// running one is stopped at that same instant, in the same transaction.
    func start(_ word: String, at: Stamp) throws(TrackingError) -> StopwatchChange

    /// Stops the running interval at `at`; a paused task is just no longer paused.
    func stop(at: Stamp) throws(TrackingError) -> StopwatchChange

    /// Ends the running interval at `at` and keeps its task for `resume`.
    func pause(at: Stamp) throws(TrackingError) -> StopwatchChange

    /// Starts the paused task again at `at`.
    func resume(at: Stamp) throws(TrackingError) -> StopwatchChange

    /// Adds past time to the task `word` names (a new name makes a task).
    func track(_ word: String, from: Stamp, to: Stamp) throws(TrackingError) -> StopwatchChange

    /// The running interval's gap mended: stopped where it was last seen, and with `again`
    /// started anew then (the split).
    func mendGap(stopAt: Stamp, again: Stamp?) throws(TrackingError) -> StopwatchChange

    /// Notes that the stopwatch was seen running at `now`; nothing is written while nothing runs.
    func sawRunning(now: Micros) throws(StoreError)

    /// Notes that the running interval `id` was named as left running across a night.
    func noteNamedOvernight(interval id: Int64) throws(StoreError)

    /// Adds a task (its category made when new). Returns it, and whether its category was made.
    func addTask(_ draft: TaskDraft, now: Micros) throws(TrackingError) -> (task: TrackerTask, newCategory: Bool)

    /// Changes one field of the task `word` names.
    func editTask(_ word: String, _ edit: TaskEdit, now: Micros) throws(TrackingError) -> (task: TrackerTask, newCategory: Bool)

    /// Marks the task done (at `now`) or not done.
    func setDone(_ word: String, _ done: Bool, now: Micros) throws(TrackingError) -> TrackerTask

    /// Deletes a task; its time goes with it only `withTime` (else it is kept, the task hidden).
    func deleteTask(id: Int64, withTime: Bool, now: Micros, offsetMinutes: Int) throws(TrackingError)

    /// Adds a managed category.
    func addCategory(_ name: String, now: Micros) throws(TrackingError)

    /// Renames a category; returns the name as it was stored.
    func renameCategory(_ old: String, to new: String) throws(TrackingError) -> String

    /// Deletes a category; its tasks move to Other. Returns its stored name and how many moved.
    func deleteCategory(_ name: String) throws(TrackingError) -> (name: String, moved: Int)

    /// Changes interval `@id` (its start, end or task; or moves it, keeping its length); no
    /// instant of it may be later than `now`. Refused, changing nothing, when another interval
    /// is in the way (named), the end would not be after the start, or there is no such interval.
    func editSession(_ id: Int64, _ edit: SessionEdit, now: Micros) throws(TrackingError) -> SessionChange

    /// Cuts interval `@id` in two at `at` (strictly inside it; a running one up to `now`): it
    /// keeps the first part, and the second, of the same task, gets a new id.
    func splitSession(_ id: Int64, at: Stamp, now: Micros) throws(TrackingError) -> SessionChange

    /// Makes two intervals one, from the earlier's start to the later's end, of the earlier's
    /// task (it keeps its id); refused when any other interval lies between them.
    func joinSessions(_ a: Int64, _ b: Int64) throws(TrackingError) -> SessionChange

    /// Deletes interval `@id`; returns it as it was.
    func deleteSession(_ id: Int64) throws(TrackingError) -> TaskInterval

    /// Starts a stopped task again at `at` (the last one stopped, a named one, or an interval's),
    /// as `start` does: a running one of another task stops there.
    func continueTask(_ target: ContinueTarget, at: Stamp) throws(TrackingError) -> StopwatchChange

    /// Reverses the last change to tracked time, tasks or categories still in the journal (by
    /// any process or machine using the store), exactly, and removes it from the journal.
    ///
    /// - Throws: `.nothingToUndo` when the journal is empty.
    func undo() throws(TrackingError) -> UndoneChange
}
