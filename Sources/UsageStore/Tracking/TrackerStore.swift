// TrackerStore.swift — tasks and their categories in the store: read in one snapshot, each change one transaction; a task is named by its number or its name (a unique beginning of it), and its time belongs to its number.
import Foundation
import GRDB
import UsageCore

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

extension Store {
    /// Everything the tracker holds, in one snapshot.
    public func trackerSnapshot() throws(StoreError) -> TrackerSnapshot {
        try read { db in try Self.snapshot(db) }
    }

    static func snapshot(_ db: Database) throws -> TrackerSnapshot {
        let tasks = try Row.fetchAll(
            db, sql: taskSelect + " ORDER BY t.id"
        ).map(task(of:))
        let intervals = try Row.fetchAll(db, sql: "SELECT id, task, start, end, start_offset, end_offset FROM tracked ORDER BY start").map(interval(of:))
        let categories = try String.fetchAll(db, sql: "SELECT name FROM task_category ORDER BY name COLLATE NOCASE")
        let running = intervals.last { $0.end == nil }
        let paused = try meta(db, MetaKey.pausedTask)
        let stopwatch = StopwatchState(
            running: running, runningTask: running.flatMap { r in tasks.first { $0.id == r.task } },
            pausedTask: paused.flatMap { id in tasks.first { $0.id == id } }, lastSeen: try meta(db, MetaKey.lastSeen))
        return TrackerSnapshot(tasks: tasks, intervals: intervals, categories: categories, stopwatch: stopwatch)
    }

    /// The columns a `TrackerTask` is read from, its category's name joined.
    static let taskSelect =
        "SELECT t.id, t.name, c.name AS category, t.due, t.priority, t.estimate, t.created, t.done, t.deleted FROM task t LEFT JOIN task_category c ON c.id = t.category"

    static func task(of row: Row) -> TrackerTask {
        TrackerTask(
            id: row["id"], name: row["name"], category: row["category"], due: (row["due"] as String?).flatMap { LocalDate(iso: $0) },
            priority: TaskPriority(rawValue: row["priority"]) ?? .medium, estimate: row["estimate"], created: row["created"],
            done: row["done"], deleted: row["deleted"])
    }

    static func interval(of row: Row) -> TrackedInterval {
        TrackedInterval(
            id: row["id"], task: row["task"], start: row["start"], end: row["end"], startOffsetMinutes: row["start_offset"],
            endOffsetMinutes: row["end_offset"])
    }

    /// Runs a tracking change in one transaction: its own refusals come through as they are.
    func change<T>(_ body: (Database) throws -> T) throws(TrackingError) -> T {
        try trackingErrors { try writeUnmapped(body) }
    }

    /// Runs a read or a write: a tracking refusal comes through as it is, any other error as the store's.
    private func trackingErrors<T>(_ body: () throws -> T) throws(TrackingError) -> T {
        do {
            return try body()
        } catch let box as TrackingErrorBox {
            throw box.error
        } catch let error as TrackingError {
            throw error
        } catch {
            throw .store(Self.mapped(error, path: path))
        }
    }

    // MARK: Naming

    /// The task a word names: its number (`3`, `#3`), its name in any case, else the one task
    /// whose name begins with it. Deleted tasks are not named.
    static func resolveTask(_ word: String, _ db: Database) throws -> TrackerTask {
        let live = try Row.fetchAll(
            db, sql: taskSelect + " WHERE t.deleted IS NULL ORDER BY t.id"
        ).map(task(of:))
        return try pick(word, among: live)
    }

    /// The task `word` names among `tasks` (see `resolveTask`).
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

    /// The id of a managed category named `name` (any case), made when `create`.
    static func categoryID(_ name: String, create: Bool, now: Micros, _ db: Database) throws -> (id: Int64, made: Bool)? {
        if name.lowercased() == otherTaskCategory.lowercased() { return nil }
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM task_category WHERE name = ? COLLATE NOCASE", arguments: [name]) {
            return (id, false)
        }
        guard create else { throw TrackingErrorBox(.unknownCategory(name)) }
        try db.execute(sql: "INSERT INTO task_category (name, created) VALUES (?, ?)", arguments: [name, now])
        return (db.lastInsertedRowID, true)
    }

    // MARK: Tasks

    /// Adds a task (its category made when new). Returns it, and whether its category was made.
    public func addTask(_ draft: TaskDraft, now: Micros) throws(TrackingError) -> (task: TrackerTask, newCategory: Bool) {
        try change { db in try Self.insertTask(draft, now: now, db) }
    }

    static func insertTask(_ draft: TaskDraft, now: Micros, _ db: Database) throws -> (task: TrackerTask, newCategory: Bool) {
        if try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE name = ? AND deleted IS NULL", arguments: [draft.name]) != nil {
            throw TrackingErrorBox(.taskExists(draft.name))
        }
        let category = try draft.category.flatMap { try categoryID($0, create: true, now: now, db) }
        try db.execute(
            sql: "INSERT INTO task (name, category, due, priority, estimate, created) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [draft.name, category?.id, draft.due?.description, draft.priority.rawValue, draft.estimate, now])
        let id = db.lastInsertedRowID
        return (try taskByID(id, db), category?.made ?? false)
    }

    static func taskByID(_ id: Int64, _ db: Database) throws -> TrackerTask {
        let row = try Row.fetchOne(
            db, sql: taskSelect + " WHERE t.id = ?",
            arguments: [id])!
        return task(of: row)
    }

    /// Changes one field of the task `word` names.
    public func editTask(_ word: String, _ edit: TaskEdit, now: Micros) throws(TrackingError) -> (task: TrackerTask, newCategory: Bool) {
        try change { db in
            let task = try Self.resolveTask(word, db)
            var made = false
            switch edit {
            case .name(let name):
                if let other = try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE name = ? AND deleted IS NULL", arguments: [name]), other != task.id {
                    throw TrackingErrorBox(.taskExists(name))
                }
                try db.execute(sql: "UPDATE task SET name = ? WHERE id = ?", arguments: [name, task.id])
            case .category(let name):
                let category = try name.flatMap { try Self.categoryID($0, create: true, now: now, db) }
                made = category?.made ?? false
                try db.execute(sql: "UPDATE task SET category = ? WHERE id = ?", arguments: [category?.id, task.id])
            case .due(let day):
                try db.execute(sql: "UPDATE task SET due = ? WHERE id = ?", arguments: [day?.description, task.id])
            case .priority(let priority):
                try db.execute(sql: "UPDATE task SET priority = ? WHERE id = ?", arguments: [priority.rawValue, task.id])
            case .estimate(let estimate):
                try db.execute(sql: "UPDATE task SET estimate = ? WHERE id = ?", arguments: [estimate, task.id])
            }
            return (try Self.taskByID(task.id, db), made)
        }
    }

    /// Marks the task done (at `now`) or not done.
    public func setDone(_ word: String, _ done: Bool, now: Micros) throws(TrackingError) -> TrackerTask {
        try change { db in
            let task = try Self.resolveTask(word, db)
            try db.execute(sql: "UPDATE task SET done = ? WHERE id = ?", arguments: [done ? now : nil, task.id])
            return try Self.taskByID(task.id, db)
        }
    }

    /// The task `word` names and its tracked intervals (for the question before a delete, and `task N`).
    public func task(named word: String) throws(TrackingError) -> (task: TrackerTask, intervals: [TrackedInterval]) {
        try trackingErrors {
            try database.read { db in
                let task = try Self.resolveTask(word, db)
                let intervals = try Row.fetchAll(
                    db, sql: "SELECT id, task, start, end, start_offset, end_offset FROM tracked WHERE task = ? ORDER BY start",
                    arguments: [task.id]
                ).map(Self.interval(of:))
                return (task, intervals)
            }
        }
    }

    /// Deletes a task. Its tracked time goes with it only `withTime`; else the task is kept,
    /// hidden, so its sessions stay under its name. A running stopwatch on it is stopped at `now`
    /// first (a paused one forgotten).
    public func deleteTask(id: Int64, withTime: Bool, now: Micros, offsetMinutes: Int) throws(TrackingError) {
        try change { db in
            try db.execute(
                sql: "UPDATE tracked SET end = ?, end_offset = ? WHERE task = ? AND end IS NULL AND start < ?",
                arguments: [now, offsetMinutes, id, now])
            try db.execute(sql: "DELETE FROM tracked WHERE task = ? AND end IS NULL", arguments: [id])
            if try Self.meta(db, MetaKey.pausedTask) == id { try Self.setMeta(db, MetaKey.pausedTask, nil) }
            let hasTime = try Int.fetchOne(db, sql: "SELECT count(*) FROM tracked WHERE task = ?", arguments: [id]) ?? 0
            if withTime || hasTime == 0 {
                try db.execute(sql: "DELETE FROM task WHERE id = ?", arguments: [id])
            } else {
                try db.execute(sql: "UPDATE task SET deleted = ? WHERE id = ?", arguments: [now, id])
            }
        }
    }

    // MARK: Categories

    /// Adds a managed category.
    public func addCategory(_ name: String, now: Micros) throws(TrackingError) {
        try change { db in
            guard name.lowercased() != otherTaskCategory.lowercased() else { throw TrackingErrorBox(.otherIsImplicit) }
            if try Int64.fetchOne(db, sql: "SELECT id FROM task_category WHERE name = ? COLLATE NOCASE", arguments: [name]) != nil {
                throw TrackingErrorBox(.categoryExists(name))
            }
            try db.execute(sql: "INSERT INTO task_category (name, created) VALUES (?, ?)", arguments: [name, now])
            try db.execute(sql: "DELETE FROM category_rename WHERE old = ?", arguments: [name])
        }
    }

    /// Renames a category: its tasks keep it; rules and limits naming the old name follow
    /// (`categoryRenames`). Returns the name as it was stored.
    public func renameCategory(_ old: String, to new: String) throws(TrackingError) -> String {
        try change { db in
            guard old.lowercased() != otherTaskCategory.lowercased(), new.lowercased() != otherTaskCategory.lowercased() else {
                throw TrackingErrorBox(.otherIsImplicit)
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name FROM task_category WHERE name = ? COLLATE NOCASE", arguments: [old]) else {
                throw TrackingErrorBox(.unknownCategory(old))
            }
            let id: Int64 = row["id"]
            let stored: String = row["name"]
            if let other = try Int64.fetchOne(db, sql: "SELECT id FROM task_category WHERE name = ? COLLATE NOCASE", arguments: [new]), other != id {
                throw TrackingErrorBox(.categoryExists(new))
            }
            try db.execute(sql: "UPDATE task_category SET name = ? WHERE id = ?", arguments: [new, id])
            // Earlier renames to the old name now lead to the new one.
            try db.execute(sql: "UPDATE category_rename SET new = ? WHERE new = ?", arguments: [new, stored])
            try db.execute(sql: "DELETE FROM category_rename WHERE old = ?", arguments: [new])
            if stored != new {
                try db.execute(
                    sql: "INSERT INTO category_rename (old, new) VALUES (?, ?) ON CONFLICT(old) DO UPDATE SET new = excluded.new",
                    arguments: [stored, new])
            }
            return stored
        }
    }

    /// Deletes a category; its tasks move to Other. Returns how many moved.
    public func deleteCategory(_ name: String) throws(TrackingError) -> (name: String, moved: Int) {
        try change { db in
            guard name.lowercased() != otherTaskCategory.lowercased() else { throw TrackingErrorBox(.otherIsImplicit) }
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name FROM task_category WHERE name = ? COLLATE NOCASE", arguments: [name]) else {
                throw TrackingErrorBox(.unknownCategory(name))
            }
            let id: Int64 = row["id"]
            let moved = try Int.fetchOne(db, sql: "SELECT count(*) FROM task WHERE category = ?", arguments: [id]) ?? 0
            try db.execute(sql: "UPDATE task SET category = NULL WHERE category = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM task_category WHERE id = ?", arguments: [id])
            return (row["name"], moved)
        }
    }

    /// Old category names and the names they became.
    public func categoryRenames() throws(StoreError) -> [String: String] {
        try read { db in
            var renames: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT old, new FROM category_rename") { renames[row["old"]] = row["new"] }
            return renames
        }
    }
}

/// Carries a TrackingError out of a GRDB transaction (whose closures throw untyped errors).
struct TrackingErrorBox: Error {
    let error: TrackingError
    init(_ error: TrackingError) { self.error = error }
}
