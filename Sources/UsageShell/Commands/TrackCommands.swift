// TrackCommands.swift — the stopwatch and the tracker's day: start, pause, resume, stop, status, track (past time), today, calendar.
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let atSlot = Slot<TypedTime>(
        "TIME", missing: "at what time? (\(TypedTime.hint))", invalid: { "'\($0)' is not a time: \(TypedTime.hint)" }, read: TypedTime.init)
    static let fromSlot = Slot<TypedTime>(
        "FROM", missing: "from when? (\(TypedTime.hint))", invalid: { "'\($0)' is not a time: \(TypedTime.hint)" }, read: TypedTime.init)
    static let toSlot = Slot<TypedTime>(
        "TO", missing: "until when? (\(TypedTime.hint))", invalid: { "'\($0)' is not a time: \(TypedTime.hint)" }, read: TypedTime.init)
    /// `9:00-10:30` (or with an en dash, `9:00–10:30`): FROM and TO as one word, as
    /// Timewarrior and timesheets write a stretch of time.
    static let spanSlot = Slot<TypedSpan>(
        "FROM-TO", missing: "until when? (\(TypedTime.hint))",
        invalid: { word in
            // A single time is a FROM whose TO is missing (`track X 9:00`).
            TypedTime(word) != nil ? "until when? (\(TypedTime.hint))" : "'\(word)' is not a time: \(TypedTime.hint)"
        }, read: TypedTime.span)
    static let startTaskSlot = Slot<String>(
        "TASK", completion: [.tasks], missing: "which task? (a number, a name, or a new name)", invalid: { _ in "a task's name cannot be empty" },
        read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })
    static let monthSlot = Slot<MonthQuery>(
        "MONTH", completion: [.keywords(["prev", "next"])], invalid: { "'\($0)' is not a month (2026-02, feb, prev, next)" }, read: MonthQuery.init)
    static let at = Syntax.optional(.sequence([.word(Keyword("--at", exact: true)), .value(atSlot)]))

    static let trackCommands: [Command] = [
        Command(
            "start", syntax: .sequence([.value(startTaskSlot), at, .flag("--new")]),
            summary: "start the stopwatch on a task (a new name makes one: asked first when it is a slip from an existing one, unless --new); one runs at a time, so a running one stops at that instant",
            examples: ["start \"Write report\"", "start 3", "start Email --at 9:10", "start Emails --new"],
            explain: { words, failure in
                // `start Write report`: the second word of an unquoted name.
                guard case .unexpected(let word, _) = failure, word != "--at" else { return nil }
                return "a name with spaces is quoted: start \"\(words.prefix { $0 != "--at" }.filter { $0 != "--new" }.joined(separator: " "))\""
            }
        ) { shell, args throws(ShellError) in
            let word = args[startTaskSlot]!
            let at = try atInstant(shell, args)
            return try checkingNewTask(shell, word, command: "start", args) { () throws(ShellError) in
                let change = try stopwatch(shell, laterToday: at.laterToday) { store throws(TrackingError) in
                    try store.start(word, at: shell.stamp(at.instant))
                }
                return changed(shell, change)
            }
        },
        Command(
            "pause", syntax: at, summary: "pause the running task: its time so far becomes a session; resume starts it again",
            examples: ["pause", "pause --at 12:30"]
        ) { shell, args throws(ShellError) in
            try shell.requireNamedStore(shell.store.probe)
            let at = try atInstant(shell, args)
            let change = try stopwatch(shell, laterToday: at.laterToday) { store throws(TrackingError) in try store.pause(at: shell.stamp(at.instant)) }
            return changed(shell, change, paused: true)
        },
        Command(
            "resume", syntax: at, summary: "start the paused task again", examples: ["resume", "resume --at 13:15"]
        ) { shell, args throws(ShellError) in
            try shell.requireNamedStore(shell.store.probe)
            let at = try atInstant(shell, args)
            return changed(shell, try stopwatch(shell, laterToday: at.laterToday) { store throws(TrackingError) in try store.resume(at: shell.stamp(at.instant)) })
        },
        Command(
            "stop", syntax: at,
            summary: "stop the stopwatch (from any shell: its state is in the store); --at HH:MM for a forgotten one (the latest such time, last evening's in the morning)",
            examples: ["stop", "stop --at 17:30", "stop --at 2026-02-22T17:30"]
        ) { shell, args throws(ShellError) in
            try shell.requireNamedStore(shell.store.probe)
            let at = try atInstant(shell, args)
            return changed(shell, try stopwatch(shell, laterToday: at.laterToday) { store throws(TrackingError) in try store.stop(at: shell.stamp(at.instant)) })
        },
        Command(
            "status", summary: "what the stopwatch runs and for how long (or what is paused), and the desktop recorder writing to the store (usage-shell record)", examples: ["status"],
            watch: .shows
        ) { shell, _ throws(ShellError) in
            let snapshot = try shell.trackerSnapshot()
            let clock = shell.trackerClock
            let recorders = shell.liveRecorders()
            return shell.render(json: { ReportJSON.status(snapshot.stopwatch, clock: clock, recorders: recorders) }, csv: .record) { width, theme in
                TextReport.wrap([TextReport.status(snapshot.stopwatch, clock: clock, theme: theme)] + TextReport.recorders(recorders), width: width)
            }
        },
        Command(
            "track",
            syntax: .sequence([
                .value(startTaskSlot), .alternatives([.sequence([.value(fromSlot), .value(toSlot)]), .value(spanSlot)]), .flag("--new"),
            ]),
            summary: "add past time to a task (a new name makes one, as start does), FROM TO or FROM-TO (9:00-10:30); a TO before FROM is the next day's; never over other tracked time",
            examples: ["track \"Write report\" 9:00 10:30", "track Email 9:00-9:45", "track Email 2026-02-22T16:00 2026-02-22T17:10", "track 3 23:30 0:45"],
            tooMany: "track takes a task and two times; a name with spaces is quoted: track \"Write report\" 9:00 10:30"
        ) { shell, args throws(ShellError) in
            let word = args[startTaskSlot]!
            let zone = shell.model.zone
            let now = shell.environment.now()
            // A time without a date is today's, whatever day is browsed; the end may be the next day's.
            let typed = args[spanSlot] ?? TypedSpan(from: args[fromSlot]!, to: args[toSlot]!)
            let from = typed.from.instant(now: now, zone: zone)
            let to = typed.to.end(after: from, zone: zone)
            // An end not after the start is said so; so is one before it whose next day's reading
            // is later than now (the day was never typed: the two times are named as typed).
            let asTyped = typed.to.onDay(of: from, zone: zone)
            guard to > from else { throw shell.refusal(.endNotAfterStart(start: from, end: to)) }
            guard to <= now else { throw shell.refusal(to != asTyped ? .endNotAfterStart(start: from, end: asTyped) : .inFuture(to)) }
            return try checkingNewTask(shell, word, command: "track", args) { () throws(ShellError) in
                let change = try stopwatch(shell) { store throws(TrackingError) in
                    try store.track(word, from: shell.stamp(from), to: shell.stamp(to))
                }
                return changed(shell, change, tracked: true)
            }
        },
        Command(
            "today",
            summary: "the tracker's today: tracked time and what runs, the streak, then the tasks due today and overdue by priority with today's and all their time against the estimate",
            examples: ["today"],
            watch: .shows
        ) { shell, _ throws(ShellError) in
            let snapshot = try shell.trackerSnapshot()
            let clock = shell.trackerClock
            let lines = TrackerFacts.lines(snapshot, filter: .today, day: clock.day, now: clock.now, zone: clock.zone)
            let perDay = TrackerFacts.perDay(snapshot.intervals, now: clock.now, zone: clock.zone)
            let streak = TrackerFacts.streaks(days: Set(perDay.filter { $0.value > 0 }.keys), today: clock.day)
            let trackedToday = perDay[clock.day] ?? 0
            let sessions = todaysSessions(snapshot, clock: clock)
            let colors = SeriesColors(apps: [], categories: TrackerFacts.categoriesByTime(snapshot, now: clock.now))
            return shell.renderView(
                "today",
                json: {
                    ReportJSON.today(lines, trackedToday: trackedToday, state: snapshot.stopwatch, streak: streak, sessions: sessions, clock: clock)
                },
                table: { width, theme in
                    TextReport.today(
                        lines, trackedToday: trackedToday, state: snapshot.stopwatch, streak: streak, sessions: sessions, clock: clock, width: width,
                        theme: theme)
                },
                figure: { _ in
                    Figure.today(lines, trackedToday: trackedToday, state: snapshot.stopwatch, streak: streak, sessions: sessions, clock: clock, colors: colors)
                })
        },
        Command(
            "calendar", syntax: .optional(.value(monthSlot)),
            summary: "a month of tracked time as a heat map, a week a row, with the tasks due each day; the selected day marked; prev and next step a month",
            examples: ["calendar", "calendar prev", "calendar 2026-03", "calendar march"],
            watch: .selectsOnce
        ) { shell, args throws(ShellError) in
            let snapshot = try shell.trackerSnapshot()
            let clock = shell.trackerClock
            let selected = shell.calendarSelected
            let weekStart = shell.model.weekStart
            let selectedMonth = CalendarMonth(year: selected.year, month: selected.month, weekStart: weekStart)!
            // A month shown before `set week-start` is drawn from the new first day.
            let shown = shell.model.calendarMonth.map { CalendarMonth(year: $0.year, month: $0.month, weekStart: weekStart)! }
            let month = (args[monthSlot] ?? .shown).month(selected: selectedMonth, shown: shown ?? selectedMonth, today: clock.day)
            shell.model.calendarMonth = month
            let tracked = TrackerFacts.perDay(snapshot.intervals, now: clock.now, zone: clock.zone)
            var due: [LocalDate: Int] = [:]
            for task in snapshot.tasks where task.deleted == nil && task.done == nil { if let d = task.due { due[d, default: 0] += 1 } }
            return shell.renderView(
                "calendar", json: { ReportJSON.calendar(month, tracked: tracked, due: due, selected: selected) },
                table: { width, theme in TextReport.calendar(month, tracked: tracked, due: due, selected: selected, width: width, theme: theme) },
                figure: { _ in Figure.calendar(month, tracked: tracked, due: due, selected: selected) })
        },
    ]

    /// Today's intervals with their tasks (those touching today), the latest first.
    static func todaysSessions(_ snapshot: TrackerSnapshot, clock: TrackerClock) -> [TaskInterval] {
        let window = clock.zone.window(for: clock.day)
        return snapshot.intervals.reversed().compactMap { interval in
            guard interval.start < window.end, (interval.end ?? Micros.max) > window.start, let task = snapshot.task(interval.task) else { return nil }
            return TaskInterval(task: task, interval: interval)
        }
    }

    /// `--at TIME` as an instant (now without it), never later than now: a dated time as
    /// written, `HH:MM` the latest such time (`TypedTime.latest`). `laterToday` is today's
    /// instant of an `HH:MM` later than now, which was taken as yesterday's.
    static func atInstant(_ shell: Shell, _ args: Arguments) throws(ShellError) -> (instant: Micros, laterToday: Micros?) {
        let now = shell.environment.now()
        guard let typed = args[atSlot] else { return (now, nil) }
        let zone = shell.model.zone
        let t = typed.latest(notAfter: now, zone: zone)
        guard t <= now else { throw shell.refusal(.inFuture(t)) }
        return (t, typed.laterToday(than: now, zone: zone))
    }

    /// Runs a stopwatch change on the store (made when there is none yet). An `--at HH:MM` a
    /// little in the future was taken as yesterday's; when that lands before the running
    /// task's start, what is wrong is that it is later than now, and that is what is said.
    static func stopwatch(
        _ shell: Shell, laterToday: Micros? = nil, _ body: (any TrackerWriting) throws(TrackingError) -> StopwatchChange
    ) throws(ShellError) -> StopwatchChange {
        let store = try shell.store.writer()
        do {
            return try body(store)
        } catch {
            if let laterToday {
                switch error {
                case .endNotAfterStart, .startNotAfterRunning: throw shell.refusal(.inFuture(laterToday))
                default: break
                }
            }
            throw shell.refusal(error)
        }
    }

    /// What a stopwatch change did, in a line or two (JSON: `{"stopped","started","created_task","paused"}`).
    static func changed(_ shell: Shell, _ change: StopwatchChange, paused: Bool = false, tracked: Bool = false) -> CommandOutcome {
        shell.reloadTrackedIfShown()
        let clock = shell.trackerClock
        var lines: [String] = []
        if let stopped = change.stopped {
            let i = stopped.interval
            let verb = paused ? "paused" : "stopped"
            lines.append(
                "\(verb) \(TerminalText.sanitize(stopped.task.name)) after \(TextFormat.runDuration(i.length(now: clock.now))) (\(TextReport.sessionID(i.id)), \(clock.range(i.start, i.end)))")
        }
        if let paused = change.endedPause { lines.append("stopped \(TerminalText.sanitize(paused.name)) (it was paused; its time was written then)") }
        if let started = change.started {
            let name = TerminalText.sanitize(started.task.name)
            let i = started.interval
            let id = TextReport.sessionID(i.id)
            if change.alreadyRunning {
                lines.append("\(name) is already running (since \(clock.when(i.start)), \(id))")
            } else if tracked {
                lines.append("tracked \(name) \(clock.range(i.start, i.end, dated: true)) (\(id), \(TextFormat.duration(i.length(now: clock.now))))")
            } else {
                lines.append("started \(name) at \(clock.when(i.start)) (\(id))")
            }
            if change.createdTask { lines.append("new task \(started.task.id) \(name)") }
        }
        return shell.render(json: {
            .object([
                ("stopped", change.stopped.map { ReportJSON.interval($0.interval, task: $0.task.name, clock: clock) } ?? .null),
                ("started", change.started.map { ReportJSON.interval($0.interval, task: $0.task.name, clock: clock) } ?? .null),
                ("created_task", .bool(change.createdTask)), ("already_running", .bool(change.alreadyRunning)), ("paused", .bool(paused)),
            ])
        }) { width, _ in TextReport.wrap(lines, width: width) }
    }
}

/// A month as `calendar` takes it: `2026-02`, a month name (this year's), prev, next.
enum MonthQuery: Sendable {
    case shown
    case month(year: Int?, month: Int)
    case step(Int)

    init?(_ word: String) {
        let lower = word.lowercased()
        if lower == "prev" || lower == "previous" {
            self = .step(-1)
        } else if lower == "next" {
            self = .step(1)
        } else if lower.count == 7, let date = LocalDate(iso: lower + "-01") {
            self = .month(year: date.year, month: date.month)
        } else if lower.count >= 3,
            let m = (1...12).first(where: { TextFormat.monthName($0).lowercased().hasPrefix(lower) })
        {
            self = .month(year: nil, month: m)
        } else {
            return nil
        }
    }

    /// The month meant: alone, the selected day's; prev and next step from the one shown last.
    func month(selected: CalendarMonth, shown: CalendarMonth, today: LocalDate) -> CalendarMonth {
        switch self {
        case .shown: return selected
        case .step(let n): return shown.adding(months: n)
        case .month(let year, let month): return CalendarMonth(year: year ?? today.year, month: month, weekStart: selected.weekStart)!
        }
    }
}

