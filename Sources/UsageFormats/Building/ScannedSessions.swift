// ScannedSessions.swift — the rows of a scan gathered in file order (one builder, or the parts of a stream's segments) and made into a Dataset: names unified, sessions sorted.
import UsageCore

/// What one builder collected from one segment: rows in file order, with the builder's name
/// tables as they were (`table` tells builders apart: their ids mean different names).
struct ScannedPart: Sendable {
    var table: Int
    var appNames: [String]
    var categoryNames: [String]
    var columns: SessionColumns
    var skipped: SkipSummary
    var repairedStrings: Int
    /// CSV rows kept whose times were read as wall-clock times.
    var localTimeRows = 0

    /// The same part with its examples' lines moved down by `lines` (a segment's line 1 is the
    /// file's line `lines + 1`).
    func shiftingLines(by lines: Int) -> ScannedPart {
        guard lines != 0 else { return self }
        var copy = self
        copy.skipped.mapExampleLines { $0.map { $0 + lines } }
        return copy
    }
}

/// The rows of a scan in file order, before sorting: parts are appended as the segments they
/// came from are proved, so memory holds the columns and nothing of the input.
public struct ScannedSessions: Sendable {
    private var apps = NameTable(normalise: Normalise.appName)
    private var categories = NameTable(normalise: Normalise.category)
    private var columns = SessionColumns()
    private var skipped = SkipSummary()
    private var repaired = 0
    /// CSV rows kept whose times were read as wall-clock times.
    private(set) var localTimeRows = 0
    /// Per builder table: its app and category ids → ours (-1: not seen yet).
    private var appMaps: [Int: [Int32]] = [:]
    private var categoryMaps: [Int: [Int32]] = [:]

    /// Room made for this many sessions (a guess from the input's size).
    private let reserved: Int

    init(expectedRows: Int = 0) {
        reserved = expectedRows
        columns.reserve(expectedRows)
    }

    /// One builder's rows as they are.
    init(_ part: ScannedPart) {
        self.init()
        append(part)
    }

    /// Sessions gathered so far.
    var count: Int { columns.count }

    /// How many sessions fit before the columns must grow.
    var capacity: Int { columns.starts.capacity }

    /// Appends a part's rows (after every part before it in the file); names it uses are
    /// interned here in the order their rows come.
    mutating func append(_ part: ScannedPart) {
        skipped.merge(part.skipped)
        repaired += part.repairedStrings
        localTimeRows += part.localTimeRows
        guard !part.columns.isEmpty else { return }
        var appMap = appMaps[part.table] ?? []
        var categoryMap = categoryMaps[part.table] ?? []
        apps.extend(&appMap, for: part.columns.apps, names: part.appNames)
        categories.extend(&categoryMap, for: part.columns.categories, names: part.categoryNames)
        if columns.isEmpty, reserved == 0, Self.isIdentity(appMap), Self.isIdentity(categoryMap) {
            // The first part, with no room made for more: nothing to map or copy. (With room
            // made, the part is copied into it, or every later part would grow the columns
            // again and again, copying them and touching new memory each time.)
            columns = part.columns
        } else {
            columns.append(contentsOf: part.columns, appMap: appMap, categoryMap: categoryMap)
        }
        appMaps[part.table] = appMap
        categoryMaps[part.table] = categoryMap
    }

    private static func isIdentity(_ map: [Int32]) -> Bool {
        map.indices.allSatisfy { map[$0] == Int32($0) || map[$0] < 0 }
    }

    /// The dataset: sessions sorted by (start, end), ties in file order (on two cores when large).
    /// It takes the columns: the sort then holds their only copy and frees each old column as
    /// soon as its sorted one is made, rather than keeping both until the end.
    public consuming func dataset(source: String) -> Dataset {
        var sorted = columns
        columns = SessionColumns()
        sorted.sortByStart()
        return Dataset(
            source: source, apps: apps.names, categories: categories.names, columns: sorted, skipped: skipped,
            repairedStrings: repaired)
    }
}
