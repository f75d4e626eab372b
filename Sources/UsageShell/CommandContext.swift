// CommandContext.swift — what one command line has of the shell: its way to the store (StoreAccess), and the warnings and notes it leaves for stderr.

/// What one command line has of the shell: its way to the store, and the warnings and notes it
/// leaves for stderr (taken by the runner after the command; any not taken are handed on).
final class CommandContext {
    let store: StoreAccess
    var warnings: [String]
    var notes: [String]

    init(store: StoreAccess, warnings: [String] = [], notes: [String] = []) {
        self.store = store
        self.warnings = warnings
        self.notes = notes
    }

    /// The next line's context: a new look at the store; what was left and not taken, kept.
    func next() -> CommandContext {
        CommandContext(store: store.next(), warnings: warnings, notes: notes)
    }
}
