// SessionColumns+Merge.swift — columns of one or two parts merged into one (start, end) order from their sorted keys, in one pass that writes every column.

extension SessionColumns {
    /// The sessions of `parts` (back to back, as the keys' positions count them) in one (start,
    /// end) order, given each part's sorted keys; each part's app and category ids mapped
    /// through its table when it has one. Keys carry the names, so nothing is read at random,
    /// and the merge writes the columns in one pass.
    package static func merging(
        _ parts: [SessionColumns], keys: [[SortKey]], appMaps: [[Int32]?], categoryMaps: [[Int32]?]
    ) -> SessionColumns {
        precondition(!keys.isEmpty && keys.count <= 2, "one or two parts")
        let n = keys.reduce(0) { $0 + $1.count }
        var out = SessionColumns()
        var starts = [Micros](repeating: 0, count: n)
        var ends = [Micros](repeating: 0, count: n)
        var apps = [Int32](repeating: 0, count: n)
        var categories = [Int32](repeating: 0, count: n)
        var positions = [Int32](repeating: 0, count: n)
        let empty: [SortKey] = []
        let a = keys[0]
        let b = keys.count > 1 ? keys[1] : empty
        let noMap: [Int32] = []
        let appMap = appMaps.count > 1 ? appMaps[1] ?? noMap : noMap
        let categoryMap = categoryMaps.count > 1 ? categoryMaps[1] ?? noMap : noMap
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var i = 0
                var j = 0
                for k in 0..<n {
                    let key: SortKey
                    var app: Int32
                    var category: Int32
                    if j >= b.count || (i < a.count && !SortKey.precedes(b[j], a[i])) {
                        key = a[i]
                        i += 1
                        app = key.app
                        category = key.category
                    } else {
                        key = b[j]
                        j += 1
                        app = appMap.isEmpty ? key.app : appMap[Int(key.app)]
                        category = categoryMap.isEmpty ? key.category : categoryMap[Int(key.category)]
                    }
                    starts[k] = key.start
                    ends[k] = key.end
                    apps[k] = app
                    categories[k] = category
                    positions[k] = key.index
                }
            }
        }
        out.starts = starts
        out.ends = ends
        out.apps = apps
        out.categories = categories
        out.ids = InputOrderColumns.concatenated(parts.map(\.ids))
        out.inputRow = positions
        return out
    }
}
