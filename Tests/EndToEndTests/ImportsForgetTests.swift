// ImportsForgetTests.swift — issue 44, item 4, through the built binary on both backends (a SQLite file, and a database of the tests' PostgreSQL server): `imports` lists every import; `forget import N` takes back exactly the sessions it added (and the site visits it first brought) and `forget device NAME` a device's, each refused in a batch run without --yes (nothing changed) and said in one line with it.
import Foundation
import Testing
import TestSupport

struct ImportsForgetTests {
    /// The stores the cases run on: a SQLite file, and a PostgreSQL database when the tests'
    /// server is there (a failure under scripts/test when it is not).
    static func stores(_ w: StoreWorkspace) -> [(name: String, db: String, keep: AnyObject?)] {
        var stores: [(String, String, AnyObject?)] = [("sqlite", w.db, nil)]
        if let database = postgresDatabase() { stores.append(("postgres", database.conninfo, database)) }
        return stores
    }

    /// The stores of `stores(w)`, each holding three sessions of 2026-02-23 imported under the
    /// device `first` and two under `second`.
    static func twoDevices(_ w: StoreWorkspace, _ first: String, _ second: String) throws -> [(name: String, db: String, keep: AnyObject?)] {
        let one = try w.sessions("\(first).json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "a")
        let other = try w.sessions("\(second).json", count: 2, first: "2026-02-23T11:00:00Z", prefix: "b")
        let stores = Self.stores(w)
        for (name, db, _) in stores {
            #expect(try Binary.run(["--db", db, "import", one, "--device", first]).status == 0, "\(name)")
            #expect(try Binary.run(["--db", db, "import", other, "--device", second]).status == 0, "\(name)")
        }
        return stores
    }

    /// Importing a file once without `--device` (or under the wrong name) counted its sessions
    /// twice, and nothing removed them (`undo` covers tracked time only).
    @Test func item4AnImportIsKeptAndCanBeTakenBack() throws {
        let w = try StoreWorkspace()
        let file = try w.sessions("phone.json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "p")
        for (name, db, keep) in Self.stores(w) {
            _ = keep
            let environment = ["USAGE_SHELL_DEVICE": "laptop"]
            #expect(try Binary.run(["--db", db, "import", file, "--device", "phone"], environment: environment).status == 0, "\(name)")
            // The same file again, the device forgotten: every session counted twice.
            #expect(try Binary.run(["--db", db, "import", file], environment: environment).status == 0, "\(name)")
            let doubled = try Binary.json(["--db", db, "-c", "day 2026-02-23"])
            #expect(doubled["total_seconds"] as? Double == 360, "\(name): three minutes, twice")
            let list = try Binary.run(["--db", db, "--width", "200", "-c", "imports"])
            let lines = list.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "Imports · 2", "\(name): \(list.stdout)")
            #expect(lines.count == 3 && lines[1].hasPrefix("  #2  ") && lines[1].hasSuffix("  \(file) as laptop · 3\u{A0}added"), "\(name): \(list.stdout)")
            #expect(lines.count == 3 && lines[2].hasPrefix("  #1  ") && lines[2].hasSuffix("  \(file) as phone · 3\u{A0}added"), "\(name): \(list.stdout)")

            let refused = try Binary.run(["--db", db, "-c", "forget import 2"])
            #expect(refused.stderr == "error: line 1: this deletes data, and a batch run cannot ask: add --yes to go ahead (forget import 2 --yes)\n")
            #expect(refused.status == 1)
            #expect(try Binary.json(["--db", db, "-c", "day 2026-02-23"])["total_seconds"] as? Double == 360, "\(name): nothing changed")

            let forgot = try Binary.run(["--db", db, "--width", "200", "-c", "forget import 2 --yes", "-c", "forget import 2 --yes", "-c", "forget import 7 --yes"])
            #expect(forgot.stdout.hasPrefix("forgot import #2 ("), "\(name): \(forgot.stdout)")
            #expect(forgot.stdout.hasSuffix(", \(file) as laptop): 3 sessions\n"), "\(name): \(forgot.stdout)")
            let stderr = forgot.stderr.split(separator: "\n").map(String.init)
            #expect(stderr.count == 2 && stderr[0].hasPrefix("error: line 2: import #2 was forgotten already, "), "\(name): \(forgot.stderr)")
            #expect(stderr.last == "error: line 3: no import #7 in the store (imports lists them)", "\(name)")
            #expect(try Binary.json(["--db", db, "-c", "day 2026-02-23"])["total_seconds"] as? Double == 180, "\(name): counted once again")
            let devices = try Binary.run(["--db", db, "--format", "json", "-c", "devices"]).stdout
            #expect(devices.hasPrefix(#"[{"name":"phone","sessions":3,"#) && !devices.contains("laptop"), "\(name): \(devices)")
            let after = try Binary.run(["--db", db, "--width", "200", "-c", "imports"]).stdout
            #expect(after.contains(" · 3\u{A0}added; forgotten\u{A0}"), "\(name): \(after)")
        }
    }

    /// An ActivityWatch export with web buckets imported, then forgotten: `imports` did not say
    /// the site visits it added, and `forget import N` left them, so `sites` still showed them.
    @Test func bugForgetImportKeptItsSiteVisitsAndImportsDidNotShowThem() throws {
        let w = try StoreWorkspace()
        let export = try w.write("aw-export.json", WebExport.text)
        for (name, db, keep) in Self.stores(w) {
            _ = keep
            #expect(try Binary.run(["--db", db, "import", export]).status == 0, "\(name)")
            #expect(try Binary.run(["--db", db, "import", export]).status == 0, "\(name)")
            let list = try Binary.run(["--db", db, "--width", "200", "-c", "imports"]).stdout.split(separator: "\n").map(String.init)
            #expect(list.count == 3 && list[1].hasSuffix("  \(export) as laptop · nothing\u{A0}new, 3\u{A0}already\u{A0}there"), "\(name): \(list)")
            #expect(list.count == 3 && list[2].hasSuffix("  \(export) as laptop · 3\u{A0}added, 3\u{A0}site\u{A0}visits"), "\(name): \(list)")
            let json = try Binary.run(["--db", db, "--format", "json", "-c", "imports"]).stdout
            #expect(json.contains(#""added":0,"visits":0,"#) && json.contains(#""added":3,"visits":3,"#), "\(name): \(json)")
            #expect(json.contains(#""unchanged":0,"visits":3}"#), "\(name): \(json)")

            let sites = { try Binary.json(["--db", db, "-c", "sites 2026-03-02"])["sites"] as? [[String: Any]] ?? [] }
            #expect(try sites().count == 3, "\(name)")
            let before = try Binary.run(["--db", db, "--format", "json", "-c", "devices"]).stdout
            #expect(before.contains(#""name":"laptop","sessions":3,"site_visits":3,"#), "\(name): \(before)")
            let second = try Binary.run(["--db", db, "--width", "200", "-c", "forget import 2 --yes"]).stdout
            #expect(second.hasSuffix(", \(export) as laptop): 0 sessions\n"), "\(name): the first import brought them: \(second)")
            #expect(try sites().count == 3, "\(name)")
            let first = try Binary.run(["--db", db, "--width", "200", "-c", "forget import 1 --yes"]).stdout
            #expect(first.hasSuffix(", \(export) as laptop): 3 sessions, 3 site visits\n"), "\(name): \(first)")
            #expect(try sites().isEmpty, "\(name)")
            // Its web history went with it: the device is left with nothing, so it goes too.
            let devices = try Binary.run(["--db", db, "--format", "json", "-c", "devices"]).stdout
            #expect(!devices.contains("laptop"), "\(name): \(devices)")
            let forgotJSON = try Binary.run(["--db", db, "--format", "json", "-c", "import \(export)", "-c", "forget import 3 --yes"]).stdout
            #expect(forgotJSON.hasSuffix(#"{"forgotten":3,"visits":3,"import":3}"# + "\n"), "\(name): \(forgotJSON)")
        }
    }

    /// `forget device NAME` takes a device's sessions, sources and totals, after a yes.
    @Test func item4ForgetDeviceTakesAWholeDevice() throws {
        let w = try StoreWorkspace()
        let phone = try w.sessions("phone.json", count: 3, first: "2026-02-23T09:00:00Z", prefix: "p")
        let laptop = try w.sessions("laptop.json", count: 2, first: "2026-02-23T10:00:00Z", prefix: "l")
        for (name, db, keep) in Self.stores(w) {
            _ = keep
            #expect(try Binary.run(["--db", db, "import", phone, "--device", "phone"]).status == 0)
            #expect(try Binary.run(["--db", db, "import", laptop, "--device", "laptop"]).status == 0)
            let refused = try Binary.run(["--db", db, "-c", "forget device phone"])
            #expect(refused.stderr == "error: line 1: this deletes data, and a batch run cannot ask: add --yes to go ahead (forget device phone --yes)\n", "\(name)")
            let forgot = try Binary.run(["--db", db, "-c", "forget device phone --yes", "-c", "devices", "-c", "forget device phone --yes"])
            #expect(forgot.stdout.hasPrefix("forgot device phone: 3 sessions\nDevices · 1\n  laptop  2 sessions"), "\(name): \(forgot.stdout)")
            #expect(forgot.stderr == "error: line 3: no device 'phone' in the store (devices lists them)\n", "\(name)")
            #expect(try Binary.json(["--db", db, "-c", "day 2026-02-23"])["total_seconds"] as? Double == 120, "\(name)")
            let summary = try Binary.json(["--db", db, "-c", "summary 2026-02-23..2026-02-23"])
            #expect(summary["total_seconds"] as? Double == 120, "\(name): the kept totals lost the device's time too")
        }
    }

    /// `forget device` took a device's beginning or another case, as `device` does to show one:
    /// `forget device ph --yes` forgot phone-old (found by a reviewing helper). A deletion now
    /// takes the whole name (in any case: issue 51); a beginning is refused with the names it begins.
    @Test func bugForgetDeviceTookTheBeginningOfAName() throws {
        let w = try StoreWorkspace()
        for (name, db, keep) in try Self.twoDevices(w, "phone-old", "laptop") {
            _ = keep
            let refused = try Binary.run(["--db", db, "-c", "forget device ph --yes", "-c", "forget device tablet --yes"])
            #expect(
                refused.stderr == """
                    error: line 1: no device 'ph' — forget device takes a device's whole name: 'ph' begins 'phone-old' (devices lists them)
                    error: line 2: no device 'tablet' in the store (devices lists them)

                    """, "\(name)")
            #expect(try Binary.json(["--db", db, "-c", "day 2026-02-23"])["total_seconds"] as? Double == 300, "\(name): nothing forgotten")
            let forgot = try Binary.run(["--db", db, "-c", "forget device laptop --yes"])
            #expect(forgot.stdout == "forgot device laptop: 2 sessions\n", "\(name)")
        }
    }

    /// COMMANDS.md said `forget device` took "any case, or the one it begins"; `forget device
    /// PHONE` was refused (`did you mean 'phone'?`) and `forget device ph` said `no device 'ph'`.
    /// It takes the whole name in any case, refuses a beginning naming the devices it begins,
    /// and a slip gets the name it is near.
    @Test func item9ForgetDeviceTakesTheWholeNameInAnyCase() throws {
        let w = try StoreWorkspace()
        for (name, db, keep) in try Self.twoDevices(w, "phone", "phone-old") {
            _ = keep
            let r = try Binary.run(["--db", db, "-c", "forget device ph --yes", "-c", "forget device phnoe --yes", "-c", "forget device PHONE --yes", "-c", "forget device Phone-Old --yes"])
            #expect(r.stdout == "forgot device phone: 3 sessions\nforgot device phone-old: 2 sessions\n", "\(name)")
            #expect(
                r.stderr == """
                    error: line 1: no device 'ph' — forget device takes a device's whole name: 'ph' begins 'phone', 'phone-old' (devices lists them)
                    error: line 2: no device 'phnoe' in the store — did you mean 'phone'? (devices lists them)

                    """, "\(name)")
            #expect(r.status == 1, "\(name)")
        }
    }
}
