// Terminal.swift — the executable's edge with the terminal: stdio sinks, the width probe and a plain line reader.
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
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader has gone (`| head -1`): stop quietly, as cat and grep do.
                if errno == EPIPE { exit(0) }
                // Any other failure (a full disk) must not pass for success.
                let reason = String(cString: strerror(errno))
                if fd != STDERR_FILENO {
                    let message = Array("error: cannot write output: \(reason)\n".utf8)
                    _ = message.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress!, $0.count) }
                }
                exit(1)
            }
            offset += n
        }
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
