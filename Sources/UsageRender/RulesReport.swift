// RulesReport.swift — `rules` and `export` as text and JSON: each category rule with what it categorised, the time left uncategorised, and what an export wrote.
import UsageCore

/// What `rules` reports, measured on the data as loaded (before the rules).
public struct RulesSummary: Sendable {
    public struct Rule: Sendable {
        public let pattern: String
        public let category: String
        /// Apps whose uncategorised sessions this rule categorised, and their time (all days).
        public let apps: Int
        public let micros: Micros

        public init(pattern: String, category: String, apps: Int, micros: Micros) {
            self.pattern = pattern
            self.category = category
            self.apps = apps
            self.micros = micros
        }
    }

    /// Where the rules file is looked for (nil when there is no home to look in).
    public let file: String?
    /// Whether the file exists.
    public let hasFile: Bool
    public let rules: [Rule]
    /// Apps whose time no rule categorised, largest first.
    public let uncategorised: [(app: String, micros: Micros)]

    public init(file: String?, hasFile: Bool, rules: [Rule], uncategorised: [(app: String, micros: Micros)]) {
        self.file = file
        self.hasFile = hasFile
        self.rules = rules
        self.uncategorised = uncategorised
    }

    /// All the time still uncategorised.
    public var uncategorisedMicros: Micros { uncategorised.reduce(0) { $0 + $1.micros } }
}

extension TextReport {
    /// `rules`: the file, one line per rule (`1. firefox|chrom → Browsing: 2h 10m in 2 apps`),
    /// then the uncategorised time with its largest apps.
    public static func rules(_ s: RulesSummary, width: Int, theme: Theme = .plain) -> [String] {
        var lines: [String] = []
        let file = s.file.map { "'\(TerminalText.sanitize($0))'" } ?? "(no home folder to keep them in)"
        if s.hasFile {
            lines.append("category rules from \(file): \(s.rules.count) rule\(s.rules.count == 1 ? "" : "s"), the first match wins")
        } else {
            lines.append("no category rules: write them to \(file), e.g.")
            lines.append("  {\"rules\": [{\"match\": \"firefox|chrom\", \"category\": \"Browsing\"}]}")
        }
        let numberWidth = String(s.rules.count).count
        for (k, rule) in s.rules.enumerated() {
            let what = rule.micros > 0
                ? "\(TextFormat.duration(rule.micros)) in \(rule.apps) app\(rule.apps == 1 ? "" : "s")" : "nothing yet"
            lines.append(
                "  " + TerminalText.padLeft(String(k + 1), width: numberWidth) + ". "
                    + TerminalText.sanitize(rule.pattern) + " → " + TerminalText.sanitize(rule.category) + ": " + what)
        }
        let left = s.uncategorisedMicros
        if left == 0 {
            lines.append("uncategorised: none")
        } else {
            // The apps' minutes add up to the uncategorised time.
            let durations = TextFormat.durations(s.uncategorised.map(\.micros))
            let top = zip(s.uncategorised.prefix(5), durations).map { "\(TerminalText.sanitize($0.app)) \($1)" }
            let more = s.uncategorised.count > 5 ? ", …" : ""
            let apps = s.uncategorised.count
            lines.append(
                "uncategorised: \(TextFormat.duration(left)) in \(apps) app\(apps == 1 ? "" : "s"): "
                    + top.joined(separator: ", ") + more)
        }
        return wrap(lines, width: width).headed(theme)
    }
}

extension ReportJSON {
    /// `rules` → `{"file","rules":[{"match","category","apps","seconds"}],"uncategorised_seconds",
    /// "uncategorised_apps":[{"name","seconds"}]}`; `file` is null when the file does not exist.
    public static func rules(_ s: RulesSummary) -> JSONText {
        .object([
            ("file", s.hasFile ? s.file.map(JSONText.string) ?? .null : .null),
            (
                "rules",
                .records(
                    s.rules.map {
                        .object([
                            ("match", .string($0.pattern)), ("category", .string($0.category)), ("apps", .int($0.apps)),
                            ("seconds", .seconds($0.micros)),
                        ])
                    }, fields: ["match", "category", "apps", "seconds"])
            ),
            ("uncategorised_seconds", .seconds(s.uncategorisedMicros)),
            ("uncategorised_apps", .records(s.uncategorised.map { .object([("name", .string($0.app)), ("seconds", .seconds($0.micros))]) }, fields: ["name", "seconds"])),
        ])
    }

    /// `export` → `{"exported","format","sessions"}`, or for `export report`
    /// `{"exported","format","day","apps"}`.
    public static func exported(path: String, format: ExportFormat, day: LocalDate?, rows: Int) -> JSONText {
        var members: [(String, JSONText)] = [("exported", .string(path)), ("format", .string(format.rawValue))]
        if let day {
            members += [("day", .string(day.description)), ("apps", .int(rows))]
        } else {
            members.append(("sessions", .int(rows)))
        }
        return .object(members)
    }
}
