// NewTaskCheck.swift — a name that would make a new task (`start`, `track`) while an existing task is a slip away (`Emial` beside `Email`): asked at the prompt, refused in a batch run with the suggestion, unless `--new`.
import UsageStore

extension Shell {
    /// The existing task `word` is a slip away from (`NameMatch.closest`: one edit in a name of
    /// up to 5 characters, two in a longer one), when `word` names none and would make one;
    /// nil when it names a task (or several: the store says so), or no name is that close.
    func taskCloseTo(_ word: String) -> String? {
        guard let reader = store.existing, let snapshot = try? reader.trackerSnapshot() else { return nil }
        let live = snapshot.tasks.filter { $0.deleted == nil }
        do throws(TrackingError) {
            _ = try TaskNaming.pick(word, among: live)
            return nil
        } catch {
            guard case .unknownTask = error else { return nil }
        }
        return NameMatch.closest(to: word, among: live.map(\.name))
    }
}

extension CommandTable {
    /// Runs `act` (a change that makes the task `word` when there is none of that name), unless
    /// the name is a slip away from an existing task and `--new` was not given: then asks
    /// `new task 'Emial'? 'Email' exists [y/N]` at the prompt, and a batch run refuses with the
    /// suggestion and the form that goes ahead (the command's words with `--new`).
    static func checkingNewTask(
        _ shell: Shell, _ word: String, command: String, _ args: Arguments, _ act: @escaping () throws(ShellError) -> CommandOutcome
    ) throws(ShellError) -> CommandOutcome {
        guard !args.has("--new"), let close = shell.taskCloseTo(word) else { return try act() }
        let withNew = ([command] + args.words).map(Tokenizer.quoted).joined(separator: " ") + " --new"
        return .confirm(
            Confirmation(
                question: "new task '\(word)'? '\(close)' exists",
                withYes: withNew,
                refusal: .refused("no task '\(word)' — did you mean '\(close)'? (\(withNew) makes a new one)"),
                proceed: {
                    do throws(ShellError) {
                        return try act()
                    } catch {
                        return .failed(error)
                    }
                }))
    }
}
