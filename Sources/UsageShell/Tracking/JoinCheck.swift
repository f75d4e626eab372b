// JoinCheck.swift — what `session join` moves before it moves it: the later session's time to the earlier's task when their tasks differ, a gap of more than a few minutes into the earlier's task; said and asked at the prompt, refused in a batch run unless `--force`.
import UsageCore
import UsageRender
import UsageStore

extension CommandTable {
    /// A gap between two sessions up to this long is joined without a word (a stopwatch stopped
    /// and started again a moment later); a longer one becomes tracked time, and is asked about.
    static let joinGapAllowed: Micros = 5 * 60_000_000

    /// Runs `join` (the two sessions made one, of the earlier's task), unless it moves time and
    /// `--force` was not given: the later session's time when its task is another, a gap of more
    /// than `joinGapAllowed`. Then the question says what moves (`Beta API loses 2h 30m; 2h 30m of
    /// gap becomes Acme website`) and a batch run refuses, naming the form with `--force`.
    static func checkingJoin(
        _ shell: Shell, _ a: Int64, _ b: Int64, force: Bool, _ join: @escaping () throws(ShellError) -> CommandOutcome
    ) throws(ShellError) -> CommandOutcome {
        guard !force, a != b else { return try join() }
        let store = try shell.store.reader()
        let one: TaskInterval
        let other: TaskInterval
        do throws(TrackingError) {
            one = try store.session(a)
            other = try store.session(b)
        } catch {
            throw shell.refusal(error)
        }
        let (first, second) = one.interval.start <= other.interval.start ? (one, other) : (other, one)
        let clock = shell.trackerClock
        // Time tracked between them: the join is refused whatever is said (the store says what is
        // in the way), so nothing is asked and no --force is offered for it.
        if let end = first.interval.end, end < second.interval.start {
            let between: [TaskInterval]
            do throws(StoreError) {
                between = try store.sessions(from: end, to: second.interval.start)
            } catch {
                throw .store(error)
            }
            if between.contains(where: { $0.interval.id != first.interval.id && $0.interval.id != second.interval.id }) { return try join() }
        }
        let gap = first.interval.end.map { second.interval.start - $0 } ?? 0
        let otherTask = first.task.id != second.task.id
        guard otherTask || gap > joinGapAllowed else { return try join() }
        let (kept, lost) = (TerminalText.sanitize(first.task.name), TerminalText.sanitize(second.task.name))
        var moves: [String] = []
        if otherTask { moves.append("\(lost) loses \(TextFormat.duration(second.interval.length(now: clock.now)))") }
        if gap > 0 { moves.append("\(TextFormat.duration(gap)) of gap becomes \(kept)") }
        let said = moves.joined(separator: "; ")
        let withForce = "session join @\(a) @\(b) --force"
        return .confirm(
            Confirmation(
                question: "join \(TextReport.session(first, clock: clock)) and \(TextReport.session(second, clock: clock))? \(said)",
                withYes: withForce,
                refusal: .refused("joining @\(first.interval.id) and @\(second.interval.id) moves time: \(said); nothing was changed (\(withForce) joins them)"),
                proceed: {
                    do throws(ShellError) {
                        return try join()
                    } catch {
                        return .failed(error)
                    }
                }))
    }
}
