// SiteImportTests.swift — an ActivityWatch export's web visits imported on every backend: kept once whatever the file is called and however often it is imported (a grown visit grows), `web ignore` and `set web off` applied, counted while their browser's app was in front; and the store upgraded from the version before holds them.
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
