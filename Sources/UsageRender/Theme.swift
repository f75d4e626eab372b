// Theme.swift — how one rendering looks, resolved once at the edge: colour (the README's --color), glyph set and accessible mode; renderers never look at the terminal.

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

/// The styling of one rendering: colour or not (the program's own SGR sequences are the only
/// escape sequences output may hold, docs/DATA.md §6), Unicode or ASCII art, and accessible mode (no
/// art: a title, a summary sentence and one line per data point).
public struct Theme: Sendable, Equatable {
    /// Whether SGR sequences are written at all.
    public let color: Bool
    /// The characters charts are drawn with.
    public let glyphs: Glyphs
    /// Whether charts are replaced by sentences and lines a screen reader can read.
    public let accessible: Bool

    public init(color: Bool, glyphs: Glyphs = .unicode, accessible: Bool = false) {
        self.color = color
        self.glyphs = glyphs
        self.accessible = accessible
    }

    /// No colour, Unicode glyphs: output holds no ESC byte.
    public static let plain = Theme(color: false)

    /// A title line (the date, `By category`, `Apps`): bold.
    public func heading(_ text: String) -> String { sgr("1", text) }

    /// `ESC [ codes m` text `ESC [ 0 m`, or the text alone without colour.
    func sgr(_ codes: String, _ text: String) -> String {
        color && !text.isEmpty ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
    }
}

/// One of the colours series are drawn in: the 16 base ANSI colours, so the user's terminal
/// theme applies.
public struct SeriesColor: Sendable, Hashable {
    /// The SGR foreground code (`31`…`36`, `90`…`96`); the background code is 10 more.
    public let foreground: Int
    public var background: Int { foreground + 10 }

    /// The five ranked apps: cyan, yellow, magenta, green, bright blue (plain blue is too dark on
    /// many dark themes; green and yellow are kept apart for red-green colour blindness).
    public static let apps = [36, 33, 35, 32, 94].map(SeriesColor.init(foreground:))
    /// The five ranked categories: the same colours in another order, so that the app and the
    /// category of one rank never share a colour (bright blue, magenta, green, cyan, yellow).
    public static let categories = [94, 35, 32, 36, 33].map(SeriesColor.init(foreground:))
    /// Grey (bright black): every series past the fifth ("other apps").
    public static let other = SeriesColor(foreground: 90)
}

extension Array where Element == String {
    /// The lines with the first one styled as a heading.
    func headed(_ theme: Theme) -> [String] {
        guard let first else { return self }
        return [theme.heading(first)] + dropFirst()
    }
}
