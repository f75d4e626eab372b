// ParallelScan.swift — scans a large sessions file on two cores: a guessed row boundary splits it, and the first half proves the guess.
import Dispatch
import Synchronization

/// Two scanners over one input. The second starts at a guessed row boundary near the middle
/// (a `{` after `}` `,`); the first scans up to it and accepts the second's work only when it
/// reaches an element that begins exactly there. A guess inside a string or a nested value is
/// never confirmed: the first scanner then simply goes on to the end, and the result is the
/// same as one scan's. Errors are reported as one scan would: the first in file order.
enum ParallelScan {
    static func run(
        _ b: UnsafeBufferPointer<UInt8>, cancellation: CancellationToken?, progress: ((Int) -> Void)?
    ) throws(IngestError) -> ScannedSessions {
        var first = JSONScanner(b)
        guard try first.scanArrayStart() else { return ScannedSessions(parts: [DatasetBuilder()]) }
        guard let split = guessRowBoundary(b, after: max(first.position, b.count / 2)) else {
            var builder = DatasetBuilder(expectedRows: b.count / 160)
            _ = try first.scanElements(into: &builder, stopAt: nil, cancellation: cancellation, progress: progress)
            builder.resolveLines(in: b)
            return ScannedSessions(parts: [builder])
        }

        // Both halves at once; the second's progress is not reported (the first's moves the spinner).
        let halves = Halves()
        let firstStart = first.position
        let base = UnsafeSendable(b)
        let reportProgress = UnsafeSendable(progress)
        let token = cancellation
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let b = base.value
            if k == 0 {
                var scanner = JSONScanner(b)
                var builder = DatasetBuilder(expectedRows: split / 160)
                let result = Result { () throws(IngestError) -> Bool in
                    try scanner.scanElements(
                        into: &builder, from: firstStart, stopAt: split, cancellation: token, progress: reportProgress.value)
                }
                builder.resolveLines(in: b)
                halves.set(0, result.map { ($0, builder) })
            } else {
                var scanner = JSONScanner(b)
                var builder = DatasetBuilder(expectedRows: (b.count - split) / 160)
                let result = Result { () throws(IngestError) -> Bool in
                    try scanner.scanElements(into: &builder, from: split, stopAt: nil, cancellation: token, progress: nil)
                }
                // Lines later: most of this half's examples give way to the first half's.
                halves.set(1, result.map { ($0, builder) })
            }
        }
        let (stoppedAtSplit, firstBuilder) = try halves.get(0)
        // A guess inside a value is never reached exactly: the first scan then went on to the end alone.
        guard stoppedAtSplit else { return ScannedSessions(parts: [firstBuilder]) }
        // The guess was a real row boundary: the second half's result stands, errors included.
        // Only the examples that survive the merge (three per reason in all) need a line number,
        // and counting lines up to the second half's is a pass over most of the input.
        var second = try halves.get(1).builder
        second.keepExamples { reason in SkipSummary.examplesPerReason - (firstBuilder.skipped.examples[reason]?.count ?? 0) }
        second.resolveLines(in: b)
        return ScannedSessions(parts: [firstBuilder, second])
    }

    /// The offset of a `{` that follows `}` and `,` (white space allowed between) at or after
    /// `from`: probably the start of a row. `nil` when there is none.
    static func guessRowBoundary(_ b: UnsafeBufferPointer<UInt8>, after from: Int) -> Int? {
        var j = from
        while j < b.count {
            guard b[j] == UInt8(ascii: "{") else {
                j += 1
                continue
            }
            var k = j - 1
            while k > 0, isSpace(b[k]) { k -= 1 }
            if k > 0, b[k] == UInt8(ascii: ",") {
                k -= 1
                while k > 0, isSpace(b[k]) { k -= 1 }
                if k > 0, b[k] == UInt8(ascii: "}") { return j }
            }
            j += 1
        }
        return nil
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }
}

/// The two halves' results, handed across threads under a lock.
private final class Halves: Sendable {
    typealias Half = (stoppedAtSplit: Bool, builder: DatasetBuilder)
    private let results = Mutex<[Result<Half, IngestError>?]>([nil, nil])

    func set(_ k: Int, _ result: Result<Half, IngestError>) {
        results.withLock { $0[k] = result }
    }

    func get(_ k: Int) throws(IngestError) -> Half {
        try results.withLock { $0[k]! }.get()
    }
}

/// A value handed to the other thread of `concurrentPerform`, which only reads it while this
/// call is running (the input buffer, the progress callback).
private struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
