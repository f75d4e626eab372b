// StoreCopySitesEndToEndTests.swift — a store moved through the binary keeps its web history: `export store:` into SQLite and `import store:` into PostgreSQL and back carry the site visits (once however often copied), the site category rules, the ignored sites and `set web off`, so `sites` and `web` on the copy print what they print on the original; `forget import N` of the copy takes its visits back.
import Foundation
import Testing
import TestSupport

struct StoreCopySitesEndToEndTests {
    /// What is compared between a store and its copy: the day's sites and the web settings.
    static let views = ["--tz", "UTC", "--format", "json", "-c", "sites 2026-03-02", "-c", "web"]

    /// A store with the export's web history, a site's category, an ignored site and sites off.
    static func original(_ w: StoreWorkspace) throws {
        let export = try w.write("export.json", WebExport.text)
        #expect(try Binary.run(["--db", w.db, "import", export]).status == 0, "the import the test starts from")
        let settings = try Binary.run(["--db", w.db, "-c", "category rule *.python.org Reference", "-c", "web ignore *.bank.example", "-c", "set web off"])
        #expect(settings.status == 0 && settings.stderr.isEmpty, "\(settings.stderr)")
    }

    /// `export store:` copied the sessions but no site visit, rule or web setting: `sites` on
    /// the copy was empty, and the web history, the privacy settings and the categories were lost.
    @Test func bugCopyingAStoreLostItsSiteVisits() throws {
        let w = try StoreWorkspace()
        try Self.original(w)
        let original = try Binary.run(["--db", w.db] + Self.views)
        #expect(original.stdout.contains(#"{"site":"docs.python.org","seconds":900,"sessions":1,"category":"Reference"}"#), "\(original.stdout)")
        #expect(original.stdout.hasSuffix(#"{"recording":false,"ignored":["*.bank.example"]}"# + "\n"), "\(original.stdout)")
        let copy = w.url.appendingPathComponent("copy.sqlite").path
        #expect(try Binary.run(["--db", w.db, "export", "store:" + copy]).status == 0)
        #expect(try Binary.run(["--db", copy] + Self.views).stdout == original.stdout)
        // Copied again (a merge), nothing is added twice.
        let again = try Binary.run(["--db", w.db, "export", "store:" + copy, "--force"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try Binary.run(["--db", copy] + Self.views).stdout == original.stdout)
        // The first copy brought the visits: forgetting it takes them back.
        let forgot = try Binary.run(["--db", copy, "--format", "json", "-c", "forget import 1 --yes"])
        #expect(forgot.stdout.contains(#""visits":3"#), "\(forgot.stdout)")
        #expect(try Binary.run(["--db", copy, "--tz", "UTC", "--format", "json", "-c", "sites 2026-03-02"]).stdout.contains(#""sites":[]"#))
    }

    /// Moving to PostgreSQL (`import store:`) and back (`export store:`) keeps the web history.
    @Test func aStoreMovedToPostgreSQLAndBackKeepsItsSites() throws {
        guard let db = postgresDatabase() else { return }
        let w = try StoreWorkspace()
        try Self.original(w)
        let original = try Binary.run(["--db", w.db] + Self.views)
        let there = try Binary.run(["--db", db.conninfo, "import", "store:" + w.db])
        #expect(there.status == 0 && there.stderr.isEmpty, "\(there.stderr)")
        #expect(try Binary.run(["--db", db.conninfo] + Self.views).stdout == original.stdout)
        let back = w.url.appendingPathComponent("back.sqlite").path
        #expect(try Binary.run(["--db", db.conninfo, "export", "store:" + back]).status == 0)
        #expect(try Binary.run(["--db", back] + Self.views).stdout == original.stdout)
    }
}
