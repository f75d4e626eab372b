// WatchTestSupport.swift — what the watch tests share: a clock the test moves, data files written as a settled rewrite, sessions JSON written for a day, and a timer that never sleeps.
import Foundation
import Synchronization
import TestSupport
import UsageCore
import UsageData
import UsageFormats
@testable import UsageShell
import UsageStore

/// A clock the test sets and moves.
final class TestClock: Sendable {
    private let value: Mutex<Micros>
    init(_ iso: String) { value = Mutex(RFC3339.parse(iso)!) }
    var now: Micros { value.withLock { $0 } }
    func set(_ iso: String) { value.withLock { $0 = RFC3339.parse(iso)! } }
    func advance(seconds: Double) { value.withLock { $0 += Micros(seconds * 1e6) } }
}

/// How many files `writeSettled` wrote: each gets a modification time of its own.
private let settledWrites = Atomic<Int>(0)

extension TemporaryFolder {
    /// Writes `text` to `name` (through a new file renamed over the old, as editors and exports
    /// do), dated in 2020, a second after the file written before: long settled, and told apart
    /// from the one before even when the file system gives the freed inode number again.
    @discardableResult
    func writeSettled(_ name: String, _ text: String) -> String {
        let target = path + "/" + name
        let temporary = target + ".tmp"
        try! text.write(toFile: temporary, atomically: false, encoding: .utf8)
        let written = settledWrites.add(1, ordering: .relaxed).newValue
        let date = Date(timeIntervalSince1970: 1_577_836_800 + Double(written))
        try! FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: temporary)
        _ = rename(temporary, target)
        return target
    }
}

/// A sessions JSON file of one app used `minutes` on `day` from 09:00 UTC.
func sessionsJSON(app: String = "Editor", day: String = "2026-02-23", minutes: Int) -> String {
    let end = 9 * 60 + minutes
    let endText = String(format: "%02d:%02d", end / 60, end % 60)
    return """
        [{"session_id": "a", "app_name": "\(app)", "category": "Work", "start_timestamp": "\(day)T09:00:00Z", "end_timestamp": "\(day)T\(endText):00Z"}]
        """
}

/// A shell on the real sources (so the view model keeps them live), with the test's clock.
func watchShell(_ source: SourceRef, clock: TestClock, zone: Zone = .utc, format: OutputFormat = .table, store: StoreLocation? = nil) -> Shell {
    let model = UsageViewModel(zone: zone, now: { clock.now })
    let shell = Shell(
        model: model, output: OutputSettings(format: format),
        environment: ShellEnvironment(store: store, now: { clock.now }))
    _ = shell.loadSource(source)
    return shell
}

/// A timer for the plain driver that moves the test clock instead of sleeping, and stops after
/// `stopAfter` waits (nil: never).
final class FakeWatchTimer: WatchTimer {
    let clock: TestClock
    var seconds = 0.0
    var waits = 0
    let stopAfter: Int?
    var beforeEachTick: (Int) -> Void = { _ in }

    init(clock: TestClock, stopAfter: Int? = nil) {
        self.clock = clock
        self.stopAfter = stopAfter
    }

    func monotonic() -> Double { seconds }

    func wait(until deadline: Double) -> Bool {
        waits += 1
        if let stopAfter, waits > stopAfter { return false }
        clock.advance(seconds: max(0, deadline - seconds))
        seconds = max(seconds, deadline)
        beforeEachTick(waits)
        return true
    }

    var stopRequested: Bool { false }
}
