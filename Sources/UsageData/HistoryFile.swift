// HistoryFile.swift — the interactive shell's history on disk: a plain UTF-8 file, one command per line, rewritten atomically under a lock for every command; a corrupt file is set aside, an unreadable one left alone.
import Foundation

/// Why the history file could not be used, and what the shell did about it: each is one warning.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It exists but cannot be read (permissions, a folder in its place, an I/O error): it is
    /// left as it is and not written this session.
    case unreadable(path: String, reason: String)
    /// It is not a history file (`problem`); it was renamed to `keptAs`, and history starts
    /// empty and is saved as usual.
    case corrupt(path: String, problem: String, keptAs: String)
    /// It is not a history file and could not be renamed (`reason`: a read-only folder): it is
    /// left as it is and not written this session.
    case corruptInPlace(path: String, problem: String, reason: String)
    /// It cannot be written (a read-only folder, a full disk): history is not saved from now on.
    case unwritable(path: String, reason: String)

    /// Whether the file must not be written any more this session (all but a file set aside).
    public var stopsSaving: Bool {
        if case .corrupt = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the history file '\(path)': \(reason); it is left as it is and history is not saved this session"
        case .corrupt(let path, let problem, let keptAs):
            return "the history file '\(path)' is corrupt (\(problem)); it was kept aside as '\(keptAs)' and history starts empty"
        case .corruptInPlace(let path, let problem, let reason):
            return "the history file '\(path)' is corrupt (\(problem)) and could not be moved aside (\(reason)); it is left as it is and history is not saved this session"
        case .unwritable(let path, let reason):
            return "cannot save the history file '\(path)': \(reason); history is not saved from now on"
        }
    }
}

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
    public let path: String
    /// How many commands are kept (about 1000, as the issue asks).
    public let limit: Int
    /// The system calls of a save (tests make one fail).
    var steps: AtomicFile.Steps = .system

    /// Larger than this is no history file of ours (1000 commands of 16 KiB).
    static let maximumBytes = 16 << 20

    public init(path: String, limit: Int = 1000) {
        self.path = path
        self.limit = limit
    }

    /// The history path the environment names, or `nil` when there is no home to put it in.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let explicit = environment["USAGE_SHELL_HISTORY"], !explicit.isEmpty { return explicit }
        return AtomicFile.xdgPath("history", variable: "XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    }

    /// The last `limit` commands, oldest first; none when the file does not exist yet. A
    /// corrupt file is set aside and reported (`.corrupt`: history starts empty); never written.
    public func load() throws(HistoryError) -> [String] {
        switch try read() {
        case .commands(let commands): return Array(commands.suffix(limit))
        case .corrupt(let problem):
            let lock: Int32
            do {
                lock = try AtomicFile.lock(path)
            } catch {
                throw .corruptInPlace(path: path, problem: problem, reason: error.reason)
            }
            defer { AtomicFile.unlock(lock) }
            // Another shell may have set it aside (and saved a new one) meanwhile.
            switch try read() {
            case .commands(let commands): return Array(commands.suffix(limit))
            case .corrupt(let problem):
                if let aside = try setAside(problem: problem) { throw aside }
                return []
            }
        }
    }

    /// Saves one command (a line break inside it would split it: such commands are not kept).
    /// Returns `.corrupt` when the file on disk had become corrupt and was set aside first (the
    /// command then starts a new file).
    @discardableResult
    public func append(_ command: String) throws(HistoryError) -> HistoryError? {
        guard !command.isEmpty, !command.contains(where: \.isNewline) else { return nil }
        let lock: Int32
        do {
            lock = try AtomicFile.lock(path)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        defer { AtomicFile.unlock(lock) }
        var commands: [String] = []
        var notice: HistoryError?
        switch try read() {
        case .commands(let stored): commands = stored
        case .corrupt(let problem): notice = try setAside(problem: problem)
        }
        commands.append(command)
        try rewrite(commands.suffix(limit))
        return notice
    }

    /// What the file holds.
    private enum Contents {
        case commands([String])
        case corrupt(problem: String)
    }

    private func read() throws(HistoryError) -> Contents {
        let bytes: [UInt8]
        do {
            guard let contents = try AtomicFile.contentsIfPresent(of: path) else { return .commands([]) }
            bytes = contents
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        if bytes.count > Self.maximumBytes { return .corrupt(problem: "larger than \(Self.maximumBytes >> 20) MiB") }
        if let problem = AtomicFile.textProblem(bytes) { return .corrupt(problem: problem) }
        return .commands(String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init))
    }

    /// Renames the corrupt file aside (under the lock): `.corrupt` naming where it went, nil
    /// when it had gone already; throws `.corruptInPlace` when it cannot be moved.
    private func setAside(problem: String) throws(HistoryError) -> HistoryError? {
        switch AtomicFile.setAside(path, steps: steps) {
        case .moved(let keptAs): return .corrupt(path: path, problem: problem, keptAs: keptAs)
        case .gone: return nil
        case .failed(let reason): throw .corruptInPlace(path: path, problem: problem, reason: reason)
        }
    }

    /// Replaces the file with `commands` atomically (a temporary file renamed over it).
    func rewrite(_ commands: some Collection<String>) throws(HistoryError) {
        do {
            try AtomicFile.write(Array(commands.map { $0 + "\n" }.joined().utf8), to: path, steps: steps)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
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
    public func start() -> (commands: [String], problem: HistoryError?) {
        do {
            return (try file.load(), nil)
        } catch {
            if error.stopsSaving { isSaving = false }
            return ([], error)
        }
    }

    /// Saves an entered command; the problem to warn about, if any. Once saving has stopped,
    /// nothing is written and nothing more is reported.
    public func save(_ command: String) -> HistoryError? {
        guard isSaving else { return nil }
        do {
            return try file.append(command)
        } catch {
            if error.stopsSaving { isSaving = false }
            return error
        }
    }
}
