// WatchRequest.swift — `watch [SECONDS] [COMMAND…] [--count N]` read: the interval, the command watched (checked as that command would check it), how many times, and what later ticks run.
import UsageCore

/// What a command does under `watch`, as its entry in the command table says.
public enum WatchRole: Equatable, Sendable {
    /// Not watched: it changes something, or shows no data (`load`, `set`, `limit`, `help`).
    case refused
    /// Run as it is at every tick (`show`, `apps top 5`, `status`).
    case shows
    /// Its arguments select (a day, a week, a month) at the first tick, and later ticks run it
    /// alone, so that `watch day prev` steps back once, not at every tick.
    case selectsOnce
}

/// A `watch` command line, read.
public struct WatchRequest: Equatable, Sendable {
    /// Seconds between two refreshes.
    public let interval: Double
    /// The command watched and its arguments, as the first tick runs it.
    public let words: [String]
    /// What later ticks run (the command alone, for one whose arguments select).
    public let laterWords: [String]
    /// How many times to show it (`--count N`); nil: until stopped.
    public let count: Int?

    /// Every 2 s, as watch(1).
    public static let defaultInterval = 2.0
    /// `show`, when no command is given.
    public static let defaultCommand = ["show"]
    /// The shortest and longest intervals: a tenth of a second (watch(1)'s least), a day.
    public static let intervals: ClosedRange<Double> = 0.1...86_400

    public init(interval: Double = defaultInterval, words: [String] = defaultCommand, laterWords: [String]? = nil, count: Int? = nil) {
        self.interval = interval
        self.words = words
        self.laterWords = laterWords ?? words
        self.count = count
    }

    /// The words after `watch`, checked: the interval, `--count N` (anywhere: no command takes
    /// it), then the command, whose own arguments are checked now, as it would check them.
    public static func parse(_ typed: [String]) throws(ShellError) -> WatchRequest {
        var words = typed
        var count: Int?
        while let k = words.firstIndex(where: { $0 == "--count" || $0.hasPrefix("--count=") }) {
            let value: String
            if words[k] == "--count" {
                guard k + 1 < words.count else { throw usage("'--count' needs a number of times") }
                value = words[k + 1]
                words.removeSubrange(k...k + 1)
            } else {
                value = String(words[k].dropFirst("--count=".count))
                words.remove(at: k)
            }
            guard let n = Int(value), n > 0 else { throw usage("'\(value)' is not a number of times (1 or more)") }
            count = n
        }
        var interval = defaultInterval
        if let first = words.first, let c = first.first, c.isASCII, c.isNumber || c == "." {
            guard let seconds = seconds(first) else {
                throw usage("'\(first)' is not an interval: seconds from 0.1 to 86400 (or 2m, 1h)")
            }
            interval = seconds
            words.removeFirst()
        }
        if words.isEmpty { words = defaultCommand }
        let command: Command
        switch CommandTable.resolve(words[0]) {
        case .success(let found): command = found
        case .failure(let error): throw error
        }
        let arguments = Array(words.dropFirst())
        switch command.watchRole(arguments) {
        case .refused:
            let why = command.name == "watch" ? "is already watching" : "does not only show data"
            throw usage("'\(command.name)' \(why): watch a command that shows data (show, day, apps, week, status, today, …)")
        case .shows:
            _ = try command.arguments(arguments)
            return WatchRequest(interval: interval, words: [command.name] + arguments, count: count)
        case .selectsOnce:
            _ = try command.arguments(arguments)
            return WatchRequest(interval: interval, words: [command.name] + arguments, laterWords: [command.name], count: count)
        }
    }

    /// An interval: `5`, `0.5`, `5s`, `2m`, `1h`, within `intervals`.
    public static func seconds(_ text: String) -> Double? {
        TimeAmount.seconds(text).flatMap { intervals.contains($0) ? $0 : nil }
    }

    /// The interval as said: `2 s`, `0.5 s`, `1m 30s`.
    public var intervalText: String {
        if interval >= 60, interval == interval.rounded() {
            let whole = Int(interval)
            let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
            return [h > 0 ? "\(h)h" : nil, m > 0 ? "\(m)m" : nil, s > 0 ? "\(s)s" : nil].compactMap { $0 }.joined(separator: " ")
        }
        return interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }

    private static func usage(_ problem: String) -> ShellError {
        .usage(command: "watch", problem: problem, usage: CommandTable.named("watch").usage)
    }
}
