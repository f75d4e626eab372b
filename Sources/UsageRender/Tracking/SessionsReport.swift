// SessionsReport.swift — tracked intervals by their ids (`@N`) as text and JSON: the `sessions` list (the latest first, grouped by day when it spans several), one interval in a line (what an edit left), and what `undo` undid.
import UsageCore

/// A change as `undo` names it: the command, its interval, task or category, and times.
public struct UndoLine: Sendable, Equatable {
    public let command: String
    public let session: Int64?
    public let otherSession: Int64?
    public let name: String?
    public let newName: String?
    public let start: Micros?
    public let end: Micros?

    public init(command: String, session: Int64?, otherSession: Int64?, name: String?, newName: String?, start: Micros?, end: Micros?) {
        self.command = command
        self.session = session
        self.otherSession = otherSession
        self.name = name
        self.newName = newName
        self.start = start
        self.end = end
    }
}

extension TextReport {
    /// `@12`.
    public static func sessionID(_ id: Int64) -> String { "@\(id)" }

    /// One interval in a line: `@5 Write report 09:05–10:30 (1h 25m)` (with its day when not today).
    public static func session(_ session: TaskInterval, clock: TrackerClock) -> String {
        let i = session.interval
        return "\(sessionID(i.id)) \(TerminalText.sanitize(session.task.name)) \(clock.range(i.start, i.end)) (\(TextFormat.duration(i.length(now: clock.now))))"
    }

    /// An interval's times as a list row has them: `09:00–10:30`, `23:30–Tue 00:45`, `10:00–now`.
    static func sessionTimes(_ interval: TrackedInterval, clock: TrackerClock) -> String {
        guard let end = interval.end else { return "\(clock.clock(interval.start))–now" }
        let startDay = clock.zone.localDate(of: interval.start)
        let endDay = clock.zone.localDate(of: end)
        let endText = endDay == startDay ? clock.clock(end) : "\(TextFormat.shortWeekday(endDay)) \(clock.clock(end))"
        return "\(clock.clock(interval.start))–\(endText)"
    }

    /// `sessions`: a title with how many and their time, then a row per interval (the latest
    /// first): id, times, length, task. Grouped under each start day unless all start on `day`.
    /// Lengths add up to the title's total.
    public static func sessions(_ sessions: [TaskInterval], title: String, day: LocalDate?, clock: TrackerClock, width: Int, theme: Theme = .plain) -> [String] {
        let lengths = sessions.map { $0.interval.length(now: clock.now) }
        let total = lengths.reduce(0, +)
        let count = "\(TextFormat.count(sessions.count, "session"))"
        guard !sessions.isEmpty else { return wrap([theme.heading(title), "no sessions"], width: width) }
        var out = wrap([theme.heading("\(title) · \(count) · \(TextFormat.duration(total))")], width: width)
        let days = sessions.map { clock.zone.localDate(of: $0.interval.start) }
        let grouped = day == nil || days.contains { $0 != day }
        let ids = sessions.map { sessionID($0.interval.id) }
        let times = sessions.map { sessionTimes($0.interval, clock: clock) }
        let durations = TextFormat.durations(lengths)
        let idWidth = ids.map(\.count).max() ?? 2
        let timeWidth = times.map(TerminalText.cells).max() ?? 11
        let durationWidth = durations.map(\.count).max() ?? 2
        let nameWidth = max(4, width - (2 + idWidth + 2 + timeWidth + 2 + durationWidth + 2))
        var shownDay: LocalDate?
        for (k, session) in sessions.enumerated() {
            if grouped, days[k] != shownDay {
                shownDay = days[k]
                out.append(theme.heading("\(TextFormat.shortWeekday(days[k])) \(days[k])"))
            }
            if theme.accessible {
                let running = session.interval.isRunning ? ", running" : ""
                out += wrap(["\(ids[k]), \(TerminalText.sanitize(session.task.name)), \(times[k]), \(durations[k])\(running)."], width: width)
                continue
            }
            let marker = session.interval.isRunning ? theme.sgr("32", theme.glyphs.isASCII ? "*" : "●") : " "
            out.append(
                trimmedRight(
                    marker + " " + TerminalText.padLeft(ids[k], width: idWidth) + "  " + TerminalText.pad(times[k], width: timeWidth) + "  "
                        + TerminalText.padLeft(durations[k], width: durationWidth) + "  " + TerminalText.fit(session.task.name, width: nameWidth)))
        }
        return out
    }

    /// What `undo` undid, in a line: `undid session move @5 Write report at 10:00`.
    public static func undid(_ line: UndoLine, clock: TrackerClock) -> String {
        var words = ["undid", line.command]
        if let session = line.session { words.append(sessionID(session)) }
        if let other = line.otherSession { words.append(sessionID(other)) }
        if let name = line.name { words.append(TerminalText.sanitize(name)) }
        if let new = line.newName { words.append("to \(TerminalText.sanitize(new))") }
        switch (line.start, line.end) {
        case (let start?, let end?): words.append(clock.range(start, end))
        case (let at?, nil), (nil, let at?): words.append("at \(clock.when(at))")
        case (nil, nil): break
        }
        return words.joined(separator: " ")
    }
}

extension ReportJSON {
    /// `sessions`: the intervals, the latest first, each `{"id","task","start","end","seconds","running"}`.
    public static func sessions(_ sessions: [TaskInterval], clock: TrackerClock) -> JSONText {
        .array(sessions.map { interval($0.interval, task: $0.task.name, clock: clock) })
    }

    /// What `undo` undid: `{"undid","session","other_session","name","new_name","start","end","left"}`.
    public static func undid(_ line: UndoLine, left: Int, clock: TrackerClock) -> JSONText {
        .object([
            ("undid", .string(line.command)), ("session", line.session.map { .int(Int($0)) } ?? .null),
            ("other_session", line.otherSession.map { .int(Int($0)) } ?? .null), ("name", line.name.map { .string($0) } ?? .null),
            ("new_name", line.newName.map { .string($0) } ?? .null), ("start", line.start.map { .string(clock.timestamp($0)) } ?? .null),
            ("end", line.end.map { .string(clock.timestamp($0)) } ?? .null), ("left", .int(left)),
        ])
    }
}
