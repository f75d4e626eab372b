// PictureStyle.swift — the look of a saved picture: its sizes, fonts and the colours of its text, grid and background in light and dark (from prefers-color-scheme), written once for the SVG and the HTML alike.
import UsageCore

/// Sizes, the font stack and the theme colours of every saved chart.
enum PictureStyle {
    /// Every chart is drawn this wide (in CSS pixels; a viewBox, so it scales).
    static let width = 640.0
    /// The HTML report's charts on a screen under `narrowScreen` CSS pixels are drawn this wide
    /// instead, so their text stays at least 10 px from a 390-pixel phone up (`width` there
    /// would scale 11-pixel labels down to 6).
    static let narrowWidth = 360.0
    static let narrowScreen = 700
    static let margin = 16.0
    /// Text sizes.
    static let titleSize = 15.0
    static let labelSize = 12.0
    static let smallSize = 11.0

    /// Fonts every system has one of: nothing to install, nothing fetched.
    static let fontStack = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', 'Liberation Sans', Arial, sans-serif"

    /// A role of the theme: its class and its light colour (the presentation attribute, so that a
    /// program without CSS — a slide program, Inkscape — still draws the light look).
    enum Ink: String {
        /// The background.
        case background = "bg"
        /// Text.
        case text = "fg"
        /// Quieter text: axis labels, details, the legend's values.
        case muted = "mu"
        /// Grid lines and axes (a stroke).
        case grid = "gr"
        /// The unfilled part of a bar (a limit's track), an empty calendar day.
        case track = "tr"

        var light: String {
            switch self {
            case .background: return "#ffffff"
            case .text: return "#1f2328"
            case .muted: return "#59636e"
            case .grid: return "#d1d9e0"
            case .track: return "#eef1f4"
            }
        }

        var dark: String {
            switch self {
            case .background: return "#0d1117"
            case .text: return "#e6edf3"
            case .muted: return "#9198a1"
            case .grid: return "#3d444d"
            case .track: return "#262c36"
            }
        }

        /// Whether the role colours a stroke rather than a fill.
        var isStroke: Bool { self == .grid }
    }

    /// The calendar's shades, level 1 to 4 (the terminal's `░▒▓█` in green), light and dark.
    static let shadesLight = ["#c6e9c9", "#7fcb8a", "#3a9c51", "#1e6b34"]
    static let shadesDark = ["#0e4429", "#006d32", "#26a641", "#39d353"]
    /// The text on each shade: the ink of most contrast (at least 4.5:1, WCAG AA), so a
    /// calendar day's number reads on its darkest green as on its lightest.
    static let shadeTextLight = ["#1f2328", "#1f2328", "#000000", "#ffffff"]
    static let shadeTextDark = ["#ffffff", "#ffffff", "#000000", "#000000"]

    /// The inks as custom properties (`--fg:#1f2328;…`, the shades `--s1`…`--s4` and the text on them `--t1`…`--t4`), light or dark.
    static func variables(dark: Bool) -> String {
        let inks = [Ink.background, .text, .muted, .grid, .track].map { "--\($0.rawValue):\(dark ? $0.dark : $0.light)" }
        let shades = (dark ? shadesDark : shadesLight).enumerated().map { "--s\($0.offset + 1):\($0.element)" }
        let onShades = (dark ? shadeTextDark : shadeTextLight).enumerated().map { "--t\($0.offset + 1):\($0.element)" }
        return (inks + shades + onShades).joined(separator: ";")
    }

    /// Each class takes its ink from its custom property. A program without custom properties
    /// (LibreOffice, Inkscape) drops these rules whole and keeps the elements' own light colours:
    /// none of them can draw light text on white by taking the dark rules without their media query.
    static let classRules =
        [Ink.background, .text, .muted, .grid, .track].map { ".\($0.rawValue){\($0.isStroke ? "stroke" : "fill"):var(--\($0.rawValue))}" }.joined()
        // A line in the text's ink (the average, the selected day's outline).
        + ".ln{stroke:var(--fg)}"
        + (1...4).map { ".s\($0){fill:var(--s\($0))}" }.joined()

    /// The SVG file's style sheet: light, dark on a screen that prefers dark (paper is always light).
    static var sheet: String {
        "svg{\(variables(dark: false))}@media screen and (prefers-color-scheme: dark){svg{\(variables(dark: true))}}" + classRules
    }

    /// The width `text` takes at `size`, estimated (the program never loads a font): each
    /// character by its kind, at widths a little over the widest common sans-serif face's
    /// (DejaVu Sans, which Linux browsers fall back to; Helvetica, Arial and Noto Sans are
    /// narrower), so that text estimated to fit does fit: narrow letters (`i l j t f r`) 0.36 em,
    /// `m w` 0.95, other lower-case letters 0.62, `M W` 1.0, other capitals 0.76, digits 0.65, a
    /// space 0.33, other ASCII 0.45, a wide (East Asian, emoji) character 1.05, anything else
    /// 0.72; bold a tenth wider.
    static func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
        var ems = 0.0
        for character in text {
            guard let ascii = character.asciiValue else {
                ems += TerminalText.cells(character) >= 2 ? 1.05 : TerminalText.cells(character) == 0 ? 0 : 0.72
                continue
            }
            switch ascii {
            case UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "j"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "r"): ems += 0.36
            case UInt8(ascii: "m"), UInt8(ascii: "w"): ems += 0.95
            case UInt8(ascii: "M"), UInt8(ascii: "W"): ems += 1.0
            case UInt8(ascii: "a")...UInt8(ascii: "z"): ems += 0.62
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): ems += 0.76
            case UInt8(ascii: "0")...UInt8(ascii: "9"): ems += 0.65
            case UInt8(ascii: " "): ems += 0.33
            default: ems += 0.45
            }
        }
        return ems * size * (bold ? 1.1 : 1)
    }

    /// `text` cut to fit `width` at `size`, ending in `…` when cut.
    static func fitted(_ text: String, width: Double, size: Double, bold: Bool = false) -> String {
        guard textWidth(text, size: size, bold: bold) > width else { return text }
        var out = ""
        for character in text {
            if textWidth(out + String(character) + "…", size: size, bold: bold) > width { break }
            out.append(character)
        }
        return out + "…"
    }

    /// Words wrapped into lines of at most `width` at `size`.
    static func wrapped(_ text: String, width: Double, size: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if !line.isEmpty, textWidth(candidate, size: size) > width {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { fitted($0, width: width, size: size) }
    }
}
