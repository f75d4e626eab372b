// SQLStore+Stopwatch.swift — the stopwatch, written once for every SQL backend: start (stopping another at the same instant, in the same transaction), pause, resume, stop, track past time, the last time it was seen running; each change journaled for `undo`; no change ever makes two intervals overlap (checked here to name the interval hit, and by the database's own rules).
import UsageCore

extension SQLStore {
    public func start(_ word: String, at: Stamp) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            var result = StopwatchChange()
            let task: TrackerTask
            (task, result.createdTask) = try Tracker.taskNamed(word, creatingAt: at.instant, tx)
            return try Tracker.startAgain(task, at: at, result, command: "start", tx)
        }
    }

    public func stop(at: Stamp) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            var result = StopwatchChange()
            if let running = try Tracker.running(tx) {
                let stopped = try Tracker.end(running, at: at, tx)
                result.stopped = stopped
                tx.note = ChangeNote("stop", stopped, start: false)
            } else if let paused = try Meta.get(tx, Meta.pausedTask) {
                let task = try Tracker.taskByID(paused, tx)
                result.endedPause = task
                tx.note = ChangeNote("stop", name: task.name)
            } else {
                throw TrackingErrorBox(.nothingRunning)
            }
            try tx.setMeta(Meta.pausedTask, nil)
            return result
        }
    }

    public func pause(at: Stamp) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            guard let running = try Tracker.running(tx) else { throw TrackingErrorBox(.nothingRunning) }
            var result = StopwatchChange()
            let stopped = try Tracker.end(running, at: at, tx)
            result.stopped = stopped
            try tx.setMeta(Meta.pausedTask, running.task)
            tx.note = ChangeNote("pause", stopped, start: false)
            return result
        }
    }

    public func resume(at: Stamp) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            guard let paused = try Meta.get(tx, Meta.pausedTask) else {
                if let running = try Tracker.running(tx) {
                    return StopwatchChange(started: TaskInterval(task: try Tracker.taskByID(running.task, tx), interval: running), alreadyRunning: true)
                }
                throw TrackingErrorBox(.notPaused)
            }
            var result = StopwatchChange()
            let started = try Tracker.begin(try Tracker.taskByID(paused, tx), at: at, tx)
            result.started = started
            try tx.setMeta(Meta.pausedTask, nil)
            try tx.setMeta(Meta.lastSeen, at.instant)
            tx.note = ChangeNote("resume", started)
            return result
        }
    }

    public func track(_ word: String, from: Stamp, to: Stamp) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            guard to.instant > from.instant else {
                throw TrackingErrorBox(.endNotAfterStart(start: from.instant, end: to.instant))
            }
            var result = StopwatchChange()
            let task: TrackerTask
            (task, result.createdTask) = try Tracker.taskNamed(word, creatingAt: from.instant, tx)
            try Tracker.refuseOverlap(from: from.instant, to: to.instant, excluding: [], tx)
            let id = try tx.insert(
                "INSERT INTO tracked (id, task, start, \"end\", start_offset, end_offset, zone) VALUES (\(SQLIDs.next("tracked")), ?, ?, ?, ?, ?, ?) RETURNING id",
                [.integer(task.id), .integer(from.instant), .integer(to.instant), SQLValue(from.offsetMinutes), SQLValue(to.offsetMinutes), .text(from.zone)])
            tx.made(.tracked, id: id)
            let started = TaskInterval(task: task, interval: try Tracker.intervalByID(id, tx))
            result.started = started
            tx.note = ChangeNote("track", started)
            return result
        }
    }

    public func mendGap(stopAt: Stamp, again: Stamp?) throws(TrackingError) -> StopwatchChange {
        try journaledChange { tx in
            guard let running = try Tracker.running(tx) else { throw TrackingErrorBox(.nothingRunning) }
            var result = StopwatchChange()
            let stopped = try Tracker.end(running, at: stopAt, tx)
            result.stopped = stopped
            tx.note = ChangeNote("stop", stopped, start: false)
            if let again {
                result.started = try Tracker.begin(try Tracker.taskByID(running.task, tx), at: again, tx)
                try tx.setMeta(Meta.lastSeen, again.instant)
                tx.note = ChangeNote("session split", stopped, start: false)
            }
            return result
        }
    }

    public func sawRunning(now: Micros) throws(StoreError) {
        try write { tx in
            guard try Tracker.running(tx) != nil else { return }
            try Meta.set(tx, Meta.lastSeen, now)
        }
    }

    public func noteNamedOvernight(interval id: Int64) throws(StoreError) {
        try write { tx in try Meta.set(tx, Meta.namedRunning, id) }
    }

    public func intervalNamedOvernight() throws(StoreError) -> Int64? {
        try read { tx in try Meta.get(tx, Meta.namedRunning) }
    }

    public func stopwatchState() throws(StoreError) -> StopwatchState {
        try read { tx in
            let running = try Tracker.running(tx)
            let paused = try Meta.get(tx, Meta.pausedTask)
            return StopwatchState(
                running: running, runningTask: try running.map { try Tracker.taskByID($0.task, tx) },
                pausedTask: try paused.map { try Tracker.taskByID($0, tx) }, lastSeen: try Meta.get(tx, Meta.lastSeen))
        }
    }
}

extension Tracker {
    static func running(_ tx: any SQLTransaction) throws -> TrackedInterval? {
        try tx.row(intervalSelect + " WHERE \"end\" IS NULL", []).map(interval(of:))
    }

    static func end(_ running: TrackedInterval, at: Stamp, _ tx: Journal) throws -> TaskInterval {
        guard at.instant > running.start else {
            throw TrackingErrorBox(.endNotAfterStart(start: running.start, end: at.instant))
        }
        try tx.keep(.tracked, id: running.id)
        try tx.execute(
            "UPDATE tracked SET \"end\" = ?, end_offset = ? WHERE id = ?", [.integer(at.instant), SQLValue(at.offsetMinutes), .integer(running.id)])
        return TaskInterval(task: try taskByID(running.task, tx), interval: try intervalByID(running.id, tx))
    }

    static func begin(_ task: TrackerTask, at: Stamp, _ tx: Journal) throws -> TaskInterval {
        try refuseOverlap(from: at.instant, to: nil, excluding: [], tx)
        let id = try tx.insert(
            "INSERT INTO tracked (id, task, start, start_offset, zone) VALUES (\(SQLIDs.next("tracked")), ?, ?, ?, ?) RETURNING id",
            [.integer(task.id), .integer(at.instant), SQLValue(at.offsetMinutes), .text(at.zone)])
        tx.made(.tracked, id: id)
        return TaskInterval(task: task, interval: try intervalByID(id, tx))
    }

    /// Starts `task` at `at` (`start`, `continue`): a running interval of another task stops
    /// there; the task already running changes nothing.
    static func startAgain(_ task: TrackerTask, at: Stamp, _ change: StopwatchChange, command: String, _ tx: Journal) throws -> StopwatchChange {
        var result = change
        if let running = try running(tx) {
            if running.task == task.id {
                result.alreadyRunning = true
                result.started = TaskInterval(task: task, interval: running)
                return result
            }
            guard at.instant > running.start else {
                throw TrackingErrorBox(
                    .startNotAfterRunning(
                        task: try taskByID(running.task, tx).name, session: running.id, since: running.start, at: at.instant))
            }
            result.stopped = try end(running, at: at, tx)
        }
        let started = try begin(task, at: at, tx)
        result.started = started
        try tx.setMeta(Meta.pausedTask, nil)
        try tx.setMeta(Meta.lastSeen, at.instant)
        tx.note = ChangeNote(command, started)
        return result
    }

    /// Refuses `[from, to)` (to the end of time when `to` is nil) where it meets tracked time
    /// other than the intervals `excluding`, naming the first interval it hits.
    static func refuseOverlap(from: Micros, to: Micros?, excluding: [Int64], _ tx: any SQLTransaction) throws {
        let ids = excluding + [-1, -1]
        let row = try tx.row(
            """
            SELECT r.id, t.name, r.start, r."end" FROM tracked r JOIN task t ON t.id = r.task
            WHERE r.start < ? AND coalesce(r."end", 9223372036854775807) > ? AND r.id != ? AND r.id != ?
            ORDER BY r.start LIMIT 1
            """,
            [.integer(to ?? Int64.max), .integer(from), .integer(ids[0]), .integer(ids[1])])
        guard let row else { return }
        throw TrackingErrorBox(
            .overlap(session: row.int("id") ?? 0, task: row.text("name") ?? "", start: row.int("start") ?? 0, end: row.int("end")))
    }
}
