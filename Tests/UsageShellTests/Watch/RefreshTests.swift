// RefreshTests.swift — what a refresh reads: the policy's table (files by stat, the store by data version, tracked time counted up to now), and LiveSources on real files and a real store: an unchanged file is not read, a rewritten one is, a broken rewrite fails and keeps everything, a merge is made again from its parts, the store is read again only when another connection changed it.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
import UsageCore
import UsageData
import UsageStore
@testable import UsageShell

struct RefreshPolicyTests {
    static let a = FileFingerprint(device: 1, inode: 7, size: 100, modifiedSeconds: 1000, modifiedNanoseconds: 5)
    static let grown = FileFingerprint(device: 1, inode: 7, size: 120, modifiedSeconds: 1000, modifiedNanoseconds: 5)
    static let touched = FileFingerprint(device: 1, inode: 7, size: 100, modifiedSeconds: 1000, modifiedNanoseconds: 6)
    static let replaced = FileFingerprint(device: 1, inode: 8, size: 100, modifiedSeconds: 1000, modifiedNanoseconds: 5)
    static let racy = FileFingerprint(device: 1, inode: 7, size: 100, modifiedSeconds: 1000, modifiedNanoseconds: 5, racy: true)

    @Test(arguments: [
        (FileFingerprint.Probe.file(a), FileFingerprint.Probe.file(a), false, RefreshAction.keep),
        (.file(a), .file(a), true, .read),  // a running Timewarrior interval counts up to each read
        (.file(a), .file(grown), false, .read),
        (.file(a), .file(touched), false, .read),
        (.file(a), .file(replaced), false, .read),  // renamed over: another inode, same size and time
        (.file(a), .failed(.notFound(source: "x")), false, .fail(.notFound(source: "x"))),
        (.failed(.notFound(source: "x")), .file(a), false, .read),
        (.stream, .stream, false, .keep),  // a FIFO was read once
        (.file(racy), .file(racy), false, .read),  // stamped too soon after a change to vouch for the file
    ])
    func aFileIsReadAgainOnlyWhenStatSaysItChanged(
        known: FileFingerprint.Probe, now: FileFingerprint.Probe, running: Bool, action: RefreshAction
    ) {
        #expect(RefreshPolicy.file(known: known, now: now, holdsRunning: running) == action)
    }

    @Test func theStoreIsReadAgainOnlyWhenItsDataVersionMoved() {
        #expect(RefreshPolicy.store(known: 3, now: 3) == .keep)
        #expect(RefreshPolicy.store(known: 3, now: 4) == .read)
    }

    @Test func trackedTimeIsCountedUpToNowWhileItRunsAndReadWhenTheStoreChanged() {
        #expect(RefreshPolicy.tracked(known: 2, now: 2, running: false) == .keep)
        #expect(RefreshPolicy.tracked(known: 2, now: 2, running: true) == .recount)
        #expect(RefreshPolicy.tracked(known: 2, now: 3, running: false) == .read)
        #expect(RefreshPolicy.tracked(known: nil, now: 1, running: false) == .read)
    }

    @Test func liveSourcesAreTheServerTheURLsTheStoreAndTrackedTime() {
        #expect(SourceRef.activityWatch(host: "h", port: 1).isLive)
        #expect(SourceRef.url("https://x/y.json").isLive)
        #expect(SourceRef.store.isLive)
        #expect(SourceRef.tracked.isLive)
        #expect(SourceRef.merged([.file("a.json"), .store]).isLive)
        #expect(!SourceRef.file("a.json").isLive)
        #expect(!SourceRef.sample.isLive)
        #expect(!SourceRef.stdin.isLive)
    }
}

struct LiveSourcesTests {
    func live(_ source: SourceRef, store: StoreLocation? = nil) -> (LiveSources, any SessionHistory) {
        let sources = LiveSources(source, zone: .utc, timeout: 5, options: ReadOptions(now: fixedNow, localZone: .utc), store: store, stores: OpenStores())
        let history = try! sources.openHistory(cancellation: CancellationToken(), progress: { _ in })
        return (sources, history)
    }

    func refresh(_ sources: LiveSources) throws(LoadError) -> (any SessionHistory)? {
        try sources.refresh(options: ReadOptions(now: fixedNow, localZone: .utc), cancellation: CancellationToken())
    }

    @Test func aFileJustWrittenIsReadOnceMoreThenNoMore() throws {
        let folder = try TemporaryFolder("watch")
        let path = folder.path + "/fresh.json"
        try sessionsJSON(minutes: 30).write(toFile: path, atomically: false, encoding: .utf8)
        let (sources, _) = live(.file(path))
        #expect(sources.plannedActions() == [.read])
        // Now dated long ago, as it will be once the file system's clock has moved on.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
        _ = try refresh(sources)
        #expect(sources.plannedActions() == [.keep])
    }

    @Test func anUnchangedFileIsNotReadAgain() throws {
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let (sources, history) = live(.file(path))
        #expect(history.sessionCount == 1)
        #expect(sources.plannedActions() == [.keep])
        #expect(try refresh(sources) == nil)
    }

    @Test func aRewrittenFileIsReadAgain() throws {
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let (sources, _) = live(.file(path))
        folder.writeSettled("data.json", sessionsJSON(minutes: 45))
        #expect(sources.plannedActions() == [.read])
        let again = try #require(try refresh(sources))
        #expect(DayReport(history: again, date: LocalDate(iso: "2026-02-23")!, zone: .utc).totalMicros == 45 * 60_000_000)
        #expect(try refresh(sources) == nil)
    }

    @Test func aBrokenRewriteFailsAndKeepsWhatWasReadUntilTheFileIsMended() throws {
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let (sources, _) = live(.file(path))
        folder.writeSettled("data.json", "[{\"app_name\": ")
        #expect(throws: LoadError.self) { try refresh(sources) }
        // Tried again at every refresh while it is broken, and never half applied.
        #expect(throws: LoadError.self) { try refresh(sources) }
        folder.writeSettled("data.json", sessionsJSON(minutes: 50))
        let mended = try #require(try refresh(sources))
        #expect(DayReport(history: mended, date: LocalDate(iso: "2026-02-23")!, zone: .utc).totalMicros == 50 * 60_000_000)
    }

    @Test func aFileThatWentAwayFailsTheRefreshWithTheLoadsOwnWords() throws {
        let folder = try TemporaryFolder("watch")
        let path = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        let (sources, _) = live(.file(path))
        try! FileManager.default.removeItem(atPath: path)
        #expect(throws: LoadError.notFound(source: path)) { try refresh(sources) }
    }

    @Test func aMergeIsMadeAgainWhenOneOfItsPartsChanged() throws {
        let folder = try TemporaryFolder("watch")
        let a = folder.writeSettled("a.json", sessionsJSON(app: "A", minutes: 10))
        let b = folder.writeSettled("b.json", sessionsJSON(app: "B", minutes: 20))
        let (sources, history) = live(.merged([.file(a), .file(b)]))
        #expect(history.sessionCount == 2)
        #expect(try refresh(sources) == nil)
        folder.writeSettled("b.json", sessionsJSON(app: "B", minutes: 40))
        #expect(sources.plannedActions() == [.keep, .read])
        let again = try #require(try refresh(sources))
        #expect(again.source == "\(a) + \(b)")
        #expect(DayReport(history: again, date: LocalDate(iso: "2026-02-23")!, zone: .utc).totalMicros == 50 * 60_000_000)
    }

    @Test func theSampleAndStandardInputAreReadOnce() throws {
        let (sources, _) = live(.sample)
        #expect(sources.plannedActions() == [.keep])
        #expect(try refresh(sources) == nil)
    }

    func importFile(_ path: String, into store: any StoreWriter) throws {
        let dataset = try FileRepository(path: path).load(cancellation: CancellationToken(), progress: { _ in })
        _ = try store.importSessions([ImportSource(identity: path, shown: path, dataset: dataset)], now: fixedNow, zone: .utc)
    }

    @Test func theStoreIsReadAgainOnlyWhenAnotherConnectionChangedIt() throws {
        let folder = try TemporaryFolder("watch")
        let db = folder.path + "/usage.sqlite"
        let data = folder.writeSettled("data.json", sessionsJSON(minutes: 30))
        // A store opened apart from the shell's: another connection, as another process's would be.
        let writer = try OpenStores().writer(.sqlite(path: db))
        try importFile(data, into: writer)
        let (sources, history) = live(.store, store: .sqlite(path: db))
        #expect(history.sessionCount == 1)
        #expect(sources.plannedActions() == [.keep])
        #expect(try refresh(sources) == nil)
        let more = folder.writeSettled("more.json", sessionsJSON(app: "Mail", day: "2026-02-24", minutes: 5))
        try importFile(more, into: writer)
        #expect(sources.plannedActions() == [.read])
        let again = try #require(try refresh(sources))
        #expect(again.sessionCount == 2)
        #expect(try refresh(sources) == nil)
    }
    /// `load tracked` of a store named on the command line looks at it once, to refuse it when it
    /// is not there; the load takes that look (`seen`) rather than looking again. Told the store is
    /// absent, the load is empty without opening it; told it is there, the load opens it, and
    /// an opening that finds nothing says so; told nothing, it looks itself.
    @Test func aLoadOfTrackedTimeTakesTheCommandsLookAtTheStoreAndDoesNotLookAgain() throws {
        let folder = try TemporaryFolder("watch")
        let db = folder.path + "/usage.sqlite"
        let writer = try OpenStores().writer(.sqlite(path: db))
        let stamp = { (t: Micros) in Stamp(instant: t, offsetMinutes: 0, zone: "UTC") }
        _ = try writer.track("Writing", from: stamp(fixedNow - 3_600_000_000), to: stamp(fixedNow))
        let options = ReadOptions(now: fixedNow, localZone: .utc)
        let stores = OpenStores()
        func load(_ location: StoreLocation, seen: StoreProbe?) throws(LoadError) -> any SessionHistory {
            try LiveSources(.tracked, zone: .utc, timeout: 5, options: options, store: location, stores: stores, seen: seen)
                .openHistory(cancellation: CancellationToken(), progress: { _ in })
        }
        #expect(try load(.sqlite(path: db), seen: nil).sessionCount == 1)
        #expect(stores.looks == 1, "told nothing: it looks itself")
        #expect(try load(.sqlite(path: db), seen: .present).sessionCount == 1)
        #expect(try load(.sqlite(path: db), seen: .absent).sessionCount == 0, "told absent: not looked at again")
        #expect(stores.looks == 1, "told: no look of its own")
        let none = folder.path + "/none.sqlite"
        #expect(try load(.sqlite(path: none), seen: nil).sessionCount == 0, "no store yet: no tracked time")
        do {
            _ = try load(.sqlite(path: none), seen: .present)
            Issue.record("told present, the load opened a store that is not there")
        } catch {
            #expect(error.description == "cannot load 'tracked': \(none): there is no store there yet (import FILE, start TASK or task add NAME makes it)")
        }
    }
}
