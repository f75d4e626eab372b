// StoreImporter.swift — an import's rules, written once for every backend: each source's row, its sessions decided by the plan against what the store holds of it, the names' ids, each app's latest category, the store's facts and kept totals, then the retention; the bulk reads and writes are the backend's (ImportBackend); an import and a copy run so on every SQL store, in its bulk change.
import UsageCore

extension ImportBackend {
    func finish() throws {}
}

enum StoreImporter {
    /// Imports every source (the caller holds the one transaction): a failure leaves the store
    /// as it was. `now` and `zone` place the retention cut, applied afterwards when one is set.
    /// `cancellation` is looked at between the steps (the backend stops a statement under way).
    static func run(
        _ sources: [ImportSource], now: Micros, zone: Zone, path: String, cancellation: CancellationToken = CancellationToken(),
        _ backend: some ImportBackend
    ) throws -> ImportSummary {
        let tx = backend.tx
        try ImportCancelled.check(cancellation)
        var names = try NameIDs(backend)
        var results: [ImportResult] = []
        var totals = TotalsDelta()
        var added = 0
        var latestEnd = try Meta.get(tx, Meta.latestEnd) ?? Int64.min
        var longest = try Meta.get(tx, Meta.longest) ?? 0
        // The import's new sessions take consecutive ids from here (under the writer's lock).
        let firstSession = try SessionIDs.next(tx)
        // Its entry's number, which the site visits it brings first carry.
        let entry = try ImportLog.nextEntry(tx)
        var written = Set<Int64>()  // the devices this import wrote sessions of (not in the kept totals yet)
        for source in sources {
            try ImportCancelled.check(cancellation)
            let result = try importOne(source, backend, entry: entry, names: &names, totals: &totals, written: &written, now: now)
            added += result.added
            results.append(result)
            if let span = source.dataset.span { latestEnd = max(latestEnd, span.end) }
            longest = max(longest, source.dataset.longestSession)
        }
        ImportHold.wait(at: .writing, cancellation)
        try ImportCancelled.check(cancellation)
        try backend.finish()
        try ImportCancelled.check(cancellation)
        let count = (try Meta.get(tx, Meta.sessions) ?? 0) + Int64(added)
        try Meta.set(tx, Meta.sessions, count)
        if latestEnd > Int64.min { try Meta.set(tx, Meta.latestEnd, latestEnd) }
        try Meta.set(tx, Meta.longest, longest)
        try KeptTotals.apply(totals, tx)
        // Kept as an entry (`imports`), before the retention may take some of its sessions.
        let parts = results.map {
            ImportEntry.Part(
                source: $0.source, device: $0.device ?? "", added: $0.added, updated: $0.updated, unchanged: $0.unchanged, visits: $0.visits)
        }
        try ImportLog.record(parts, id: entry, at: now, firstSession: firstSession, tx)
        let forgotten = try Retention.apply(tx, now: now, zone: zone)
        try ImportCancelled.check(cancellation)
        return ImportSummary(
            path: path, sources: results, forgotten: forgotten,
            retentionDays: try Meta.get(tx, Meta.retentionDays).map(Int.init), sessions: Int(count) - forgotten)
    }

    private static func importOne(
        _ source: ImportSource, _ backend: some ImportBackend, entry: Int64, names: inout NameIDs, totals: inout TotalsDelta, written: inout Set<Int64>,
        now: Micros
    ) throws -> ImportResult {
        let tx = backend.tx
        let deviceID = try Devices.id(source.device, now: now, tx)
        let sourceID = try tx.insert(
            """
            INSERT INTO source (id, device, name, shown, first_import, last_import, imports) VALUES (\(SQLIDs.next("source")), ?, ?, ?, ?, ?, 1)
            ON CONFLICT (device, name) DO UPDATE SET shown = excluded.shown, last_import = excluded.last_import, imports = source.imports + 1
            RETURNING id
            """,
            [.integer(deviceID), .text(source.identity), .text(source.shown), .integer(now), .integer(now)])
        let dataset = source.dataset
        let appIDs = try dataset.apps.map { try names.id($0, table: "app", backend) }
        let categoryIDs = try dataset.categories.map { try names.id($0, table: "category", backend) }

        // The sessions' keys are made on the other threads while the stored ones are read here.
        let keys = Background { ImportKeys.distinct(dataset, apps: appIDs) }
        var stored = try storedSessions(of: deviceID, for: dataset, written: written, backend)
        var plan = ImportPlan(count: dataset.sessionCount)
        let planned = try keys.value.map { keys in
            try plan.decideDistinct(dataset, keys: keys, apps: appIDs, categories: categoryIDs, stored: stored) { row, id in
                try backend.storedID(row: row, equals: id)
            }
        }
        if planned != true {
            plan = ImportPlan(count: dataset.sessionCount)
            try plan.decideEach(dataset, apps: appIDs, categories: categoryIDs, stored: &stored) { row, id in
                try backend.storedID(row: row, equals: id)
            }
        }

        var result = ImportResult(source: source.shown, skipped: dataset.skipped)
        result.device = source.device
        (result.added, result.updated, result.unchanged) = (plan.added, plan.updated, plan.unchanged)
        // The kept totals' delta is summed on another thread while the rows are written.
        let delta = Background { [plan] in
            var delta = TotalsDelta()
            KeptTotals.add(plan, dataset, device: deviceID, apps: appIDs, categories: categoryIDs, to: &delta)
            return delta
        }
        try backend.carryOut(plan, dataset, source: sourceID, device: deviceID, apps: appIDs, categories: categoryIDs)
        if plan.added > 0 || plan.updated > 0 { written.insert(deviceID) }
        totals.merge(delta.value)
        try tx.execute("UPDATE source SET sessions = sessions + ? WHERE id = ?", [SQLValue(result.added), .integer(sourceID)])
        try Devices.noteImport(deviceID, added: result.added, dataset: dataset, now: now, tx)

        try noteLatest(dataset, apps: appIDs, categories: categoryIDs, tx)
        if !source.visits.isEmpty { result.visits = try SiteImport.add(source.visits, device: deviceID, entry: entry, tx) }
        return result
    }

    /// What the device holds already of the sessions `dataset` may hold, by key: a session is
    /// its device's, whichever file brought it (a copy of an export under another name finds
    /// its sessions), and keeps its start when it grows, so only the device's sessions that
    /// start between the load's first and last start are read, through the start index or, when
    /// the kept totals say that is most of the store, in one pass. None are read when the kept
    /// totals count none there and this import wrote none of the device's (`written`: the kept
    /// totals count those only once it ends): a new store's, or a new device's, import reads
    /// nothing, and PostgreSQL does not make again the indexes a large one took out.
    static func storedSessions(
        of device: Int64, for dataset: Dataset, written: Set<Int64>, _ backend: some ImportBackend
    ) throws -> [Int64: StoredSession] {
        let sessions = dataset.sessions
        guard sessions.count > 0 else { return [:] }
        let starts = sessions.core(0).start...sessions.core(sessions.count - 1).start
        let tx = backend.tx
        let day: (Int64) -> Int64 = { $0 >= 0 ? $0 / TotalsDelta.day : ($0 + 1) / TotalsDelta.day - 1 }
        let within =
            try tx.int(
                "SELECT coalesce(sum(starts), 0) FROM day_total WHERE device = ? AND day BETWEEN ? AND ?",
                [.integer(device), .integer(day(starts.lowerBound)), .integer(day(starts.upperBound))]) ?? 0
        guard within > 0 || written.contains(device) else { return [:] }
        return try backend.storedSessions(of: device, starts: starts, within: within, total: try Meta.get(tx, Meta.sessions) ?? within)
    }

    /// Each app's latest session's category (`app NAME` on a day without it), one row an app.
    static func noteLatest(_ dataset: Dataset, apps appIDs: [Int64], categories categoryIDs: [Int64], _ tx: any SQLTransaction) throws {
        var latestOfApp = [(start: Int64, category: Int64)?](repeating: nil, count: dataset.apps.count)
        let sessions = dataset.sessions
        for k in sessions.indices {
            let (start, _, app, category) = sessions.core(k)
            if start >= latestOfApp[Int(app)]?.start ?? Int64.min { latestOfApp[Int(app)] = (start, categoryIDs[Int(category)]) }
        }
        for (k, newest) in latestOfApp.enumerated() {
            guard let newest else { continue }
            try tx.execute(
                """
                INSERT INTO app_latest (app, category, start) VALUES (?, ?, ?)
                ON CONFLICT (app) DO UPDATE SET category = excluded.category, start = excluded.start WHERE excluded.start >= app_latest.start
                """,
                [.integer(appIDs[k]), .integer(newest.category), .integer(newest.start)])
        }
    }
}

/// The ids of app and category names in the store, made on first use (names are stored once).
struct NameIDs {
    private var ids: [String: [ExactName: Int64]] = [:]

    init(_ backend: some ImportBackend) throws {
        for table in ["app", "category"] {
            var known: [ExactName: Int64] = [:]
            for (id, name) in try backend.names(table) { known[ExactName(name)] = id }
            ids[table] = known
        }
    }

    mutating func id(_ name: String, table: String, _ backend: some ImportBackend) throws -> Int64 {
        if let id = ids[table]?[ExactName(name)] { return id }
        let id = try backend.insertName(name, into: table)
        ids[table, default: [:]][ExactName(name)] = id
        return id
    }
}

extension SQLStore {
    /// Imports every source in one transaction (a failure leaves the store as it was); then
    /// applies the retention, when one is set. `now` and `zone` place the retention cut.
    func importSessions(_ sources: [ImportSource], now: Micros, zone: Zone, cancellation: CancellationToken) throws(StoreError) -> ImportSummary {
        let summary: ImportSummary
        do {
            summary = try bulkChange(cancellation: cancellation) { backend in
                try StoreImporter.run(sources, now: now, zone: zone, path: location.description, cancellation: cancellation, backend)
            }
        } catch {
            // Whatever stopped it once it was cancelled (the check, an interrupted statement, a
            // COPY ended), the transaction was rolled back.
            if cancellation.isCancelled { throw .cancelled(path: location.description) }
            throw mapped(error)
        }
        afterBulkChange(rows: summary.sources.reduce(summary.forgotten) { $0 + $1.added + $1.updated })
        return summary
    }

    /// Copies another store's contents in, in one transaction.
    func copyIn(_ contents: StoreContents, from: String, now: Micros) throws(StoreError) -> CopySummary {
        var summary = CopySummary(from: from, into: location.description)
        do {
            try bulkChange(cancellation: nil) { backend in try StoreImporter.copy(contents, now: now, backend, summary: &summary) }
        } catch {
            throw copyRefusal(error)
        }
        afterBulkChange(rows: summary.sessionsAdded)
        return summary
    }
}

/// Thrown inside an import's transaction once it is cancelled: the transaction rolls back.
struct ImportCancelled: Error {
    static func check(_ cancellation: CancellationToken) throws {
        if cancellation.isCancelled { throw ImportCancelled() }
    }
}
