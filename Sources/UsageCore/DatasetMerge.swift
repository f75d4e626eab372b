// DatasetMerge.swift — datasets combined after loading: several sources merged into one (`load A B`), and category rules applied.

extension Dataset {
    /// Several loads as one: sessions in one (start, end) order (ties keep the sources' order),
    /// names unified, skip counts summed; `parts` keeps what each source brought, and every
    /// skipped example names its source. One dataset comes back as it is, renamed.
    public static func merging(_ datasets: [Dataset], source: String) -> Dataset {
        precondition(!datasets.isEmpty, "at least one dataset")
        var apps = NameTable(normalise: Normalise.appName)
        var categories = NameTable(normalise: Normalise.category)
        var columns = SessionColumns()
        var skipped = SkipSummary()
        var repaired = 0
        var parts: [SourcePart] = []
        var idOffset: Int32 = 0
        for (n, dataset) in datasets.enumerated() {
            let appMap = dataset.apps.map { apps.intern($0) }
            let categoryMap = dataset.categories.map { categories.intern($0) }
            skipped.merge(dataset.skipped, source: datasets.count > 1 ? dataset.source : nil)
            repaired += dataset.repairedStrings
            parts += dataset.parts.map { part in
                var tagged = part
                tagged.skipped = SkipSummary()
                tagged.skipped.merge(part.skipped, source: part.source)
                return tagged
            }
            if n == 0 {
                // The first part's ids are mapped in place; later parts merge into it.
                columns = dataset.sessions.remapped(apps: appMap, categories: categoryMap)
                idOffset = Int32(dataset.sessions.count)
                continue
            }
            let keys = [columns.sortedKeys(), dataset.sessions.sortedKeys(offset: idOffset)]
            columns = SessionColumns.merging(
                [columns, dataset.sessions], keys: keys, appMaps: [nil, appMap], categoryMaps: [nil, categoryMap])
            idOffset += Int32(dataset.sessions.count)
        }
        var merged = Dataset(
            source: source, apps: apps.names, categories: categories.names, columns: columns, skipped: skipped,
            repairedStrings: repaired, parts: parts)
        merged.visits = datasets.flatMap(\.visits)
        return merged
    }

    /// The dataset with rules' categories given to uncategorised sessions: those whose category
    /// is `Other` (docs/DATA.md §2: null, blank, `other`, `others`) and whose app `categoryOf` names a
    /// category for. `categoryOf` is asked once per app that has such sessions.
    public func categorising(_ categoryOf: (String) -> String?) -> Dataset {
        guard let other = categories.firstIndex(of: Normalise.otherCategory).map(Int32.init) else { return self }
        var names = NameTable(normalise: Normalise.category)
        for name in categories { _ = names.intern(name) }
        // Per app: nil = not asked yet, -1 = no rule, else the category id.
        var assigned = [Int32?](repeating: nil, count: apps.count)
        var newCategories = sessions.categories
        var changed = false
        for k in newCategories.indices where newCategories[k] == other {
            let app = Int(sessions.apps[k])
            if assigned[app] == nil {
                let named = categoryOf(apps[app]).map(Normalise.category)
                assigned[app] = named.map { names.intern($0) } ?? -1
            }
            if let id = assigned[app], id >= 0, id != other {
                newCategories[k] = id
                changed = true
            }
        }
        guard changed else { return self }
        return with(categories: names.names, columns: sessions.replacingCategories(newCategories))
    }
}
