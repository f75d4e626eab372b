// WatchScreen.swift — `watch` at a terminal: the alternate screen, keys read without echo (q stops), Ctrl-C and SIGWINCH answered, ticks on a steady schedule and at midnight, each frame one write of the rows that changed; on the way out the screen and terminal are put back and the last frame printed where it stays in the scrollback.
import UsageCore
import UsageRender
import UsageShell

#if canImport(Glibc)
    import Glibc
#endif

/// Shows a watch on the terminal (stdin and stdout both a terminal, at the prompt).
final class TerminalWatchDriver: WatchDriver {
    let refreshRunner: any RefreshRunner = ThreadedRefreshRunner(shouldStop: { WatchSignals.stopRequested })
    private let stream = StandardStream.output
    /// The rows on the screen now (nil: unknown, drawn whole next time).
    private var shown: [String]?

    func run(_ session: WatchSession, out: TextSink, err: TextSink) -> WatchEnd {
        let saved = WatchSignals.install(resize: true)
        let terminal = KeyboardMode.enter()
        // The alternate screen, and no cursor blinking over the frame.
        stream.write("\u{1B}[?1049h\u{1B}[?25l")
        shown = nil
        draw(session)
        let end = loop(session)
        stream.write("\u{1B}[?25h\u{1B}[?1049l")
        terminal?.leave()
        WatchSignals.restore(saved)
        _ = Interrupt.take()
        // The last frame on the normal screen, where it stays in the scrollback.
        let width = size().columns
        let last = [session.status.line(width: width, theme: session.shell.theme)] + session.output
        stream.write(last.joined(separator: "\n") + "\n")
        if end == .signalled {
            // SIGTERM: the screen is put back; now end as the signal would have.
            signal(SIGTERM, SIG_DFL)
            raise(SIGTERM)
        }
        return end
    }

    /// Waits for a key, a signal, the next tick or midnight, and answers; returns how it ended.
    private func loop(_ session: WatchSession) -> WatchEnd {
        let interval = session.request.interval
        var next = WatchSignals.monotonic() + interval
        while !session.isFinished {
            if terminateFlag.load(ordering: .relaxed) { return .signalled }
            if Interrupt.take() { return .stopped }
            if resizeFlag.exchange(false, ordering: .relaxed) {
                session.redraw()
                shown = nil
                draw(session)
            }
            let now = WatchSignals.monotonic()
            let untilMidnight = Double(session.nextMidnight() - session.shell.environment.now()) / 1e6
            let deadline = min(next, now + max(0, untilMidnight) + 0.01)
            if now >= deadline {
                session.tick(refreshing: refreshRunner)
                if WatchSignals.stopRequested { continue }
                draw(session)
                next += interval
                if next <= WatchSignals.monotonic() { next = WatchSignals.monotonic() + interval }
                continue
            }
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&input, 1, Int32(min(1000, max(1, (deadline - now) * 1000))))
            guard ready > 0 else { continue }  // a timeout, or a signal (EINTR): the flags are read above
            if input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .stopped }
            var keys = [UInt8](repeating: 0, count: 64)
            let n = read(STDIN_FILENO, &keys, keys.count)
            if n == 0 { return .stopped }  // the terminal is gone
            if n > 0, keys[..<n].contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") }) { return .stopped }
        }
        return .finished
    }

    /// One frame: the status line and the output, fitted to the terminal, written as the rows
    /// that changed since the last frame, in one write.
    private func draw(_ session: WatchSession) {
        let (width, height) = size()
        let status = session.status.line(width: width, theme: session.shell.theme)
        let rows = WatchFrame.rows(status: status, output: session.output, width: width, height: height)
        let bytes = FrameDiff.update(from: shown, to: rows, width: width)
        if !bytes.isEmpty { stream.write(bytes) }
        shown = rows
    }

    /// The terminal's size now (80 × 24 when it cannot be read).
    private func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }
}

/// The terminal with keys delivered one by one and not echoed (Ctrl-C still a signal), and
/// put back as it was.
struct KeyboardMode {
    private let saved: termios

    /// Enters the mode; nil when stdin is no terminal.
    static func enter() -> KeyboardMode? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        return KeyboardMode(saved: saved)
    }

    /// Puts the terminal back (keys typed meanwhile are dropped, not run at the prompt).
    func leave() {
        var saved = self.saved
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }
}
