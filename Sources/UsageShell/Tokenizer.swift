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

}
