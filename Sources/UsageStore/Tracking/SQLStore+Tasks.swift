// SQLStore+Tasks.swift — tasks and their categories, written once for every SQL backend: read in one snapshot, each change one transaction, journaled for `undo`; a task is named by its number or its name (a unique beginning of it), and its time belongs to its number.
import UsageCore

extension SQLStore {
    public func trackerSnapshot() throws(StoreError) -> TrackerSnapshot {
        try read { tx in try Tracker.snapshot(tx) }
    }

    public func task(named word: String) throws(TrackingError) -> (task: TrackerTask, intervals: [TrackedInterval]) {
        try trackingRead { tx in
            let task = try Tracker.resolveTask(word, tx)
            let intervals = try tx.rows(Tracker.intervalSelect + " WHERE task = ? ORDER BY start", [.integer(task.id)])
                .map(Tracker.interval(of:))
            return (task, intervals)
        }
    }

    public func categoryRenames() throws(StoreError) -> [String: String] {
        try read { tx in
            var renames: [String: String] = [:]
            for row in try tx.rows("SELECT old, new FROM category_rename", []) {
                if let old = row.text("old"), let new = row.text("new") { renames[old] = new }
            }
            return renames
        }
    }

    public func addTask(_ draft: TaskDraft, now: Micros) throws(TrackingError) -> (task: TrackerTask, newCategory: Bool) {
        try journaledChange { tx in
            tx.note = ChangeNote("task add", name: draft.name)
            return try Tracker.insertTask(draft, now: now, tx)
        }
    }

    public func editTask(_ word: String, _ edit: TaskEdit, now: Micros) throws(TrackingError) -> (task: TrackerTask, newCategory: Bool) {
        try journaledChange { tx in
            let task = try Tracker.resolveTask(word, tx)
            try tx.keep(.task, id: task.id)
            tx.note = ChangeNote("task edit", name: task.name)
            var made = false
            switch edit {
            case .name(let name):
                if let other = try tx.int("SELECT id FROM task WHERE name = ? AND deleted IS NULL", [.text(name)]), other != task.id {
                    throw TrackingErrorBox(.taskExists(name))
                }
                try tx.execute("UPDATE task SET name = ? WHERE id = ?", [.text(name), .integer(task.id)])
            case .category(let name):
                let category = try name.flatMap { try Tracker.categoryID($0, create: true, now: now, tx) }
                made = category?.made ?? false
                try tx.execute("UPDATE task SET category = ? WHERE id = ?", [SQLValue(category?.id), .integer(task.id)])
            case .due(let day):
                try tx.execute("UPDATE task SET due = ? WHERE id = ?", [SQLValue(day?.description), .integer(task.id)])
            case .priority(let priority):
                try tx.execute("UPDATE task SET priority = ? WHERE id = ?", [SQLValue(priority.rawValue), .integer(task.id)])
            case .estimate(let estimate):
                try tx.execute("UPDATE task SET estimate = ? WHERE id = ?", [SQLValue(estimate), .integer(task.id)])
            }
            return (try Tracker.taskByID(task.id, tx), made)
        }
    }

    public func setDone(_ word: String, _ done: Bool, now: Micros) throws(TrackingError) -> TrackerTask {
        try journaledChange { tx in
            let task = try Tracker.resolveTask(word, tx)
            try tx.keep(.task, id: task.id)
            tx.note = ChangeNote(done ? "task done" : "task undone", name: task.name)
            try tx.execute("UPDATE task SET done = ? WHERE id = ?", [done ? .integer(now) : .null, .integer(task.id)])
            return try Tracker.taskByID(task.id, tx)
        }
    }

    /// A running stopwatch on the task is stopped at `now` first (a paused one forgotten).
    public func deleteTask(id: Int64, withTime: Bool, now: Micros, offsetMinutes: Int) throws(TrackingError) {
        try journaledChange { tx in
            try tx.keep(.task, id: id)
            try tx.keep(.tracked, where: "task = ?", [.integer(id)])
            tx.note = ChangeNote("task delete", name: try Tracker.taskByID(id, tx).name)
            try tx.execute(
                "UPDATE tracked SET \"end\" = ?, end_offset = ? WHERE task = ? AND \"end\" IS NULL AND start < ?",
                [.integer(now), SQLValue(offsetMinutes), .integer(id), .integer(now)])
            try tx.execute("DELETE FROM tracked WHERE task = ? AND \"end\" IS NULL", [.integer(id)])
            if try Meta.get(tx, Meta.pausedTask) == id { try tx.setMeta(Meta.pausedTask, nil) }
            let hasTime = try tx.int("SELECT count(*) FROM tracked WHERE task = ?", [.integer(id)]) ?? 0
            if withTime || hasTime == 0 {
                try tx.execute("DELETE FROM tracked WHERE task = ?", [.integer(id)])
                try tx.execute("DELETE FROM task WHERE id = ?", [.integer(id)])
            } else {
                try tx.execute("UPDATE task SET deleted = ? WHERE id = ?", [.integer(now), .integer(id)])
            }
        }
    }

    public func addCategory(_ name: String, now: Micros) throws(TrackingError) {
        try journaledChange { tx in
            guard name.lowercased() != otherTaskCategory.lowercased() else { throw TrackingErrorBox(.otherIsImplicit) }
            if try Tracker.category(named: name, tx) != nil {
                throw TrackingErrorBox(.categoryExists(name))
            }
            tx.note = ChangeNote("category add", name: name)
            tx.made(.taskCategory, id: try tx.insert("INSERT INTO task_category (id, name, created) VALUES (\(SQLIDs.next("task_category")), ?, ?) RETURNING id", [.text(name), .integer(now)]))
            try tx.keep(.categoryRename, .text(name))
            try tx.execute("DELETE FROM category_rename WHERE old = ?", [.text(name)])
        }
    }

    /// Its tasks keep it; rules and limits naming the old name follow (`categoryRenames`).
    public func renameCategory(_ old: String, to new: String) throws(TrackingError) -> String {
        try journaledChange { tx in
            guard old.lowercased() != otherTaskCategory.lowercased(), new.lowercased() != otherTaskCategory.lowercased() else {
                throw TrackingErrorBox(.otherIsImplicit)
            }
            guard let (id, stored) = try Tracker.category(named: old, tx) else { throw TrackingErrorBox(.unknownCategory(old)) }
            if let other = try Tracker.category(named: new, tx)?.id, other != id {
                throw TrackingErrorBox(.categoryExists(new))
            }
            tx.note = ChangeNote("category rename", name: stored, newName: new)
            try tx.keep(.taskCategory, id: id)
            try tx.keep(.categoryRename, where: "new = ? OR old = ?", [.text(stored), .text(new)])
            try tx.keep(.categoryRename, .text(stored))
            try tx.execute("UPDATE task_category SET name = ? WHERE id = ?", [.text(new), .integer(id)])
            // Earlier renames to the old name now lead to the new one.
            try tx.execute("UPDATE category_rename SET new = ? WHERE new = ?", [.text(new), .text(stored)])
            try tx.execute("DELETE FROM category_rename WHERE old = ?", [.text(new)])
            if stored != new {
                try tx.execute(
                    "INSERT INTO category_rename (old, new) VALUES (?, ?) ON CONFLICT (old) DO UPDATE SET new = excluded.new",
                    [.text(stored), .text(new)])
            }
            return stored
        }
    }

    public func deleteCategory(_ name: String) throws(TrackingError) -> (name: String, moved: Int) {
        try journaledChange { tx in
            guard name.lowercased() != otherTaskCategory.lowercased() else { throw TrackingErrorBox(.otherIsImplicit) }
            guard let (id, stored) = try Tracker.category(named: name, tx) else { throw TrackingErrorBox(.unknownCategory(name)) }
            let moved = try tx.int("SELECT count(*) FROM task WHERE category = ?", [.integer(id)]) ?? 0
            tx.note = ChangeNote("category delete", name: stored)
            try tx.keep(.task, where: "category = ?", [.integer(id)])
            try tx.keep(.taskCategory, id: id)
            try tx.execute("UPDATE task SET category = NULL WHERE category = ?", [.integer(id)])
            try tx.execute("DELETE FROM task_category WHERE id = ?", [.integer(id)])
            return (stored, Int(moved))
        }
    }
}

/// The tracker's reads and writes inside a transaction, written once for every SQL backend.
enum Tracker {
    /// The columns a `TrackerTask` is read from, its category's name joined.
    static let taskSelect =
        "SELECT t.id, t.name, c.name AS category, t.due, t.priority, t.estimate, t.created, t.done, t.deleted FROM task t LEFT JOIN task_category c ON c.id = t.category"

    /// The columns a `TrackedInterval` is read from.
    static let intervalSelect = "SELECT id, task, start, \"end\", start_offset, end_offset FROM tracked"

    static func snapshot(_ tx: any SQLTransaction) throws -> TrackerSnapshot {
        let tasks = try tx.rows(taskSelect + " ORDER BY t.id", []).map(task(of:))
        let intervals = try tx.rows(intervalSelect + " ORDER BY start", []).map(interval(of:))
        // Sorted here, not by the database: every backend orders text its own way.
        let categories = try tx.texts("SELECT name FROM task_category").sorted { a, b in
            let (x, y) = (Tracker.folded(a), Tracker.folded(b))
            return x != y ? x.scalarsPrecede(y) : a.scalarsPrecede(b)
        }
        let running = intervals.last { $0.end == nil }
        let paused = try Meta.get(tx, Meta.pausedTask)
        let stopwatch = StopwatchState(
            running: running, runningTask: running.flatMap { r in tasks.first { $0.id == r.task } },
            pausedTask: paused.flatMap { id in tasks.first { $0.id == id } }, lastSeen: try Meta.get(tx, Meta.lastSeen))
        return TrackerSnapshot(tasks: tasks, intervals: intervals, categories: categories, stopwatch: stopwatch)
    }

    static func task(of row: SQLRow) -> TrackerTask {
        TrackerTask(
            id: row.int("id") ?? 0, name: row.text("name") ?? "", category: row.text("category"),
            due: row.text("due").flatMap { LocalDate(iso: $0) },
            priority: TaskPriority(rawValue: Int(row.int("priority") ?? 1)) ?? .medium, estimate: row.int("estimate"),
            created: row.int("created") ?? 0, done: row.int("done"), deleted: row.int("deleted"))
    }

    static func interval(of row: SQLRow) -> TrackedInterval {
        TrackedInterval(
            id: row.int("id") ?? 0, task: row.int("task") ?? 0, start: row.int("start") ?? 0, end: row.int("end"),
            startOffsetMinutes: Int(row.int("start_offset") ?? 0), endOffsetMinutes: row.int("end_offset").map(Int.init))
    }

    /// The managed category named `name` in any case (ASCII letters folded, as SQLite's NOCASE
    /// did), compared here rather than by the database: backends fold case differently.
    static func category(named name: String, _ tx: any SQLTransaction) throws -> (id: Int64, name: String)? {
        let wanted = folded(name)
        for row in try tx.rows("SELECT id, name FROM task_category ORDER BY id", []) {
            if let id = row.int("id"), let stored = row.text("name"), folded(stored) == wanted { return (id, stored) }
        }
        return nil
    }

    /// A name with its ASCII letters in lower case (the rest as it is).
    static func folded(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
    }

    /// The task a word names (`TaskNaming.pick` among the tasks not deleted).
    static func resolveTask(_ word: String, _ tx: any SQLTransaction) throws -> TrackerTask {
        let live = try tx.rows(taskSelect + " WHERE t.deleted IS NULL ORDER BY t.id", []).map(task(of:))
        return try TaskNaming.pick(word, among: live)
    }

    static func taskByID(_ id: Int64, _ tx: any SQLTransaction) throws -> TrackerTask {
        guard let row = try tx.row(taskSelect + " WHERE t.id = ?", [.integer(id)]) else { throw SQLMissingRow(statement: "task \(id)") }
        return task(of: row)
    }

    static func intervalByID(_ id: Int64, _ tx: any SQLTransaction) throws -> TrackedInterval {
        guard let row = try tx.row(intervalSelect + " WHERE id = ?", [.integer(id)]) else { throw SQLMissingRow(statement: "interval \(id)") }
        return interval(of: row)
    }

    /// The id of a managed category named `name` (any case), made when `create`; nil for Other.
    static func categoryID(_ name: String, create: Bool, now: Micros, _ tx: Journal) throws -> (id: Int64, made: Bool)? {
        if name.lowercased() == otherTaskCategory.lowercased() { return nil }
        if let id = try category(named: name, tx)?.id {
            return (id, false)
        }
        guard create else { throw TrackingErrorBox(.unknownCategory(name)) }
        let id = try tx.insert("INSERT INTO task_category (id, name, created) VALUES (\(SQLIDs.next("task_category")), ?, ?) RETURNING id", [.text(name), .integer(now)])
        tx.made(.taskCategory, id: id)
        return (id, true)
    }

    static func insertTask(_ draft: TaskDraft, now: Micros, _ tx: Journal) throws -> (task: TrackerTask, newCategory: Bool) {
        if try tx.int("SELECT id FROM task WHERE name = ? AND deleted IS NULL", [.text(draft.name)]) != nil {
            throw TrackingErrorBox(.taskExists(draft.name))
        }
        let category = try draft.category.flatMap { try categoryID($0, create: true, now: now, tx) }
        let id = try tx.insert(
            "INSERT INTO task (id, name, category, due, priority, estimate, created) VALUES (\(SQLIDs.next("task")), ?, ?, ?, ?, ?, ?) RETURNING id",
            [.text(draft.name), SQLValue(category?.id), SQLValue(draft.due?.description), SQLValue(draft.priority.rawValue), SQLValue(draft.estimate), .integer(now)])
        tx.made(.task, id: id)
        return (try taskByID(id, tx), category?.made ?? false)
    }

    /// The task `word` names, or a new task of that name (made at `t`) when none does.
    static func taskNamed(_ word: String, creatingAt t: Micros, _ tx: Journal) throws -> (TrackerTask, created: Bool) {
        do {
            return (try resolveTask(word, tx), false)
        } catch TrackingError.unknownTask {
            return (try insertTask(TaskDraft(name: word), now: t, tx).task, true)
        }
    }
}
