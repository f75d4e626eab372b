// Settings.swift — the `set` command: format, color, glyphs, accessible, width, tz, timer and timeout, changed in pairs and shown as a table or JSON.
import UsageCore
import UsageData
import UsageRender

/// Reads and changes the shell's settings.
enum Settings {
    /// Applies `NAME VALUE` pairs in order; a lone `NAME` changes nothing (it is shown). All
    /// pairs are checked before any is applied, so a bad one changes nothing.
    static func apply(_ args: [String], to shell: Shell) throws(ShellError) {
        var changes: [(Shell) -> Void] = []
        var rest = args[...]
        while let name = rest.popFirst() {
            guard let key = unique(name, among: CommandTable.settings) else {
                throw .badSetting("unknown setting '\(name)': use \(CommandTable.settings.joined(separator: ", "))")
            }
            guard let value = rest.popFirst() else {
                if args.count == 1 { return }
                throw .badSetting("'\(name)' needs a value")
            }
            changes.append(try change(key, value))
        }
        for change in changes { change(shell) }
    }

    private static func change(_ key: String, _ value: String) throws(ShellError) -> (Shell) -> Void {
        switch key {
        case "format":
            guard let format = unique(value, among: OutputFormat.allCases.map(\.rawValue)).flatMap(OutputFormat.init) else {
                throw .badSetting("format must be table or json, not '\(value)'")
            }
            return { $0.format = format }
        case "color":
            guard let mode = unique(value, among: ColorMode.allCases.map(\.rawValue)).flatMap(ColorMode.init) else {
                throw .badSetting("color must be auto, always or never, not '\(value)'")
            }
            return { $0.colorMode = mode }
        case "glyphs":
            guard let mode = unique(value, among: GlyphMode.allCases.map(\.rawValue)).flatMap(GlyphMode.init) else {
                throw .badSetting("glyphs must be auto, unicode or ascii, not '\(value)'")
            }
            return { $0.glyphMode = mode }
        case "accessible":
            guard let word = unique(value, among: ["on", "off"]) else {
                throw .badSetting("accessible must be on or off, not '\(value)'")
            }
            return { $0.accessible = word == "on" }
        case "width":
            if unique(value, among: ["auto"]) != nil { return { $0.fixedWidth = nil } }
            guard let width = Int(value), (20...1000).contains(width) else {
                throw .badSetting("width must be auto or a number from 20 to 1000, not '\(value)'")
            }
            return { $0.fixedWidth = width }
        case "timer":
            guard let word = unique(value, among: ["on", "off"]) else {
                throw .badSetting("timer must be on or off, not '\(value)'")
            }
            return { $0.timer = word == "on" }
        case "timeout":
            guard let seconds = StreamLimits.seconds(value) else {
                throw .badSetting("timeout must be a number of seconds from 1 to 86400 (120, 2m), not '\(value)'")
            }
            return { $0.model.timeout = seconds }
        default:
            guard let zone = Zone(identifier: value) else {
                throw .badSetting("unknown time zone '\(value)': use an IANA name such as Europe/Paris, or UTC")
            }
            return { $0.model.zone = zone }
        }
    }

    /// The word `typed` is, or uniquely begins, ignoring case (`fo` → `format`, `n` → `never`).
    static func unique(_ typed: String, among words: [String]) -> String? {
        let lower = typed.lowercased()
        if words.contains(lower) { return lower }
        let matches = words.filter { !lower.isEmpty && $0.hasPrefix(lower) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The settings (or one of them) as `name  value` lines, or one JSON object.
    static func show(_ shell: Shell, only: String?) -> CommandOutcome {
        let color = shell.colorMode == .auto
            ? "auto (\(shell.autoColor ? "on" : "off" ))" : shell.colorMode.rawValue
        let glyphs = shell.glyphMode == .auto
            ? "auto (\(shell.autoUnicode ? "unicode" : "ascii"))" : shell.glyphMode.rawValue
        let width = shell.fixedWidth.map(String.init) ?? "auto (\(shell.width))"
        let rows: [(String, String, JSONText)] = [
            ("format", shell.format.rawValue, .string(shell.format.rawValue)),
            ("color", color, .string(shell.colorMode.rawValue)),
            ("glyphs", glyphs, .string(shell.glyphMode.rawValue)),
            ("accessible", shell.accessible ? "on" : "off", .bool(shell.accessible)),
            ("width", width, shell.fixedWidth.map { .int($0) } ?? .string("auto")),
            ("tz", shell.model.zone.identifier, .string(shell.model.zone.identifier)),
            ("timer", shell.timer ? "on" : "off", .bool(shell.timer)),
            ("timeout", StreamLimits.text(seconds: shell.model.timeout), .double(shell.model.timeout)),
        ].filter { only == nil || $0.0 == only }
        return shell.render(
            json: { .object(rows.map { ($0.0, $0.2) }) },
            table: { width, _ in TextReport.wrap(rows.map { "\($0.0.padding(10))  \($0.1)" }, width: width) })
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: Swift.max(0, width - count)) }
}
