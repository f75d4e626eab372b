// ThirdTripsTests.swift — issue 51's items 6, 8 and 10 through the built binary (item 9, forget device, is in ImportsForgetTests, on both backends): a store in a folder that is not there, time errors that name what was typed, and the smaller trips.
import Foundation
import Testing

struct ThirdTripsTests {
    // MARK: 6. A store in a folder that is not there

    /// `--db /nonexistent/dir/x.sqlite import …` made `/nonexistent/dir` (mode 700) and the
    /// store in it. A store named in a folder that is not there is refused in one line, as
    /// sqlite3 refuses it, and nothing is made; the default store's folder is still made.
    @Test func item6DbInAFolderThatDoesNotExistIsRefused() throws {
        let w = try StoreWorkspace()
        let file = try w.sessions("a.json", count: 3)
        let db = w.url.appendingPathComponent("no/such/dir/x.sqlite").path
        let reason = "its folder '\(w.url.path)/no/such/dir' does not exist; nothing was made (make the folder first, or name a store in one that is there)"
        let line = "cannot use the store '\(db)': \(reason)"
        // The shell opens on the named store: its first look refuses it, before any command.
        let atPrompt = try Binary.run(["--db", db, "-c", "import \(file)"])
        #expect(atPrompt.stdout == "")
        #expect(atPrompt.stderr == "error: cannot load 'store': \(db): \(reason)\n")
        #expect(atPrompt.status == 1)
        let subcommand = try Binary.run(["--db", db, "import", file])
        #expect(subcommand.stdout == "")
        #expect(subcommand.stderr == "error: \(line)\n")
        #expect(subcommand.status == 1)
        let named = try Binary.run(["-c", "store"], environment: ["USAGE_SHELL_DB": db])
        #expect(named.stderr == "error: cannot load 'store': \(db): \(reason)\n")
        #expect(named.status == 1)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: w.url.path)) == ["a.json"], "nothing is made")
        // The default store's folder, under an XDG_DATA_HOME whose folders are not there yet, is made.
        let data = w.url.appendingPathComponent("fresh/data").path
        let standard = try Binary.run(["-c", "import \(file)"], environment: ["XDG_DATA_HOME": data])
        #expect(standard.stderr == "")
        #expect(standard.status == 0)
        let folder = try FileManager.default.attributesOfItem(atPath: data + "/usage-shell")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(FileManager.default.fileExists(atPath: data + "/usage-shell/usage.sqlite"))
    }
}
