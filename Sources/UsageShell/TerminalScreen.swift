// TerminalScreen.swift — the prompt's terminal as the shell sees it beyond writing lines: its height, clearing it, and showing output through a pager; the pager decision lives here, pure, and the executable only runs what it decides.

/// `set pager`: `auto` pages interactive output taller than the terminal, `on` pages all of it
/// (a pager such as `less -F` still returns at once when it fits), `off` never pages.
public enum PagerMode: String, CaseIterable, Sendable {
    case auto
    case on
    case off
}

/// The terminal an interactive run's results go to (the executable's is the real one; tests
/// give a fake that records what it was asked).
public protocol TerminalScreen: AnyObject {
    /// The terminal's rows now (it may be resized).
    var rows: Int { get }
    /// Clears the screen and puts the cursor at its top (`clear`, as Ctrl-L does).
    func clear()
    /// Shows `text` through `command` (a shell command line reading its standard input) and
    /// waits for it to end. Returns false when the command could not run, so that the text was
    /// not shown and the caller writes it.
    func page(_ text: String, through command: String) -> Bool
}

/// Whether and how output is paged: psql's rules.
public enum Pager {
    /// The pager: `$PAGER` as set (an empty one means no pager), else `less -FRX` (quit when
    /// the text fits, keep colours, leave the text on the screen).
    public static func command(environment: [String: String]) -> String? {
        guard let set = environment["PAGER"] else { return "less -FRX" }
        return set.allSatisfy(\.isWhitespace) ? nil : set
    }

    /// Whether `lines` lines of output go through the pager: only at an interactive terminal,
    /// never for JSON or CSV (data for other programs); with `auto`, when they and the next
    /// prompt do not fit its rows.
    public static func pages(_ lines: Int, mode: PagerMode, rows: Int, format: OutputFormat) -> Bool {
        guard format == .table, lines > 0 else { return false }
        switch mode {
        case .off: return false
        case .on: return true
        case .auto: return lines > rows - 1
        }
    }
}
