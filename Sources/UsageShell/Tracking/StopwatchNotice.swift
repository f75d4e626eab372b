// StopwatchNotice.swift — the stopwatch between commands: the prompt's `● Task 0:25`, the question asked once when it ran across a long gap (a night, a closed lid: keep it, stop it where it was last seen, or split it), the note of one left running past midnight, and "seen" after each command.
import UsageCore
import UsageRender
import UsageStore

/// What is said of the stopwatch before a command runs.
enum StopwatchNotice: Equatable {
    /// It ran, unseen, from `lastSeen` until now (longer than `StopwatchNotice.gap`).
    case longGap(task: String, start: Micros, lastSeen: Micros)
    /// It was started on an earlier day and still runs: named once.
    case acrossNight(task: String, start: Micros, interval: Int64)

    /// How long the stopwatch may run with no command seen before the next one asks about it.
    static let gap: Micros = 3 * 3_600_000_000
}

extension Shell {
    /// The stopwatch as the store holds it, nil without a store (never made for this).
    func currentStopwatch() -> StopwatchState? {
        let tracker: (any TrackerReading)? = store.existing
        return try? tracker?.stopwatchState()
    }

    /// The prompt's part: `● Write report 0:25`, nil when nothing runs.
    func promptStopwatch() -> String? {
        guard let state = currentStopwatch(), let running = state.running, let task = state.runningTask else { return nil }
        let dot = output.theme.glyphs.isASCII ? "*" : "●"
        let name = TerminalText.fit(task.name, width: 24)
        return "\(dot) \(name) \(TextReport.stopwatch(running.length(now: environment.now())))"
    }

    /// What needs saying about the stopwatch before the next command, if anything.
    func stopwatchNotice() -> StopwatchNotice? {
        // One store for both questions (the line's look at it, which the command shares).
        let tracker: (any TrackerReading)? = store.existing
        guard let state = try? tracker?.stopwatchState(), let running = state.running, let task = state.runningTask else { return nil }
        let now = environment.now()
        let seen = max(state.lastSeen ?? running.start, running.start)
        if now - seen > StopwatchNotice.gap { return .longGap(task: task.name, start: running.start, lastSeen: seen) }
        let zone = model.zone
        // Started on an earlier day and not seen since midnight: the morning after.
        let today = zone.localDate(of: now)
        if zone.localDate(of: running.start) < today, seen < zone.startOfDay(today), (try? tracker?.intervalNamedOvernight()) ?? nil != running.id {
            return .acrossNight(task: task.name, start: running.start, interval: running.id)
        }
        return nil
    }

    /// After a command: the stopwatch, if it runs, was seen now.
    func sawStopwatch() {
        guard currentStopwatch()?.running != nil, let writer = try? store.writer(create: false) else { return }
        try? writer.sawRunning(now: environment.now())
    }

    /// The line naming a stopwatch left running, with how to mend it.
    func noticeText(_ notice: StopwatchNotice) -> String {
        let clock = trackerClock
        switch notice {
        case .longGap(let task, let start, let lastSeen):
            let name = TerminalText.sanitize(task)
            return "\(name) has run since \(clock.when(start)), but no command was seen from \(clock.when(lastSeen)) until now "
                + "(\(TextFormat.duration(clock.now - lastSeen))); 'stop --at \(clock.clock(lastSeen))' ends it there"
        case .acrossNight(let task, let start, _):
            return "\(TerminalText.sanitize(task)) has run since \(clock.when(start)) (\(TextFormat.duration(clock.now - start))); "
                + "'stop --at HH:MM' ends it when you stopped"
        }
    }

    /// The long gap mended as answered: `s` stops it where it was last seen, `p` splits it
    /// (stopped there, started again now); anything else keeps it running (and seen now).
    func mendGap(_ notice: StopwatchNotice, answer: String) -> String? {
        guard case .longGap(_, _, let lastSeen) = notice, let store = try? self.store.writer() else { return nil }
        let clock = trackerClock
        let choice = answer.trimmingBlanks.lowercased()
        do throws(TrackingError) {
            switch choice {
            case "s", "stop":
                let change = try store.mendGap(stopAt: stamp(lastSeen), again: nil)
                reloadTrackedIfShown()
                return change.stopped.map { "stopped \(TerminalText.sanitize($0.task.name)) at \(clock.when(lastSeen)) (\(TextFormat.duration($0.interval.length(now: clock.now))))" }
            case "p", "split":
                let change = try store.mendGap(stopAt: stamp(lastSeen), again: stamp(clock.now))
                reloadTrackedIfShown()
                return change.started.map { "split: stopped at \(clock.when(lastSeen)), \(TerminalText.sanitize($0.task.name)) runs again from now" }
            default:
                sawStopwatch()
                return "kept running"
            }
        } catch {
            return "error: \(refusal(error).description)"
        }
    }

    /// Marks a night's note as said.
    func noticeSaid(_ notice: StopwatchNotice) {
        if case .acrossNight(_, _, let id) = notice, let writer = try? store.writer(create: false) {
            try? writer.noteNamedOvernight(interval: id)
        }
    }
}
