// PictureColoursTests.swift — a category and an app keep one colour in every saved picture, whatever the view and the colour mode (issue 51, item 4), through the built binary: the SVGs' legend swatches read by series name, and the terminal's truecolor swatches against them.
import Foundation
import Testing
import TestSupport

/// The fill of each legend swatch of an SVG, by the name written after it.
func svgLegendFills(_ svg: String) -> [String: String] {
    var found: [String: String] = [:]
    for match in svg.matches(of: #/<rect [^>]*width="12" height="12" rx="2" fill="#([0-9a-f]{6})"/><text [^>]*>([^<]+?)\x{A0}<tspan/#) {
        found[String(match.output.2)] = String(match.output.1)
    }
    return found
}

struct PictureColoursTests {
    /// The sample's `show` saved with `--color never` drew Productivity blue, with truecolor
    /// orange: colours went by rank in the view when the screen had handed none out. Every view
    /// and every mode now gives each name one colour, the terminal's where it has colour.
    @Test func bugACategorysColourChangedWithTheColourMode() throws {
        let f = try TemporaryFolder("colours")
        var fills: [String: Set<String>] = [:]
        var terminal: [String: Set<String>] = [:]
        for mode in ["never", "16", "256", "truecolor"] {
            var arguments = ["--color", mode, "--width", "160"]
            for view in ["show", "week", "month", "days 14", "chart hourly by category", "summary 2026-02"] {
                let file = f.path("\(mode)-\(view.replacingOccurrences(of: " ", with: "_")).svg")
                arguments += ["-c", view, "-c", "save \(file)"]
            }
            let r = try Binary.run(arguments)
            #expect(r.status == 0, "\(mode): \(r.stderr)")
            for entry in try FileManager.default.contentsOfDirectory(atPath: f.path) where entry.hasPrefix(mode + "-") {
                for (name, fill) in svgLegendFills(try f.text(entry)) where !name.hasPrefix("other") && !name.contains(" other ") {
                    fills[name, default: []].insert(fill)
                }
            }
            if mode == "truecolor" {
                for match in r.stdout.matches(of: #/\x1B\[38;2;(\d+);(\d+);(\d+)m██\x1B\[0m ([A-Z][A-Za-z]+) /#) {
                    let hex = String(format: "%02x%02x%02x", Int(match.output.1)!, Int(match.output.2)!, Int(match.output.3)!)
                    terminal[String(match.output.4), default: []].insert(hex)
                }
            }
        }
        #expect(fills["Productivity"] != nil && fills["Entertainment"] != nil, "\(fills)")
        #expect(fills.filter { $0.value.count > 1 }.isEmpty, "names drawn in several colours: \(fills.filter { $0.value.count > 1 })")
        // The terminal's truecolor swatches are the pictures' colours.
        #expect(!terminal.isEmpty)
        for (name, colours) in terminal where fills[name] != nil {
            #expect(colours == fills[name], "\(name): terminal \(colours), pictures \(fills[name]!)")
        }
    }

    /// Admin was green in `sheet.html` and blue in `today.html`: the tracker's pictures coloured
    /// categories by their rank in the view. A category now takes its colour from its rank over
    /// all the tracked time, in every view of it.
    @Test func bugATrackedCategorysColourChangedBetweenTodayAndTheTimesheet() throws {
        let f = try TemporaryFolder("colours")
        let db = f.path("t.sqlite")
        // A zone where it is about noon now, so that 8:00–10:30 today has passed.
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let offset = ((12 - hour + 36) % 24) - 12
        let zone = offset == 0 ? "UTC" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
        let day = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: zone)!, from: Date())
        let date = String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
        let r = try Binary.run([
            "--db", db, "--tz", zone, "--color", "never",
            "-c", "task add Email category Admin", "-c", "task add Report category Work",
            // Admin leads all the tracked time; today, Work leads.
            "-c", "track Email 2026-11-02T09:00 2026-11-02T14:00", "-c", "track Report 8:00 9:30", "-c", "track Email 10:00 10:30",
            "-c", "today", "-c", "save \(f.path("today.svg"))",
            "-c", "timesheet 2026-11-02..2026-11-08", "-c", "save \(f.path("sheet.svg"))",
            "-c", "timesheet 2026-11-02..\(date)", "-c", "save \(f.path("month.svg"))",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let today = svgLegendFills(try f.text("today.svg"))
        let sheet = svgLegendFills(try f.text("sheet.svg"))
        let month = svgLegendFills(try f.text("month.svg"))
        #expect(today["Admin"] != nil && today["Work"] != nil, "\(today)")
        #expect(today["Admin"] == sheet["Admin"] && today["Admin"] == month["Admin"], "today \(today), sheet \(sheet), month \(month)")
        #expect(today["Work"] == month["Work"] && today["Work"] != today["Admin"], "today \(today), month \(month)")
    }
}
