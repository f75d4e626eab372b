// TerminalLoadPresenter.swift — runs a load on a worker thread while the terminal shows a spinner with bytes read; Ctrl-C cancels it.
import Foundation
import Synchronization
import UsageCore
import UsageData
import UsageRender
import UsageShell

/// The interactive shell's loads: after ~100 ms a spinner on stderr (`⠹ loading big.json… 48.2 MB`);
/// Ctrl-C cancels the load at once, the previous data stays, and the worker's late result is dropped.
final class TerminalLoadPresenter: LoadPresenter {
    private let stream: StandardStream
    private let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    init(stream: StandardStream) {
        self.stream = stream
    }

    func present(_ source: SourceRef, cancellation: CancellationToken, work: @escaping LoadWork) -> Result<Dataset, LoadError> {
        let bytes = Atomic<Int>(0)
        let outcome = Mutex<Result<Dataset, LoadError>?>(nil)
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
            let name = TerminalText.fit(source.description, width: 40)
            let line = "\(frames[frame % frames.count]) loading \(name)… \(Self.size(bytes.load(ordering: .relaxed))) (Ctrl-C cancels)"
            frame += 1
            let cells = TerminalText.cells(line)
            stream.write("\r" + line + String(repeating: " ", count: max(0, shownWidth - cells)))
            shownWidth = max(shownWidth, cells)
        }
        return outcome.withLock { $0 } ?? .failure(.cancelled(source: source.description))
    }

    /// `812 B`, `48.2 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
