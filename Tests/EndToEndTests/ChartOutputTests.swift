// ChartOutputTests.swift — the charts issue through the built binary: colour modes, glyph sets, accessible mode and terminal safety of every command's output.
import Foundation
import Testing

/// Every command that prints data or text, as a user would type it on the hostile fixture.
private let everyCommand = [
    "show", "day", "day 2026-02-23", "chart category", "chart hourly", "chart hourly by category", "apps", "apps top 2",
    "apps category soc", "app Title", "app txt", "app 微信", "hour 8", "hour 9", "week", "check", "load", "set", "help",
    "help chart", "app \u{1B}[31mnothing", "load \u{1B}]0;evil\u{07}.json",
]

/// Output with the program's own SGR sequences removed must hold no C0/C1 control (other than
/// the newline), no DEL and no bidi control; and no ESC at all when colour is off.
private func expectSafe(_ text: String, colour: Bool, _ context: String) {
    if !colour { #expect(!text.contains("\u{1B}"), "ESC without colour: \(context)") }
    let plain = text.replacing(/\x1B\[[0-9;]*m/, with: "")
    let bad = plain.unicodeScalars.filter { s in
        (s.value < 0x20 && s != "\n") || (0x7F...0x9F).contains(s.value) || s.properties.isBidiControl
    }
    #expect(bad.isEmpty, "raw \(bad.map { String($0.value, radix: 16) }) in \(context): \(plain)")
}

struct ChartOutputTests {
    @Test func hostileNamesNeverReachTheTerminalRawInAnyCommandColourOnOrOff() throws {
        let file = Binary.fixture("hostile-names.json")
        for colour in ["always", "never"] {
            let r = try Binary.run([file, "--tz", "UTC", "--color", colour] + everyCommand.flatMap { ["-c", $0] })
            #expect(r.stdout.contains("\\e]0;pwned\\u{7}Title"), "the names are shown escaped")
            #expect(r.stdout.contains("txt.exe\\u{202E}gnp"))
            expectSafe(r.stdout, colour: colour == "always", "stdout, --color \(colour)")
            expectSafe(r.stderr, colour: false, "stderr, --color \(colour)")
        }
    }

    @Test func colourNeverHasNoEscapeAndAlwaysOnlySGR() throws {
        let commands = ["show", "chart hourly by category", "apps", "app Safari", "hour 18"].flatMap { ["-c", $0] }
        let never = try Binary.run(["--color", "never"] + commands)
        #expect(never.status == 0)
        #expect(!never.stdout.contains("\u{1B}"))
        let always = try Binary.run(["--color", "always"] + commands)
        let escapes = always.stdout.components(separatedBy: "\u{1B}").dropFirst()
        #expect(!escapes.isEmpty)
        #expect(escapes.allSatisfy { $0.wholeMatch(of: /\[[0-9;]*m(?s:.*)/) != nil })
        // Every line that opens a colour closes it.
        for line in always.stdout.split(separator: "\n") where line.contains("\u{1B}") {
            #expect(line.hasSuffix("\u{1B}[0m") || line.ranges(of: "\u{1B}[").count % 2 == 0, "\(line)")
        }
    }

    /// Every depth writes only SGR sequences, each line closed; 256 colours use `38;5;N`, RGB `38;2;R;G;B`.
    @Test(arguments: [("16", "\u{1B}[36m"), ("256", "\u{1B}[38;5;"), ("truecolor", "\u{1B}[38;2;")])
    func everyDepthWritesOnlyItsOwnSGR(depth: String, marker: String) throws {
        let file = Binary.fixture("hostile-names.json")
        let r = try Binary.run([file, "--tz", "UTC", "--color", depth] + everyCommand.flatMap { ["-c", $0] })
        #expect(r.stdout.contains(marker))
        expectSafe(r.stdout, colour: true, "stdout, --color \(depth)")
        let escapes = r.stdout.components(separatedBy: "\u{1B}").dropFirst()
        #expect(escapes.allSatisfy { $0.wholeMatch(of: /\[[0-9;]*m(?s:.*)/) != nil })
        // No colour is left open at a line's end: its last sequence is the reset.
        for line in r.stdout.split(separator: "\n") {
            guard let last = line.ranges(of: /\x1B\[[0-9;]*m/).last else { continue }
            #expect(line[last] == "\u{1B}[0m", "colour left open: \(line)")
        }
    }

    @Test func autoAndAlwaysTakeTheDepthTheTerminalAnnounces() throws {
        let always256 = try Binary.run(["--color", "always", "-c", "chart hourly"], environment: ["TERM": "xterm-256color"])
        #expect(always256.stdout.contains("\u{1B}[38;5;"))
        let alwaysRGB = try Binary.run(["--color", "always", "-c", "chart hourly"], environment: ["COLORTERM": "truecolor"])
        #expect(alwaysRGB.stdout.contains("\u{1B}[38;2;"))
        let always16 = try Binary.run(["--color", "always", "-c", "chart hourly"], environment: ["TERM": "xterm"])
        #expect(!always16.stdout.contains("\u{1B}[38;") && always16.stdout.contains("\u{1B}[3"))
        // A forced depth wins over what the terminal says; `never` still means none.
        #expect(try Binary.run(["--color", "16", "-c", "chart hourly"], environment: ["COLORTERM": "truecolor"]).stdout.contains("\u{1B}[38;") == false)
        #expect(!(try Binary.run(["--color", "never", "-c", "show"], environment: ["COLORTERM": "truecolor"]).stdout.contains("\u{1B}")))
    }

    @Test func autoColourIsOffInAPipeAndWithNoColor() throws {
        for environment in [["NO_COLOR": "1"], ["NO_COLOR": ""], ["TERM": "dumb", "NO_COLOR": ""]] {
            let r = try Binary.run(["-c", "show"], environment: environment)
            #expect(!r.stdout.contains("\u{1B}"), "\(environment)")
        }
    }

    @Test func glyphsFollowTheLocaleUnlessSet() throws {
        let blocks: (String) -> Bool = { $0.unicodeScalars.contains { (0x2500...0x259F).contains($0.value) } }
        let utf8 = try Binary.run(["-c", "show"], environment: ["LANG": "en_US.UTF-8"])
        #expect(blocks(utf8.stdout))
        for environment in [["LANG": "C"], ["LANG": "", "LC_ALL": ""], ["LANG": "en_US.UTF-8", "LC_ALL": "POSIX"]] {
            let r = try Binary.run(["-c", "show"], environment: environment)
            #expect(!blocks(r.stdout), "\(environment)")
            #expect(r.stdout.contains("##"), "\(environment): ASCII patterns")
        }
        #expect(blocks(try Binary.run(["--glyphs", "unicode", "-c", "show"], environment: ["LANG": "C"]).stdout))
        #expect(!blocks(try Binary.run(["-c", "set glyphs ascii", "-c", "show"]).stdout))
    }

    @Test func accessibleModeReplacesArtWithSentences() throws {
        for run in [
            try Binary.run(["--accessible", "-c", "show"]),
            try Binary.run(["-c", "show"], environment: ["ACCESSIBLE": "1"]),
            try Binary.run(["-c", "set accessible on", "-c", "show"]),
        ] {
            #expect(run.status == 0)
            #expect(!run.stdout.unicodeScalars.contains { (0x2500...0x259F).contains($0.value) })
            #expect(run.stdout.contains("Productivity is the largest of 6 categories: 2h 58m, 39% of 7h 32m."))
            // (It wraps at 80 columns now that it says its time is app time.)
            #expect(
                run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    .contains("The busiest hour is 18:00–18:59 with 1h 18m of app time; 19 of 24 hours have usage."))
            #expect(run.stdout.contains("  01:00–05:59 no usage"))
            #expect(run.stdout.contains("16 apps; the most used is Spotify: 1h 23m, 18% of the day."))
        }
        #expect(try Binary.run(["-c", "show"], environment: ["ACCESSIBLE": "0"]).stdout.contains("██"))
    }

    @Test func showCarriesTheTopCategoryShareAndTheBusiestHour() throws {
        let r = try Binary.run(["--width", "80", "-c", "show"])
        #expect(r.stdout.contains("██ Productivity   2h 58m   39%"))
        #expect(r.stdout.contains("Apps by hour · busiest 18:00 (1h 18m app time)"))
    }

    @Test func hourlyByCategoryInJSONGivesEachHoursCategories() throws {
        let r = try Binary.run(["--format", "json", "-c", "chart hourly by category"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let hours = try #require(object["hours"] as? [[String: Any]])
        #expect(hours.count == 24)
        #expect(hours[18]["categories"] as? [String: Int] == ["Navigation": 2195, "Entertainment": 2488])
        #expect(hours[18]["apps"] == nil)
    }
}

struct ReadmeChartTests {
    /// The README's picture was made from the program's current output: when the charts change,
    /// `scripts/readme-picture` must be run again (it rewrites docs/show.ansi and docs/show.png).
    @Test func theReadmePictureIsOfTheCurrentCharts() throws {
        let stored = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/show.ansi"), encoding: .utf8)
        let r = try Binary.run(["--color", "truecolor", "--glyphs", "unicode", "--width", "100", "--no-history", "-c", "show"])
        #expect(r.status == 0)
        #expect(r.stdout == stored, "docs/show.ansi is stale: run scripts/readme-picture")
        let png = try Data(contentsOf: repositoryRoot.appendingPathComponent("docs/show.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "docs/show.png is no PNG")
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/show.png)"))
    }

    /// The README's saved picture, docs/week.svg, is what `save` writes of the sample's last whole week now.
    @Test func theReadmesSavedWeekIsWhatSaveWritesNow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("week.svg").path
        let r = try Binary.run(["--no-history", "-c", "week prev", "-c", "save \(path)"])
        #expect(r.status == 0, "\(r.stderr)")
        let stored = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/week.svg"), encoding: .utf8)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == stored, "docs/week.svg is stale: run scripts/readme-picture")
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/week.svg)"))
    }

    /// The command reference's chart example is the binary's real output, so it never goes stale.
    @Test func theCommandReferenceShowsTheRealShowAt80Columns() throws {
        let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/COMMANDS.md"), encoding: .utf8)
        let r = try Binary.run(["--width", "80", "--color", "never", "--glyphs", "unicode", "-c", "show"])
        #expect(r.status == 0)
        #expect(reference.contains("```\n" + r.stdout + "```\n"), "docs/COMMANDS.md's Charts example differs from `-c show` at 80 columns")
    }
}
