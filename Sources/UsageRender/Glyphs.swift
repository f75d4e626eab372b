// Glyphs.swift — the characters charts are drawn with: Unicode blocks and box lines, or plain ASCII (`set glyphs ascii`).

/// A glyph set. Unicode by default when the locale is UTF-8; ASCII otherwise, or when a
/// CJK-configured terminal draws the East Asian "ambiguous" blocks two cells wide.
public struct Glyphs: Sendable, Equatable {
    /// Whether every glyph is ASCII.
    public let isASCII: Bool
    /// Fill patterns for monochrome series, in rank order; the last one is "other".
    public let patterns: [Character]
    /// Vertical bar tops: index n (1…8) fills the lower n eighths of a cell; nil in ASCII.
    public let lowerEighths: [Character]?
    /// Horizontal bar ends: index n (1…8) fills the left n eighths of a cell; nil in ASCII.
    public let leftEighths: [Character]?
    /// The y axis, its tick, the corner and the x axis. In Unicode the grid lines and the x axis
    /// are upper eighth blocks (`▔`): a value sits on a row's top edge, and so does its line.
    public let axis: Character
    public let tick: Character
    public let corner: Character
    public let rule: Character
    /// Grid marks in empty cells of a grid row.
    public let grid: Character
    /// A dashed line across a chart (the average).
    public let dash: Character
    /// A short bar top in ASCII (less than half a cell).
    public let stub: Character

    public static let unicode = Glyphs(
        isASCII: false, patterns: ["█", "▓", "▒", "▌", "▚", "░"],
        lowerEighths: [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"],
        leftEighths: [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"],
        axis: "│", tick: "│", corner: "▔", rule: "▔", grid: "▔", dash: "╌", stub: "▁")

    public static let ascii = Glyphs(
        isASCII: true, patterns: ["#", "=", "+", "%", "o", "."], lowerEighths: nil, leftEighths: nil,
        axis: "|", tick: "+", corner: "+", rule: "-", grid: "-", dash: "~", stub: "_")

    /// The pattern of series `index` (0…4 ranked, nil for "other").
    public func pattern(_ index: Int?) -> Character {
        guard let index, index < patterns.count - 1 else { return patterns[patterns.count - 1] }
        return patterns[index]
    }
}

/// `set glyphs` / `--glyphs`: `auto` follows the locale.
public enum GlyphMode: String, CaseIterable, Sendable {
    case auto
    case unicode
    case ascii

    /// Whether the locale's character set is UTF-8: the first of `LC_ALL`, `LC_CTYPE`, `LANG`
    /// that is set and not empty names it (POSIX's order); none set means the C locale, ASCII.
    public static func localeIsUTF8(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// The glyphs this mode draws with, given what `auto` resolves to.
    public func glyphs(autoUnicode: Bool) -> Glyphs {
        switch self {
        case .auto: return autoUnicode ? .unicode : .ascii
        case .unicode: return .unicode
        case .ascii: return .ascii
        }
    }
}
