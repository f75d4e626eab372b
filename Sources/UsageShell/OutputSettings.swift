// OutputSettings.swift — how results are printed, as one value: format, colour, glyphs, accessible mode, width, pager and timer (what `set` changes and `--format`, `--color`… start from).
import UsageRender

/// How command results are printed.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table
    case json
    /// RFC 4180 CSV made from the JSON document (`CSVTable`): a header row, the same fields.
    case csv
}

/// The output settings of a shell. `autoColor` and `autoUnicode` are what `auto` resolves to,
/// probed once by the executable (stdout a terminal, NO_COLOR, TERM; a UTF-8 locale).
public struct OutputSettings: Sendable, Equatable {
    /// `set format`: how results are printed.
    public var format: OutputFormat = .table
    /// `set color`.
    public var colorMode: ColorMode = .never
    public var autoColor = false
    /// The colour depth the terminal announces (`COLORTERM`, `TERM`), for `auto` and `always`.
    public var autoDepth: ColorDepth = .ansi16
    /// `set glyphs` / `--glyphs`.
    public var glyphMode: GlyphMode = .auto
    public var autoUnicode = true
    /// `set accessible on` / `--accessible` / `ACCESSIBLE=1`: charts become sentences and lines.
    public var accessible = false
    /// `set width N` / `--width`: a fixed width; `nil` follows the terminal.
    public var fixedWidth: Int?
    /// `set timer on`: each command's run time goes to stderr (`time: 1.234 ms`), as sqlite's `.timer on`.
    public var timer = false
    /// `set pager`: whether the prompt's output taller than the terminal goes through the pager.
    public var pager: PagerMode = .auto
    /// `set raw-csv on` / `--raw-csv`: CSV cells are written as they are, without the `'` that
    /// keeps a spreadsheet from running a cell as a formula.
    public var rawCSV = false
    /// Whether stdout is a terminal (probed once): CSV printed there always shows control
    /// characters as escapes, raw or not.
    public var stdoutIsTerminal = false

    public init(
        format: OutputFormat = .table, colorMode: ColorMode = .never, autoColor: Bool = false, autoDepth: ColorDepth = .ansi16,
        glyphMode: GlyphMode = .auto, autoUnicode: Bool = true, accessible: Bool = false, fixedWidth: Int? = nil,
        timer: Bool = false, rawCSV: Bool = false, stdoutIsTerminal: Bool = false
    ) {
        self.format = format
        self.colorMode = colorMode
        self.autoColor = autoColor
        self.autoDepth = autoDepth
        self.glyphMode = glyphMode
        self.autoUnicode = autoUnicode
        self.accessible = accessible
        self.fixedWidth = fixedWidth
        self.timer = timer
        self.rawCSV = rawCSV
        self.stdoutIsTerminal = stdoutIsTerminal
    }

    /// How cells of files we write are written (`export`): guarded unless `--raw-csv`.
    public var fileCells: CSVCellPolicy { CSVCellPolicy(guardFormulas: !rawCSV, escapeControls: false) }

    /// How cells of `--format csv` output are written: guarded unless `--raw-csv`; control
    /// characters shown as escapes, as in tables, unless `--raw-csv` and stdout is not a
    /// terminal (a file or a pipe gets the exact names then).
    public var outputCells: CSVCellPolicy {
        CSVCellPolicy(guardFormulas: !rawCSV, escapeControls: !rawCSV || stdoutIsTerminal)
    }

    /// The styling table output uses.
    public var theme: Theme {
        Theme(
            depth: colorMode.depth(auto: autoColor, detected: autoDepth), glyphs: glyphMode.glyphs(autoUnicode: autoUnicode),
            accessible: accessible)
    }

    /// The width tables are drawn at: `set width`, else the terminal's (never below 20).
    public func width(terminal: Int) -> Int { max(20, fixedWidth ?? terminal) }
}

extension OutputSettings {
    /// The settings a run starts with: the command line's choices, with `auto` resolved from the
    /// facts the executable probed (stdout a terminal, `NO_COLOR`, `TERM`, `COLORTERM`, the
    /// locale) and accessible mode also asked for by `ACCESSIBLE`.
    public static func start(
        format: OutputFormat, color: ColorMode, glyphs: GlyphMode, accessible: Bool, width: Int?, stdoutIsTerminal: Bool,
        environment: [String: String], rawCSV: Bool = false
    ) -> OutputSettings {
        OutputSettings(
            format: format, colorMode: color,
            autoColor: ColorMode.autoEnabled(stdoutIsTerminal: stdoutIsTerminal, environment: environment),
            autoDepth: ColorDepth.detect(environment: environment),
            glyphMode: glyphs, autoUnicode: GlyphMode.localeIsUTF8(environment: environment),
            accessible: accessible || accessibleRequested(environment), fixedWidth: width, rawCSV: rawCSV,
            stdoutIsTerminal: stdoutIsTerminal)
    }

    /// `ACCESSIBLE` set to anything but empty, `0`, `no`, `off` or `false`.
    static func accessibleRequested(_ environment: [String: String]) -> Bool {
        guard let value = environment["ACCESSIBLE"]?.lowercased() else { return false }
        return !["", "0", "no", "off", "false"].contains(value)
    }
}
