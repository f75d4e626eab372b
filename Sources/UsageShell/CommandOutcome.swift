// CommandOutcome.swift — what a command hands back instead of printing: lines, a failure, an alert (exit status 3), the end, a cleared screen, a question the runner asks before going on, or a command to watch.

/// What a command produced.
public enum CommandOutcome: Equatable {
    /// Lines to print on stdout (a JSON document is one line).
    case output([String])
    /// The command failed; the message goes to stderr.
    case failed(ShellError)
    /// The shell should end.
    case quit
    /// The screen should be cleared (`clear`): done at the prompt's terminal, nothing elsewhere.
    case clearScreen
    /// Lines to print, and the run should end with status 3 (`limits check` found a crossed limit).
    case alert([String])
    /// The command needs a yes before it acts (it deletes something): the runner asks at a
    /// terminal, and in a batch run refuses (the command takes `--yes` there).
    case confirm(Confirmation)
    /// Show a command again and again as the data changes (`watch`): the runner hands it to
    /// its watch driver (a screen at a terminal, outputs one after another elsewhere).
    case watch(WatchRequest)
}

/// A question a command asks before it acts, and what it does on a yes.
public struct Confirmation {
    /// The question, without the `[y/N]` (`forget 1,204 sessions that end before 2026-01-01?`).
    public let question: String
    /// How the command is written so that it asks nothing (`forget before 2026-01-01 --yes`),
    /// for the refusal in a batch run.
    public let withYes: String
    /// What a batch run says instead of asking, when not that the command deletes data and
    /// takes `--yes` (`no task 'Emial' — did you mean 'Email'? …`).
    public let refusal: ShellError?
    /// Acts: called only after a yes.
    public let proceed: () -> CommandOutcome

    public init(question: String, withYes: String, refusal: ShellError? = nil, proceed: @escaping () -> CommandOutcome) {
        self.question = question
        self.withYes = withYes
        self.refusal = refusal
        self.proceed = proceed
    }
}

extension Confirmation: Equatable {
    public static func == (a: Confirmation, b: Confirmation) -> Bool {
        a.question == b.question && a.withYes == b.withYes
    }
}
