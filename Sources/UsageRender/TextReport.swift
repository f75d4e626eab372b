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
        palette: Palette? = nil, sites: [String: [SiteTotal]] = [:]
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
        lines += apps(r, apps: r.apps, width: width, theme: theme, palette: palette, sites: sites)
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
            return wrap(String(line.dropFirst(lead.count)), width: width, first: lead, rest: lead + "  ")
        }
    }

    /// `text` wrapped to the width as `wrap` does, its first line after `first` and the others
    /// after `rest` (a label and the indent that keeps the value's column: `sessions   …`).
    public static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        guard TerminalText.cells(first + text) > width else { return [first + text] }
        var out: [String] = []
        var current = ""
        for word in words(of: text) {
            if current.isEmpty {
                current = (out.isEmpty ? first : rest) + word
            } else if TerminalText.cells(current + " " + word) > width {
                out.append(current)
                current = rest + word
            } else {
                current += " " + word
                continue
            }
            // A word alone wider than its line: broken after its separators where it can be.
            let indent = (out.isEmpty ? first : rest).count
            while TerminalText.cells(current) > width, let cut = breakPoint(in: current, width: width, after: max(indent, rest.count)) {
                out.append(String(current[..<cut]))
                current = rest + current[cut...]
            }
        }
        if !current.isEmpty { out.append(current) }
        return fitAll(out, width: width)
    }

    /// The words of a line, split at spaces, with a duration's hours and minutes kept as one
    /// word (`8h 45m`, `(8h 45m)`), a count kept with the word it counts (`255 days`,
    /// `(1 bad_timestamp`), and a count that closes a list item with the word it counts
    /// (`bad_timestamp 14,`, `not_an_object 5` at the end).
    static func words(of line: String) -> [String] {
        let split = line.split(separator: " ").map(String.init)
        var words: [String] = []
        var glued = false
        for (k, word) in split.enumerated() {
            let closing = WordShape.isCount(word, closed: true) && (word.last == "," || word.last == ")" || k == split.count - 1)
            if let last = words.last, !glued,
                WordShape.isHours(last) && WordShape.startsWithMinutes(word)
                    || WordShape.isCount(last, closed: false) && word.first?.isLetter == true
                    || closing && last.last?.isLetter == true
            {
                words[words.count - 1] = last + " " + word
                glued = true
            } else {
                words.append(word)
                glued = false
            }
        }
        return words
    }

    /// Where to break a line too wide for `width`: after the last `|`, `/` or `,` that leaves the
    /// part before it within the width, past the first `minimum` characters (the indent); else
    /// after the last `-`, `_` or `.` that follows a letter (`original-app-` / `mock-data.json`,
    /// never inside a number or a date); nil when there is none.
    static func breakPoint(in line: String, width: Int, after minimum: Int) -> String.Index? {
        var best: String.Index?
        var fallback: String.Index?
        var used = 0
        var index = line.startIndex
        var count = 0
        var previous: Character = " "
        while index < line.endIndex {
            let c = line[index]
            used += TerminalText.cells(c)
            if used > width { break }
            index = line.index(after: index)
            count += 1
            if count > minimum, index < line.endIndex {
                if "|/,".contains(c) { best = index }
                if "-_.".contains(c), previous.isLetter { fallback = index }
            }
            previous = c
        }
        return best ?? fallback
    }

    /// Cuts every line to the width (the last guard of the "no line wider than the width" rule).
    static func fitAll(_ lines: [String], width: Int) -> [String] {
        lines.map { TerminalText.cells($0) <= width ? $0 : TerminalText.fit($0, width: width) }
    }
}

/// The shapes of words `TextReport.words` keeps together, matched by hand (what the regular
/// expressions `[0-9][0-9,]*[,)]?`, `\(?\d+h`, `\d+m` and `\(?[0-9][0-9,]*` match): a report
/// wraps every line it writes, and building a `Regex` at each match was most of the time of a
/// `days 31`.
enum WordShape {
    /// An ASCII digit.
    static func isDigit(_ c: Character) -> Bool {
        guard let v = c.asciiValue else { return false }
        return v >= 0x30 && v <= 0x39
    }

    /// What `\d` matches in a Swift regular expression: a character that is a number (`٣`,
    /// `²`, `Ⅻ`, `½` and a digit with a combining mark included).
    static func isDecimal(_ c: Character) -> Bool { c.isNumber }

    /// `[0-9][0-9,]*[,)]?` (`closed`) or `\(?[0-9][0-9,]*` (not), the whole word.
    static func isCount(_ word: String, closed: Bool) -> Bool {
        var chars = Substring(word)
        if !closed, chars.first == "(" { chars = chars.dropFirst() }
        guard let first = chars.first, isDigit(first) else { return false }
        if closed, let last = chars.last, chars.count > 1, last == ")" { chars = chars.dropLast() }
        return chars.allSatisfy { isDigit($0) || $0 == "," }
    }

    /// `\(?\d+h`, the whole word.
    static func isHours(_ word: String) -> Bool {
        var chars = Substring(word)
        if chars.first == "(" { chars = chars.dropFirst() }
        guard chars.last == "h" else { return false }
        let digits = chars.dropLast()
        return !digits.isEmpty && digits.allSatisfy(isDecimal)
    }

    /// `\d+m` at the word's start.
    static func startsWithMinutes(_ word: String) -> Bool {
        let digits = word.prefix(while: isDecimal)
        return !digits.isEmpty && word.dropFirst(digits.count).first == "m"
    }
}
