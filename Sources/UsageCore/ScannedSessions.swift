// ScannedSessions.swift — the rows of a scan (one part, or two from the two-core scan) made into a Dataset: names merged, sessions sorted on two cores.
import Dispatch
import Synchronization

/// The rows of a scan, in one or two parts (file order), before sorting and merging.
public struct ScannedSessions: Sendable {
    var parts: [DatasetBuilder]

    /// The dataset: the parts' names merged, sessions sorted by (start, end), ties in file
    /// order. Two parts are sorted on two cores.
    public func dataset(source: String) -> Dataset {
        var first = parts[0]
        var appMaps: [[Int32]?] = [nil]
        var categoryMaps: [[Int32]?] = [nil]
        var skipped = first.skipped
        var repaired = first.repairedStrings
        for part in parts.dropFirst() {
            appMaps.append(part.apps.names.map { first.intern(app: $0) })
            categoryMaps.append(part.categories.names.map { first.intern(category: $0) })
            skipped.merge(part.skipped)
            repaired += part.repairedStrings
        }
        var offsets: [Int32] = []
        var total: Int32 = 0
        for part in parts {
            offsets.append(total)
            total += Int32(part.columns.count)
        }
        let keys = SortedKeys(count: parts.count)
        let columns = parts.map(\.columns)
        let starts = offsets
        DispatchQueue.concurrentPerform(iterations: parts.count) { p in
            keys.set(p, columns[p].sortedKeys(offset: starts[p]))
        }
        let merged = SessionColumns.merging(columns, keys: keys.all, appMaps: appMaps, categoryMaps: categoryMaps)
        return Dataset(
            source: source, apps: first.apps.names, categories: first.categories.names, columns: merged,
            skipped: skipped, repairedStrings: repaired)
    }
}

/// Each part's sorted keys, filled in from the threads of `concurrentPerform` (one slot each).
/// A class, so that its mutex has one place in memory that the threads share.
private final class SortedKeys: Sendable {
    private let slots: Mutex<[[SortKey]]>

    init(count: Int) { slots = Mutex(Array(repeating: [], count: count)) }

    func set(_ p: Int, _ keys: [SortKey]) { slots.withLock { $0[p] = keys } }

    var all: [[SortKey]] { slots.withLock { $0 } }
}
