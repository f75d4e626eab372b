// TerminalText.swift — terminal safety (docs/DATA.md §6) and text measured in terminal cells.

/// Makes data text safe for a terminal and measures it in cells.
public enum TerminalText {
    /// Replaces every C0/C1 control, DEL and bidi control with a visible escape (`\e`, `\t`,
    /// `\u{202E}`), so that no data can move the cursor, change colours or reorder text.
    /// Text longer than `longestShown` scalars (no terminal is that wide) is cut there and ends
    /// in `…`, so that a 200 MB name costs no more to show than a short one.
    public static func sanitize(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let end = scalars.index(scalars.startIndex, offsetBy: longestShown, limitedBy: scalars.endIndex) ?? scalars.endIndex
        let cut = end < scalars.endIndex
        let shown = scalars[..<end]
        guard cut || shown.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(min(text.utf8.count, 4 * longestShown) + 8)
        for scalar in shown {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x1B: out += "\\e"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return cut ? out + "…" : out
    }

    /// The most scalars of one text shown: four times the widest table (`--width 1000`).
    public static let longestShown = 4000

    /// Text of several lines that may quote `echoed` pieces in `'…'` (the command line's
    /// arguments, in the argument parser's errors): each quoted piece is escaped whole first, so
    /// a newline inside an argument shows as `\n` instead of starting a line of its own; then
    /// every line is sanitised, and the text's own line breaks stay (an argument that is only a
    /// newline must not take them: hence the quotes).
    public static func sanitize(lines text: String, echoing echoed: [String]) -> String {
        var text = text
        // Longest first: a piece inside a longer one must not break the longer one's match.
        for piece in Set(echoed.filter { $0.unicodeScalars.contains(where: needsEscape) }).sorted(by: { $0.utf8.count > $1.utf8.count }) {
            text = text.replacingAll("'" + piece + "'", with: "'" + sanitize(piece) + "'")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { sanitize(String($0)) }.joined(separator: "\n")
    }

    /// Whether a scalar must never reach the terminal raw.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        // U+2028 and U+2029 separate lines and paragraphs: as good as a line break.
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || scalar.properties.isBidiControl
    }

    /// The number of terminal cells a string takes: wide East Asian characters and emoji count 2,
    /// combining marks and zero-width characters 0. Measured per grapheme cluster, so an emoji
    /// sequence (`👨‍👩‍👧`, a flag, `☺️`) counts once. The program's own SGR sequences
    /// (`ESC [ … m`, see `Theme`) take no cells; data never holds an ESC once sanitised.
    public static func cells(_ text: String) -> Int {
        guard text.utf8.contains(0x1B) else { return text.reduce(0) { $0 + cells($1) } }
        return withoutSGR(text).reduce(0) { $0 + cells($1) }
    }

    /// The text without its SGR sequences (`ESC [` digits and `;` then `m`).
    public static func withoutSGR(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}", scalars.first == "[" {
                let body = scalars.dropFirst().prefix { ("0"..."9").contains($0) || $0 == ";" }
                let after = scalars.dropFirst(1 + body.count)
                if after.first == "m" {
                    scalars = after.dropFirst()
                    continue
                }
            }
            out.append(scalar)
        }
        return String(out)
    }

    /// The cells of one grapheme cluster.
    public static func cells(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return cells(first) }
        // Emoji presentation (VS16), ZWJ sequences and flags take two cells.
        if scalars.contains("\u{FE0F}") || scalars.contains("\u{200D}") && first.properties.isEmoji
            || (0x1F1E6...0x1F1FF).contains(first.value)
        {
            return 2
        }
        return scalars.reduce(0) { $0 + cells($1) }
    }

    /// The cells of one scalar: 0 for controls, nonspacing and enclosing marks, format characters
    /// (Cf, e.g. ZWJ) and U+200B, but 1 for the soft hyphen, which terminals draw (as glibc's
    /// `wcwidth` counts it); 2 for East Asian Wide and Fullwidth code
    /// points (the generated `EastAsianWidth` table; Ambiguous counts 1, as in non-CJK terminals)
    /// and for emoji-presentation scalars; 1 otherwise. The emoji check covers what the table can't:
    /// regional indicators (East Asian Width N, yet shown two cells wide alone) and emoji newer than
    /// the table's Unicode version that the standard library already knows.
    public static func cells(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return v < 0x20 || (0x7F...0x9F).contains(v) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B { return 0 }
        if EastAsianWidth.isWide(v) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// The sanitised text cut to at most `width` cells, ending in `…` when cut; never splits a
    /// wide character.
    public static func fit(_ text: String, width: Int) -> String {
        let safe = sanitize(text)
        guard width > 0 else { return "" }
        if cells(safe) <= width { return safe }
        var out = ""
        var used = 0
        for character in safe {
            let w = cells(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// The sanitised text cut in its middle to at most `width` cells (`/home/ann/…/week.csv`):
    /// for paths and URLs, whose ends tell them apart. A third of the room keeps the start.
    public static func fitMiddle(_ text: String, width: Int) -> String {
        let safe = sanitize(text)
        guard width > 2, cells(safe) > width else { return fit(safe, width: width) }
        let head = fit(safe, width: (width - 1) / 3 + 1).dropLast()  // without its `…`
        var tail = ""
        var used = 0
        for character in safe.reversed() {
            let w = cells(character)
            if used + w > width - 1 - cells(String(head)) { break }
            tail.insert(character, at: tail.startIndex)
            used += w
        }
        return head + "…" + tail
    }

    /// The sanitised text cut to `width` cells and padded with spaces to exactly `width`.
    public static func pad(_ text: String, width: Int) -> String {
        let fitted = fit(text, width: width)
        return fitted + String(repeating: " ", count: max(0, width - cells(fitted)))
    }

    /// Right-aligns already safe text in `width` cells.
    public static func padLeft(_ text: String, width: Int) -> String {
        String(repeating: " ", count: max(0, width - cells(text))) + text
    }
}

extension String {
    /// Every occurrence of `piece` (compared by scalars, so a lone combining mark or a CR before
    /// a LF still matches) replaced by `replacement`.
    fileprivate func replacingAll(_ piece: String, with replacement: String) -> String {
        let target = Array(piece.unicodeScalars)
        guard !target.isEmpty else { return self }
        let scalars = Array(unicodeScalars)
        var out = String.UnicodeScalarView()
        var k = 0
        while k < scalars.count {
            if scalars[k] == target[0], k + target.count <= scalars.count, Array(scalars[k..<k + target.count]) == target {
                out.append(contentsOf: replacement.unicodeScalars)
                k += target.count
            } else {
                out.append(scalars[k])
                k += 1
            }
        }
        return String(out)
    }
}
