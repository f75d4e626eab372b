// Settings.swift — the one table of settings: each declared once with its values, how it is read, applied and shown; `set`, its completion, its listing and the command line's checks all read it.
import UsageCore
import UsageData
import UsageRender

/// One setting of `set`.
struct Setting: Sendable {
    let name: String
    /// The values as the usage line shows them (`table|json`, `N|auto`, `ZONE`).
    let values: String
    let completion: [ArgumentKind]
    /// A typed value as a change of the shell, or what is wrong with it (`format must be table
    /// or json, not 'csv'`).
    let read: @Sendable (String) -> Result<@Sendable (Shell) -> Void, Problem>
    /// The value as `set` lists it, and as JSON.
    let show: @Sendable (Shell) -> (text: String, json: JSONText)

    struct Problem: Error {
        let text: String
    }

    /// A setting whose values are words (`on|off`, `table|json`), typed whole or by a unique beginning.
    static func words(
        _ name: String, _ values: [String], apply: @escaping @Sendable (Shell, String) -> Void,
        show: @escaping @Sendable (Shell) -> (text: String, json: JSONText)
    ) -> Setting {
        let list = values.count > 1 ? values.dropLast().joined(separator: ", ") + " or " + values.last! : values.joined()
        return Setting(
            name: name, values: values.joined(separator: "|"), completion: [.keywords(values)],
            read: { typed in
                guard let word = PrefixMatch.unique(typed, among: values) else {
                    let begun = PrefixMatch.ambiguity(typed, among: values)
                    if !begun.isEmpty { return .failure(Problem(text: "\(name): " + PrefixMatch.couldBe(typed, begun))) }
                    return .failure(Problem(text: "\(name) must be \(list), not '\(typed)'"))
                }
                return .success { apply($0, word) }
            }, show: show)
    }

    /// `on|off`.
    static func onOff(_ name: String, get: @escaping @Sendable (Shell) -> Bool, set: @escaping @Sendable (Shell, Bool) -> Void) -> Setting {
        words(name, ["on", "off"], apply: { set($0, $1 == "on") }, show: { get($0) ? ("on", .bool(true)) : ("off", .bool(false)) })
    }
}

/// Reads and changes the shell's settings.
public enum Settings {
    /// The settings, in the order `set` lists them.
    static let all: [Setting] = [
        .words(
            "format", OutputFormat.allCases.map(\.rawValue), apply: { $0.output.format = OutputFormat(rawValue: $1)! },
            show: { ($0.output.format.rawValue, .string($0.output.format.rawValue)) }),
        .words(
            "color", ColorMode.allCases.map(\.rawValue), apply: { $0.output.colorMode = ColorMode(rawValue: $1)! },
            show: { shell in
                // What auto and always resolve to: `auto (256 colours)`, `auto (off)`.
                let output = shell.output
                let depth = output.colorMode.depth(auto: output.autoColor, detected: output.autoDepth)
                let resolved = depth.map { $0 == .truecolor ? "truecolor" : "\($0.rawValue) colours" } ?? "off"
                let text = [.auto, .always].contains(output.colorMode) ? "\(output.colorMode.rawValue) (\(resolved))" : output.colorMode.rawValue
                return (text, .string(output.colorMode.rawValue))
            }),
        .words(
            "glyphs", GlyphMode.allCases.map(\.rawValue), apply: { $0.output.glyphMode = GlyphMode(rawValue: $1)! },
            show: { shell in
                let mode = shell.output.glyphMode
                return (mode == .auto ? "auto (\(shell.output.autoUnicode ? "unicode" : "ascii"))" : mode.rawValue, .string(mode.rawValue))
            }),
        .onOff("accessible", get: { $0.output.accessible }, set: { $0.output.accessible = $1 }),
        Setting(
            name: "width", values: "N|auto", completion: [.keywords(["auto"])],
            read: { typed in
                if PrefixMatch.unique(typed, among: ["auto"]) != nil { return .success { $0.output.fixedWidth = nil } }
                guard let width = Int(typed), (20...1000).contains(width) else {
                    return .failure(.init(text: "width must be auto or a number from 20 to 1000, not '\(typed)'"))
                }
                return .success { $0.output.fixedWidth = width }
            },
            show: { shell in
                (shell.output.fixedWidth.map(String.init) ?? "auto (\(shell.width))", shell.output.fixedWidth.map { .int($0) } ?? .string("auto"))
            }),
        Setting(
            name: "tz", values: "ZONE", completion: [.zones],
            read: { typed in
                guard let zone = Zone(identifier: typed) else {
                    return .failure(.init(text: "unknown time zone '\(typed)': use an IANA name such as Europe/Paris, or UTC"))
                }
                return .success { $0.model.zone = zone }
            },
            show: { ($0.model.zone.identifier, .string($0.model.zone.identifier)) }),
        .words(
            "pager", PagerMode.allCases.map(\.rawValue), apply: { $0.output.pager = PagerMode(rawValue: $1)! },
            show: { shell in
                let mode = shell.output.pager.rawValue
                return (mode + (shell.environment.pager.map { " (\($0))" } ?? ""), .string(mode))
            }),
        .onOff("timer", get: { $0.output.timer }, set: { $0.output.timer = $1 }),
        Setting(
            name: "timeout", values: "SECONDS", completion: [],
            read: { typed in
                guard let seconds = StreamLimits.seconds(typed) else {
                    return .failure(.init(text: "timeout must be a number of seconds from 1 to 86400 (120, 2m), not '\(typed)'"))
                }
                return .success { $0.model.timeout = seconds }
            },
            show: { (StreamLimits.text(seconds: $0.model.timeout), .double($0.model.timeout)) }),
    ]

    static var names: [String] { all.map(\.name) }

    /// The setting `typed` names, whole or by a unique beginning.
    static func named(_ typed: String) -> Setting? {
        PrefixMatch.unique(typed, among: names).flatMap { name in all.first { $0.name == name } }
    }

    /// What is wrong with `value` for the setting `name`, or nil when it is good (the command
    /// line's `--tz`, `--width`, `--timeout` are checked by the same rules as `set`).
    public static func problem(_ name: String, _ value: String) -> String? {
        guard case .failure(let problem) = all.first(where: { $0.name == name })!.read(value) else { return nil }
        return problem.text
    }

    /// The grammar of `set`, for its usage line and completion: `[NAME VALUE]`… in any order.
    static var syntax: Syntax {
        .anyOrder(all.map { setting in
            .sequence([.word(Keyword(setting.name)), .value(Slot<String>.text(setting.values, completion: setting.completion))])
        })
    }

    /// Applies `NAME VALUE` pairs in order; a lone `NAME` changes nothing (it is shown). All
    /// pairs are checked before any is applied, so a bad one changes nothing.
    static func apply(_ args: [String], to shell: Shell) throws(ShellError) {
        var changes: [@Sendable (Shell) -> Void] = []
        var rest = args[...]
        while let name = rest.popFirst() {
            guard let setting = named(name) else {
                let begun = PrefixMatch.ambiguity(name, among: names)
                if !begun.isEmpty { throw .badSetting(PrefixMatch.couldBe(name, begun)) }
                throw .badSetting("unknown setting '\(name)': use \(names.joined(separator: ", "))")
            }
            guard let value = rest.popFirst() else {
                if args.count == 1 { return }
                throw .badSetting("'\(name)' needs a value")
            }
            switch setting.read(value) {
            case .success(let change): changes.append(change)
            case .failure(let problem): throw .badSetting(problem.text)
            }
        }
        for change in changes { change(shell) }
    }

    /// The settings (or one of them) as `name  value` lines, or one JSON object.
    static func show(_ shell: Shell, only: String?) -> CommandOutcome {
        let rows = all.filter { only == nil || $0.name == only }.map { ($0.name, $0.show(shell)) }
        return shell.render(
            json: { .object(rows.map { ($0.0, $0.1.json) }) },
            table: { width, _ in TextReport.wrap(rows.map { "\($0.0.padding(10))  \($0.1.text)" }, width: width) })
    }
}

extension CommandTable {
    static let setCommand = Command(
        "set", syntax: Settings.syntax, summary: "change a setting; alone, show them all",
        examples: [
            "set", "set format json", "set color never", "set color 256", "set glyphs ascii", "set accessible on", "set width 100",
            "set tz Europe/Paris", "set pager off", "set timer on", "set timeout 120",
        ],
        parse: { words in Arguments(words: words, values: [:], choices: [:], flags: []) }
    ) { shell, args throws(ShellError) in
        try Settings.apply(args.words, to: shell)
        return Settings.show(shell, only: args.words.count == 1 ? Settings.named(args.words[0])?.name : nil)
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: Swift.max(0, width - count)) }
}
