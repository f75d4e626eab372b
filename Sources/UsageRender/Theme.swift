// Theme.swift — colour resolved once (SPEC §7's --color) into the styling renderers apply; renderers never look at the terminal.

/// `--color` / `set color`: `auto` colours only when stdout is a terminal, `NO_COLOR` is unset
/// or empty and `TERM` is not `dumb`.
public enum ColorMode: String, CaseIterable, Sendable {
    case auto
    case always
    case never

    /// Whether `auto` means colour, from the facts the executable probes once.
    public static func autoEnabled(stdoutIsTerminal: Bool, environment: [String: String]) -> Bool {
        stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Whether this mode colours, given what `auto` resolves to.
    public func enabled(auto: Bool) -> Bool {
        switch self {
        case .auto: return auto
        case .always: return true
        case .never: return false
        }
    }
}

/// The styling of one rendering: plain, or the program's own SGR sequences (SPEC §6: the only
/// escape sequences output may hold). Styles wrap text that is already sanitised and fitted.
public struct Theme: Sendable, Equatable {
    /// Whether SGR sequences are written at all.
    public let color: Bool

    public init(color: Bool) { self.color = color }

    /// No colour: output holds no ESC byte.
    public static let plain = Theme(color: false)

    /// A title line (the date, `By category`, `Apps`): bold.
    public func heading(_ text: String) -> String { sgr("1", text) }

    private func sgr(_ code: String, _ text: String) -> String {
        color && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension Array where Element == String {
    /// The lines with the first one styled as a heading.
    func headed(_ theme: Theme) -> [String] {
        guard let first else { return self }
        return [theme.heading(first)] + dropFirst()
    }
}
