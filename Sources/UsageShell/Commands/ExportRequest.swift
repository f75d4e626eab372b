// ExportRequest.swift — what `export` is asked to do, typed once for the prompt's command and `usage-shell export`: where the data goes (a file of the sessions or `store:LOCATION`, the day's app list, a view with its arguments) and whether an existing one is replaced.
/// One `export`: the prompt's command makes it from its words, `usage-shell export` from its
/// parsed arguments; both run it through `CommandTable.export`.
public struct ExportRequest: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// Every loaded session to a file (.json, .ndjson, .csv), or `store:LOCATION`: the store into another.
        case file(String)
        /// The selected day's app list (`report FILE`).
        case report(String)
        /// A view run with its arguments, written as its CSV or JSON (`VIEW [ARG…] FILE`).
        case view(String, arguments: [String], file: String)
    }

    public var target: Target
    /// Replace a file that is there, merge into a store that is there.
    public var force: Bool

    public init(target: Target, force: Bool = false) {
        self.target = target
        self.force = force
    }

    /// The target as the command line names it: `FILE`, `report FILE`, or `VIEW [ARG…] FILE`
    /// (nil: no word).
    public init?(words: [String], force: Bool = false) {
        guard let first = words.first, let file = words.last else { return nil }
        if words.count == 1 {
            target = .file(first)
        } else if words.count == 2, first == "report" {
            target = .report(file)
        } else {
            target = .view(first, arguments: Array(words.dropFirst().dropLast()), file: file)
        }
        self.force = force
    }
}
