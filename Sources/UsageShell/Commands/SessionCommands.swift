// SessionCommands.swift — mending what was tracked, by interval id (`@N`): sessions (a day's, a week's or a task's, the latest first), session (show, edit start|end|task, move, split, join, delete), continue, and undo.
import UsageCore
import UsageRender
import UsageStore

/// An interval's id as typed: `@12`.
enum SessionID {
    static func parse(_ word: String) -> Int64? {
        guard word.hasPrefix("@") else { return nil }
        let digits = word.dropFirst()
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }

    static let hint = "@N, as sessions, today and task N show them"
}

/// What `sessions` lists: a day's, a week's (the calendar week of the selected day) or one task's.
enum SessionsQuery: Sendable {
    case day(DayQuery)
    case week
    case task(String)

    init?(_ word: String) {
        if word.lowercased() == "week" {
            self = .week
        } else if let day = DayQuery(word) {
            self = .day(day)
        } else if !word.trimmingBlanks.isEmpty {
            self = .task(word.trimmingBlanks)
        } else {
            return nil
        }
    }
}

extension CommandTable {
    static let sessionSlot = Slot<Int64>(
        "@N", completion: [.sessions], missing: "which session? (\(SessionID.hint))",
        invalid: { "'\($0)' is not a session id: write \(SessionID.hint)" }, read: SessionID.parse)
    static let otherSessionSlot = Slot<Int64>(
        "@M", completion: [.sessions], missing: "join it with which session? (\(SessionID.hint))",
        invalid: { "'\($0)' is not a session id: write \(SessionID.hint)" }, read: SessionID.parse)
    static let editTimeSlot = Slot<TypedTime>(
        "TIME", missing: "to what time? (\(TypedTime.hint))", invalid: { "'\($0)' is not a time: \(TypedTime.hint)" }, read: TypedTime.init)
    static let sessionEndChoice = Choice("end", [Keyword("start"), Keyword("end")], missing: "which? (start, end or task)")
    static let sessionsSlot = Slot<SessionsQuery>(
        "DAY|TASK|week", completion: [.keywords(["week"]), .days, .tasks], invalid: { "'\($0)' is not a day, a task or week" },
        read: SessionsQuery.init)
    static let continueSlot = Slot<ContinueTarget>(
        "TASK|@N", completion: [.sessions, .tasks], invalid: { "'\($0)' is neither a task nor a session id (\(SessionID.hint))" },
        read: { word in
            if word.hasPrefix("@") { return SessionID.parse(word).map { .session($0) } }
            return word.trimmingBlanks.isEmpty ? nil : .task(word.trimmingBlanks)
        })

    static let sessionCommands: [Command] = [
        Command(
            "sessions", syntax: .optional(.value(sessionsSlot)),
            summary: "the tracked sessions with their ids (@N), the latest first: the selected day's (today unless chosen), a DAY's, week (the selected day's calendar week), or one TASK's",
            examples: ["sessions", "sessions yesterday", "sessions week", "sessions \"Write report\"", "sessions 2026-02-23"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            try sessionsList(shell, args[sessionsSlot])
        },
        Command(
            "session",
            syntax: .alternatives([
                .sequence([.word(Keyword("edit", exact: true)), .value(sessionSlot), .choice(sessionEndChoice), .value(editTimeSlot)]),
                .sequence([.word(Keyword("edit", exact: true)), .value(sessionSlot), .word(Keyword("task")), .value(startTaskSlot)]),
                .sequence([.word(Keyword("move", exact: true)), .value(sessionSlot), .value(editTimeSlot)]),
                .sequence([.word(Keyword("split", exact: true)), .value(sessionSlot), .value(editTimeSlot)]),
                .sequence([.word(Keyword("join", exact: true)), .value(sessionSlot), .value(otherSessionSlot), .flag("--force")]),
                .sequence([.word(Keyword("delete", exact: true)), .value(sessionSlot), .flag("--yes")]),
                .value(sessionSlot),
            ]),
            summary: "one tracked session; mend it: a new start or end, another task (a new name makes one), moved (same length), split in two, joined with another (from the first's start to the second's end, of the first's task: asked first when that moves time, from another task or a gap of more than 5 minutes, or --force), deleted; never over other tracked time",
            examples: [
                "session @12", "session edit @12 start 9:05", "session edit @12 end 2026-02-22T17:30", "session edit @12 task Email", "session move @12 10:00",
                "session split @12 11:15", "session join @12 @13", "session join @12 @14 --force", "session delete @12 --yes",
            ],
            watchRole: { words in words.count == 1 ? .shows : .refused }
        ) { shell, args throws(ShellError) in
            try sessionCommand(shell, args)
        },
        Command(
            "continue", syntax: .sequence([.optional(.value(continueSlot)), at]),
            summary: "start again the task stopped last (or TASK, or session @N's task), now or --at TIME; a running one stops at that instant",
            examples: ["continue", "continue @12", "continue Email --at 13:30"]
        ) { shell, args throws(ShellError) in
            let target = args[continueSlot] ?? .last
            // No store yet: nothing to start again (and none is made for a refusal).
            if shell.store.probe?.isThere != true {
                switch target {
                case .last: throw shell.refusal(.nothingToContinue)
                case .task(let word): throw shell.refusal(.unknownTask(word))
                case .session(let id): throw shell.refusal(.unknownSession(id))
                }
            }
            let at = try continueInstant(shell, args, target: target)
            let change = try stopwatch(shell, laterToday: at.laterToday) { store throws(TrackingError) in
                try store.continueTask(target, at: shell.stamp(at.instant))
            }
            return changed(shell, change)
        },
        Command(
            "undo",
            summary: "undo the last change to tracked time, tasks or categories (again and again; the journal is kept in the store, so it lasts across runs and is shared by every shell using the store)",
            examples: ["undo"]
        ) { shell, _ throws(ShellError) in
            guard shell.store.probe?.isThere == true else { throw shell.refusal(.nothingToUndo) }
            let store = try shell.store.writer(create: false)
            let undone: UndoneChange
            do throws(TrackingError) {
                undone = try store.undo()
            } catch {
                throw shell.refusal(error)
            }
            shell.reloadTrackedIfShown()
            let clock = shell.trackerClock
            let n = undone.note
            let line = UndoLine(
                command: n.command, session: n.session, otherSession: n.otherSession, name: n.name, newName: n.newName, start: n.start, end: n.end)
            return shell.render(json: { ReportJSON.undid(line, left: undone.left, clock: clock) }, csv: .record) { width, _ in
                TextReport.wrap([TextReport.undid(line, clock: clock)], width: width)
            }
        },
    ]

    /// `continue`'s `--at`: as `stop`'s (the latest such time not in the future), but after
    /// `continue @N` a time without a date is on @N's own day, as in every command that names a
    /// session; never later than now.
    private static func continueInstant(_ shell: Shell, _ args: Arguments, target: ContinueTarget) throws(ShellError) -> (instant: Micros, laterToday: Micros?) {
        guard case .session(let id) = target, let typed = args[atSlot] else { return try atInstant(shell, args) }
        let reader = try shell.store.reader()
        let session: TaskInterval
        do throws(TrackingError) {
            session = try reader.session(id)
        } catch {
            throw shell.refusal(error)
        }
        let t = shell.placed(typed, near: session.interval)
        guard t <= shell.environment.now() else { throw shell.refusal(.inFuture(t)) }
        return (t, nil)
    }

    private static func sessionsList(_ shell: Shell, _ query: SessionsQuery?) throws(ShellError) -> CommandOutcome {
        let clock = shell.trackerClock
        let zone = clock.zone
        let selected = shell.calendarSelected
        var sessions: [TaskInterval] = []
        var title = "Sessions"
        var day: LocalDate?
        var window: (from: Micros, to: Micros)?
        // One look at the store: the task's sessions, or the window's.
        let storeThere = shell.store.probe?.isThere == true
        switch query {
        case .task(let word):
            guard storeThere else { throw shell.refusal(.unknownTask(word)) }
            let reader = try shell.store.reader()
            let found: (task: TrackerTask, intervals: [TrackedInterval])
            do throws(TrackingError) {
                found = try reader.task(named: word)
            } catch {
                throw shell.refusal(error)
            }
            sessions = found.intervals.reversed().map { TaskInterval(task: found.task, interval: $0) }
            title = "Sessions · \(TerminalText.sanitize(found.task.name))"
        case .week:
            let week = DateRange.week(of: selected, start: shell.model.weekStart)
            title = "Sessions · \(TextFormat.shortWeekday(week.from)) \(week.from) – \(TextFormat.shortWeekday(week.to)) \(week.to)"
            window = (zone.startOfDay(week.from), zone.window(for: week.to).end)
        case .day(let query):
            day = query.resolve(today: clock.day, selected: selected, dataRange: nil)
        case nil:
            day = selected
        }
        if let day {
            title = "Sessions · \(TextFormat.shortWeekday(day)) \(day)"
            let w = zone.window(for: day)
            window = (w.start, w.end)
        }
        if let window, storeThere {
            let reader = try shell.store.reader()
            do throws(StoreError) {
                sessions = try reader.sessions(from: window.from, to: window.to)
            } catch {
                throw .store(error)
            }
        }
        let shown = (sessions, title, day)
        return shell.render(json: { ReportJSON.sessions(shown.0, clock: clock) }) { width, theme in
            TextReport.sessions(shown.0, title: shown.1, day: shown.2, clock: clock, width: width, theme: theme)
        }
    }

    private static func sessionCommand(_ shell: Shell, _ args: Arguments) throws(ShellError) -> CommandOutcome {
        let id = args[sessionSlot]!
        guard shell.store.probe?.isThere == true else { throw shell.refusal(.unknownSession(id)) }
        let now = shell.environment.now()
        let clock = shell.trackerClock
        switch args.words.first?.lowercased() {
        case "edit", "move", "split":
            let store = try shell.store.writer(create: false)
            let verb = args.words.first!.lowercased()
            let change: SessionChange
            do throws(TrackingError) {
                if verb == "edit", let word = args[startTaskSlot] {
                    change = try store.editSession(id, .task(word), now: now)
                } else {
                    // A time without a date is on the session's own day (HelpTable.timeRule).
                    let typed = args[editTimeSlot]!
                    let session = try store.session(id).interval
                    let t = shell.placed(typed, near: session)
                    if verb == "split" {
                        change = try store.splitSession(id, at: shell.stamp(t), now: now)
                    } else if verb == "move" {
                        change = try store.editSession(id, .move(shell.stamp(t)), now: now)
                    } else if args[sessionEndChoice] == "end" {
                        // A clock time on the start's day; the next day's only for a session across midnight.
                        let end = typed.end(ofSession: session.start, session.end ?? now, zone: clock.zone)
                        change = try store.editSession(id, .end(shell.stamp(end)), now: now)
                    } else {
                        change = try store.editSession(id, .start(shell.stamp(t)), now: now)
                    }
                }
            } catch {
                throw shell.refusal(error)
            }
            return sessionChanged(shell, change, verb: verb)
        case "join":
            let other = args[otherSessionSlot]!
            return try checkingJoin(shell, id, other, force: args.has("--force")) { () throws(ShellError) in
                let store = try shell.store.writer(create: false)
                let change: SessionChange
                do throws(TrackingError) {
                    change = try store.joinSessions(id, other)
                } catch {
                    throw shell.refusal(error)
                }
                return sessionChanged(shell, change, verb: "join")
            }
        case "delete":
            let store = try shell.store.writer(create: false)
            let found: TaskInterval
            do throws(TrackingError) {
                found = try store.session(id)
            } catch {
                throw shell.refusal(error)
            }
            let delete = { () -> CommandOutcome in
                let deleted: TaskInterval
                do throws(TrackingError) {
                    deleted = try store.deleteSession(id)
                } catch {
                    return .failed(shell.refusal(error))
                }
                shell.reloadTrackedIfShown()
                return shell.render(json: { .object([("deleted", ReportJSON.interval(deleted.interval, task: deleted.task.name, clock: clock))]) }) {
                    width, _ in TextReport.wrap(["deleted " + TextReport.session(deleted, clock: clock)], width: width)
                }
            }
            if args.has("--yes") { return delete() }
            return .confirm(
                Confirmation(question: "delete \(TextReport.session(found, clock: clock))?", withYes: "session delete @\(id) --yes", proceed: delete))
        default:
            let reader = try shell.store.reader()
            let found: TaskInterval
            do throws(TrackingError) {
                found = try reader.session(id)
            } catch {
                throw shell.refusal(error)
            }
            return shell.render(json: { ReportJSON.interval(found.interval, task: found.task.name, clock: clock) }, csv: .record) { width, _ in
                TextReport.wrap([TextReport.session(found, clock: clock)], width: width)
            }
        }
    }

    /// What an edit left, in a line (JSON: `{"sessions":[…],"removed":[…],"created_task"}`).
    private static func sessionChanged(_ shell: Shell, _ change: SessionChange, verb: String) -> CommandOutcome {
        shell.reloadTrackedIfShown()
        let clock = shell.trackerClock
        var lines: [String] = []
        if let first = change.sessions.first {
            let shown = TextReport.session(first, clock: clock)
            switch verb {
            case "move": lines.append("moved \(shown)")
            case "split":
                let second = change.sessions.count > 1 ? change.sessions[1] : first
                lines.append("split \(shown) and \(TextReport.session(second, clock: clock))")
            case "join": lines.append("joined \(change.removed.map { TextReport.sessionID($0) }.joined(separator: ", ")) into \(shown)")
            default: lines.append("changed \(shown)")
            }
            if change.createdTask { lines.append("new task \(first.task.id) \(TerminalText.sanitize(first.task.name))") }
        }
        return shell.render(json: {
            .object([
                ("sessions", ReportJSON.sessions(change.sessions, clock: clock)), ("removed", .array(change.removed.map { .int(Int($0)) })),
                ("created_task", .bool(change.createdTask)),
            ])
        }) { width, _ in TextReport.wrap(lines, width: width) }
    }
}
