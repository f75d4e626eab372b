// StyledLine.swift — builds one output line from safe text runs, each with its own SGR style, counting cells as it goes.

/// One line of chart output. Runs with the same style share one SGR sequence; the line ends
/// with a reset, so no colour leaks past it. Without colour, no escape byte is written.
struct StyledLine {
    let theme: Theme
    private(set) var text = ""
    /// The cells taken so far.
    private(set) var cells = 0
    private var openCodes: String?

    init(_ theme: Theme) { self.theme = theme }

    /// Appends already sanitised text with a style: SGR codes (`"34"`, `"34;43"`, `"1"`) or none.
    mutating func append(_ safe: String, codes: String? = nil) {
        guard !safe.isEmpty else { return }
        let wanted = theme.color ? codes : nil
        if wanted != openCodes {
            if openCodes != nil { text += "\u{1B}[0m" }
            if let wanted { text += "\u{1B}[\(wanted)m" }
            openCodes = wanted
        }
        text += safe
        cells += TerminalText.cells(safe)
    }

    /// Appends one glyph in a series' colours: foreground, and background for the cell's other half.
    mutating func append(_ glyph: Character, fg: SeriesColor?, bg: SeriesColor? = nil) {
        let codes = [fg?.foreground, bg?.background].compactMap { $0 }
        append(String(glyph), codes: codes.isEmpty ? nil : codes.joined(separator: ";"))
    }

    /// Appends spaces up to `column` cells.
    mutating func pad(to column: Int) {
        if column > cells { append(String(repeating: " ", count: column - cells)) }
    }

    /// The finished line, reset at its end and without trailing spaces.
    func finished() -> String {
        var out = Substring(text)
        if openCodes != nil {
            return String(out) + "\u{1B}[0m"
        }
        while out.last == " " { out.removeLast() }
        return String(out)
    }
}

extension TextReport {
    /// Cuts styled lines (the program's own SGR sequences around sanitised text) to the width:
    /// the last guard of the "no line wider than the width" rule for charts. Escape sequences
    /// are kept whole, a wide character is never split, a cut line ends in `…` and a reset.
    static func fitStyled(_ lines: [String], width: Int) -> [String] {
        lines.map { line in
            guard TerminalText.cells(line) > width else { return line }
            var out = ""
            var used = 0
            var styled = false
            var rest = Substring(line)
            while let c = rest.first {
                if c == "\u{1B}", let end = rest.firstIndex(of: "m") {
                    let sequence = rest[...end]
                    out += sequence
                    styled = sequence != "\u{1B}[0m"
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                let w = TerminalText.cells(c)
                if used + w > width - 1 { break }
                out.append(c)
                used += w
                rest = rest.dropFirst()
            }
            if width > 0 { out += "…" }
            return styled ? out + "\u{1B}[0m" : out
        }
    }
}
