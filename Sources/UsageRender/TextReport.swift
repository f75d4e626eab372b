// TextReport.swift — the plain-text (table) rendering of the day report: header, categories, hours and the app list.
import UsageCore

/// Pure renderers `(report, width) → lines`. Every line fits `width` cells; data text is sanitised.
public enum TextReport {
    /// The header of docs/DATA.md §5: the date line and the totals line (`0m total · no usage recorded`
    /// for an empty day).
    public static func header(_ r: DayReport, width: Int, theme: Theme = .plain) -> [String] {
        let totals = TextFormat.totals(total: r.totalMicros, screenTime: r.screenTimeMicros)
        // Wrapped, not cut: a cut totals line (`6h 2…`) would read as a wrong number.
        return wrap([TextFormat.longDate(r.day), r.isEmpty ? totals + " · no usage recorded" : totals], width: width)
            .headed(theme)
    }

    /// The `show` screen: the header, both charts (the selected one first), the app list; one
    /// palette, so an app or category has the same colour and pattern in every part.
    public static func show(
        _ r: DayReport, hourlyFirst: Bool, hourlyBy stack: HourlyStack = .app, width: Int, theme: Theme = .plain,
        palette: Palette? = nil
    ) -> [String] {
        var lines = header(r, width: width, theme: theme)
        guard !r.isEmpty else { return lines }
        let palette = palette ?? Palette(r)
        let category = categories(r, width: width, theme: theme, palette: palette)
        let hourly = self.hourly(r, by: stack, width: width, theme: theme, palette: palette)
        for part in hourlyFirst ? [hourly, category] : [category, hourly] {
            lines.append("")
            lines += part
        }
        lines.append("")
        lines += apps(r, apps: r.apps, width: width, theme: theme, palette: palette)
        return lines
    }

    /// Lines wrapped at spaces to the width (continuations indented). A duration is one word
    /// (`8h 45m` never breaks into `8h` and `45m`: a number is never cut); a word longer than a
    /// line breaks after a `|`, `/` or `,` in it (a usage's choices, a path), and only a word
    /// with none of those is cut.
    public static func wrap(_ lines: [String], width: Int) -> [String] {
        lines.flatMap { line -> [String] in
            guard TerminalText.cells(line) > width else { return [line] }
            let lead = String(line.prefix { $0 == " " })
            var out: [String] = []
            var current = ""
            for word in words(of: line) {
                if current.isEmpty {
                    current = (out.isEmpty ? lead : lead + "  ") + word
                } else if TerminalText.cells(current + " " + word) > width {
                    out.append(current)
                    current = lead + "  " + word
                } else {
                    current += " " + word
                    continue
                }
                // A word alone wider than its line: broken after its separators where it can be.
                while TerminalText.cells(current) > width, let cut = breakPoint(in: current, width: width, after: lead.count + 2) {
                    out.append(String(current[..<cut]))
                    current = lead + "  " + current[cut...]
                }
            }
            if !current.isEmpty { out.append(current) }
            return fitAll(out, width: width)
        }
    }

    /// The words of a line, split at spaces, with a duration's hours and minutes kept as one
    /// word (`8h 45m`, `(8h 45m)`).
    static func words(of line: String) -> [String] {
        var words: [String] = []
        for word in line.split(separator: " ").map(String.init) {
            if let last = words.last, last.wholeMatch(of: #/\(?\d+h/#) != nil, word.prefixMatch(of: #/\d+m/#) != nil {
                words[words.count - 1] = last + " " + word
            } else {
                words.append(word)
            }
        }
        return words
    }

    /// Where to break a line too wide for `width`: after the last `|`, `/` or `,` that leaves the
    /// part before it within the width, past the first `minimum` characters (the indent); nil
    /// when there is none.
    static func breakPoint(in line: String, width: Int, after minimum: Int) -> String.Index? {
        var best: String.Index?
        var used = 0
        var index = line.startIndex
        var count = 0
        while index < line.endIndex {
            let c = line[index]
            used += TerminalText.cells(c)
            if used > width { break }
            index = line.index(after: index)
            count += 1
            if count > minimum, "|/,".contains(c), index < line.endIndex { best = index }
        }
        return best
    }

    /// Cuts every line to the width (the last guard of the "no line wider than the width" rule).
    static func fitAll(_ lines: [String], width: Int) -> [String] {
        lines.map { TerminalText.cells($0) <= width ? $0 : TerminalText.fit($0, width: width) }
    }
}
