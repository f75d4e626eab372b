// StoreCopySitesTests.swift — a store copied into another carries its web history on every pair of backends: the site visits once however often copied (a grown one grown), the copy's own in `imports` and taken back by `forget import N`, the site category rules and ignored sites merged (the target's own rule kept, the ignores a union), `set web off` kept when either store said it, and the target's own `web ignore` and `set web off` applied to what comes in.
import Foundation
import Testing
import TestSupport
import UsageCore
@testable import UsageStore

@Suite struct StoreCopySitesTests {
    /// The pairs a store is moved between: SQLite to SQLite, SQLite to PostgreSQL and back.
    static let pairs: [(Backend, Backend)] = [(.sqlite, .sqlite), (.sqlite, .postgres), (.postgres, .sqlite)]

    static let now = instant("2026-03-03T12:00:00Z")

    /// A store holding the export's three visits, the extension's own one, a category rule and an ignored site.
    static func original(_ backend: Backend) throws -> BackendStore {
        let s = try BackendStore(backend)
        _ = try s.store.importSessions(try SiteImportTests.sources(), now: now, zone: .utc)
        try s.store.siteSeen("example.net", browser: "firefox", device: "laptop", at: instant("2026-03-02T09:56:00Z"))
        try s.store.siteSeen(nil, browser: "firefox", device: "laptop", at: instant("2026-03-02T09:56:20Z"))
        try s.store.setSiteCategory(SitePattern("*.python.org")!, "Reference")
        try s.store.ignoreSites(SitePattern("*.bank.example")!, now: now)
        return s
    }

    /// A copy carried no site visit: the web history stayed behind when the store moved.
    @Test(arguments: pairs)
    func bugCopyingAStoreLostItsSiteVisits(from: Backend, into: Backend) throws {
        guard available(from), available(into) else { return }
        let origin = try Self.original(from)
        let target = try BackendStore(into)
        _ = try target.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(try SiteImportTests.times(target.store) == SiteImportTests.times(origin.store))
        #expect(try SiteImportTests.times(target.store).count == 4)
        #expect(try target.rows("SELECT count(*) FROM site_visit") == ["4"])
        // Copied again, nothing is added; its entry says so.
        _ = try target.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(try target.rows("SELECT count(*) FROM site_visit") == ["4"])
        #expect(try target.store.imports().map(\.visits) == [0, 4])
        // A visit still open when copied, copied again once it grew: it grows in the copy, still one row.
        try origin.store.siteSeen("example.net", browser: "firefox", device: "laptop", at: instant("2026-03-02T09:57:00Z"))
        try origin.store.siteSeen("example.net", browser: "firefox", device: "laptop", at: instant("2026-03-02T09:57:15Z"))
        _ = try target.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        try origin.store.siteSeen(nil, browser: "firefox", device: "laptop", at: instant("2026-03-02T09:57:30Z"))
        _ = try target.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(try target.store.imports().map(\.visits) == [0, 1, 0, 4])
        #expect(try target.rows("SELECT count(*), max(length) FROM site_visit WHERE start = \(instant("2026-03-02T09:57:00Z"))") == ["1|30000000"])
        #expect(try SiteImportTests.times(target.store) == SiteImportTests.times(origin.store))
    }

    /// The copy is an import in the target's log: `forget import N` of it takes back the visits
    /// it brought, and those the target held before stay.
    @Test(arguments: pairs)
    func bugForgettingACopyKeptTheSiteVisitsItBrought(from: Backend, into: Backend) throws {
        guard available(from), available(into) else { return }
        let origin = try Self.original(from)
        let target = try BackendStore(into)
        try target.store.siteSeen("own.example", browser: "chromium", device: "desk", at: instant("2026-03-02T08:00:00Z"))
        try target.store.siteSeen(nil, browser: "chromium", device: "desk", at: instant("2026-03-02T08:00:10Z"))
        _ = try target.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(try target.store.forget(import: 1, now: Self.now) == ForgottenImport(sessions: 3, visits: 4))
        #expect(
            try target.rows("SELECT s.name FROM site_visit v JOIN site s ON s.id = v.site").map { $0.replacingOccurrences(of: "\"", with: "") }
                == ["own.example"])
    }

    /// A copy dropped the store's privacy settings and site categories. Merged: the target's own
    /// rule of a pattern stays, the ignored sites are both stores' (and the target's own are
    /// applied to what comes in), and sites stay off when either store said so.
    @Test(arguments: pairs)
    func bugCopyingAStoreLostItsSiteRulesIgnoresAndWebSetting(from: Backend, into: Backend) throws {
        guard available(from), available(into) else { return }
        let origin = try Self.original(from)
        try origin.store.setSiteCategory(SitePattern("localhost")!, "Dev")
        let target = try BackendStore(into)
        try target.store.setSiteCategory(SitePattern("localhost")!, "Work")
        try target.store.ignoreSites(SitePattern("mail.example.com")!, now: Self.now)
        _ = try target.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(
            try target.rows("SELECT pattern, category FROM site_category ORDER BY pattern").map { $0.replacingOccurrences(of: "\"", with: "") }
                == ["*.python.org|Reference", "localhost|Work"])
        #expect(try target.store.ignoredSites().map(\.description) == ["*.bank.example", "mail.example.com"])
        #expect(try target.store.webRecording())
        #expect(
            try SiteImportTests.times(target.store) == ["docs.python.org chromium 900 1", "example.net firefox 20 1", "localhost firefox 900 1"],
            "the target's own ignored site is not copied in")

        // `set web off` in the store copied stays off in the copy; off in the target, nothing comes in.
        try origin.store.setWebRecording(false, now: Self.now)
        let fresh = try BackendStore(into)
        _ = try fresh.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(try !fresh.store.webRecording())
        #expect(try fresh.rows("SELECT count(*) FROM site_visit") == ["4"], "the visits it kept before it went off come along")
        let off = try BackendStore(into)
        try off.store.setWebRecording(false, now: Self.now)
        try origin.store.setWebRecording(true, now: Self.now)
        _ = try off.store.copyIn(try origin.store.contents(), from: "origin", now: Self.now)
        #expect(try !off.store.webRecording())
        #expect(try off.rows("SELECT count(*) FROM site_visit") == ["0"])
    }
}
