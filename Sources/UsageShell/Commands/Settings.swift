// Settings.swift — the one table of settings: each declared once with its values, how it is read, applied and shown; `set`, its completion, its listing and the command line's checks all read it.
import UsageCore
import UsageFormats
import UsageData
import UsageRender
import UsageStore

/// One setting of `set`.
struct Setting: Sendable {
    let name: String
    /// The values as the usage line shows them (`table|json`, `N|auto`, `ZONE`).
    let values: String
    let completion: [ArgumentKind]
    /// A typed value as a change of the shell, or what is wrong with it (`format must be table,
    /// json or csv, not 'xml'`). A change may still fail (a setting kept in the store).
    let read: @Sendable (String) -> Result<Change, Problem>

    /// Applies the value; a failure comes back (nil: done).
    typealias Change = @Sendable (Shell) -> ShellError?
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
                return .success { shell in
                    apply(shell, word)
                    return nil
                }
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
                if PrefixMatch.unique(typed, among: ["auto"]) != nil { return .success { shell in
                    shell.output.fixedWidth = nil
                    return nil
                } }
                guard let width = Int(typed), (20...1000).contains(width) else {
                    return .failure(.init(text: "width must be auto or a number from 20 to 1000, not '\(typed)'"))
                }
                return .success { shell in
                    shell.output.fixedWidth = width
                    return nil
                }
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
                return .success { shell in
                    shell.model.zone = zone
                    return nil
                }
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
                return .success { shell in
                    shell.model.timeout = seconds
                    return nil
                }
            },
            show: { (StreamLimits.text(seconds: $0.model.timeout), .double($0.model.timeout)) }),
        Setting(
            name: "data-tz", values: "ZONE|auto", completion: [.keywords(["auto"]), .zones],
            read: { typed in
                if PrefixMatch.unique(typed, among: ["auto"]) != nil { return .success { shell in
                    shell.model.dataZone = nil
                    return nil
                } }
                guard let zone = Zone(identifier: typed) else {
                    return .failure(
                        .init(text: "data-tz must be auto or a time zone (an IANA name such as Europe/Paris, or UTC), not '\(typed)'"))
                }
                return .success { shell in
                    shell.model.dataZone = zone
                    return nil
                }
            },
            show: { shell in
                guard let zone = shell.model.dataZone else { return ("auto (\(shell.model.zone.identifier))", .string("auto")) }
                return (zone.identifier, .string(zone.identifier))
            }),
        Setting(
            name: "columns", values: "MAPPING|auto", completion: [.keywords(["auto"])],
            read: { typed in
                do throws(ColumnMappingError) {
                    let mapping = try ColumnMapping(parsing: typed)
                    return .success { shell in
                        shell.model.columns = mapping
                        return nil
                    }
                } catch {
                    return .failure(.init(text: error.description))
                }
            },
            show: { ($0.model.columns.description, .string($0.model.columns.description)) }),
        .onOff("raw-csv", get: { $0.output.rawCSV }, set: { $0.output.rawCSV = $1 }),
        .words(
            "week-start", WeekStart.allCases.map(\.rawValue), apply: { $0.model.weekStart = WeekStart(rawValue: $1)! },
            show: { ($0.model.weekStart.rawValue, .string($0.model.weekStart.rawValue)) }),
        Setting(
            name: "retention", values: "AGE|off", completion: [.keywords(["off", "30d", "90d", "365d"])],
            read: { typed in
                let days: Int?
                if PrefixMatch.unique(typed, among: ["off"]) != nil {
                    days = nil
                } else {
                    guard let age = CommandTable.parseAge(typed), age > 0 else {
                        return .failure(.init(text: "retention must be off or an age such as 90d or 12w, not '\(typed)'"))
                    }
                    days = age
                }
                return .success { shell in
                    // Kept in the store, so that every import (cron's too) applies it.
                    let store: any ImportWriting
                    do throws(ShellError) {
                        store = try shell.store.writer()
                    } catch {
                        return error
                    }
                    do throws(StoreError) {
                        try store.setRetention(days: days)
                        return nil
                    } catch {
                        return .store(error)
                    }
                }
            },
            show: { shell in
                guard let store: any ImportReading = shell.store.existing, let days = try? store.retentionDays()
                else { return ("off (keep everything)", .null) }
                return ("\(days)d (imported sessions older than \(days) days are forgotten after each import)", .int(days))
            }),
        Setting(
            name: "web", values: "on|off", completion: [.keywords(["on", "off"])],
            read: { typed in
                guard let word = PrefixMatch.unique(typed, among: ["on", "off"]) else {
                    return .failure(.init(text: "web must be on or off, not '\(typed)'"))
                }
                return .success { shell in
                    // Kept in the store, so that the browsers' native host, which writes there, applies it.
                    let store: any SiteSettingsWriting
                    do throws(ShellError) {
                        store = try shell.store.writer()
                    } catch {
                        return error
                    }
                    do throws(StoreError) {
                        try store.setWebRecording(word == "on", now: shell.environment.now())
                        return nil
                    } catch {
                        return .store(error)
                    }
                }
            },
            show: { shell in
                let on = (try? (shell.store.existing as (any SiteSettingsReading)?)?.webRecording()) ?? true
                return on ? ("on (the browser extension's sites are recorded)", .bool(true)) : ("off (no site is recorded)", .bool(false))
            }),
    ]

    static var names: [String] { all.map(\.name) }

    /// Beginnings kept for the setting they named before a newer one began the same way (as
    /// `ch` is kept for `chart`): `columns` came after `color`, `week-start` after `width`, `web` after `week-start`.
    static let kept = ["c": "color", "co": "color", "col": "color", "w": "width", "we": "week-start"]

    /// The setting `typed` names, whole or by a unique beginning (or a kept one).
    static func named(_ typed: String) -> Setting? {
        (kept[typed.lowercased()] ?? PrefixMatch.unique(typed, among: names)).flatMap { name in all.first { $0.name == name } }
    }

    /// What is wrong with `value` for the setting `name`, or nil when it is good (the command
    /// line's `--tz`, `--width`, `--timeout`, `--data-tz`, `--columns` are checked by the same
    /// rules as `set`).
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
        var changes: [Setting.Change] = []
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
        for change in changes {
            if let failure = change(shell) { throw failure }
        }
    }

    /// The settings (or one of them) as `name  value` lines, or one JSON object.
    static func show(_ shell: Shell, only: String?) -> CommandOutcome {
        let rows = all.filter { only == nil || $0.name == only }.map { ($0.name, $0.show(shell)) }
        return shell.render(
            json: { .object(rows.map { ($0.0.replacingOccurrences(of: "-", with: "_"), $0.1.json) }) },
            table: { width, _ in TextReport.wrap(rows.map { "\($0.0.padding(10))  \($0.1.text)" }, width: width) })
    }
}

extension CommandTable {
    static let setCommand = Command(
        "set", syntax: Settings.syntax, summary: "change a setting; alone, show them all",
        examples: [
            "set", "set format json", "set color never", "set color 256", "set glyphs ascii", "set accessible on", "set width 100",
            "set tz Europe/Paris", "set pager off", "set timer on", "set timeout 120", "set retention 90d", "set data-tz Europe/Paris",
            "set columns app=Program,start=From,end=To", "set raw-csv on", "set week-start sunday", "set web off",
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
