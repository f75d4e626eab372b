// TerminalSafetyMaterial.swift — what the terminal-safety tests (docs/DATA.md §6) run on and check with: the hostile names, ids, file names and arguments, the workspace holding them, and the checks that nothing raw reaches a terminal.
import Foundation
import TestSupport
import Testing
import UsageRender
import UsageShell

// MARK: - The hostile material

/// Names, ids and paths holding what a terminal must never receive raw: OSC and CSI sequences,
/// CR, backspace, BEL, NUL, DEL, C1 CSI (U+009B), bidi overrides and isolates, U+2028.
enum Hostile {
    /// App names and their categories (nil: uncategorised, for the rules).
    static let apps: [(key: String, name: String, category: String?)] = [
        ("title", "\u{1B}]0;title\u{07}Title", "social"),
        ("clear", "\u{1B}[2JClear", "ignore"),
        ("cr", "CR\rBack\u{08}space", "bell"),
        ("c1", "C1\u{9B}31mcsi", "iso"),
        ("rlo", "txt.exe\u{202E}gnp", "c1cat"),
        ("nul", "NUL\u{0}DEL\u{7F}x", "bell"),
        ("tab", "Tab\tNew\nLine\u{2028}end", "social"),
        ("link", "Link\u{1B}]8;;http://x\u{1B}\\here", "iso"),
        ("blink", "\u{1B}[5mBlink\u{2066}", nil),
        ("uncat", "Un\u{1B}[7mcat", nil),
    ]

    static let categories: [String: String] = [
        "social": "Social\u{1B}[31m",
        "ignore": "\u{202E}erongi",
        "bell": "Bell\u{07}\u{7F}",
        "iso": "\u{2066}Iso\u{2069}late",
        "c1cat": "\u{9B}1mC1cat",
        // Given by the rules file to `blink`.
        "ruled": "Ruled\u{1B}[1m\u{202E}",
        "none": "\u{9B}none",
    ]

    static let rulePattern = "\u{1B}\\[5m"
    static let idlePattern = "\u{202E}nothing"
    /// A rules file whose pattern is no regular expression.
    static let badPattern = "(\u{1B}[\u{202E}"

    /// What commands are given where an argument is expected: every kind of control but NUL
    /// (which argv cannot carry).
    static let evil = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\r\u{08}\n\u{9B}\u{202E}\u{2066}\u{7F}y"
    /// `evil` for scripts and standard input, whose lines cannot hold a line break.
    static let evilLine = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\u{08}\u{9B}\u{202E}\u{2066}\u{7F}y"

    /// Ids of the skipped rows, which `check` shows as examples.
    static let badIDs = ["bad\u{1B}]0;t\u{07}\u{202E}", "\u{9B}rev\u{2066}", "miss\r\u{08}"]

    static func sessionID(_ k: Int) -> String { "id\u{1B}[2J\u{202E}\(k)" }

    /// Every placeholder's raw value that is data (not a path).
    static var names: [String: String] {
        var values = categories
        for app in apps { values[app.key] = app.name }
        values["evil"] = evil
        values["evilline"] = evilLine
        values["rulepattern"] = rulePattern
        values["badpattern"] = badPattern
        for (k, id) in badIDs.enumerated() { values["badid\(k)"] = id }
        values["id0"] = sessionID(0)
        // `app` with a near miss: "did you mean" names the hostile app.
        values["nearclear"] = "\u{1B}[2JClexr"
        // A prefix of two apps: "could be" lists both.
        values["esc"] = "\u{1B}["
        values["evilday"] = "2026\u{1B}]0;x\u{07}\n\u{202E}"
        return values
    }

    /// The sessions file: every app on 2026-02-23 (UTC), two apps on the two days before,
    /// and one skipped row of each kind with hostile ids and values.
    static func sessionsJSON() -> String {
        var rows: [String] = []
        func row(_ id: String?, _ app: String?, _ category: String?, _ start: String?, _ end: String?) -> String {
            let fields: [(String, String?)] = [
                ("session_id", id), ("app_name", app), ("category", category), ("start_timestamp", start), ("end_timestamp", end),
            ]
            return "{" + fields.map { "\(json($0.0)): \($0.1.map(json) ?? "null")" }.joined(separator: ", ") + "}"
        }
        for (k, app) in apps.enumerated() {
            let category = app.category.flatMap { categories[$0] }
            let start = 8 + k
            let minutes = 10 + 5 * k
            let begin = "2026-02-23T\(start < 10 ? "0" : "")\(start):00:00Z"
            let end = "2026-02-23T\(start < 10 ? "0" : "")\(start):\(minutes):00Z"
            rows.append(row(sessionID(k), app.name, category, begin, end))
            if k < 2 {
                for day in ["21", "22"] {
                    rows.append(row(sessionID(k), app.name, category, "2026-02-\(day)T10:00:00Z", "2026-02-\(day)T11:30:00Z"))
                }
            }
        }
        rows.append(row(badIDs[0], "x", "y", "2026-02-23T01:00:00Z", "nope\u{1B}[31m\u{9B}"))
        rows.append(row(badIDs[1], "x", "y", "2026-02-23T02:00:00Z", "2026-02-23T01:00:00Z"))
        rows.append(row(badIDs[2], "x", "y", nil, nil))
        rows.append(#"{"session_id": "type", "app_name": 42, "start_timestamp": "2026-02-23T01:00:00Z", "end_timestamp": "2026-02-23T02:00:00Z"}"#)
        rows.append(json("\u{1B}[2Jnot an object\u{202E}"))
        return "[\n" + rows.joined(separator: ",\n") + "\n]\n"
    }

    /// A JSON string with every control, DEL, C1 and bidi control as `\u` escapes.
    static func json(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if TerminalText.needsEscape(u) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    static func rulesJSON(pattern: String = rulePattern) -> String {
        #"{"rules": [{"match": \#(json(pattern)), "category": \#(json(categories["ruled"]!))}, "#
            + #"{"match": \#(json(idlePattern)), "category": \#(json(categories["none"]!))}]}"#
    }
}

// MARK: - A run's surroundings

/// What a run finds around it besides the hostile data.
enum Setup: Sendable {
    case plain
    /// The rules file holds a pattern that is no regular expression.
    case badRules
    /// The limits file is not JSON.
    case corruptLimits
}

/// A temporary folder with the hostile sessions file (under a hostile name), a hostile config
/// folder with category rules, and hostile paths for loads and exports to fail or succeed on.
final class Workspace {
    let root: URL
    /// Placeholder → raw value (`{data}` → the data file's path).
    private(set) var values: [String: String] = Hostile.names

    init(_ setup: Setup = .plain) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-safety-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        func path(_ name: String) -> String { root.appendingPathComponent(name).path }

        values["data"] = path("ses\u{1B}]0;pwned\u{07}\u{202E}\n\r\u{9B}2J\u{2066}sions.json")
        values["data2"] = path("more\u{1B}[2J\u{2029}.json")
        values["missing"] = path("missing\u{1B}[2J\n\u{202E}\u{9B}\u{08}.json")
        values["dir"] = path("dir\u{1B}]0;x\u{07}")
        values["invalid"] = path("bad\u{2066}\u{1B}[5m.json")
        values["out"] = path("out\u{1B}[2J\u{202E}\n.json")
        values["outcsv"] = path("report\u{9B}2J\t.csv")
        values["outsvg"] = path("pic\u{1B}[2J\u{202E}\n.svg")
        values["outhtml"] = path("report\u{1B}]0;x\u{07}\u{2066}.html")
        values["noext"] = path("noext\u{1B}[2J\u{202E}")
        values["exists"] = path("exists\u{1B}]0;x\u{07}.json")
        values["nowhere"] = path("no\u{1B}[2Jdir\u{202E}/x.json")
        values["script"] = path("script\u{1B}[2J\u{202E}.txt")
        values["noscript"] = path("noscript\u{1B}]0;x\u{07}\n.txt")
        let config = path("conf\u{1B}[2J\u{202E}\ndir")
        values["config"] = config
        values["rulesfile"] = config + "/usage-shell/categories.json"
        values["limitsfile"] = config + "/usage-shell/limits.json"

        let data = Data(Hostile.sessionsJSON().utf8)
        try data.write(to: URL(fileURLWithPath: values["data"]!))
        try data.write(to: URL(fileURLWithPath: values["data2"]!))
        try data.write(to: URL(fileURLWithPath: values["exists"]!))
        try fm.createDirectory(atPath: values["dir"]!, withIntermediateDirectories: true)
        try Data("[{\"app_name\": \"\u{1B}]0;pwn\u{07}\u{1B}[2J\u{202E}".utf8).write(to: URL(fileURLWithPath: values["invalid"]!))
        try fm.createDirectory(atPath: config + "/usage-shell", withIntermediateDirectories: true)
        let rules = setup == .badRules ? Hostile.rulesJSON(pattern: Hostile.badPattern) : Hostile.rulesJSON()
        try Data(rules.utf8).write(to: URL(fileURLWithPath: values["rulesfile"]!))
        if setup == .corruptLimits {
            try Data("{\"limits\": [\u{1B}[2J\u{202E}".utf8).write(to: URL(fileURLWithPath: values["limitsfile"]!))
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// `{key}` replaced by `transform(value)`.
    func fill(_ text: String, _ transform: (String) -> String) -> String {
        var out = text
        for (key, value) in values where out.contains("{\(key)}") {
            out = out.replacingOccurrences(of: "{\(key)}", with: transform(value))
        }
        return out
    }

    /// A command line: placeholders become words the shell reads back as the raw value.
    func line(_ text: String) -> String { fill(text, Tokenizer.quoted) }
    /// Expected table text: placeholders become their sanitised form.
    func shown(_ text: String) -> String { fill(text, TerminalText.sanitize) }
    /// Expected JSON strings: placeholders are the raw values.
    func exact(_ text: String) -> String { fill(text) { $0 } }

    /// Runs the binary on the hostile data with the workspace's config folder.
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> RunResult {
        var env = ["XDG_CONFIG_HOME": values["config"]!]
        env.merge(environment) { $1 }
        return try Binary.run(arguments, stdin: stdin, environment: env)
    }
}

// MARK: - The checks

/// The scalars that must never reach a terminal raw (the newline between lines excepted).
func rawControls(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { $0 != "\n" && TerminalText.needsEscape($0) }
}

/// Colour off: no ESC at all, and nothing else raw.
func expectPlainSafe(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!text.contains("\u{1B}"), "ESC with colour off in \(context): \(text.debugDescription)", sourceLocation: sourceLocation)
    let bad = rawControls(text)
    #expect(bad.isEmpty, "raw \(bad.map { "U+" + String($0.value, radix: 16) }) in \(context): \(text.debugDescription)", sourceLocation: sourceLocation)
}

/// Colour on: every ESC begins an SGR sequence (`ESC [ digits;… m`), and nothing else is raw.
func expectColouredSafe(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let scalars = Array(text.unicodeScalars)
    for (k, s) in scalars.enumerated() where s == "\u{1B}" {
        var j = k + 1
        var isSGR = j < scalars.count && scalars[j] == "["
        if isSGR {
            j += 1
            while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
            isSGR = j < scalars.count && scalars[j] == "m"
        }
        if !isSGR {
            let context2 = String(String.UnicodeScalarView(scalars[k..<min(scalars.count, k + 12)]))
            Issue.record("an ESC that begins no SGR in \(context): \(context2.debugDescription)", sourceLocation: sourceLocation)
            return
        }
    }
    let bad = rawControls(TerminalText.withoutSGR(text))
    #expect(bad.isEmpty, "raw \(bad.map { "U+" + String($0.value, radix: 16) }) in \(context): \(text.debugDescription)", sourceLocation: sourceLocation)
}

/// Every string (keys and values) of a decoded JSON value.
func jsonStrings(_ value: Any) -> [String] {
    switch value {
    case let s as String: return [s]
    case let a as [Any]: return a.flatMap(jsonStrings)
    case let o as [String: Any]: return o.keys.map { $0 } + o.values.flatMap(jsonStrings)
    default: return []
    }
}
