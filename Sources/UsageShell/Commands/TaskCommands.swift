// TaskCommands.swift — the commands of tasks and their categories: tasks, task (show, add, done, undone, edit, delete), categories, category (add, rename, delete).
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let taskSlot = Slot<String>.text("TASK", completion: [.tasks], missing: "which task? (its number or name)")
    static let newTaskSlot = Slot<String>(
        "NAME", missing: "what is the task called?", invalid: { _ in "a task's name cannot be empty" },
        read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })
    static let dueSlot = Slot<DayQuery>(
        "DAY", completion: [.days], missing: "due which day? (a date, today, tomorrow, monday…)", invalid: DayQuery.problemSuggesting,
        read: DayQuery.init)
    static let priorityChoice = Choice("priority", TaskPriority.allCases.reversed().map { Keyword($0.word) }, noun: "low, medium or high")
    static let trackerCategorySlot = Slot<String>(
        "CATEGORY", completion: [.trackerCategories], missing: "which category?", invalid: { _ in "a category's name cannot be empty" },
        read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })
    static let estimateSlot = Slot<Micros>(
        "ESTIMATE", completion: [.keywords(["30m", "1h", "1h30m", "2h"])], missing: "how long? (30m, 1h30m)",
        invalid: { "'\($0)' is not a duration such as 45m or 1h30m" }, read: DurationText.parse)
    static let taskFieldChoice = Choice(
        "field", ["name", "due", "priority", "category", "estimate"].map { Keyword($0, exact: true) }, noun: "name, due, priority, category or estimate",
        missing: "which field? (name, due, priority, category or estimate)")
    static let fieldValueSlot = Slot<String>.text("VALUE", missing: "to what?")
    static let tasksChoice = Choice("which", ["today", "all", "done"].map { Keyword($0, exact: true) })
    /// `tasks due 7d`: how far ahead (days or weeks, as `forget older-than` takes an age).
    static let dueWithinSlot = Slot<Int>(
        "AGE", completion: [.keywords(["7d", "14d", "30d"])], missing: "due within how long? (7d, 2w)",
        invalid: { "'\($0)' is not a number of days or weeks such as 7d or 2w" }, read: { parseAge($0).flatMap { $0 > 0 ? $0 : nil } })

    static let taskCommands: [Command] = [
        Command(
            "tasks",
            syntax: .optional(
                .alternatives([
                    .choice(tasksChoice), .sequence([.word(Keyword("category", exact: true)), .value(trackerCategorySlot)]),
                    .sequence([.word(Keyword("due", exact: true)), .value(dueWithinSlot)]), .value(dueSlot), rangeSyntax,
                ])),
            summary: "the tasks, due first (overdue marked), then by priority, with tracked time against the estimate; today (due today or overdue), due 7d (due within 7 days or overdue), a DAY (due then), all, done, or one category; or a RANGE (week, month, 2026-10, last 30…): the tasks worked on then, with their time in it",
            examples: ["tasks", "tasks today", "tasks due 7d", "tasks friday", "tasks done", "tasks category Work", "tasks week", "tasks last month"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            let snapshot = try shell.trackerSnapshot()
            let clock = shell.trackerClock
            if args[rangeSlot] != nil || args[lastSlot] != nil {
                // `tasks week` meant "due within 7 days" until `week` was one thing everywhere.
                if args[rangeSlot] == .current(.week) {
                    shell.note("tasks week lists the tasks worked on this week; those due within 7 days are tasks due 7d")
                }
                return try rangeTasks(shell, args, snapshot: snapshot, clock: clock)
            }
            var filter = TaskFilter.open
            var title = "Tasks"
            var name = "open"
            switch args[tasksChoice] {
            case "today": (filter, title, name) = (.today, "Tasks due today and overdue", "today")
            case "all": (filter, title, name) = (.all, "All tasks", "all")
            case "done": (filter, title, name) = (.done, "Tasks done", "done")
            default:
                if let days = args[dueWithinSlot] {
                    let within = "\(days) day\(days == 1 ? "" : "s")"
                    (filter, title, name) = (.dueWithin(days: days), "Tasks due within \(within) and overdue", "due \(days)d")
                } else if let category = args[trackerCategorySlot] {
                    (filter, title, name) = (.category(category), "Tasks in \(TerminalText.sanitize(category))", "category")
                } else if let query = args[dueSlot] {
                    let day = query.resolveForward(today: clock.day)
                    (filter, title, name) = (.due(day), "Tasks due \(TextFormat.shortWeekday(day)) \(day)", "due \(day)")
                }
            }
            let lines = TrackerFacts.lines(snapshot, filter: filter, day: clock.day, now: clock.now, zone: clock.zone)
            return shell.render(json: { ReportJSON.tasks(lines, filter: name, clock: clock) }) { width, theme in
                TextReport.tasks(lines, title: "\(title) · \(lines.count)", clock: clock, width: width, theme: theme)
            }
        },
        Command(
            "task",
            syntax: .alternatives([
                .sequence([
                    .word(Keyword("add", exact: true)), .value(newTaskSlot),
                    .anyOrder([
                        .sequence([.word("due"), .value(dueSlot)]), .sequence([.word("priority"), .choice(priorityChoice)]),
                        .sequence([.word("category"), .value(trackerCategorySlot)]), .sequence([.word("estimate"), .value(estimateSlot)]),
                    ]),
                ]),
                .sequence([.word(Keyword("done", exact: true)), .value(taskSlot)]),
                .sequence([.word(Keyword("undone", exact: true)), .value(taskSlot)]),
                .sequence([.word(Keyword("edit", exact: true)), .value(taskSlot), .choice(taskFieldChoice), .value(fieldValueSlot)]),
                .sequence([.word(Keyword("delete", exact: true)), .value(taskSlot), .flag("--with-time"), .flag("--yes")]),
                .value(taskSlot),
            ]),
            summary: "one task with its sessions; add one (due, priority, category, estimate), mark it done or not, edit a field, delete it (its time stays unless --with-time)",
            examples: [
                "task 3", "task add \"Write report\" due friday priority high category Work estimate 2h", "task done 3",
                "task edit 3 due tomorrow", "task delete 3", "task delete 3 --with-time --yes",
            ],
            watchRole: { $0.first.map { ["add", "done", "undone", "edit", "delete"].contains($0.lowercased()) } == true ? .refused : .shows }
        ) { shell, args throws(ShellError) in
            try taskCommand(shell, args)
        },
        Command(
            "categories", syntax: .optional(rangeSyntax),
            summary: "the task categories, each with its open tasks and tracked time (Other holds tasks without one); with a RANGE, the time tracked in it",
            examples: ["categories", "categories month", "categories last week"],
            watch: .shows
        ) { shell, args throws(ShellError) in
            let snapshot = try shell.trackerSnapshot()
            let clock = shell.trackerClock
            guard args[rangeSlot] != nil || args[lastSlot] != nil else {
                let rows = categoryRows(snapshot, now: clock.now)
                return shell.render(json: { ReportJSON.trackerCategories(rows) }) { width, theme in
                    TextReport.trackerCategories(rows, width: width, theme: theme)
                }
            }
            let range = try trackedRange(shell, args, command: "categories", snapshot: snapshot, clock: clock)
            let window = (clock.zone.startOfDay(range.from), clock.zone.startOfDay(range.to.adding(days: 1)))
            let rows = categoryRows(snapshot, now: clock.now, within: window)
            return shell.render(json: { ReportJSON.trackerCategories(rows, range: range) }) { width, theme in
                TextReport.trackerCategories(rows, title: "Categories · " + TextFormat.rangeTitle(range), width: width, theme: theme)
            }
        },
        Command(
            "category",
            syntax: .alternatives([
                .sequence([.word(Keyword("add", exact: true)), .value(trackerCategorySlot)]),
                .sequence([.word(Keyword("rename", exact: true)), .value(trackerCategorySlot), .value(newCategorySlot)]),
                .sequence([.word(Keyword("delete", exact: true)), .value(trackerCategorySlot), .flag("--yes")]),
                .sequence([.word(Keyword("rule", exact: true)), .value(sitePatternSlot), .value(siteCategorySlot)]),
            ]),
            summary: "add, rename or delete a task category (its tasks move to Other); limits and rules follow a rename; rule SITE CATEGORY gives a site (*.example.org: a domain and its subdomains) a category, off takes it away",
            examples: ["category add Work", "category rename Work Job", "category delete Job --yes", "category rule *.python.org Reference", "category rule youtube.com off"]
        ) { shell, args throws(ShellError) in
            if let pattern = args[sitePatternSlot] { return try siteCategoryRule(shell, pattern, args[siteCategorySlot]!) }
            return try categoryCommand(shell, args)
        },
    ]

    static let newCategorySlot = Slot<String>(
        "NEW", missing: "rename it to what?", invalid: { _ in "a category's name cannot be empty" },
        read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })

    /// Each category with its open tasks and all its tracked time (inside `within` only, when
    /// given); Other last.
    static func categoryRows(
        _ snapshot: TrackerSnapshot, now: Micros, within: (from: Micros, to: Micros)? = nil
    ) -> [(name: String, tasks: Int, tracked: Micros)] {
        var time: [Int64: Micros] = [:]
        for interval in snapshot.intervals {
            let (from, to) = within ?? (Micros.min, Micros.max)
            let length = min(interval.end ?? now, to) - max(interval.start, from)
            if length > 0 { time[interval.task, default: 0] += length }
        }
        var rows: [(name: String, tasks: Int, tracked: Micros)] = snapshot.categories.map { ($0, 0, 0) }
        rows.append((otherTaskCategory, 0, 0))
        for task in snapshot.tasks {
            let index = rows.firstIndex { $0.name == task.categoryName } ?? rows.count - 1
            if task.deleted == nil, task.done == nil { rows[index].tasks += 1 }
            rows[index].tracked += time[task.id] ?? 0
        }
        return rows
    }

    /// A range for the tracker's commands: against the day `calendar` marks and the tracked days.
    static func trackedRange(
        _ shell: Shell, _ args: Arguments, command: String, snapshot: TrackerSnapshot, clock: TrackerClock
    ) throws(ShellError) -> DateRange {
        try shell.range(
            args, command: command, otherwise: .current(.month), selected: shell.calendarSelected,
            dataRange: TrackerFacts.dayRange(snapshot.intervals, now: clock.now, zone: clock.zone))
    }

    /// `tasks RANGE`: the tasks with time tracked in the range (done ones too), most time first,
    /// each with that time and all its time against the estimate.
    private static func rangeTasks(_ shell: Shell, _ args: Arguments, snapshot: TrackerSnapshot, clock: TrackerClock) throws(ShellError) -> CommandOutcome {
        let range = try trackedRange(shell, args, command: "tasks", snapshot: snapshot, clock: clock)
        let lines = TrackerFacts.lines(snapshot, worked: range, now: clock.now, zone: clock.zone, today: clock.day)
        let title = "Tasks worked on · \(TextFormat.rangeTitle(range)) · \(lines.count)"
        return shell.render(json: { ReportJSON.tasks(lines, range: range, clock: clock) }) { width, theme in
            TextReport.tasks(lines, title: title, clock: clock, width: width, theme: theme, period: "in range")
        }
    }

    private static func taskCommand(_ shell: Shell, _ args: Arguments) throws(ShellError) -> CommandOutcome {
        let now = shell.environment.now()
        let clock = shell.trackerClock
        let first = args.words.first?.lowercased()
        if first == "add", let name = args[newTaskSlot] {
            let draft = TaskDraft(
                name: name, category: args[trackerCategorySlot], due: args[dueSlot].map { $0.resolveForward(today: clock.day) },
                priority: args[priorityChoice].flatMap(TaskPriority.init(word:)) ?? .medium, estimate: args[estimateSlot])
            let store = try shell.store.writer()
            let added: (task: TrackerTask, newCategory: Bool)
            do throws(TrackingError) {
                added = try store.addTask(draft, now: now)
            } catch {
                throw shell.refusal(error)
            }
            return taskChanged(shell, added.task, verb: "added", newCategory: added.newCategory)
        }
        guard let word = args[taskSlot] else { throw named("task").usageError("which task?") }
        let probe = shell.store.probe
        try shell.requireNamedStore(probe)
        // No store yet: no task either (said as such, not as a missing store).
        guard probe?.isThere == true else { throw shell.refusal(.unknownTask(word)) }
        switch first {
        case "done", "undone":
            let store = try shell.store.writer()
            do throws(TrackingError) {
                let task = try store.setDone(word, first == "done", now: now)
                return taskChanged(shell, task, verb: first == "done" ? "done:" : "not done:", newCategory: false)
            } catch {
                throw shell.refusal(error)
            }
        case "edit":
            let field = args[taskFieldChoice]!
            let value = args[fieldValueSlot]!
            let edit: TaskEdit
            switch field {
            case "name":
                guard !value.trimmingBlanks.isEmpty else { throw named("task").usageError("a task's name cannot be empty") }
                edit = .name(value.trimmingBlanks)
            case "due":
                if ["none", "-", "off"].contains(value.lowercased()) {
                    edit = .due(nil)
                } else {
                    guard let query = DayQuery(value) else { throw named("task").usageError(DayQuery.problemSuggesting(value) + " (or none)") }
                    edit = .due(query.resolveForward(today: clock.day))
                }
            case "priority":
                guard let priority = TaskPriority(word: value) else { throw named("task").usageError("'\(value)' is not low, medium or high") }
                edit = .priority(priority)
            case "category":
                edit = .category(["none", "-", otherTaskCategory.lowercased()].contains(value.lowercased()) ? nil : value.trimmingBlanks)
            default:
                if ["none", "-", "off"].contains(value.lowercased()) {
                    edit = .estimate(nil)
                } else {
                    guard let estimate = DurationText.parse(value) else {
                        throw named("task").usageError("'\(value)' is not a duration such as 45m or 1h30m (or none)")
                    }
                    edit = .estimate(estimate)
                }
            }
            let store = try shell.store.writer()
            do throws(TrackingError) {
                let edited = try store.editTask(word, edit, now: now)
                return taskChanged(shell, edited.task, verb: "changed", newCategory: edited.newCategory)
            } catch {
                throw shell.refusal(error)
            }
        case "delete":
            let store = try shell.store.writer()
            let found: (task: TrackerTask, intervals: [TrackedInterval])
            do throws(TrackingError) {
                found = try store.task(named: word)
            } catch {
                throw shell.refusal(error)
            }
            let withTime = args.has("--with-time")
            let tracked = found.intervals.reduce(Micros(0)) { $0 + $1.length(now: now) }
            let name = TerminalText.sanitize(found.task.name)
            let timeText =
                found.intervals.isEmpty
                ? "it has no tracked time"
                : withTime ? "its \(TextFormat.duration(tracked)) of tracked time goes with it" : "its \(TextFormat.duration(tracked)) of tracked time stays under its name"
            let offset = shell.model.zone.offsetSeconds(at: now) / 60
            let delete = { () -> CommandOutcome in
                do throws(TrackingError) {
                    try store.deleteTask(id: found.task.id, withTime: withTime, now: now, offsetMinutes: offset)
                } catch {
                    return .failed(shell.refusal(error))
                }
                shell.reloadTrackedIfShown()
                return shell.render(json: { .object([("deleted", .int(Int(found.task.id))), ("name", .string(found.task.name)), ("with_time", .bool(withTime))]) }) { _, _ in
                    ["deleted task \(found.task.id) \(name); \(timeText)"]
                }
            }
            if args.has("--yes") { return delete() }
            return .confirm(
                Confirmation(
                    question: "delete task \(found.task.id) \(name)? (\(timeText))",
                    withYes: "task delete \(found.task.id)\(withTime ? " --with-time" : "") --yes", proceed: delete))
        default:
            let store = try shell.store.reader()
            let found: (task: TrackerTask, intervals: [TrackedInterval])
            do throws(TrackingError) {
                found = try store.task(named: word)
            } catch {
                throw shell.refusal(error)
            }
            let snapshot = try shell.trackerSnapshot()
            let line =
                TrackerFacts.lines(snapshot, filter: .all, day: clock.day, now: clock.now, zone: clock.zone).first { $0.task.id == found.task.id }
                ?? TaskLine(task: found.task, tracked: 0, onDay: 0, overdue: false, running: false)
            return shell.render(json: { ReportJSON.task(line, intervals: found.intervals, clock: clock) }) { width, theme in
                TextReport.task(line, intervals: found.intervals, clock: clock, width: width, theme: theme)
            }
        }
    }

    /// `added task 4 Write report (Work, due Fri Feb 27, high, estimate 2h)`.
    private static func taskChanged(_ shell: Shell, _ task: TrackerTask, verb: String, newCategory: Bool) -> CommandOutcome {
        shell.reloadTrackedIfShown()
        let clock = shell.trackerClock
        let line = TaskLine(task: task, tracked: 0, onDay: 0, overdue: false, running: false)
        var details = [TerminalText.sanitize(task.categoryName)]
        if let due = task.due { details.append("due \(clock.due(due))") }
        details.append(task.priority.word)
        if let estimate = task.estimate { details.append("estimate \(TextFormat.duration(estimate))") }
        var text = "\(verb) task \(task.id) \(TerminalText.sanitize(task.name)) (\(details.joined(separator: ", ")))"
        if newCategory { text += "; new category \(TerminalText.sanitize(task.categoryName))" }
        return shell.render(json: { ReportJSON.taskLine(line, clock: clock) }) { width, _ in TextReport.wrap([text], width: width) }
    }

    private static func categoryCommand(_ shell: Shell, _ args: Arguments) throws(ShellError) -> CommandOutcome {
        let name = args[trackerCategorySlot]!
        if args.words.first?.lowercased() != "add" { try shell.requireNamedStore(shell.store.probe) }
        let store = try shell.store.writer()
        let shown = TerminalText.sanitize(name)
        switch args.words.first?.lowercased() {
        case "add":
            do throws(TrackingError) {
                try store.addCategory(name, now: shell.environment.now())
            } catch {
                throw shell.refusal(error)
            }
            return shell.render(json: { .object([("added", .string(name))]) }) { _, _ in ["added category \(shown)"] }
        case "rename":
            let new = args[newCategorySlot]!
            let old: String
            do throws(TrackingError) {
                old = try store.renameCategory(name, to: new)
            } catch {
                throw shell.refusal(error)
            }
            // Limits on the old name follow it.
            var moved = 0
            shell.limits.update(warn: shell.warn) { limits in
                limits.map { limit in
                    guard case .category(let n) = limit.target, n.lowercased() == old.lowercased() else { return limit }
                    moved += 1
                    return UsageLimit(target: .category(new), micros: limit.micros)
                }
            }
            shell.reloadTrackedIfShown()
            let extra = moved > 0 ? "; its limit follows" : ""
            return shell.render(json: { .object([("renamed", .string(old)), ("to", .string(new)), ("limits_moved", .int(moved))]) }) { _, _ in
                ["renamed category \(TerminalText.sanitize(old)) to \(TerminalText.sanitize(new))\(extra)"]
            }
        default:
            let snapshot = try shell.trackerSnapshot()
            guard let stored = snapshot.categories.first(where: { $0.lowercased() == name.lowercased() }) else {
                throw shell.refusal(name.lowercased() == otherTaskCategory.lowercased() ? .otherIsImplicit : .unknownCategory(name))
            }
            let count = snapshot.tasks.filter { $0.category == stored && $0.deleted == nil }.count
            let delete = { () -> CommandOutcome in
                let result: (name: String, moved: Int)
                do throws(TrackingError) {
                    result = try store.deleteCategory(stored)
                } catch {
                    return .failed(shell.refusal(error))
                }
                shell.reloadTrackedIfShown()
                return shell.render(json: { .object([("deleted", .string(result.name)), ("tasks_moved", .int(result.moved))]) }) { _, _ in
                    ["deleted category \(TerminalText.sanitize(result.name)); \(result.moved) task\(result.moved == 1 ? "" : "s") moved to Other"]
                }
            }
            if args.has("--yes") { return delete() }
            return .confirm(
                Confirmation(
                    question: "delete category \(TerminalText.sanitize(stored))? (its \(count) task\(count == 1 ? "" : "s") move to Other)",
                    withYes: "category delete \(stored) --yes", proceed: delete))
        }
    }
}

extension DayQuery {
    /// The day meant, looking forward for weekday names (`due friday`: the next Friday; today
    /// when today is Friday) — a due day is ahead.
    func resolveForward(today: LocalDate) -> LocalDate {
        let resolved = resolve(today: today, selected: today, dataRange: nil)
        if case .weekday = self, resolved < today {
            return resolved.adding(days: 7)
        }
        return resolved
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}

extension Shell {
    /// After tracked time changed: when it is what is shown, it is read anew, the selected day kept.
    func reloadTrackedIfShown() {
        guard let source = model.loadedSource, source.parts.contains(.tracked) else { return }
        _ = model.load(source, presenter: environment.loadPresenter)
    }
}
