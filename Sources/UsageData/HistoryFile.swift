// HistoryFile.swift — the interactive shell's history on disk: a plain UTF-8 file, one command per line, appended per command.
import Foundation

/// Why the history file could not be used; the shell warns once and goes on without it.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or its directory could not be read, created or written.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .io(let path, let reason): return "history file '\(path)': \(reason)"
        }
    }
}

/// The history file: `USAGE_SHELL_HISTORY`, else `$XDG_STATE_HOME/usage-shell/history`, else
/// `~/.local/state/usage-shell/history`. Each command is appended (and so on disk) as soon as
/// it is entered, so a crash loses nothing; the file is rewritten atomically, keeping the last
/// `limit` commands, when it has grown to twice that.
public struct HistoryFile: Sendable {
    public let path: String
    /// How many commands are kept (about 1000, as the issue asks).
    public let limit: Int

    public init(path: String, limit: Int = 1000) {
        self.path = path
        self.limit = limit
    }

    /// The history path the environment names, or `nil` when there is no home to put it in.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let explicit = environment["USAGE_SHELL_HISTORY"], !explicit.isEmpty { return explicit }
        return AtomicFile.xdgPath("history", variable: "XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    }

    /// The last `limit` commands, oldest first; none when the file does not exist yet. Invalid
    /// UTF-8 is repaired, empty lines skipped. Compacts the file when it has grown too long.
    public func load() throws(HistoryError) -> [String] {
        let bytes: [UInt8]
        do {
            guard let contents = try AtomicFile.contentsIfPresent(of: path) else { return [] }
            bytes = contents
        } catch {
            throw .io(path: path, reason: error.reason)
        }
        let lines = String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        let kept = Array(lines.suffix(limit))
        if lines.count >= 2 * limit { try rewrite(kept) }
        return kept
    }

    /// Appends one command (a line break inside it would split it: such commands are not kept).
    public func append(_ command: String) throws(HistoryError) {
        guard !command.isEmpty, !command.contains(where: \.isNewline) else { return }
        try ensureDirectory()
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let bytes = Array((command + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            offset += n
        }
    }

    /// Replaces the file with `commands` atomically (a temporary file renamed over it).
    func rewrite(_ commands: [String]) throws(HistoryError) {
        do {
            try AtomicFile.write(Array(commands.map { $0 + "\n" }.joined().utf8), to: path)
        } catch {
            throw .io(path: path, reason: error.reason)
        }
    }

    /// Creates the file's folder and its parents (`mkdir -p`).
    private func ensureDirectory() throws(HistoryError) {
        do {
            try AtomicFile.ensureDirectory(of: path)
        } catch {
            throw .io(path: path, reason: error.reason)
        }
    }
}
