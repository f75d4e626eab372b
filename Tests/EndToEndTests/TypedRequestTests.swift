// TypedRequestTests.swift — issue 52, item 4, through the built binary: `usage-shell import` and `export` ask the prompt's command the same typed request (no line is rebuilt); import takes every option that says how to read a source (--columns, --data-tz): the advice a CSV's error gives is run as it words it and works; an option import has no use for is refused with status 64.
import Foundation
import Testing

struct TypedRequestTests {
    /// The phone CSV of RealExportsEndToEndTests, its start column named so that no rule places it.
    static let unplaced = RealExportsEndToEndTests.phoneCSV.replacingOccurrences(of: "Start Time", with: "Started")

    /// `usage-shell import cols.csv` said to give `--columns start=COLUMN`, and import then
    /// refused `--columns` as an option of the shell: the advice is run as the error words it.
    @Test func item4TheCSVErrorsAdviceRunsOnImportAsItIsWorded() throws {
        let w = try StoreWorkspace()
        let csv = try w.write("cols.csv", Self.unplaced)
        let failed = try Binary.run(["import", csv, "--data-tz", "UTC", "--db", w.db])
        #expect(failed.status == 1)
        #expect(failed.stdout == "")
        let advice = "say which column is which with --columns start=COLUMN "
        #expect(failed.stderr.contains("could not place the columns 'Started'") && failed.stderr.contains(advice), "\(failed.stderr)")
        // The option as the error words it, COLUMN the column it could not place.
        let words = advice.split(separator: " ").suffix(2).map(String.init)
        #expect(words == ["--columns", "start=COLUMN"])
        let mapping = words[1].replacingOccurrences(of: "COLUMN", with: "Started")
        let r = try Binary.run(["import", csv, words[0], mapping, "--data-tz", "UTC", "--db", w.db, "--format", "json"])
        #expect(r.stderr == "")
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""added":4"#), "\(r.stdout)")
    }

    /// `--data-tz` on import reads a CSV's times without an offset in that zone: the store then
    /// holds the sessions the canonical JSON names in UTC.
    @Test func item4DataTzOnImportReadsTheCSVsTimesInThatZone() throws {
        let w = try StoreWorkspace()
        let csv = try w.write("phone.csv", RealExportsEndToEndTests.phoneCSV)
        let json = try w.write("same.json", RealExportsEndToEndTests.canonicalJSON)
        let fromCSV = w.url.appendingPathComponent("csv.sqlite").path
        let fromJSON = w.url.appendingPathComponent("json.sqlite").path
        let imported = try Binary.run(["import", csv, "--data-tz", "Europe/Paris", "--db", fromCSV, "--tz", "Asia/Tokyo"])
        #expect(imported.status == 0 && imported.stderr == "", "\(imported.stderr)")
        #expect(try Binary.run(["import", json, "--db", fromJSON]).status == 0)
        let query = ["--tz", "UTC", "--format", "json", "-c", "day 2026-02-23", "-c", "apps"]
        let a = try Binary.run(["--db", fromCSV] + query)
        let b = try Binary.run(["--db", fromJSON] + query)
        #expect(a.status == 0 && a.stdout == b.stdout, "\(a.stdout)\n\(b.stdout)")
        // Without it, the selected zone (--tz) reads them: Tokyo's wall times are other instants.
        let tokyo = w.url.appendingPathComponent("tokyo.sqlite").path
        #expect(try Binary.run(["import", csv, "--db", tokyo, "--tz", "Asia/Tokyo"]).status == 0)
        #expect(try Binary.run(["--db", tokyo] + query).stdout != b.stdout)
    }

    /// The prompt's syntax refuses an empty source; the typed request, which no syntax reads,
    /// refuses it the same way (as when the subcommand made a line for the prompt's command).
    @Test func item4AnEmptySourceIsRefusedAsThePromptRefusesIt() throws {
        let w = try StoreWorkspace()
        let typed = try Binary.run(["import", "", "--db", w.db])
        let prompt = try Binary.run(["--db", w.db, "-c", "import ''"])
        #expect(typed.status == 1 && prompt.status == 1)
        #expect(typed.stderr.contains("a source is empty"), "\(typed.stderr)")
        #expect(typed.stderr == prompt.stderr.replacingOccurrences(of: "error: line 1: ", with: "error: "), "\(typed.stderr) \(prompt.stderr)")
        #expect(!FileManager.default.fileExists(atPath: w.db), "nothing is made")
    }

    /// `usage-shell export` made a line of its words for the prompt's `export`; its request's
    /// words are read by the prompt's slots, so what they refuse is said the same way.
    @Test func item4ExportsTypedRequestRefusesWhatThePromptRefuses() throws {
        let w = try StoreWorkspace()
        _ = try w.sessions("s.json", count: 3, first: "2026-02-23T09:00:00Z")
        #expect(try Binary.run(["import", w.url.appendingPathComponent("s.json").path, "--db", w.db]).status == 0)
        let out = w.url.appendingPathComponent("apps.csv").path
        for (typed, line) in [
            (["apps", "", out], "apps '' \(out)"),
            (["report", ""], "report ''"),
        ] {
            let viaSubcommand = try Binary.run(["export"] + typed + ["--db", w.db])
            let atThePrompt = try Binary.run(["--db", w.db, "-c", "export " + line])
            #expect(viaSubcommand.status == 1 && atThePrompt.status == 1, "\(typed)")
            #expect(!viaSubcommand.stderr.isEmpty)
            #expect(viaSubcommand.stderr == atThePrompt.stderr.replacingOccurrences(of: "error: line 1: ", with: "error: "), "\(viaSubcommand.stderr) \(atThePrompt.stderr)")
        }
        // A view with its arguments, typed, writes what it shows.
        let written = try Binary.run(["export", "apps", "top", "1", out, "--db", w.db, "--day", "2026-02-23"])
        #expect(written.status == 0 && written.stderr == "", "\(written.stderr)")
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        #expect(csv.hasPrefix("day,time_zone,total_seconds,name,category,seconds,sessions,share\r\n2026-02-23,"), "\(csv)")
    }
}
