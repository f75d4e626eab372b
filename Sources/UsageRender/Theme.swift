// Theme.swift — how one rendering looks, resolved once at the edge: colour and its depth (--color), glyph set and accessible mode; the colours series are drawn in at each depth; renderers never look at the terminal.

/// `--color` / `set color`: `auto` colours only when stdout is a terminal, `NO_COLOR` is unset
/// or empty and `TERM` is not `dumb`; `always` colours whatever stdout is; `16`, `256` and
/// `truecolor` colour at that depth (`auto` and `always` take the depth the terminal announces).
public enum ColorMode: String, CaseIterable, Sendable {
    case auto
    case always
    case never
    case ansi16 = "16"
    case ansi256 = "256"
    case truecolor

    /// Whether `auto` means colour, from the facts the executable probes once.
    public static func autoEnabled(stdoutIsTerminal: Bool, environment: [String: String]) -> Bool {
        stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Whether this mode colours, given what `auto` resolves to.
    public func enabled(auto: Bool) -> Bool {
        switch self {
        case .auto: return auto
        case .never: return false
        case .always, .ansi16, .ansi256, .truecolor: return true
        }
    }

    /// The depth this mode colours at (nil: none), given what `auto` resolves to and the depth
    /// the terminal announces.
    public func depth(auto: Bool, detected: ColorDepth) -> ColorDepth? {
        switch self {
        case .auto: return auto ? detected : nil
        case .always: return detected
        case .never: return nil
        case .ansi16: return .ansi16
        case .ansi256: return .ansi256
        case .truecolor: return .truecolor
        }
    }
}

/// How many colours the terminal shows: the 16 base ANSI colours (the user's theme applies to
/// them), the xterm 256-colour palette, or any RGB colour.
public enum ColorDepth: String, CaseIterable, Sendable {
    case ansi16 = "16"
    case ansi256 = "256"
    case truecolor

    /// The depth the environment announces, as termenv and Rich read it: `COLORTERM` of
    /// `truecolor` or `24bit` is RGB; a `TERM` naming 256 colours (`xterm-256color`) is 256;
    /// anything else is 16.
    public static func detect(environment: [String: String]) -> ColorDepth {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        if (environment["TERM"] ?? "").lowercased().contains("256color") { return .ansi256 }
        return .ansi16
    }
}

/// The styling of one rendering: colour or not, and at which depth (the program's own SGR
/// sequences are the only escape sequences output may hold, docs/DATA.md §6), Unicode or ASCII art, and
/// accessible mode (no art: a title, a summary sentence and one line per data point).
public struct Theme: Sendable, Equatable {
    /// The colour depth; nil: no SGR sequence is written at all.
    public let depth: ColorDepth?
    /// The characters charts are drawn with.
    public let glyphs: Glyphs
    /// Whether charts are replaced by sentences and lines a screen reader can read.
    public let accessible: Bool

    public init(depth: ColorDepth?, glyphs: Glyphs = .unicode, accessible: Bool = false) {
        self.depth = depth
        self.glyphs = glyphs
        self.accessible = accessible
    }

    /// Colour in the 16 base colours, or none.
    public init(color: Bool, glyphs: Glyphs = .unicode, accessible: Bool = false) {
        self.init(depth: color ? .ansi16 : nil, glyphs: glyphs, accessible: accessible)
    }

    /// Whether SGR sequences are written at all.
    public var color: Bool { depth != nil }

    /// No colour, Unicode glyphs: output holds no ESC byte.
    public static let plain = Theme(color: false)

    /// A title line (the date, `By category`, `Apps`): bold.
    public func heading(_ text: String) -> String { sgr("1", text) }

    /// Grid lines and empty bar space: a dark grey that no series has ("other" is a light one).
    public var grid: String {
        switch depth {
        case .ansi16, nil: return "90"
        case .ansi256: return "38;5;\(SeriesColor.gridIndex)"
        case .truecolor: return SeriesColor.sgr(SeriesColor.gridRGB, foreground: true)
        }
    }

    /// `ESC [ codes m` text `ESC [ 0 m`, or the text alone without colour.
    func sgr(_ codes: String, _ text: String) -> String {
        color && !text.isEmpty ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
    }
}

/// One colour series are drawn in, as SGR codes for the foreground and the background.
public struct SeriesColor: Sendable, Hashable {
    /// `36`, `38;5;33`, `38;2;0;135;255`.
    public let foreground: String
    /// `46`, `48;5;33`, `48;2;0;135;255`.
    public let background: String

    /// 16 colours: the base ANSI colours, so the user's terminal theme applies. Apps cyan,
    /// yellow, magenta, green, bright blue, red, then bright cyan and bright yellow; categories
    /// bright blue, magenta, green, cyan, yellow, bright red, then bright magenta and bright
    /// green, so that the first app and the first category differ. 16 colours offer six hues
    /// and their bright twins: there, an app and a category may share a hue on one screen (the
    /// legends and patterns tell them apart).
    public static let apps16 = [36, 33, 35, 32, 94, 31, 96, 93]
    public static let categories16 = [94, 35, 32, 36, 33, 91, 95, 92]
    /// "Other" in 16 colours: white (a light grey), never the grid's bright black.
    public static let other16 = 37

    /// RGB (truecolor): eight colours for categories and eight for apps, so an app and a
    /// category never share one. The first six categories are Okabe and Ito's colour-blind-safe
    /// palette (without its yellow): blue, orange, bluish green, reddish purple, sky blue,
    /// vermillion; the first six apps six more, chosen to stay apart from them and from each
    /// other: salmon, violet, yellow-green, lavender, wine, brown. The two more of each (dark
    /// teal and khaki, olive grey and light teal) are there for data whose charts cannot be
    /// told apart with six (a name that shares charts with six others). Measured (the tests
    /// recompute it): within each kind's first six, every two differ by a CIEDE2000 of at
    /// least 12 as protanopes and deuteranopes see them (Machado et al. 2009); all sixteen by
    /// at least 18 in normal vision; each has at least 3.4:1 contrast against black and 2.1:1
    /// against white, so bars read on dark and light backgrounds alike.
    public static let categoriesRGB = [0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0x156E70, 0x978B60]
    public static let appsRGB = [0xF97A72, 0x7A49BD, 0x6A9900, 0xA293F6, 0xA04659, 0x7F5E1F, 0x556942, 0x72BDB9]
    /// 256 colours: the xterm palette entries nearest to those that keep them apart (within each
    /// kind's first six at least 11 as protanopes and deuteranopes see them, all sixteen at
    /// least 11.5 apart, at least 2.8:1 against black and 2.4:1 against white).
    public static let categories256 = [25, 172, 36, 175, 39, 130, 23, 101]
    public static let apps256 = [167, 92, 106, 141, 125, 58, 65, 73]
    /// "Other": a light grey (#AFAFAF), far from every hue and from the grid's dark grey.
    public static let other256 = 145
    public static let otherRGB = 0xAFAFAF
    /// The grid: a dark grey (#585858).
    public static let gridIndex = 240
    public static let gridRGB = 0x585858

    /// The colour of a kind's `slot` (nil: "other") at a depth.
    public static func palette(_ kind: SeriesKind, depth: ColorDepth, slot: Int?) -> SeriesColor {
        switch depth {
        case .ansi16:
            let code = slot.map { (kind == .app ? apps16 : categories16)[$0 % apps16.count] } ?? other16
            return SeriesColor(foreground: String(code), background: String(code + 10))
        case .ansi256:
            let index = slot.map { (kind == .app ? apps256 : categories256)[$0 % apps256.count] } ?? other256
            return SeriesColor(foreground: "38;5;\(index)", background: "48;5;\(index)")
        case .truecolor:
            let rgb = slot.map { (kind == .app ? appsRGB : categoriesRGB)[$0 % appsRGB.count] } ?? otherRGB
            return SeriesColor(foreground: sgr(rgb, foreground: true), background: sgr(rgb, foreground: false))
        }
    }

    /// The RGB of an xterm palette entry (16…255): the 6×6×6 cube, then 24 greys.
    public static func rgbOf(_ index: Int) -> (r: Int, g: Int, b: Int) {
        if index >= 232 {
            let v = 8 + 10 * (index - 232)
            return (v, v, v)
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let k = index - 16
        return (levels[k / 36], levels[k / 6 % 6], levels[k % 6])
    }

    /// `38;2;R;G;B` (or `48;2;…`) of a 0xRRGGBB colour.
    static func sgr(_ rgb: Int, foreground: Bool) -> String {
        "\(foreground ? 38 : 48);2;\(rgb >> 16);\(rgb >> 8 & 0xFF);\(rgb & 0xFF)"
    }
}

extension Array where Element == String {
    /// The lines with the first one styled as a heading.
    func headed(_ theme: Theme) -> [String] {
        guard let first else { return self }
        return [theme.heading(first)] + dropFirst()
    }
}
