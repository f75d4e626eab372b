// TerminalLoadPresenter.swift — runs a load on a worker thread while the terminal shows a spinner with bytes read; Ctrl-C cancels it, as it cancels an import's write.
import Foundation
import Synchronization
import UsageCore
import UsageData
import UsageRender
import UsageShell

/// The interactive shell's loads: after ~100 ms a spinner on stderr (`⠹ loading big.json: 48.2 MB read`);
/// Ctrl-C cancels the load at once, the previous data stays, and the worker's late result is dropped.
final class TerminalLoadPresenter: LoadPresenter {
    private let stream: StandardStream
    /// The terminal's width now: the spinner's line must never wrap, or each frame would leave a line behind.
    private let width: () -> Int

    init(stream: StandardStream, width: @escaping () -> Int) {
        self.stream = stream
        self.width = width
    }

    func present<Loaded: Sendable>(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork<Loaded>) -> Result<Loaded, LoadError> {
        let bytes = Atomic<Int>(0)
        let outcome = Mutex<Result<Loaded, LoadError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = work { bytes.store($0, ordering: .relaxed) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = 8 << 20
        _ = Interrupt.take()
        thread.start()

        let started = DispatchTime.now()
        var frame = 0
        var shownWidth = 0
        defer { if shownWidth > 0 { stream.write("\r" + String(repeating: " ", count: shownWidth) + "\r") } }
        while done.wait(timeout: .now() + .milliseconds(80)) == .timedOut {
            if Interrupt.take() {
                cancellation.cancel()
                return .failure(.cancelled(source: source.description))
            }
            guard DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds >= 100_000_000 else { continue }
            let line = LoadSpinner.line(
                frame: frame, source: source.description, bytes: bytes.load(ordering: .relaxed), width: width() - 1)
            frame += 1
            let cells = TerminalText.cells(line)
            stream.write("\r" + line + String(repeating: " ", count: max(0, shownWidth - cells)))
            shownWidth = max(shownWidth, cells)
        }
        return outcome.withLock { $0 } ?? .failure(.cancelled(source: source.description))
    }

    /// An import's write, run here to its end while another thread turns Ctrl-C into
    /// `cancellation` (the write looks at it and rolls back) and, after ~100 ms, shows a
    /// spinner with the hint: the prompt comes back only once the store is as the outcome says.
    func whileCancellable<T>(_ cancellation: CancellationToken, _ body: () throws(ShellError) -> T) throws(ShellError) -> T {
        let done = Atomic<Bool>(false)
        let ended = DispatchSemaphore(value: 0)
        let shownWidth = Atomic<Int>(0)
        // The width as the write begins (the closure that reads it is this thread's).
        let (stream, columns) = (stream, width() - 1)
        // A Ctrl-C since the reading ended (the store being opened) counts: it is not cleared.
        let watcher = Thread {
            let started = DispatchTime.now()
            var frame = 0
            while !done.load(ordering: .relaxed) {
                if Interrupt.take() { cancellation.cancel() }
                if DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds >= 100_000_000, frame % 4 == 0 {
                    let line = LoadSpinner.writing(frame: frame / 4, width: columns)
                    let cells = TerminalText.cells(line)
                    stream.write("\r" + line + String(repeating: " ", count: max(0, shownWidth.load(ordering: .relaxed) - cells)))
                    shownWidth.store(max(shownWidth.load(ordering: .relaxed), cells), ordering: .relaxed)
                }
                frame += 1
                usleep(20_000)
            }
            ended.signal()
        }
        watcher.start()
        defer {
            done.store(true, ordering: .relaxed)
            ended.wait()
            let shown = shownWidth.load(ordering: .relaxed)
            if shown > 0 { stream.write("\r" + String(repeating: " ", count: shown) + "\r") }
        }
        return try body()
    }
}
