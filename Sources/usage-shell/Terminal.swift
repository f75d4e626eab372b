// Terminal.swift — the executable's edge with the terminal: stdio sinks, the width probe, the prompt's screen (its rows, clearing, the pager it runs) and a plain line reader.
import Foundation
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

/// stdout and stderr as sinks; each write goes straight to the file descriptor, so stdout and
/// stderr interleave in order (docs/DATA.md §7).
final class StandardStream: TextSink, Sendable {
    static let output = StandardStream(fd: STDOUT_FILENO)
    static let error = StandardStream(fd: STDERR_FILENO)

    private let fd: Int32
    private init(fd: Int32) { self.fd = fd }

    func write(_ text: String) {
        guard let failure = Self.writeAll(Array(text.utf8), to: fd) else { return }
        // The terminal hung up (EIO) during an import, or a signal that cancelled one is ending
        // the program: the import must still finish or take away the store it made, so what
        // cannot be written is dropped (the program then ends as the signal says: 129, SIGHUP).
        if failure == EIO && importUnderWay.load(ordering: .acquiring) || importSignal.load(ordering: .relaxed) != 0 { return }
        // The reader has gone (`| head -1`): stop quietly, as cat and grep do.
        if failure == EPIPE { exit(0) }
        // Any other failure (a full disk) must not pass for success.
        if fd != STDERR_FILENO {
            _ = Self.writeAll(Array("error: cannot write output: \(String(cString: strerror(failure)))\n".utf8), to: STDERR_FILENO)
        }
        exit(1)
    }

    /// Writes all of `bytes` to `fd`, again after an interrupted write: nil, or the `errno` of
    /// the write that failed.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}

/// Terminal facts read at the edge.
enum Terminal {
    /// The system's zone name from the `/etc/localtime` link (`…/zoneinfo/Europe/Paris`), or
    /// `/etc/timezone`; `nil` when neither says.
    static func systemZoneIdentifier() -> String? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let range = target.range(of: "zoneinfo/")
        {
            return String(target[range.upperBound...])
        }
        let text = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
        return text?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The width of the terminal `fd` is (stdout by default), else `COLUMNS`, else 80.
    static func width(environment: [String: String], fd: Int32 = STDOUT_FILENO) -> Int {
        var size = winsize()
        if isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }
}

/// A plain prompt-and-read reader on stdin (the libedit reader replaces it at a terminal).
/// The prompt goes to stderr when stdout is redirected, so results stay clean.
final class StandardInputReader: LineReader {
    func readLine(prompt: String) -> String? {
        let stream = isatty(STDOUT_FILENO) == 1 ? StandardStream.output : StandardStream.error
        stream.write(prompt)
        guard let line = Swift.readLine(strippingNewline: true) else {
            stream.write("\n")  // Ctrl-D: end the prompt's line
            return nil
        }
        return line
    }
}

/// The lines of standard input, read lazily (a batch run from a pipe).
struct StandardInputLines: Sequence, IteratorProtocol {
    mutating func next() -> String? { Swift.readLine(strippingNewline: true) }
}

/// The prompt's terminal (stdout): its rows, clearing it, and running the pager.
final class StdoutScreen: TerminalScreen {
    private let environment: [String: String]

    init(environment: [String: String]) { self.environment = environment }

    /// The rows of the terminal stdout is, else `LINES`, else 24.
    var rows: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        if let lines = environment["LINES"].flatMap({ Int($0) }), lines > 0 { return lines }
        return 24
    }

    /// Cursor home, then erase the screen (what Ctrl-L and `clear` write).
    func clear() {
        StandardStream.output.write("\u{1B}[H\u{1B}[2J")
    }

    /// Runs `/bin/sh -c COMMAND` with the text on its standard input and waits for it. The
    /// pager may quit before reading it all (`q` in less): the rest is dropped quietly. A
    /// command the shell cannot find (status 127) or cannot start shows nothing: false.
    func page(_ text: String, through command: String) -> Bool {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return false }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return false
        }
        // SIGPIPE is ignored by the program: a pager that quit early makes write fail with EPIPE
        // (the rest is dropped).
        _ = StandardStream.writeAll(Array(text.utf8), to: writeEnd)
        close(writeEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED && WEXITSTATUS == 127: the shell found no such command.
        let exited = status & 0x7F == 0
        return !(exited && (status >> 8) & 0xFF == 127)
    }
}
