// SessionColoursTests.swift — a colour means one thing, through the built binary at 256 colours: in one `show` no two series of different names share a colour, and a name keeps its colour on every chart of the session (show, hourly by category, week, days, app, limits), on every day of the sample and the fixtures.
import Foundation
import Testing

/// The colours the charts of some output gave to names: from legend swatches (`██ Name …`) and
/// from the bars of ranked rows (`  1. Name  ███…`).
struct ColourUse {
    /// SGR code → the names drawn in it, and name → the codes it was drawn in.
    var namesOf: [String: Set<String>] = [:]
    var codesOf: [String: Set<String>] = [:]

    /// "Other"'s grey at 256 colours: many names may be "other".
    static let other = "38;5;145"

    init(_ output: String) {
        for line in output.split(separator: "\n").map(String.init) {
            for match in line.matches(of: /\x1B\[(38;5;\d+)m(?:██|##)\x1B\[0m ([^ \x1B][^\x1B]*)/) {
                record(String(match.output.1), Self.name(in: String(match.output.2)))
            }
            if let row = line.firstMatch(of: #/^ +\d+\. (.+?) {2,}\x1B\[(38;5;\d+)m/#) {
                record(String(row.output.2), String(row.output.1).trimmingCharacters(in: .whitespaces))
            }
        }
    }

    private mutating func record(_ code: String, _ name: String) {
        guard !name.isEmpty else { return }
        namesOf[code, default: []].insert(name)
        codesOf[name, default: []].insert(code)
    }

    /// A legend entry's name: its text without the time and share after it.
    static func name(in text: String) -> String {
        var t = text.replacing(#/ {2,}.*$/#, with: "")
        t = t.replacing(#/ (?:\d+h(?: \d+m)?|\d+m|<1m)$/#, with: "")
        t = t.replacing(#/ <?[\d.]+%$/#, with: "")
        return t.trimmingCharacters(in: .whitespaces)
    }

    /// Codes (other than "other") that more than one name was drawn in.
    var shared: [String: Set<String>] { namesOf.filter { $0.key != Self.other && $0.value.count > 1 } }
    /// Names drawn in more than one colour of their own.
    var changing: [String: Set<String>] {
        codesOf.compactMapValues { codes in
            let own = codes.subtracting([Self.other])
            return own.count > 1 ? own : nil
        }
    }
}

struct SessionColoursTests {
    /// The sample's week, one `show` per day, each checked on its own; then all the session's
    /// charts together.
    @Test func inOneShowNoTwoSeriesOfDifferentNamesShareAColourAt256() throws {
        var session = ColourUse("")
        for day in 17...23 {
            let r = try Binary.run(["--color", "256", "--width", "200", "--day", "2026-02-\(day)", "-c", "show"])
            #expect(r.status == 0)
            let use = ColourUse(r.stdout)
            #expect(use.namesOf.count >= 8, "day \(day): too few colours found to check: \(use.namesOf)")
            #expect(use.shared.isEmpty, "2026-02-\(day): \(use.shared)")
            for (name, codes) in use.codesOf { session.codesOf[name, default: []].formUnion(codes) }
        }
        #expect(session.changing.isEmpty, "\(session.changing)")
    }

    @Test func aNameKeepsItsColourOnEveryChartOfASession() throws {
        let commands = [
            "show", "chart hourly by category", "week", "days", "days 14", "app Spotify", "app Safari", "limit Safari 30m",
            "limit category Social 1h", "day 2026-02-20", "show", "chart hourly by app", "show compact", "week", "day monday", "apps",
        ]
        let r = try Binary.run(["--color", "256", "--width", "160"] + commands.flatMap { ["-c", $0] })
        #expect(r.status == 0, "\(r.stderr)")
        let use = ColourUse(r.stdout)
        #expect(use.codesOf["Productivity"]?.isEmpty == false && use.codesOf["Spotify"]?.isEmpty == false)
        #expect(use.changing.isEmpty, "\(use.changing)")
        // An app and a category never share a colour.
        let categories: Set = ["Productivity", "Entertainment", "Navigation", "Social", "Other", "System", "Education"]
        for (code, names) in use.namesOf where code != ColourUse.other {
            #expect(names.isSubset(of: categories) || names.isDisjoint(with: categories), "\(code): \(names)")
        }
        // "Other" is never the grid's grey.
        #expect(!use.namesOf.keys.contains("38;5;240"))
    }

    @Test(arguments: ["original-app-mock-data.json", "oracle-dirty.json", "oracle-dst.json", "hostile-names.json"])
    func theFixturesKeepEveryShowApartAndEveryNameInOneColour(name: String) throws {
        let file = Binary.fixture(name)
        let days = try ListsAddUpTests.days(of: file)
        var session = ColourUse("")
        let r = try Binary.run([file, "--color", "256", "--width", "200"] + days.flatMap { ["-c", "day \($0)", "-c", "show"] })
        #expect(r.status == 0)
        // Each day's show on its own (its date line opens it, as `day`'s does).
        var blocks: [String] = []
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.firstMatch(of: #/^\x1B\[1m[A-Z][a-z]+day, /#) != nil || blocks.isEmpty { blocks.append("") }
            blocks[blocks.count - 1] += line + "\n"
        }
        #expect(blocks.count >= days.count)
        for block in blocks {
            let use = ColourUse(block)
            #expect(use.shared.isEmpty, "\(name): \(use.shared)")
            for (n, codes) in use.codesOf { session.codesOf[n, default: []].formUnion(codes) }
        }
        #expect(session.changing.isEmpty, "\(name): \(session.changing)")
    }
}

/// The colour bugs of issue 21, each named after what a picky user saw.
struct ColourBugTests {
    /// `chart hourly by category` and `days` gave Productivity and Entertainment each other's colours.
    @Test(arguments: ["16", "256", "truecolor"])
    func bugHourlyByCategoryAndDaysSwappedTwoCategoriesColours(depth: String) throws {
        let hourly = try Binary.run(["--color", depth, "--width", "160", "-c", "chart hourly by category"])
        let days = try Binary.run(["--color", depth, "--width", "160", "-c", "days"])
        func swatches(_ text: String) -> [String: String] {
            var found: [String: String] = [:]
            for match in text.matches(of: #/\x1B\[([0-9;]+)m██\x1B\[0m (Productivity|Entertainment) /#) {
                found[String(match.output.2)] = String(match.output.1)
            }
            return found
        }
        let (a, b) = (swatches(hourly.stdout), swatches(days.stdout))
        #expect(a.count == 2 && a == b, "hourly by category \(a), days \(b)")
        #expect(a["Productivity"] != a["Entertainment"])
    }

    /// In one `show`, cyan was the Social slice and Spotify's bars: at 256 colours an app and a
    /// category never share one (at 16 they may: six hues; see docs/COMMANDS.md, "Charts").
    @Test func bugSocialsSliceAndSpotifysBarsWereOneColour() throws {
        let r = try Binary.run(["--color", "256", "--width", "160", "-c", "show"])
        let use = ColourUse(r.stdout)
        let social = try #require(use.codesOf["Social"])
        let spotify = try #require(use.codesOf["Spotify"])
        #expect(social.isDisjoint(with: spotify))
    }

    /// The largest series, `11 other apps 2h 28m`, was the grey of the grid lines.
    @Test(arguments: ["16", "256", "truecolor"])
    func bugOtherAppsTookTheGridsGrey(depth: String) throws {
        let r = try Binary.run(["--color", depth, "--width", "160", "-c", "chart hourly"])
        let other = try #require(r.stdout.firstMatch(of: #/\x1B\[([0-9;]+)m██\x1B\[0m 11 other apps/#)).output.1
        let grid = try #require(r.stdout.firstMatch(of: /\x1B\[([0-9;]+)m▔/)).output.1
        #expect(other != grid, "other \(other), grid \(grid)")
    }
}
