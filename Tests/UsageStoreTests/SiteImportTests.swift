// SiteImportTests.swift — an ActivityWatch export's web visits imported on every backend: kept once whatever the file is called and however often it is imported (a grown visit grows), `web ignore` and `set web off` applied, counted while their browser's app was in front; and the store upgraded from the version before holds them; `forget import N` takes back the visits it first brought, `imports` counts them, and a store of before they were their import's is upgraded.
import Foundation
import Testing
import TestSupport
import UsageCore
import UsageFormats
@testable import UsageStore

@Suite struct SiteImportTests {
    /// The export's parts as an import of `identity` hands them to the store.
    static func sources(_ text: String = WebExport.text, identity: String = "/home/me/export.json") throws -> [ImportSource] {
        let parts = try Array(text.utf8).withUnsafeBufferPointer { b throws(IngestError) in try SourceFormat.decodeByDevice(b, source: "export.json") }
        return parts.map { ImportSource(identity: identity, shown: "export.json", dataset: $0.dataset, device: $0.device ?? "here", visits: $0.visits) }
    }

    static let day = (from: instant("2026-03-02T00:00:00Z"), to: instant("2026-03-03T00:00:00Z"))

    static func times(_ store: any StoreWriter) throws -> [String] {
        try store.siteTimes(from: day.from, to: day.to, device: nil).map { "\($0.site) \($0.browser) \($0.micros / 1_000_000) \($0.sessions)" }
            .sorted()
    }

    @Test(arguments: Backend.allCases)
    func importingAnExportAgainOrUnderAnotherNameAddsNoVisitTwice(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let now = instant("2026-03-03T12:00:00Z")
        let first = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        #expect(first.sources.map(\.visits) == [3])
        #expect(try Self.times(s.store) == ["docs.python.org chromium 900 1", "localhost firefox 900 1", "mail.example.com chromium 900 1"])
        let again = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        #expect(again.sources.map(\.visits) == [0])
        let renamed = try s.store.importSessions(try Self.sources(identity: "/tmp/copy.json"), now: now, zone: .utc)
        #expect(renamed.sources.map(\.visits) == [0])
        #expect(try s.rows("SELECT count(*) FROM site_visit") == ["3"])
        // A later export whose last visit grew: the visit grows, still one row.
        let grown = WebExport.text.replacingOccurrences(of: "\"duration\": 900.0, \"data\": {\"url\": \"http://localhost", with: "\"duration\": 1200.0, \"data\": {\"url\": \"http://localhost")
        let later = try s.store.importSessions(try Self.sources(grown), now: now, zone: .utc)
        #expect(later.sources.map(\.visits) == [0])
        #expect(try s.rows("SELECT count(*), max(length) FROM site_visit") == ["3|1200000000"])
        #expect(try Self.times(s.store) == ["docs.python.org chromium 900 1", "localhost firefox 1200 1", "mail.example.com chromium 900 1"])
    }

    @Test(arguments: Backend.allCases)
    func anIgnoredSiteIsNotImportedNorAnyWhileWebIsOff(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let now = instant("2026-03-03T12:00:00Z")
        try s.store.ignoreSites(SitePattern("*.example.com")!, now: now)
        let ignoring = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        #expect(ignoring.sources.map(\.visits) == [2])
        #expect(
            try s.rows("SELECT s.name FROM site_visit v JOIN site s ON s.id = v.site ORDER BY s.name").map { $0.replacingOccurrences(of: "\"", with: "") }
                == ["docs.python.org", "localhost"])
        #expect(try s.rows("SELECT count(*) FROM site WHERE name LIKE '%example.com'") == ["0"], "an ignored site's name is not kept either")

        let off = try BackendStore(backend)
        try off.store.setWebRecording(false, now: now)
        let nothing = try off.store.importSessions(try Self.sources(), now: now, zone: .utc)
        #expect(nothing.sources.map(\.visits) == [0])
        #expect(try off.rows("SELECT count(*) FROM site_visit") == ["0"])
        #expect(nothing.sources.map(\.added) == [3], "the sessions are imported all the same")
    }

    /// `forget import N` took the import's sessions back but kept the site visits it brought:
    /// the web history of an export forgotten stayed. A visit is the import's that first brought
    /// it, so forgetting a later import of the same export keeps it; the browser extension's own
    /// visits are no import's and stay.
    @Test(arguments: Backend.allCases)
    func bugForgetImportKeptTheSiteVisitsItBrought(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let now = instant("2026-03-03T12:00:00Z")
        _ = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        _ = try s.store.importSessions(try Self.sources(identity: "/tmp/copy.json"), now: now, zone: .utc)
        // The extension's own visit on the same device, 09:56:00–09:56:20 in Firefox.
        try s.store.siteSeen("example.net", browser: "firefox", device: "laptop", at: instant("2026-03-02T09:56:00Z"))
        try s.store.siteSeen(nil, browser: "firefox", device: "laptop", at: instant("2026-03-02T09:56:20Z"))
        #expect(try s.rows("SELECT count(*) FROM site_visit") == ["4"])

        #expect(try s.store.forget(import: 2, now: now) == ForgottenImport(sessions: 0, visits: 0), "the first import brought them")
        #expect(try s.rows("SELECT count(*) FROM site_visit") == ["4"])
        #expect(try s.store.forget(import: 1, now: now) == ForgottenImport(sessions: 3, visits: 3))
        #expect(
            try s.rows("SELECT s.name FROM site_visit v JOIN site s ON s.id = v.site").map { $0.replacingOccurrences(of: "\"", with: "") }
                == ["example.net"])
        // Imported again, they are back, the third import's.
        let third = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        #expect(third.sources.map(\.visits) == [3])
        #expect(try s.rows("SELECT coalesce(import_entry, 0), count(*) FROM site_visit GROUP BY 1 ORDER BY 1") == ["0|1", "3|3"])
    }

    /// `imports` said what each import did to sessions but nothing of its site visits.
    @Test(arguments: Backend.allCases)
    func bugImportsDidNotSayTheSiteVisitsAnImportAdded(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let now = instant("2026-03-03T12:00:00Z")
        _ = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        _ = try s.store.importSessions(try Self.sources(identity: "/tmp/copy.json"), now: now, zone: .utc)
        _ = try s.store.importSessions([ImportSource(identity: "/a.json", shown: "a.json", dataset: randomSessions(seed: 3, count: 2), device: "laptop")], now: now, zone: .utc)
        let entries = try s.store.imports()
        #expect(entries.map { $0.parts.map(\.visits) } == [[nil], [0], [3]])
        #expect(entries.map(\.visits) == [nil, 0, 3])
    }

    /// A store of v12 (visits imported before they were their import's) is upgraded when it is
    /// opened: its visits are no import's, so `forget import` keeps them, its entries say
    /// nothing of visits, and the next import's visits are that import's.
    @Test(arguments: Backend.allCases)
    func aStoreOfBeforeVisitsWereTheirImportsIsUpgraded(backend: Backend) throws {
        guard available(backend) else { return }
        let s = try BackendStore(backend)
        let now = instant("2026-03-03T12:00:00Z")
        _ = try s.store.importSessions(try Self.sources(), now: now, zone: .utc)
        let ledger = backend == .sqlite ? "grdb_migrations" : "migrations"
        try s.raw(
            "ALTER TABLE site_visit DROP COLUMN import_entry; ALTER TABLE import_part DROP COLUMN visits; "
                + "DELETE FROM \(ledger) WHERE identifier = 'v13: site visits by import'")
        let upgraded = try s.reopened()
        #expect(try s.rows("SELECT count(*) FROM site_visit WHERE import_entry IS NULL") == ["3"])
        #expect(try upgraded.imports().map(\.visits) == [nil])
        #expect(try upgraded.forget(import: 1, now: now) == ForgottenImport(sessions: 3, visits: 0))
        #expect(try s.rows("SELECT count(*) FROM site_visit") == ["3"])
        let next = try upgraded.importSessions(try Self.sources(identity: "/tmp/copy.json"), now: now, zone: .utc)
        #expect(next.sources.map(\.visits) == [0], "the visits are there already, still no import's")
        #expect(try upgraded.imports().map(\.visits) == [0, nil])
    }

    /// The store's file holds the host names alone: no path, query, title, nor the host of an
    /// incognito tab or of a page that is no web site.
    @Test func theStoreFileHoldsNoPathOrTitleOfTheExport() throws {
        let folder = try TemporaryFolder("store")
        let store = try OpenStores().writer(.sqlite(path: folder.store))
        _ = try store.importSessions(try Self.sources(), now: instant("2026-03-03T12:00:00Z"), zone: .utc)
        (store as? SQLiteStore)?.close()
        var bytes: [UInt8] = []
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: folder.store + suffix) { bytes += data }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("docs.python.org") && text.contains("mail.example.com"), "the host names are there")
        for secret in WebExport.neverKept {
            #expect(!text.contains(secret), "\(secret) is in the store's file")
        }
    }
}
