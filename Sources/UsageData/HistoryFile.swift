// HistoryFile.swift — the interactive shell's history on disk: a plain UTF-8 file, one command per line, rewritten atomically under a lock for every command (an OwnedFile); and the session that reports each problem once.

/// The history file: `USAGE_SHELL_HISTORY`, else `$XDG_STATE_HOME/usage-shell/history`, else
/// `~/.local/state/usage-shell/history`. Each command is saved as soon as it is entered, so a
/// crash loses nothing: under the lock `history.lock` the file is read, the command added, the
/// last `limit` commands kept and the file replaced atomically (a temporary file, fsync,
/// rename; mode 0600). Reading it anew each time keeps the commands of shells open at once.
///
/// Corrupt means that we cannot have written it: a NUL byte, bytes that are not UTF-8, or more
/// than `maximumBytes`. Repairing such a file would lose its bytes at the next save, so it is
/// renamed aside (`history.corrupt`, `.corrupt-2`, …) whole.
public struct HistoryFile: Sendable {
    public var path: String { file.path }
    /// How many commands are kept (about 1000, as the issue asks).
    public let limit: Int
    var file: OwnedFile<[String]>

    /// Larger than this is no history file of ours (1000 commands of 16 KiB).
    static let maximumBytes = 16 << 20

    public init(path: String, limit: Int = 1000) {
        self.limit = limit
        file = OwnedFile(
            kind: .history, path: path, empty: { [] },
            decode: { .success(String(decoding: $0, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)) },
            encode: { Array($0.map { $0 + "\n" }.joined().utf8) }, maximumBytes: Self.maximumBytes)
    }

    /// The system calls of a save (tests make one fail).
    var steps: AtomicFile.Steps {
        get { file.steps }
        set { file.steps = newValue }
    }

    /// The history path the environment names, or `nil` when there is no home to put it in.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let explicit = environment["USAGE_SHELL_HISTORY"], !explicit.isEmpty { return explicit }
        return AtomicFile.xdgPath("history", variable: "XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    }

    /// The last `limit` commands, oldest first; none when the file does not exist yet. A
    /// corrupt file is set aside and reported (`.corrupt`: history starts empty); never written.
    public func load() throws(OwnedFileError) -> [String] {
        let loaded = try file.load()
        if let aside = loaded.setAside { throw aside }
        return Array(loaded.value.suffix(limit))
    }

    /// Saves one command (a line break inside it would split it: such commands are not kept).
    /// Returns `.corrupt` when the file on disk had become corrupt and was set aside first (the
    /// command then starts a new file).
    @discardableResult
    public func append(_ command: String) throws(OwnedFileError) -> OwnedFileError? {
        guard !command.isEmpty, !command.contains(where: \.isNewline) else { return nil }
        let limit = self.limit
        do {
            return try file.update { (commands: [String]) throws(Never) in Array((commands + [command]).suffix(limit)) }.setAside
        } catch {
            switch error {
            case .file(let failure): throw failure
            case .change(let never): switch never {}
            }
        }
    }

    /// Replaces the file with `commands` atomically (a temporary file renamed over it).
    func rewrite(_ commands: some Collection<String>) throws(OwnedFileError) {
        try file.save(Array(commands))
    }
}

/// The history of one interactive session: the file read once at the start, every command
/// saved to it, and each problem reported once. After any problem but a corrupt file set
/// aside, the file is left alone for the rest of the session (the commands stay recallable).
public final class HistorySession {
    public let file: HistoryFile
    /// Whether commands are still written to the file.
    public private(set) var isSaving = true

    public init(file: HistoryFile) {
        self.file = file
    }

    /// The commands to recall, and the problem to warn about (at most one).
    public func start() -> (commands: [String], problem: OwnedFileError?) {
        do {
            return (try file.load(), nil)
        } catch {
            if error.stopsSaving { isSaving = false }
            return ([], error)
        }
    }

    /// Saves an entered command; the problem to warn about, if any. Once saving has stopped,
    /// nothing is written and nothing more is reported.
    public func save(_ command: String) -> OwnedFileError? {
        guard isSaving else { return nil }
        do {
            return try file.append(command)
        } catch {
            if error.stopsSaving { isSaving = false }
            return error
        }
    }
}
