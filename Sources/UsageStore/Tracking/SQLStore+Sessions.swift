// SQLStore+Sessions.swift — tracked intervals by their ids (`@N`, the row's id: the same in every run and on every machine sharing the store), written once for every SQL backend: read by window or id; edited (start, end, task, move, split, join, delete) and continued, each one journaled transaction that keeps the store's rules (one running, no overlap, end after start), the interval in the way named before the database would refuse.
import Foundation
import UsageCore

extension SQLStore {
    public func sessions(from: Micros, to: Micros) throws(StoreError) -> [TaskInterval] {
        try read { tx in
            let rows = try tx.rows(
                Tracker.intervalSelect + " WHERE start < ? AND coalesce(\"end\", 9223372036854775807) > ? ORDER BY start DESC",
                [.integer(to), .integer(from)])
            return try Tracker.withTasks(rows.map(Tracker.interval(of:)), tx)
        }
    }

    public func session(_ id: Int64) throws(TrackingError) -> TaskInterval {
        try trackingRead { tx in try Tracker.session(id, tx) }
    }

    public func sessionIDs() throws(StoreError) -> [Int64] {
        try read { tx in try tx.rows("SELECT id FROM tracked ORDER BY start DESC", []).compactMap { $0.int("id") } }
    }

    public func editSession(_ id: Int64, _ edit: SessionEdit, now: Micros) throws(TrackingError) -> SessionChange {
        try journaledChange { tx in
            let old = try Tracker.session(id, tx).interval
            var change = SessionChange()
            switch edit {
            case .start(let at):
                try Tracker.refuseFuture(at.instant, now: now)
                try Tracker.place(old, from: at, to: old.end.map { Tracker.Stamped(instant: $0, offsetMinutes: old.endOffsetMinutes ?? 0) }, tx)
                tx.note = ChangeNote("session edit start", try Tracker.session(id, tx), end: false)
            case .end(let at):
                try Tracker.refuseFuture(at.instant, now: now)
                try Tracker.place(old, from: Tracker.Stamped(old), to: Tracker.Stamped(instant: at.instant, offsetMinutes: at.offsetMinutes), tx)
                tx.note = ChangeNote("session edit end", try Tracker.session(id, tx), start: false)
            case .move(let at):
                let end = old.end.map { at.instant + ($0 - old.start) }
                // The time typed, else the end it brings (a time never typed, so the move is named).
                try Tracker.refuseFuture(at.instant, now: now)
                if let end, end > now { throw TrackingErrorBox(.movedPastNow(session: id, start: at.instant, end: end)) }
                let offset = end.map { Zone(identifier: at.zone)?.offsetSeconds(at: $0) ?? at.offsetMinutes * 60 }.map { $0 / 60 }
                try Tracker.place(old, from: at, to: end.map { Tracker.Stamped(instant: $0, offsetMinutes: offset ?? 0) }, tx)
                tx.note = ChangeNote("session move", try Tracker.session(id, tx), end: false)
            case .task(let word):
                let task: TrackerTask
                (task, change.createdTask) = try Tracker.taskNamed(word, creatingAt: now, tx)
                try tx.keep(.tracked, id: id)
                try tx.execute("UPDATE tracked SET task = ? WHERE id = ?", [.integer(task.id), .integer(id)])
                tx.note = ChangeNote("session edit task", try Tracker.session(id, tx), start: false, end: false)
            }
            change.sessions = [try Tracker.session(id, tx)]
            return change
        }
    }

    public func splitSession(_ id: Int64, at: Stamp, now: Micros) throws(TrackingError) -> SessionChange {
        try journaledChange { tx in
            let old = try Tracker.session(id, tx).interval
            // A running one is split up to now (its second part then runs from now).
            let inside = at.instant > old.start && (old.end.map { at.instant < $0 } ?? (at.instant <= now))
            guard inside else {
                throw TrackingErrorBox(.notInside(at.instant, session: id, start: old.start, end: old.end))
            }
            try tx.keep(.tracked, id: id)
            try tx.execute("UPDATE tracked SET \"end\" = ?, end_offset = ? WHERE id = ?", [.integer(at.instant), SQLValue(at.offsetMinutes), .integer(id)])
            let zone = try tx.row("SELECT zone FROM tracked WHERE id = ?", [.integer(id)])?.text("zone") ?? at.zone
            let second = try tx.insert(
                "INSERT INTO tracked (id, task, start, \"end\", start_offset, end_offset, zone) VALUES (\(SQLIDs.next("tracked")), ?, ?, ?, ?, ?, ?) RETURNING id",
                [.integer(old.task), .integer(at.instant), SQLValue(old.end), SQLValue(at.offsetMinutes), SQLValue(old.endOffsetMinutes), .text(zone)])
            tx.made(.tracked, id: second)
            let first = try Tracker.session(id, tx)
            tx.note = ChangeNote("session split", first, start: false)
            return SessionChange(sessions: [first, try Tracker.session(second, tx)])
        }
    }

    public func joinSessions(_ a: Int64, _ b: Int64) throws(TrackingError) -> SessionChange {
        try journaledChange { tx in
            guard a != b else { throw TrackingErrorBox(.joinItself(a)) }
            let one = try Tracker.session(a, tx).interval
            let other = try Tracker.session(b, tx).interval
            let (first, second) = one.start <= other.start ? (one, other) : (other, one)
            try Tracker.refuseOverlap(from: first.start, to: second.end, excluding: [first.id, second.id], tx)
            try tx.keep(.tracked, id: first.id)
            try tx.keep(.tracked, id: second.id)
            try tx.execute("DELETE FROM tracked WHERE id = ?", [.integer(second.id)])
            try tx.execute(
                "UPDATE tracked SET \"end\" = ?, end_offset = ? WHERE id = ?",
                [SQLValue(second.end), SQLValue(second.endOffsetMinutes), .integer(first.id)])
            let joined = try Tracker.session(first.id, tx)
            tx.note = ChangeNote("session join", name: joined.task.name, session: first.id, otherSession: second.id, start: joined.interval.start, end: joined.interval.end)
            return SessionChange(sessions: [joined], removed: [second.id])
        }
    }

    public func deleteSession(_ id: Int64) throws(TrackingError) -> TaskInterval {
        try journaledChange { tx in
            let deleted = try Tracker.session(id, tx)
            try tx.keep(.tracked, id: id)
            try tx.execute("DELETE FROM tracked WHERE id = ?", [.integer(id)])
            tx.note = ChangeNote("session delete", deleted)
            return deleted
        }
    }

    public func continueTask(_ target: ContinueTarget, at: Stamp) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            let task: TrackerTask
            switch target {
            case .task(let word):
                task = try Tracker.resolveTask(word, tx)
            case .session(let id):
                task = try Tracker.session(id, tx).task
            case .last:
                let last = try tx.row(
                    "SELECT r.task FROM tracked r JOIN task t ON t.id = r.task WHERE r.\"end\" IS NOT NULL AND t.deleted IS NULL ORDER BY r.\"end\" DESC LIMIT 1", [])
                guard let id = last?.int("task") else {
                    throw TrackingErrorBox(.nothingToContinue)
                }
                task = try Tracker.taskByID(id, tx)
            }
            guard task.deleted == nil else { throw TrackingErrorBox(.deletedTask(task.name)) }
            return try Tracker.startAgain(task, at: at, StopwatchChange(), command: "continue", tx)
        }
    }
}

extension Tracker {
    /// An instant and its offset as a row holds it.
    struct Stamped {
        let instant: Micros
        let offsetMinutes: Int

        init(instant: Micros, offsetMinutes: Int) {
            self.instant = instant
            self.offsetMinutes = offsetMinutes
        }

        init(_ interval: TrackedInterval) { self.init(instant: interval.start, offsetMinutes: interval.startOffsetMinutes) }
        init(_ stamp: Stamp) { self.init(instant: stamp.instant, offsetMinutes: stamp.offsetMinutes) }
    }

    /// Interval `id` with its task.
    ///
    /// - Throws: `.unknownSession` when there is none.
    static func session(_ id: Int64, _ tx: any SQLTransaction) throws -> TaskInterval {
        guard let row = try tx.row(intervalSelect + " WHERE id = ?", [.integer(id)]) else { throw TrackingErrorBox(.unknownSession(id)) }
        let interval = interval(of: row)
        return TaskInterval(task: try taskByID(interval.task, tx), interval: interval)
    }

    /// Intervals with their tasks.
    static func withTasks(_ intervals: [TrackedInterval], _ tx: any SQLTransaction) throws -> [TaskInterval] {
        var tasks: [Int64: TrackerTask] = [:]
        return try intervals.map { interval in
            if tasks[interval.task] == nil { tasks[interval.task] = try taskByID(interval.task, tx) }
            return TaskInterval(task: tasks[interval.task]!, interval: interval)
        }
    }

    static func refuseFuture(_ t: Micros, now: Micros) throws {
        guard t <= now else { throw TrackingErrorBox(.inFuture(t)) }
    }

    /// Puts `interval` at `[from, to)` (to: nil keeps it running), refused when the end is not
    /// after the start or another interval is in the way.
    static func place(_ interval: TrackedInterval, from: Stamp, to: Stamped?, _ tx: Journal) throws {
        try place(interval, from: Stamped(from), to: to, tx)
    }

    static func place(_ interval: TrackedInterval, from: Stamped, to: Stamped?, _ tx: Journal) throws {
        if let to, to.instant <= from.instant {
            throw TrackingErrorBox(.endNotAfterStart(start: from.instant, end: to.instant))
        }
        try refuseOverlap(from: from.instant, to: to?.instant, excluding: [interval.id], tx)
        try tx.keep(.tracked, id: interval.id)
        try tx.execute(
            "UPDATE tracked SET start = ?, start_offset = ?, \"end\" = ?, end_offset = ? WHERE id = ?",
            [.integer(from.instant), SQLValue(from.offsetMinutes), SQLValue(to?.instant), SQLValue(to?.offsetMinutes), .integer(interval.id)])
    }
}
