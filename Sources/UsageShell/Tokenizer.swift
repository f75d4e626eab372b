// Tokenizer.swift — splits a command line into words like a shell: quotes group words, backslash escapes, $'…' spells control characters.
import UsageRender

/// Splits command lines into words.
public enum Tokenizer {
    /// The words of `line`. `"Google Chrome"` and `'Google Chrome'` are one word; outside single
    /// quotes a backslash takes the next character literally; `$'…'` is bash's ANSI-C quoting,
    /// where `\e`, `\t`, `\n`, `\u{202E}`… spell the characters a name may hold but a terminal
    /// must never get raw (docs/DATA.md §6). Throws on an unclosed quote.
    public static func words(_ line: String) throws(ShellError) -> [String] {
        let scan = Scan(line)
        if scan.quote != nil || scan.pendingEscape { throw .unclosedQuote }
        return scan.inWord ? scan.words + [String(scan.current)] : scan.words
    }

    /// A line as typed so far, split for completion: the finished words, and the word under
    /// the cursor both unquoted and as typed (which completion replaces).
    public static func partial(_ line: String) -> PartialLine {
        let scan = Scan(line)
        return PartialLine(words: scan.words, current: String(scan.current), typed: String(scan.typed), quote: scan.quote)
    }

    /// A word written so that `words` reads it back as itself: bare when it is plain; with a
    /// control, DEL, C1 or bidi character in `$'…'` with those escaped (`$'evil\e[31m'`), so that
    /// the line never holds them raw; else in double quotes with `"` and `\` escaped
    /// (`"Google Chrome"`). Scalar by scalar: a combining mark after a quote is no quote.
    public static func quoted(_ word: String) -> String {
        let scalars = word.unicodeScalars
        if scalars.contains(where: TerminalText.needsEscape) {
            var out = "$'"
            for u in scalars {
                switch u {
                case "\\": out += "\\\\"
                case "'": out += "\\'"
                case "\u{1B}": out += "\\e"
                case "\t": out += "\\t"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                default:
                    if TerminalText.needsEscape(u) {
                        out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
                    } else {
                        out.unicodeScalars.append(u)
                    }
                }
            }
            return out + "'"
        }
        let plain = !word.isEmpty && !scalars.contains { " \t\r\"'\\#".unicodeScalars.contains($0) }
        if plain { return word }
        var out = "\""
        for u in scalars {
            if u == "\"" || u == "\\" { out += "\\" }
            out.unicodeScalars.append(u)
        }
        return out + "\""
    }

    /// One pass over a line, scalar by scalar (so a combining mark cannot hide a quote or a
    /// blank inside a character): the finished words and the state at its end.
    struct Scan {
        var words: [String] = []
        /// The last word so far, unquoted.
        var current = String.UnicodeScalarView()
        /// The last word exactly as typed.
        var typed = String.UnicodeScalarView()
        var inWord = false
        /// The open quote: `"`, `'`, or `$` for `$'…'`.
        var quote: Character?
        /// The line ends in a backslash, or in an unfinished `$'…'` escape.
        var pendingEscape = false

        init(_ line: String) {
            let s = Array(line.unicodeScalars)
            var k = 0
            /// Keeps `n` scalars as typed and moves past them.
            func take(_ n: Int) {
                typed.append(contentsOf: s[k..<k + n])
                k += n
            }
            /// A backslash: the next scalar is taken literally; at the end of the line it waits for one.
            func takeEscaped() {
                guard k + 1 < s.count else {
                    pendingEscape = true
                    take(1)
                    return
                }
                current.append(s[k + 1])
                take(2)
            }
            while k < s.count {
                let c = s[k]
                switch quote {
                case "\"", "'":
                    if c == quote!.unicodeScalars.first! {
                        quote = nil
                        take(1)
                    } else if c == "\\", quote == "\"" {
                        takeEscaped()
                    } else {
                        current.append(c)
                        take(1)
                    }
                case "$":
                    if c == "'" {
                        quote = nil
                        take(1)
                    } else if c == "\\" {
                        guard let (value, length) = Tokenizer.ansiEscape(s, at: k) else {
                            pendingEscape = true
                            take(s.count - k)
                            continue
                        }
                        current.append(contentsOf: value)
                        take(length)
                    } else {
                        current.append(c)
                        take(1)
                    }
                default:
                    switch c {
                    case "\"", "'":
                        quote = Character(c)
                        inWord = true
                        take(1)
                    case "$" where k + 1 < s.count && s[k + 1] == "'":
                        quote = "$"
                        inWord = true
                        take(2)
                    case "\\":
                        inWord = true
                        takeEscaped()
                    case " ", "\t", "\r":
                        if inWord {
                            words.append(String(current))
                            current = .init()
                            typed = .init()
                            inWord = false
                        }
                        k += 1
                    default:
                        current.append(c)
                        inWord = true
                        take(1)
                    }
                }
            }
        }
    }

    /// The escape at `k` (a backslash) inside `$'…'`: what it stands for and how many scalars it
    /// takes; nil when the line ends before it does. As in bash: `\e \a \b \f \n \r \t \v \\ \' \"`,
    /// `\xHH`, `\uHHHH`, `\UHHHHHHHH`; and `\u{H…}` as `check` and the tables write them. Any
    /// other backslash stays as it is.
    static func ansiEscape(_ s: [Unicode.Scalar], at k: Int) -> ([Unicode.Scalar], Int)? {
        guard k + 1 < s.count else { return nil }
        let e = s[k + 1]
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "e": "\u{1B}", "E": "\u{1B}", "a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "n": "\n", "r": "\r", "t": "\t",
            "v": "\u{0B}", "\\": "\\", "'": "'", "\"": "\"", "?": "?",
        ]
        if let value = simple[e] { return ([value], 2) }
        func hex(_ u: Unicode.Scalar) -> UInt32? { UInt32(String(u), radix: 16) }
        if e == "u", k + 2 < s.count, s[k + 2] == "{" {
            var j = k + 3
            var value: UInt32 = 0
            while j < s.count, j - (k + 3) < 8, let d = hex(s[j]) {
                value = value * 16 + d
                j += 1
            }
            guard j < s.count else { return nil }
            guard s[j] == "}", j > k + 3, let scalar = Unicode.Scalar(value) else { return ([s[k], e], 2) }
            return ([scalar], j - k + 1)
        }
        let widths: [Unicode.Scalar: Int] = ["x": 2, "u": 4, "U": 8]
        guard let digits = widths[e] else { return ([s[k], e], 2) }
        var j = k + 2
        var value: UInt32 = 0
        while j < s.count, j - (k + 2) < digits, let d = hex(s[j]) {
            value = value * 16 + d
            j += 1
        }
        if j == k + 2 { return j < s.count ? ([s[k], e], 2) : nil }
        guard let scalar = Unicode.Scalar(value) else { return (Array(s[k..<j]), j - k) }
        return ([scalar], j - k)
    }
}

/// The line before the cursor, as completion sees it.
public struct PartialLine: Equatable, Sendable {
    /// The words before the cursor's word, unquoted.
    public var words: [String]
    /// The cursor's word so far, unquoted.
    public var current: String
    /// The cursor's word exactly as typed (quotes and backslashes included): what a completion replaces.
    public var typed: String
    /// The quote left open, if any (`$` for `$'…'`).
    public var quote: Character?
}
