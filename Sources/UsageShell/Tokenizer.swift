// Tokenizer.swift — splits a command line into words like a shell: quotes group words, backslash escapes.

/// Splits command lines into words.
public enum Tokenizer {
    /// The words of `line`. `"Google Chrome"` and `'Google Chrome'` are one word; outside single
    /// quotes a backslash takes the next character literally. Throws on an unclosed quote.
    public static func words(_ line: String) throws(ShellError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in line {
            if escaped {
                current.append(c)
                escaped = false
                continue
            }
            if let q = quote {
                if c == q {
                    quote = nil
                } else if c == "\\" && q == "\"" {
                    escaped = true
                } else {
                    current.append(c)
                }
                continue
            }
            switch c {
            case "\"", "'":
                quote = c
                inWord = true
            case "\\":
                escaped = true
                inWord = true
            case " ", "\t", "\r":
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            default:
                current.append(c)
                inWord = true
            }
        }
        if quote != nil || escaped { throw .unclosedQuote }
        if inWord { words.append(current) }
        return words
    }

    /// A line as typed so far, split for completion: the finished words, and the word under
    /// the cursor both unquoted and as typed (which completion replaces).
    public static func partial(_ line: String) -> PartialLine {
        var result = PartialLine(words: [], current: "", typed: "", quote: nil)
        var inWord = false
        var escaped = false
        for c in line {
            if escaped {
                result.current.append(c)
                result.typed.append(c)
                escaped = false
                continue
            }
            if let q = result.quote {
                result.typed.append(c)
                if c == q {
                    result.quote = nil
                } else if c == "\\" && q == "\"" {
                    escaped = true
                } else {
                    result.current.append(c)
                }
                continue
            }
            switch c {
            case "\"", "'":
                result.quote = c
                result.typed.append(c)
                inWord = true
            case "\\":
                escaped = true
                result.typed.append(c)
                inWord = true
            case " ", "\t", "\r":
                if inWord {
                    result.words.append(result.current)
                    result.current = ""
                    result.typed = ""
                    inWord = false
                }
            default:
                result.current.append(c)
                result.typed.append(c)
                inWord = true
            }
        }
        return result
    }

    /// A word written so that `words` reads it back as itself: bare when it is plain, else in
    /// double quotes with `"` and `\` escaped (`"Google Chrome"`).
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && !word.contains { " \t\r\"'\\#".contains($0) }
        if plain { return word }
        var out = "\""
        for c in word {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
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
    /// The quote left open, if any.
    public var quote: Character?
}
