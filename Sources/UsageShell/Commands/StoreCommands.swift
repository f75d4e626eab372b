// StoreCommands.swift — the commands of the store: `import` (any source into it, each session once; cancellable, reading or writing, leaving nothing), `store` (what it holds), `forget` (delete what ends before a day, an import's sessions or a device's, after asking; the last two in ImportsCommands.swift).
import Foundation
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension CommandTable {
    static let importSlot = Slot<String>(
        "SOURCE", completion: [.paths, .keywords([SourceRef.sampleName, SourceRef.activityWatchName])],
        missing: "which source? (a file, -, a URL, aw://HOST:PORT or activitywatch)", invalid: { _ in "a source is empty" },
        read: { $0.isEmpty ? nil : $0 })
    static let forgetDaySlot = Slot<DayQuery>(
        "DATE", completion: [.days], missing: "before which day? (a date such as 2026-01-01, or a day word)",
        invalid: DayQuery.problemSuggesting, read: DayQuery.init)
    static let forgetAgeSlot = Slot<Int>(
        "AGE", completion: [.keywords(["30d", "90d", "365d"])], missing: "older than how long? (90d, 12w)",
        invalid: { "'\($0)' is not an age such as 90d or 12w (days or weeks, up to 100000 days)" }, read: parseAge)

    static let storeCommands: [Command] = [
        Command(
            "import", syntax: .sequence([.value(importSlot), .many(importSlot), .optional(.sequence([.word(Keyword("--device", exact: true)), .value(importDeviceSlot)]))]),
            summary: "put sources into the store (any source load takes), each session once however often it is imported, as this machine's (--device NAME: another's; ActivityWatch names its hosts)",
            examples: ["import ~/export.json", "import activitywatch", "import phone.csv laptop.json", "import phone.csv --device phone"]
        ) { shell, args throws(ShellError) in
            try importSources(shell, ImportRequest(sources: args.all(importSlot), device: args[importDeviceSlot]), retry: true)
        },
        Command(
            "store", summary: "the store: where it is, its size, sessions and days, the sources imported and when, the retention",
            examples: ["store"],
            watch: .shows
        ) { shell, _ throws(ShellError) in
            let store = try shell.store.reader()
            let summary: StoreSummary
            do throws(StoreError) {
                summary = try store.summary(zone: shell.model.zone)
            } catch {
                throw .store(error)
            }
            let zone = shell.model.zone
            return shell.render(json: { ReportJSON.store(summary, zone: zone) }, table: { TextReport.store(summary, zone: zone, width: $0, theme: $1) })
        },
        Command(
            "forget",
            syntax: .alternatives([
                .sequence([.word("before"), .value(forgetDaySlot), .flag("--yes")]),
                .sequence([.word("older-than"), .value(forgetAgeSlot), .flag("--yes")]),
                .sequence([.word(Keyword("import", exact: true)), .value(importNumberSlot), .flag("--yes")]),
                .sequence([.word(Keyword("device", exact: true)), .value(forgetDeviceSlot), .flag("--yes")]),
            ]),
            summary: "delete imported sessions: those that end before a day (a session across it is kept whole), exactly those import N added with the site visits it brought (imports lists them), or every one of a device (its sources and totals too); asks first, or --yes",
            examples: ["forget before 2026-01-01", "forget older-than 90d", "forget older-than 90d --yes", "forget import 3", "forget device phone --yes"]
        ) { shell, args throws(ShellError) in
            if let id = args[importNumberSlot] { return try forgetImport(shell, id, yes: args.has("--yes")) }
            if let device = args[forgetDeviceSlot] { return try forgetDevice(shell, device, yes: args.has("--yes")) }
            let zone = shell.model.zone
            let now = shell.environment.now()
            let cut: Micros
            let written: String
            if let query = args[forgetDaySlot] {
                let day = query.resolve(today: zone.localDate(of: now), selected: shell.model.selectedDay, dataRange: shell.model.history.dayRange(in: zone))
                cut = zone.startOfDay(day)
                written = "forget before \(day) --yes"
            } else {
                let days = args[forgetAgeSlot]!
                cut = Retention.cutoff(olderThan: days, now: now, zone: zone)
                written = "forget older-than \(days)d --yes"
            }
            let store = try shell.store.writer(create: false)
            let (matching, total): (Int, Int)
            do throws(StoreError) {
                (matching, total) = try store.countEnding(before: cut)
            } catch {
                throw .store(error)
            }
            let when = TextFormat.localTimestamp(cut, offsetSeconds: zone.offsetSeconds(at: cut))
            let whenText = "\(when.prefix(10)) \(when.dropFirst(11).prefix(5))"
            guard matching > 0 else {
                return shell.render(json: { forgetJSON(0, total: total, cut: when) }) { width, _ in
                    TextReport.wrap(["nothing to forget: no imported session ends before \(whenText)"], width: width)
                }
            }
            let forget = { () -> CommandOutcome in
                do throws(StoreError) {
                    let deleted = try store.forget(endingBefore: cut)
                    shell.reloadStoreIfShown()
                    return shell.render(json: { forgetJSON(deleted, total: total, cut: when) }) { width, _ in
                        TextReport.wrap(["forgot \(TextReport.grouped(deleted)) of \(TextReport.grouped(total)) imported sessions (those that end before \(whenText))"], width: width)
                    }
                } catch {
                    return .failed(.store(error))
                }
            }
            if args.has("--yes") { return forget() }
            return .confirm(
                Confirmation(
                    question: "forget \(matching) of \(total) imported sessions (those that end before \(whenText))?",
                    withYes: written, proceed: forget))
        },
    ]

    private static func forgetJSON(_ forgotten: Int, total: Int, cut: String) -> JSONText {
        .object([("forgotten", .int(forgotten)), ("sessions_before", .int(total)), ("cut", .string(cut))])
    }

    /// An age: `90d`, `12w`, or a number of days.
    static func parseAge(_ word: String) -> Int? {
        var text = Substring(word.lowercased())
        var scale = 1
        if text.hasSuffix("d") {
            text = text.dropLast()
        } else if text.hasSuffix("w") {
            text = text.dropLast()
            scale = 7
        }
        guard (1...6).contains(text.count), text.allSatisfy(\.isASCII), let n = Int(text), n >= 0, n * scale <= 100_000 else { return nil }
        return n * scale
    }

    /// `import`: every source loaded as `load` would (rules applied), then put into the store in
    /// one transaction: if any source fails, nothing is imported. Cancelled (`request.cancellation`:
    /// Ctrl-C, SIGINT, SIGTERM) while reading or writing, nothing is written, and a store this
    /// import made is taken away again; with `retry` (the prompt) `retry` runs it again. The
    /// presenter runs it whole, reading and writing (`LoadPresenter.importing`: a signal that
    /// ends the program cancels it there).
    static func importSources(_ shell: Shell, _ request: ImportRequest, retry: Bool = false) throws(ShellError) -> CommandOutcome {
        try shell.environment.loadPresenter.importing(request.cancellation) { () throws(ShellError) -> CommandOutcome in
            try importNow(shell, request, retry: retry)
        }
    }

    /// `importSources`' work, as the presenter runs it.
    private static func importNow(_ shell: Shell, _ request: ImportRequest, retry: Bool) throws(ShellError) -> CommandOutcome {
        // The prompt's syntax read these words already; a typed request's are read the same way.
        for source in request.sources { _ = try importSlot.value(source, of: named("import")) }
        let refs = request.sources.map { SourceRef($0, home: shell.home) }
        if let twice = SourceRef.repeated(refs) {
            throw named("import").usageError("'\(TerminalText.sanitize(twice.description))' is given twice")
        }
        if refs.contains(.store) || refs.contains(where: { if case .file(let f) = $0, let db = shell.environment.store?.file { return Shell.sameFile(f, db) } else { return false } }) {
            throw named("import").usageError("the store is where import puts sessions; name a file or a server")
        }
        if refs.contains(.stdin) {
            if let refusal = shell.stdin.refusal { throw .stdinUnavailable(refusal) }
            shell.stdin = .consumed
        }
        guard shell.environment.store != nil else { throw .noStore }
        if let other = refs.lazy.compactMap({ if case .storeAt(let name) = $0 { return name } else { return nil } }).first {
            guard refs.count == 1 else { throw named("import").usageError("import store:LOCATION copies a whole store: name it alone") }
            return try copyStore(shell, from: StoreLocation(other), into: shell.environment.store!) { () throws(ShellError) in
                try shell.store.writer()
            }
        }
        let rules = shell.rules.readForLoad(warn: shell.warn)
        var sources: [ImportSource] = []
        // The sessions are this machine's (or `--device`'s), unless the source names its own.
        let importing = request.device ?? Devices.local
        let options = request.readOptions(shell.model.readOptions)
        for ref in refs {
            let made = ref.repository(zone: shell.model.zone, timeout: shell.model.timeout, options: options, store: nil, stores: shell.store.stores)
            guard let repository = made as? any SessionRepository else { throw named("import").usageError("'\(ref)' cannot be imported") }
            let cancellation = request.cancellation
            let loaded = shell.environment.loadPresenter.present(ref, cancellation: cancellation) { progress in
                ImportHold.wait(at: .reading, cancellation)
                return Result { () throws(LoadError) in try repository.loadByDevice(cancellation: cancellation, progress: progress) }
            }
            switch loaded {
            case .failure(.cancelled): throw cancelled(shell, request, retry: retry, storeMade: false)
            case .failure(let error): throw .importFailed(error)
            case .success(let parts):
                for part in parts {
                    let ruled = rules.map { rules in part.dataset.categorising { rules.category(for: $0) } } ?? part.dataset
                    sources.append(
                        ImportSource(
                            identity: ref.importIdentity(home: shell.home), shown: ref.description, dataset: ruled, device: part.device ?? importing,
                            visits: part.visits))
                }
            }
        }
        if request.cancellation.isCancelled { throw cancelled(shell, request, retry: retry, storeMade: false) }
        let wasThere = shell.store.probe != .absent
        let store = try shell.store.writer()
        let summary = try shell.environment.loadPresenter.whileCancellable(request.cancellation) { () throws(ShellError) -> ImportSummary in
            do throws(StoreError) {
                return try store.importSessions(sources, now: shell.environment.now(), zone: shell.model.zone, cancellation: request.cancellation)
            } catch .cancelled {
                throw cancelled(shell, request, retry: retry, storeMade: !wasThere)
            } catch {
                throw .store(error)
            }
        }
        shell.model.retryImport = nil
        shell.reloadStoreIfShown()
        return shell.render(json: { ReportJSON.imported(summary) }, table: { width, _ in TextReport.imported(summary, width: width) })
    }
}

extension CommandTable {
    /// An import cancelled, reading or writing: nothing was written; a store it made is taken
    /// away again (when nobody else used it meanwhile); at the prompt `retry` runs it again.
    static func cancelled(_ shell: Shell, _ request: ImportRequest, retry: Bool, storeMade: Bool) -> ShellError {
        if storeMade { shell.store.discardIfMade() }
        if retry {
            var again = request
            again.cancellation = CancellationToken()
            shell.model.retryImport = again
        }
        return .importCancelled(retry: retry)
    }

    /// One store copied into another (`import store:…`, `export store:…`): sessions with their
    /// devices and keys, the tracker; a copy made again adds nothing.
    /// Copies the store at `location` into the one at `into`, which `open` opens (and makes,
    /// when new) only once the other has been read: a store that cannot be read leaves nothing
    /// made behind.
    static func copyStore(
        _ shell: Shell, from location: StoreLocation, into: StoreLocation, open: () throws(ShellError) -> any ImportWriting
    ) throws(ShellError) -> CommandOutcome {
        guard location.identity != into.identity else {
            throw .refused("'\(TerminalText.sanitize(location.description))' is the store itself: name another one")
        }
        let contents: StoreContents
        let from: String
        do throws(StoreError) {
            let source = try shell.store.stores.reader(location)
            contents = try source.contents()
            from = source.location.description
        } catch {
            throw .store(error)
        }
        let target = try open()
        let summary: CopySummary
        do throws(StoreError) {
            summary = try target.copyIn(contents, from: from, now: shell.environment.now())
        } catch {
            throw .store(error)
        }
        shell.reloadStoreIfShown()
        shell.reloadTrackedIfShown()
        return shell.render(json: { ReportJSON.copied(summary) }, csv: .record) { width, _ in TextReport.copied(summary, width: width) }
    }
}

extension SourceRef {
    /// What makes a source the same source at its next import: a file's absolute path (links
    /// resolved), a URL without its password, `aw://HOST:PORT`, `<stdin>`, `:sample:`.
    func importIdentity(home: String?) -> String {
        switch self {
        case .file(let path):
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
        default:
            return description
        }
    }
}

extension Shell {
    /// After the store changed: when it is what is shown, it is read anew (a new snapshot), the
    /// selected day kept.
    func reloadStoreIfShown() {
        guard let source = model.loadedSource, source.parts.contains(.store) else { return }
        _ = model.load(source, presenter: environment.loadPresenter)
    }
}
