// RecorderSignals.swift — SIGINT and SIGTERM (and SIGHUP) turned into a byte on a pipe the recorder's poll waits on, so a stop is handled on its one thread, between two writes, never inside one.
#if canImport(Glibc)
    import Glibc
#endif

/// The self-pipe the signal handlers write to.
public enum RecorderSignals {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) public private(set) static var readEnd: Int32 = -1

    /// Installs the handlers (once).
    public static func install() {
        guard readEnd < 0 else { return }
        var fds: [Int32] = [-1, -1]
        guard makePipe(&fds, flags: FD_CLOEXEC, nonBlocking: true) else { return }
        readEnd = fds[0]
        writeEnd = fds[1]
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(RecorderSignals.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}
