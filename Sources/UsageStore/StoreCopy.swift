// StoreCopy.swift — one store copied into another (`import store:LOCATION`, `export store:LOCATION`): every source with its device and its sessions under the keys they were stored with (so a later import of the same data still finds them; added to the target's kept totals), and the tracker (tasks, categories, renames, tracked time), and the sites (each visit with its device, browser and start; the site category rules, the ignored sites, `set web off`), in one transaction; copying again adds nothing.
import UsageCore
import UsageData

/// A source of a store as a copy carries it: the rows with their stored keys.
struct CopiedSource: Sendable {
    let device: String
    let identity: String
    let shown: String
    let dataset: Dataset
    let keys: [Int64]
    /// When the source was first and last imported into the store copied, and how often.
    let firstImport: Micros
    let lastImport: Micros
    let imports: Int64
}

/// What a copy took from the other store.
public struct StoreContents: Sendable {
    let sources: [CopiedSource]
    let tracker: TrackerSnapshot
    /// Each tracked interval's zone, by its id in the store copied.
    let zones: [Int64: String]
    let renames: [String: String]
    let retentionDays: Int?
    /// The store copied, as `undo` names it (a server's password left out).
    let origin: String
    /// Its site visits, device by device (the devices in their first visit's order).
    let visits: [(device: String, visits: [BrowserVisit])]
    /// Its sites' category rules (`category rule SITE`), pattern to category.
    let siteCategories: [(pattern: String, category: String)]
    /// The sites it never records (`web ignore`).
    let ignoredSites: [String]
    /// Whether it records sites (`set web off`: false).
    let webOn: Bool
}

extension SQLStore {
    /// Everything this store holds, for a copy into another.
    public func contents() throws(StoreError) -> StoreContents {
        try read { tx in
            var apps: [Int64: String] = [:]
            for row in try tx.rows("SELECT id, name FROM app", []) { if let id = row.int("id"), let name = row.text("name") { apps[id] = name } }
            var categories: [Int64: String] = [:]
            for row in try tx.rows("SELECT id, name FROM category", []) {
                if let id = row.int("id"), let name = row.text("name") { categories[id] = name }
            }
            var sources: [CopiedSource] = []
            let listed = try tx.rows(
                "SELECT s.id, d.name AS device, s.name, s.shown, s.first_import, s.last_import, s.imports FROM source s JOIN device d ON d.id = s.device ORDER BY s.id",
                [])
            for source in listed {
                guard let id = source.int("id") else { continue }
                var names = NameTable(normalise: { $0 ?? "" })
                var categoryNames = NameTable(normalise: { $0 ?? "" })
                var columns = SessionColumns()
                var keys: [Int64] = []
                let rows = try tx.rows(
                    SessionRows.store.copied.select("WHERE source = ? ORDER BY start, length, id"),
                    [.integer(id)])
                for row in rows {
                    let start = row.int("start") ?? 0
                    let offsets = UTCOffsets(
                        startMinutes: row.int("start_offset").map { Int16(truncatingIfNeeded: $0) } ?? .min,
                        endMinutes: row.int("end_offset").map { Int16(truncatingIfNeeded: $0) } ?? .min)
                    let app = names.intern(apps[row.int("app") ?? 0] ?? Normalise.unknownApp)
                    let category = categoryNames.intern(categories[row.int("category") ?? 0] ?? Normalise.otherCategory)
                    var id = row.text("ext_id")
                    if id != nil {
                        id!.withUTF8 { bytes in
                            columns.append(start: start, end: start + (row.int("length") ?? 0), app: app, category: category, idBytes: bytes, offsets: offsets)
                        }
                    } else {
                        columns.append(start: start, end: start + (row.int("length") ?? 0), app: app, category: category, idBytes: nil, offsets: offsets)
                    }
                    keys.append(row.int("key") ?? 0)
                }
                let dataset = Dataset(
                    source: source.text("shown") ?? "", apps: names.names, categories: categoryNames.names, columns: columns,
                    skipped: SkipSummary(), repairedStrings: 0)
                sources.append(
                    CopiedSource(
                        device: source.text("device") ?? Devices.local, identity: source.text("name") ?? "", shown: source.text("shown") ?? "",
                        dataset: dataset, keys: keys, firstImport: source.int("first_import") ?? 0, lastImport: source.int("last_import") ?? 0,
                        imports: source.int("imports") ?? 1))
            }
            var renames: [String: String] = [:]
            for row in try tx.rows("SELECT old, new FROM category_rename", []) {
                if let old = row.text("old"), let new = row.text("new") { renames[old] = new }
            }
            var zones: [Int64: String] = [:]
            for row in try tx.rows("SELECT id, zone FROM tracked", []) { if let id = row.int("id"), let zone = row.text("zone") { zones[id] = zone } }
            var visits: [(device: String, visits: [BrowserVisit])] = []
            let listedVisits = try tx.rows(
                """
                SELECT d.name AS device, v.browser, s.name AS site, v.start, v.length
                FROM site_visit v JOIN device d ON d.id = v.device JOIN site s ON s.id = v.site ORDER BY v.device, v.start, v.id
                """, [])
            for row in listedVisits {
                guard let device = row.text("device"), let browser = row.text("browser"), let site = row.text("site"), let start = row.int("start") else { continue }
                let visit = BrowserVisit(browser: browser, site: site, start: start, end: start + (row.int("length") ?? 0))
                if visits.last?.device == device { visits[visits.count - 1].visits.append(visit) } else { visits.append((device, [visit])) }
            }
            let siteCategories = try tx.rows("SELECT pattern, category FROM site_category ORDER BY pattern", []).compactMap { row -> (String, String)? in
                guard let pattern = row.text("pattern"), let category = row.text("category") else { return nil }
                return (pattern, category)
            }
            return StoreContents(
                sources: sources, tracker: try Tracker.snapshot(tx), zones: zones, renames: renames,
                retentionDays: try Meta.get(tx, Meta.retentionDays).map(Int.init), origin: location.description, visits: visits,
                siteCategories: siteCategories, ignoredSites: try tx.texts("SELECT pattern FROM site_ignored ORDER BY pattern", []),
                webOn: try SiteRows.webOn(tx))
        }
    }
}

extension SQLStore {
    /// The copy's refusal of an interval that overlaps time tracked here, as the store's error.
    func copyRefusal(_ error: any Error) -> StoreError {
        guard let box = error as? TrackingErrorBox, case .overlap(_, let task, let start, let end) = box.error else { return mapped(error) }
        func utc(_ t: Micros) -> String {
            let seconds = t >= 0 ? t / 1_000_000 : (t - 999_999) / 1_000_000
            let day = LocalDate(daysSinceEpoch: Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400))
            let inDay = seconds - Int64(day.daysSinceEpoch) * 86_400
            return "\(day) \(String(inDay / 3600).leftPadded(to: 2)):\(String(inDay / 60 % 60).leftPadded(to: 2)) UTC"
        }
        return .failed(
            path: location.description,
            reason: "the copy's time tracked from \(utc(start)) overlaps '\(task)' tracked here until \(end.map(utc) ?? "now"); nothing was copied")
    }
}

extension StoreImporter {
    /// Copies `contents` in (the caller holds the one transaction): each source's rows its
    /// device does not hold yet under their keys, then the tracker's tasks (by name), categories
    /// (by name), renames and tracked time (an interval already there is kept; one that
    /// overlaps other time refuses the whole copy).
    static func copy(_ contents: StoreContents, now: Micros, _ backend: some ImportBackend, summary: inout CopySummary) throws {
        let tx = backend.tx
        var names = try NameIDs(backend)
        var totals = TotalsDelta()
        var added = 0
        var latestEnd = try Meta.get(tx, Meta.latestEnd) ?? Int64.min
        var longest = try Meta.get(tx, Meta.longest) ?? 0
        // The copy is an import too (`imports`): its new sessions take consecutive ids from here,
        // and the site visits it brings first carry its entry's number.
        let firstSession = try SessionIDs.next(tx)
        let entry = try ImportLog.nextEntry(tx)
        var perDevice: [(device: String, added: Int, unchanged: Int)] = []
        var written = Set<Int64>()  // the devices this copy wrote sessions of (not in the kept totals yet)
        for source in contents.sources {
            // The source and its device keep the times they were imported at where they come
            // from: a copy moves the store, it does not import everything again today.
            let deviceID = try Devices.id(source.device, now: source.firstImport, tx)
            let sourceID = try tx.insert(
                """
                INSERT INTO source (id, device, name, shown, first_import, last_import, imports) VALUES (\(SQLIDs.next("source")), ?, ?, ?, ?, ?, ?)
                ON CONFLICT (device, name) DO UPDATE SET
                    first_import = CASE WHEN excluded.first_import < source.first_import THEN excluded.first_import ELSE source.first_import END,
                    last_import = CASE WHEN excluded.last_import > source.last_import THEN excluded.last_import ELSE source.last_import END,
                    imports = CASE WHEN excluded.imports > source.imports THEN excluded.imports ELSE source.imports END
                RETURNING id
                """,
                [.integer(deviceID), .text(source.identity), .text(source.shown), .integer(source.firstImport), .integer(source.lastImport),
                 .integer(source.imports)])
            let dataset = source.dataset
            let appIDs = try dataset.apps.map { try names.id($0, table: "app", backend) }
            let categoryIDs = try dataset.categories.map { try names.id($0, table: "category", backend) }
            let stored = try storedSessions(of: deviceID, for: dataset, written: written, backend)
            var plan = ImportPlan(count: dataset.sessionCount)
            plan.insertMissing(keys: ImportKeys.rekeyed(source.keys, dataset, apps: appIDs), stored: stored)
            summary.sessionsAdded += plan.added
            summary.sessionsKept += dataset.sessionCount - plan.added
            try backend.carryOut(plan, dataset, source: sourceID, device: deviceID, apps: appIDs, categories: categoryIDs)
            if plan.added > 0 { written.insert(deviceID) }
            KeptTotals.add(plan, dataset, device: deviceID, apps: appIDs, categories: categoryIDs, to: &totals)
            try tx.execute("UPDATE source SET sessions = sessions + ? WHERE id = ?", [SQLValue(plan.added), .integer(sourceID)])
            try Devices.noteImport(deviceID, added: plan.added, dataset: dataset, now: source.lastImport, first: source.firstImport, tx)
            added += plan.added
            if let k = perDevice.firstIndex(where: { $0.device == source.device }) {
                perDevice[k].added += plan.added
                perDevice[k].unchanged += dataset.sessionCount - plan.added
            } else {
                perDevice.append((source.device, plan.added, dataset.sessionCount - plan.added))
            }
            if let span = dataset.span { latestEnd = max(latestEnd, span.end) }
            longest = max(longest, dataset.longestSession)
            try noteLatest(dataset, apps: appIDs, categories: categoryIDs, tx)
        }
        try backend.finish()
        let visitsAdded = try copySites(contents, entry: entry, tx)
        try Meta.set(tx, Meta.sessions, (try Meta.get(tx, Meta.sessions) ?? 0) + Int64(added))
        if latestEnd > Int64.min { try Meta.set(tx, Meta.latestEnd, latestEnd) }
        try Meta.set(tx, Meta.longest, longest)
        try KeptTotals.apply(totals, tx)
        // A device of visits alone (its browser extension's) is a part of the copy too.
        for (device, _) in contents.visits where !perDevice.contains(where: { $0.device == device }) { perDevice.append((device, 0, 0)) }
        let parts = perDevice.map {
            ImportEntry.Part(
                source: SourceRef.storePrefix + contents.origin, device: $0.device, added: $0.added, updated: 0, unchanged: $0.unchanged,
                visits: visitsAdded[$0.device])
        }
        try ImportLog.record(parts, id: entry, at: now, firstSession: firstSession, tx)
        if try Meta.get(tx, Meta.retentionDays) == nil, let days = contents.retentionDays { try Meta.set(tx, Meta.retentionDays, Int64(days)) }
        try copyTracker(contents, now: now, tx, summary: &summary)
    }

    /// The sites' part: each device's visits through the import's rule (a visit is its device's,
    /// browser's and start's: kept once, grown when it grew; a new one the copy's, entry `entry`),
    /// under this store's own `set web off` and `web ignore` as they were before the copy; then
    /// the site category rules (this store's own rule of a pattern kept), the ignored sites (the
    /// union: a site either store never records, neither records) and `set web off` (off when
    /// either store was: a privacy choice is never dropped). Returns the visits added by device
    /// (those that held any).
    private static func copySites(_ contents: StoreContents, entry: Int64, _ tx: any SQLTransaction) throws -> [String: Int] {
        var added: [String: Int] = [:]
        for (device, visits) in contents.visits {
            let deviceID = try Devices.id(device, now: visits.first?.start ?? 0, tx)
            added[device] = try SiteImport.add(visits, device: deviceID, entry: entry, tx)
        }
        for (pattern, category) in contents.siteCategories {
            try tx.execute("INSERT INTO site_category (pattern, category) VALUES (?, ?) ON CONFLICT (pattern) DO NOTHING", [.text(pattern), .text(category)])
        }
        for pattern in contents.ignoredSites {
            try tx.execute("INSERT INTO site_ignored (pattern) VALUES (?) ON CONFLICT (pattern) DO NOTHING", [.text(pattern)])
        }
        if !contents.webOn { try Meta.set(tx, SiteVisits.webOff, 1) }
        return added
    }

    /// The tracker's part is one entry of the undo journal: `undo` takes the copied tasks,
    /// categories and tracked time out again (the sessions stay).
    private static func copyTracker(_ contents: StoreContents, now: Micros, _ base: any SQLTransaction, summary: inout CopySummary) throws {
        let tx = Journal(base)
        let tracker = contents.tracker
        for name in tracker.categories where try Tracker.category(named: name, tx) == nil {
            _ = try Tracker.categoryID(name, create: true, now: now, tx)
        }
        for (old, new) in contents.renames {
            try tx.keep(.categoryRename, .text(old))
            try tx.execute(
                "INSERT INTO category_rename (old, new) VALUES (?, ?) ON CONFLICT (old) DO UPDATE SET new = excluded.new", [.text(old), .text(new)])
        }
        // Tasks by name: a live task of the same name is the same task; a deleted one (its time
        // kept under its name) is copied as it is.
        var taskIDs: [Int64: Int64] = [:]
        let live = try tx.rows(Tracker.taskSelect + " WHERE t.deleted IS NULL", []).map(Tracker.task(of:))
        for task in tracker.tasks {
            if task.deleted == nil, let same = live.first(where: { $0.name == task.name }) {
                taskIDs[task.id] = same.id
                continue
            }
            let category = try task.category.flatMap { try Tracker.categoryID($0, create: true, now: now, tx) }
            let id = try tx.insert(
                """
                INSERT INTO task (id, name, category, due, priority, estimate, created, done, deleted)
                VALUES (\(SQLIDs.next("task")), ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [.text(task.name), SQLValue(category?.id), SQLValue(task.due?.description), SQLValue(task.priority.rawValue), SQLValue(task.estimate),
                 .integer(task.created), SQLValue(task.done), SQLValue(task.deleted)])
            tx.made(.task, id: id)
            taskIDs[task.id] = id
            summary.tasksAdded += 1
        }
        for interval in tracker.intervals {
            guard let task = taskIDs[interval.task] else { continue }
            if try tx.int(
                "SELECT id FROM tracked WHERE task = ? AND start = ? AND coalesce(\"end\", -1) = ?", [.integer(task), .integer(interval.start), .integer(interval.end ?? -1)]) != nil
            {
                summary.intervalsKept += 1
                continue
            }
            try Tracker.refuseOverlap(from: interval.start, to: interval.end, excluding: [], tx)
            let zone = contents.zones[interval.id] ?? "UTC"
            tx.made(.tracked, id: try tx.insert(
                """
                INSERT INTO tracked (id, task, start, "end", start_offset, end_offset, zone) VALUES (\(SQLIDs.next("tracked")), ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [.integer(task), .integer(interval.start), SQLValue(interval.end), SQLValue(interval.startOffsetMinutes),
                 SQLValue(interval.endOffsetMinutes), .text(zone)]))
            summary.intervalsAdded += 1
        }
        tx.note = ChangeNote("import store", name: contents.origin)
        try tx.write()
    }
}
